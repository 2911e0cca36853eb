"""Big arrays: the paths that spare full-size temporaries (a backward formula
writing into one new buffer, the sum of a big array, a linear layer's gradients
laid out as its weight) give PyTorch's numbers, and never write into memory
that the user or another node holds."""

import threading

import numpy as np
import pytest
import torch

import minigrad as mg

from thread_count import Threads

RNG = np.random.default_rng(11)


def _data(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


def _close(ours, theirs, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(),
                               rtol=rtol, atol=atol)


def test_tanh_backward_leaves_the_callers_gradient_and_the_saved_result_alone():
    data, seed = _data(300, 300), _data(300, 300)
    results = {}
    for lib in (mg, torch):
        x = lib.tensor(data, requires_grad=True)
        y = x.tanh()
        y_before = y.detach().clone()
        g = lib.tensor(seed)
        y.backward(g, retain_graph=True)
        first = x.grad.clone()
        y.backward(g)  # reads the saved result again
        assert np.array_equal(g.numpy(), seed)
        assert np.array_equal(y.detach().numpy(), y_before.numpy())
        assert np.array_equal(x.grad.numpy(), (first * 2).numpy())
        results[lib] = first
    _close(results[mg], results[torch])


def test_the_big_workload_gives_torchs_gradients_in_arrays_of_their_own():
    xd, wd = _data(1000, 1000), _data(1000, 1000)
    grads = {}
    for lib in (mg, torch):
        x, w = lib.tensor(xd, requires_grad=True), lib.tensor(wd, requires_grad=True)
        out = ((x * w).tanh() + x).sum()
        out.backward()
        grads[lib] = x.grad, w.grad
        assert np.array_equal(x.detach().numpy(), xd) and np.array_equal(w.detach().numpy(), wd)
    (gx, gw), (tx, tw) = grads[mg], grads[torch]
    _close(gx, tx)
    _close(gw, tw)
    assert not np.shares_memory(gx.numpy(), gw.numpy())
    # a second backward adds into x.grad in place, as torch does, and only there
    held = gx
    x_again = gx.numpy().copy()
    x, w = mg.tensor(xd, requires_grad=True), mg.tensor(wd, requires_grad=True)
    x.grad, w.grad = held, mg.zeros(1000, 1000)
    ((x * w).tanh() + x).sum().backward()
    assert x.grad is held
    np.testing.assert_allclose(held.numpy(), 2 * x_again, rtol=1e-6)
    assert not np.shares_memory(held.numpy(), w.grad.numpy())


@pytest.mark.parametrize("shape", [(1000, 1000), (70_000,), (3, 100_001), (2, 257, 263)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_sum_of_a_big_array_is_torchs(shape, dtype):
    data = (_data(*shape, dtype=dtype) + 3).astype(dtype)
    ours, theirs = mg.tensor(data).sum(), torch.tensor(data).sum()
    assert ours.dtype == mg.float32 if dtype == np.float32 else ours.dtype == mg.float64
    exact = data.astype(np.float64).sum()
    tolerance = 1e-6 if dtype == np.float32 else 1e-12
    assert abs(float(ours) - float(theirs)) <= tolerance * abs(exact)
    assert abs(float(ours) - exact) <= tolerance * abs(exact)
    # a transposed (not contiguous) array takes NumPy's own sum
    assert abs(float(mg.tensor(data).t().sum() if data.ndim == 2 else ours) - exact) \
        <= tolerance * abs(exact)


def test_the_gradient_of_a_big_sum_is_a_view_nobody_writes_through():
    x = mg.tensor(_data(400, 400), requires_grad=True)
    y = mg.tensor(_data(400, 400), requires_grad=True)
    (x.sum() + y.sum()).backward()
    assert np.array_equal(x.grad.numpy(), np.ones((400, 400), np.float32))
    (x.sum() * 2).backward()
    assert np.array_equal(x.grad.numpy(), np.full((400, 400), 3, np.float32))
    assert np.array_equal(y.grad.numpy(), np.ones((400, 400), np.float32))


def _linear_grads(lib, data, transposed_input, alpha, beta):
    xd, wd, bd = data
    x = lib.tensor(xd.T.copy(), requires_grad=True) if transposed_input else \
        lib.tensor(xd, requires_grad=True)
    w, b = lib.tensor(wd, requires_grad=True), lib.tensor(bd, requires_grad=True)
    rows = x.t() if transposed_input else x
    if alpha == 1 and beta == 1:
        out = lib.nn.functional.linear(rows, w, b)
    else:
        out = lib.addmm(b, rows, w.t(), alpha=alpha, beta=beta) if lib is torch else \
            mg.ops.addmm(b, rows, w.t(), alpha=alpha, beta=beta)
    (out * out).sum().backward()
    return x.grad, w.grad, b.grad


@pytest.mark.parametrize("transposed_input", [False, True])
@pytest.mark.parametrize("alpha, beta", [(1, 1), (2.0, 0.5)])
def test_a_linear_layers_gradients_are_laid_out_as_torchs(transposed_input, alpha, beta):
    data = _data(64, 784), _data(256, 784) * 0.03, _data(256)
    ours = _linear_grads(mg, data, transposed_input, alpha, beta)
    theirs = _linear_grads(torch, data, transposed_input, alpha, beta)
    for a, b in zip(ours, theirs):
        assert a.stride() == b.stride()
        _close(a, b, rtol=1e-4, atol=1e-4)


def test_a_linear_layers_second_order_graph_is_torchs():
    xd, wd = _data(4, 3), _data(5, 3)

    def chain(lib):
        x = lib.tensor(xd, requires_grad=True)
        w = lib.tensor(wd, requires_grad=True)
        b = lib.tensor(np.zeros(5, np.float32), requires_grad=True)
        g, = lib.autograd.grad(lib.nn.functional.linear(x, w, b).pow(2).sum(), w,
                               create_graph=True)
        names, node = [], g.grad_fn
        while node is not None:
            names.append(node.name())
            node = next((n for n, _ in node.next_functions if n is not None), None)
        return names, g.stride()
    assert chain(mg) == chain(torch)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int64])
@pytest.mark.parametrize("transposed", [False, True])
def test_relu_keeps_signed_zeros_nan_dtype_and_layout_as_torch(dtype, transposed):
    values = np.array([[-0.0, np.nan, -1.0, 2.0], [-np.inf, 0.0, np.inf, -3.5]])
    if dtype == np.int64:
        values = np.array([[-2, 0, 3, -1], [5, -7, 0, 1]])
    data = values.astype(dtype)
    ours, theirs = mg.tensor(data), torch.tensor(data)
    if transposed:
        ours, theirs = ours.t(), theirs.t()
    a, b = ours.relu(), theirs.relu()
    assert str(a.dtype) == str(b.dtype) and a.stride() == b.stride()
    assert np.array_equal(a.numpy(), b.numpy(), equal_nan=True)
    assert np.array_equal(np.signbit(a.numpy()), np.signbit(b.numpy()))
    assert np.array_equal(ours.numpy(), theirs.numpy(), equal_nan=True)  # input untouched


def test_a_big_tanh_split_across_threads_has_numpys_bits_and_torchs_values():
    from minigrad.kernels import threads

    data = _data(700, 700)
    data[0, :4] = [np.nan, np.inf, -np.inf, -0.0]
    assert data.size >= threads.BIG
    previous = mg.get_num_threads()
    try:
        for count in (2, 3):  # (also more threads than cores: still the same bits)
            mg.set_num_threads(count)
            split = threads.call(np.tanh, data)
            assert np.array_equal(split, np.tanh(data), equal_nan=True)
            assert np.array_equal(np.signbit(split), np.signbit(np.tanh(data)))
    finally:
        mg.set_num_threads(previous)
    ours, theirs = mg.tensor(data).tanh(), torch.tensor(data).tanh()
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-7)


def test_the_threads_of_a_split_kernel_keep_the_callers_numpy_error_state():
    import warnings

    from minigrad.kernels import threads

    data = np.full(threads.BIG * 2, 1000.0, np.float32)  # exp overflows everywhere
    previous = mg.get_num_threads()
    mg.set_num_threads(2)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with np.errstate(over="ignore"):
                assert np.isinf(threads.call(np.exp, data)).all()
    finally:
        mg.set_num_threads(previous)


def test_one_thread_means_numpys_own_call(monkeypatch):
    from minigrad.kernels import threads

    previous = mg.get_num_threads()
    mg.set_num_threads(1)
    monkeypatch.setattr(threads, "_submit", None)  # (would fail if called)
    try:
        data = _data(threads.BIG)
        assert np.array_equal(mg.tensor(data).tanh().numpy(), np.tanh(data))
    finally:
        mg.set_num_threads(previous)


@pytest.mark.parametrize("value", [0, -1, 2.5, "2", True, None, np.int64(2), 3])
def test_set_num_threads_takes_what_torch_takes(value):
    def outcome(lib):
        previous = lib.get_num_threads()
        try:
            lib.set_num_threads(value)
            return lib.get_num_threads()
        except RuntimeError as error:
            return str(error)
        finally:
            lib.set_num_threads(previous)
    assert outcome(mg) == outcome(torch)


def test_a_kernel_runs_on_the_callers_thread_when_no_thread_can_start(monkeypatch):
    from minigrad.kernels import threads

    def refuse(*args, **kwargs):
        raise RuntimeError("can't start new thread")
    previous = mg.get_num_threads()
    mg.set_num_threads(2)
    monkeypatch.setattr(threads, "_submit", refuse)
    try:
        data = _data(threads.BIG)
        assert np.array_equal(threads.call(np.tanh, data), np.tanh(data))
    finally:
        mg.set_num_threads(previous)


# ---- the other big elementwise kernels split across threads ---------------------

def _same_bits(ours, expected):
    assert ours.dtype == expected.dtype and ours.shape == expected.shape
    assert ours.strides == expected.strides
    assert ours.tobytes() == expected.tobytes()  # (the same bits: NaNs and signed zeros too)


def _specials(array):
    array.reshape(-1)[:5] = [np.nan, np.inf, -np.inf, -0.0, 1e-40]
    return array


@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply, np.true_divide])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_big_product_or_sum_split_across_threads_has_numpys_bits(ufunc, dtype):
    from minigrad.kernels import threads

    a = _specials(_data(613, 701, dtype=dtype))  # (a size no thread count divides evenly)
    b = _specials(_data(613, 701, dtype=dtype))[::-1].copy()
    expanded = np.broadcast_to(np.asarray(0.3, dtype), a.shape)  # (a sum's gradient)
    cases = [(a, b), (a, expanded), (expanded, b), (a, 2.5), (3, b), (a, np.asarray(-1.5, dtype))]
    for count in (2, 3, 5):
        with Threads(count), np.errstate(all="ignore"):
            for operands in cases:
                _same_bits(threads.call(ufunc, *operands), ufunc(*operands))


def test_a_helper_thread_that_never_comes_leaves_every_part_to_the_caller(monkeypatch):
    from minigrad.kernels import threads

    a, b = _data(700, 700), _data(700, 700)
    called = []
    monkeypatch.setattr(threads, "_submit", lambda context, job: called.append(job))
    with Threads(3):
        _same_bits(threads.call(np.multiply, a, b), a * b)
    assert len(called) == 2  # (two helpers were called; the caller did all the parts)


@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_kernel_in_parts_on_the_callers_thread_has_the_bits_of_one_call(count, monkeypatch):
    from minigrad.kernels import threads

    y = _specials(np.tanh(_data(1001, 997)))  # (not a whole number of parts)
    monkeypatch.setattr(threads, "_submit", None)  # (would fail if called)
    names, sizes = set(), []

    def kernel(out, y):  # (two steps, as tanh's backward: 1 - y * y)
        names.add(threading.current_thread().name)
        sizes.append(out.size)
        np.multiply(y, y, out=out)
        np.subtract(np.float32(1), out, out=out)
    with Threads(count), np.errstate(all="ignore"):
        result = threads.parts(kernel, None, y, split=False)
    _same_bits(result, np.float32(1) - y * y)
    assert names == {threading.current_thread().name}
    assert len(sizes) > 1 and sum(sizes) == y.size  # (in parts, each element once)


@pytest.mark.parametrize("size", [1 << 18, (1 << 18) + 1, 10 ** 6, 4 * 10 ** 6 + 7])
@pytest.mark.parametrize("count", [2, 3, 8])
def test_the_parts_cover_the_array_once_big_ones_first(size, count):
    from minigrad.kernels import threads

    bounds = threads._bounds(size, count)
    assert bounds[0][0] == 0 and bounds[-1][1] == size
    assert all(stop == start for (_, stop), (start, _) in zip(bounds, bounds[1:]))
    lengths = [stop - start for start, stop in bounds]
    assert all(length % 4096 == 0 and length >= 65536 for length in lengths[:-1])
    assert lengths == sorted(lengths, reverse=True)  # (the last ones small: threads end together)
    largest = max(65536, -(-size // (4 * count * 4096)) * 4096)  # (a held-up thread holds little)
    assert lengths[0] == min(size, largest)
    assert lengths[-1] < largest or len(lengths) == 1 or size <= 65536 * len(lengths)
    assert len(bounds) >= 2 * count or lengths[-1] <= 65536


def test_the_parts_go_to_whichever_thread_is_free():
    from minigrad.kernels import threads

    a, b = _data(1000, 1000), _data(1000, 1000)
    names, both_came = set(), threading.Barrier(2, timeout=10)

    def kernel(out, x, y):
        name = threading.current_thread().name
        if name not in names:
            names.add(name)
            # (each thread holds on to its first part until the other has one too: on a
            # busy machine the one that runs first could otherwise take every part)
            both_came.wait()
        np.multiply(x, y, out=out)
    with Threads(2):
        result = threads.parts(kernel, None, a, b)
    _same_bits(result, a * b)
    assert len(names) == 2 and threading.current_thread().name in names


def test_an_error_in_a_part_on_a_helper_thread_is_raised_to_the_caller():
    from minigrad.kernels import threads

    a = _data(1000, 1000)
    caller, helper_came = threading.current_thread(), threading.Event()

    def kernel(out, x):
        if threading.current_thread() is caller:
            helper_came.wait(10)
            np.negative(x, out=out)
        else:
            helper_came.set()
            raise FloatingPointError("in a helper")
    with Threads(2), pytest.raises(FloatingPointError, match="in a helper"):
        threads.parts(kernel, None, a)


@pytest.mark.parametrize("count", [2, 3])
def test_a_split_kernels_arrays_go_when_the_call_returns(count):
    # (a helper thread that let go of them later, in its own time, made glibc hand
    # memory back and fault it in again: ~1000 page faults per 1000x1000 step)
    import weakref

    from minigrad.kernels import threads

    for _ in range(3):
        a = _data(700, 700)
        with Threads(count):
            out = threads.call(np.negative, a)
        arrays = weakref.ref(a), weakref.ref(out)
        del a, out
        assert all(array() is None for array in arrays)


def test_a_split_sum_in_place_writes_only_its_own_array():
    from minigrad.kernels import threads

    a, b = _data(700, 700), _data(700, 700)
    expected = a + b
    b_before = b.copy()
    with Threads(2):
        assert threads.call(np.add, a, b, out=a) is a
    _same_bits(a, expected)
    assert np.array_equal(b, b_before)


@pytest.mark.parametrize("case", ["transposed", "shifted", "mixed dtypes", "broadcast row",
                                  "small", "integers"])
def test_what_the_threads_do_not_split_is_numpys_own_call(case, monkeypatch):
    from minigrad.kernels import threads

    a, b = _data(700, 700), _data(700, 700)
    out = None
    if case == "transposed":
        a = a.T
    elif case == "shifted":  # out overlaps an operand one element further on
        flat = _data(700 * 700 + 1)
        a, b, out = flat[1:], flat[:-1], flat[1:]
    elif case == "mixed dtypes":
        b = b.astype(np.float64)
    elif case == "broadcast row":
        b = b[0]
    elif case == "small":
        a, b = a[:10], b[:10]
    elif case == "integers":
        a, b = (a * 100).astype(np.int64), (b * 100).astype(np.int64)
    expected = np.add(a.copy(), b.copy())
    monkeypatch.setattr(threads, "_submit", None)  # (would fail if called)
    with Threads(2):
        result = threads.call(np.add, a, b, out=out)
    _same_bits(np.asarray(result), expected) if case != "transposed" \
        else np.testing.assert_array_equal(result, expected)


def test_the_big_workload_has_the_same_bits_on_one_thread_and_on_several():
    # (elementwise values and gradients: the bits of one thread; the sum: PyTorch's on as
    # many threads, which adds each thread's share apart, as the histogram's weights)
    xd, wd = _data(700, 700), _data(700, 700)
    results = {}
    for count in (1, 2, 3):
        with Threads(count):
            x, w = mg.tensor(xd, requires_grad=True), mg.tensor(wd, requires_grad=True)
            y = (x * w).tanh() + x - w
            out = y.sum()
            out.backward()
            x.grad.add_(mg.tensor(wd))  # (rebased: AccumulateGrad adds into it next)
            held = x.grad
            ((x * w).tanh() * x).sum().backward()  # (adds into x.grad and w.grad in place)
            assert x.grad is held
            results[count] = [t.detach().numpy() for t in (y, x.grad, w.grad)]
            before = torch.get_num_threads()
            torch.set_num_threads(count)
            try:
                theirs = torch.from_numpy(results[count][0]).sum().numpy()
            finally:
                torch.set_num_threads(before)
            _same_bits(out.detach().numpy(), theirs)
    for count in (2, 3):
        for ours, expected in zip(results[count], results[1]):
            _same_bits(ours, expected)
    x, w = torch.tensor(xd, requires_grad=True), torch.tensor(wd, requires_grad=True)
    ((x * w).tanh() + x - w).sum().backward()
    x.grad.add_(torch.tensor(wd))
    ((x * w).tanh() * x).sum().backward()
    np.testing.assert_allclose(results[2][1], x.grad.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(results[2][2], w.grad.numpy(), rtol=1e-5, atol=1e-5)


def _torch_tanh_backward(grad, y):
    return torch.ops.aten.tanh_backward(torch.from_numpy(np.ascontiguousarray(grad)),
                                        torch.from_numpy(y)).numpy()


def test_a_split_tanh_backward_writes_only_its_own_result():
    from minigrad.kernels.pointwise import tanh_backward as tanh_backward_of

    y, grad = np.tanh(_data(700, 700)), _data(700, 700)
    y_before, grad_before = y.copy(), grad.copy()
    with Threads(1):
        expected = tanh_backward_of(grad, y)
    for count in (2, 3):
        with Threads(count):
            _same_bits(tanh_backward_of(grad, y), expected)
            expanded = np.broadcast_to(np.float32(0.5), y.shape)
            _same_bits(tanh_backward_of(expanded, y), _torch_tanh_backward(expanded, y))
    assert np.array_equal(y, y_before) and np.array_equal(grad, grad_before)


@pytest.mark.parametrize("size", [(700, 700), (5, 3)])
def test_tanh_backward_of_an_expanded_one_has_the_bits_of_the_product(size):
    # (a sum's gradient, expanded: the product by 1 is left out, exactly)
    from minigrad.kernels.pointwise import tanh_backward as tanh_backward_of

    y = _specials(np.tanh(_data(*size) * 3))
    y.reshape(-1)[:2] = [np.nan, -0.0]
    for one in (np.float32(1), np.float32(-1), np.float32(0.5)):
        grad = np.broadcast_to(one, y.shape)
        expected = _torch_tanh_backward(grad, y)  # (1 - y*y in one fused multiply-add)
        for count in (1, 2):
            with Threads(count):
                _same_bits(tanh_backward_of(grad, y), expected)
    x = mg.tensor(_data(*size), requires_grad=True)
    tx = torch.tensor(x.detach().numpy(), requires_grad=True)
    x.tanh().sum().backward()
    tx.tanh().sum().backward()
    _close(x.grad, tx.grad)  # (tanh itself differs from torch's by an ulp or so)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("threshold", [0.0, 0.5, -1.0, float("nan")])
def test_threshold_backward_of_gives_np_wheres_bits(dtype, threshold):
    from minigrad.kernels.pointwise import threshold_backward as threshold_backward_of

    x = _specials(_data(64, 257, dtype=dtype))
    grad = _specials(_data(64, 257, dtype=dtype))[::-1].copy()
    x.reshape(-1)[5:9] = [0.0, -0.0, 0.5, -1.0]
    grad.reshape(-1)[5:9] = [-2.0, np.nan, -0.0, np.inf]
    expected = np.where(x <= threshold, np.zeros((), dtype), grad)
    _same_bits(threshold_backward_of(grad, x, threshold), expected)
    _same_bits(threshold_backward_of(grad.T, x.T, threshold),  # (other layouts: np.where)
               np.where(x.T <= threshold, np.zeros((), dtype), grad.T))
    out = threshold_backward_of(grad, x, threshold)
    assert out.flags.owndata and out.flags.writeable  # (a buffer the engine may reuse)
    _same_bits(np.asarray(threshold_backward_of(grad[0, 0], x[0, 0], threshold)),
               np.asarray(np.where(x[0, 0] <= threshold, np.zeros((), dtype), grad[0, 0])))


def test_relu_backward_is_torchs_with_nans_and_zeros():
    data = _data(64, 256)
    data.reshape(-1)[:4] = [np.nan, 0.0, -0.0, -1.0]
    seed = _data(64, 256)
    seed.reshape(-1)[4:6] = [np.nan, -np.inf]
    grads = {}
    for lib in (mg, torch):
        x = lib.tensor(data, requires_grad=True)
        x.relu().backward(lib.tensor(seed))
        grads[lib] = x.grad.numpy()
    assert grads[mg].tobytes() == grads[torch].tobytes()


@pytest.mark.parametrize("writeable", [True, False])
@pytest.mark.parametrize("shape", [(1000, 1000), (3,), ()])
def test_a_zero_dim_gradient_expanded_is_the_view_broadcast_to_makes(shape, writeable):
    from minigrad.autograd.broadcast import expand_array

    source = np.asarray(np.float32(-0.0))
    source.flags.writeable = writeable
    ours, reference = expand_array(source, shape), np.broadcast_to(source, shape)
    assert ours.shape == reference.shape and ours.strides == reference.strides
    assert ours.dtype == source.dtype and ours.flags.writeable == writeable
    assert np.shares_memory(ours, source) and ours.tobytes() == reference.tobytes()
    if writeable and shape:  # (as torch's fill_ on an expanded tensor: the one element)
        ours.fill(2.5)
        assert source == 2.5


# ---- a big product's backward: both gradients in one job, one into the gradient received

@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("into_grad", [False, True])
def test_the_two_products_of_muls_backward_have_numpys_bits(dtype, into_grad):
    from minigrad.kernels.arithmetic import two_products as _two_products_of

    grad = _specials(_data(613, 701, dtype=dtype))
    a = _specials(_data(613, 701, dtype=dtype))[::-1].copy()
    b = _specials(_data(613, 701, dtype=dtype)[:, ::-1].copy())
    b.reshape(-1)[-3:] = [-0.0, 6e-8 if dtype == np.float16 else 1e-310, np.inf]
    layouts = [(grad, a, b), (grad, a.T.copy().T, b)]  # (the second: a transposed copy)
    for count in (1, 2, 3):
        for g, x, y in layouts:
            g, x_before, y_before = g.copy(), x.copy(), y.copy()
            expected_a, expected_b = g * x, g * y  # (x is other, y is self)
            with Threads(count), np.errstate(all="ignore"):
                grad_a, grad_b = _two_products_of(g, x, y, into_grad)
            _same_bits(grad_a, expected_a)
            _same_bits(grad_b, expected_b)
            assert np.array_equal(x, x_before, equal_nan=True)
            assert np.array_equal(y, y_before, equal_nan=True)
            assert not np.shares_memory(grad_a, grad_b)
            assert grad_a.flags.owndata and grad_b.flags.owndata  # (buffers the engine may reuse)


def _mul_grads(lib, xd, wd, keep=None):
    """The gradients of ((x * w) * 3).tanh().sum(), where the gradient that
    reaches x * w's node is a new array made by the backward (``keep`` gets
    x * w's gradient through a hook, ``"retain"``: through retain_grad)."""
    x, w = lib.tensor(xd, requires_grad=True), lib.tensor(wd, requires_grad=True)
    p = x * w
    seen = []
    if keep == "hook":
        p.register_hook(lambda g: seen.append(g))
    elif keep == "retain":
        p.retain_grad()
    ((p * 3).tanh()).sum().backward()
    if keep == "retain":
        seen.append(p.grad)
    return x.grad, w.grad, seen


@pytest.mark.parametrize("keep", [None, "hook", "retain"])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_gradient_written_into_is_one_only_the_walk_held(keep, count):
    xd, wd = _specials(_data(700, 700)), _data(700, 700)
    with Threads(count):
        gx, gw, seen = _mul_grads(mg, xd, wd, keep)
    with Threads(1):  # (one thread: the products into new arrays)
        ex, ew, _ = _mul_grads(mg, xd, wd)
    _same_bits(gx.numpy(), ex.numpy())
    _same_bits(gw.numpy(), ew.numpy())
    assert not np.shares_memory(gx.numpy(), gw.numpy())
    tx, tw, tseen = _mul_grads(torch, xd, wd, keep)
    np.testing.assert_allclose(gx.numpy(), tx.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gw.numpy(), tw.numpy(), rtol=1e-5, atol=1e-5)
    for ours, theirs in zip(seen, tseen):  # (what a hook got or retain_grad kept: unchanged)
        assert not np.shares_memory(ours.numpy(), gx.numpy())
        assert not np.shares_memory(ours.numpy(), gw.numpy())
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


def test_a_seed_or_a_functions_gradient_is_never_written_into():
    xd, wd = _data(700, 700), _data(700, 700)
    seed, held = mg.tensor(_data(700, 700)), mg.tensor(_data(700, 700))
    seed_before, held_before = seed.numpy().copy(), held.numpy().copy()

    class Keep(mg.autograd.Function):  # (hands back a tensor it keeps)
        @staticmethod
        def forward(ctx, p):
            return p * 1

        @staticmethod
        def backward(ctx, g):
            return held
    with Threads(2):
        x, w = mg.tensor(xd, requires_grad=True), mg.tensor(wd, requires_grad=True)
        (x * w).backward(seed)
        _same_bits(x.grad.numpy(), seed_before * wd)
        _same_bits(w.grad.numpy(), seed_before * xd)
        x.grad = w.grad = None
        Keep.apply(x * w).sum().backward()
        _same_bits(x.grad.numpy(), held_before * wd)
        _same_bits(w.grad.numpy(), held_before * xd)
    _same_bits(seed.numpy(), seed_before)
    _same_bits(held.numpy(), held_before)

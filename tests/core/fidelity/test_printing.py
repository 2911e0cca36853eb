"""Printing, checked against PyTorch character for character.

Each test builds the same tensor in both libraries (``minigrad.tensor(array)``
and ``torch.tensor(array)`` from one NumPy array) and compares ``repr``,
``str`` and what ``print`` writes. Hypothesis draws the arrays: every dtype
minigrad has that learners meet, 0-d to 4-d shapes (empty ones and size-1
dimensions included), and values from each of the regimes that choose a
format (whole numbers ``27.``, fixed point ``4.5000``, scientific
``5.1200e+01``, with zeros, negatives, inf and nan mixed in).
"""

from __future__ import annotations

import contextlib
import io
import math
import re
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from minigrad import _printing

FLOAT_DTYPES = ["float32", "float64", "float16"]
DTYPES = FLOAT_DTYPES + ["int64", "int32", "bool"]
ADDRESS = re.compile(r"0x[0-9a-f]+")


@contextlib.contextmanager
def print_options(**options):
    """The same print options in both libraries; the defaults again afterwards."""
    torch.set_printoptions(**options)
    minigrad.set_printoptions(**options)
    try:
        yield
    finally:
        torch.set_printoptions(profile="default")
        minigrad.set_printoptions(profile="default")


def printed(*objects) -> str:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        print(*objects)
    return buffer.getvalue()


def both(array: np.ndarray, requires_grad: bool = False, times_one: bool = False):
    """The same tensor in torch and in minigrad; ``times_one`` makes it the
    result of an operation (``x * 1``), so that it prints a grad_fn."""
    theirs = torch.tensor(array, requires_grad=requires_grad)
    ours = minigrad.tensor(array, requires_grad=requires_grad)
    if times_one:
        theirs, ours = theirs * 1, ours * 1
    return theirs, ours


def assert_prints_alike(theirs, ours) -> str:
    expected = repr(theirs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # printing never warns (no NumPy overflow warnings)
        assert repr(ours) == expected
    assert str(ours) == str(theirs)
    assert printed(ours) == printed(theirs)
    return expected


# ---- strategies ---------------------------------------------------------------

SPECIAL_FLOATS = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, 27.0, 4.5,
                  1e-5, 1e-4, 999.5, 1000.0, 1e8, 123456789.0, 0.1, 1.0e-2]


def float_elements(dtype: str) -> st.SearchStrategy:
    """A strategy for the values of one array: one format regime, sometimes
    with special values (zeros, inf, nan, the tutorial's numbers) mixed in."""
    width = np.finfo(dtype).bits

    def exact(value: float) -> float:  # the nearest value of this dtype
        with np.errstate(over="ignore"):
            return float(np.asarray(value, dtype))

    big, small = exact(min(1e12, float(np.finfo(dtype).max))), exact(1e-3)
    specials = st.sampled_from([exact(v) for v in SPECIAL_FLOATS])
    regimes = [
        st.integers(-2048, 2048).map(float),  # whole numbers, exact even in float16
        st.floats(-999, 999, width=width),  # fixed point
        st.floats(-big, big, width=width),  # max/min > 1000 or max > 1e8
        st.floats(-small, small, width=width),  # min < 1e-4
    ]
    return st.one_of(
        st.sampled_from(regimes),
        st.sampled_from(regimes).map(lambda regime: st.one_of(regime, specials)),
        st.just(st.floats(width=width)),  # anything, inf and nan included
    )


def element_strategies(dtype: str) -> st.SearchStrategy:
    """Draws the strategy for the elements of one array."""
    if dtype in FLOAT_DTYPES:
        return float_elements(dtype)
    if dtype == "bool":
        return st.just(st.booleans())
    info = np.iinfo(dtype)
    return st.sampled_from([st.integers(-300, 300),
                            st.integers(int(info.min), int(info.max))])


shapes = st.one_of(
    hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4),
    hnp.array_shapes(min_dims=1, max_dims=1, min_side=0, max_side=40),  # rows that wrap
    hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=25),
)


@st.composite
def arrays(draw, dtypes=DTYPES, shape=shapes):
    dtype = draw(st.sampled_from(dtypes))
    values = draw(element_strategies(dtype))
    return draw(hnp.arrays(np.dtype(dtype), shape, elements=values))


@st.composite
def small_option_sets(draw):
    """Print options that summarise and wrap even small tensors."""
    return draw(st.fixed_dictionaries({}, optional={
        "precision": st.integers(0, 8),
        "threshold": st.integers(0, 30),
        "edgeitems": st.integers(0, 4),
        "linewidth": st.integers(10, 120),
        "sci_mode": st.sampled_from([True, False]),
        "profile": st.sampled_from(["default", "short", "full"]),
    }))


# ---- values, shapes and dtypes ---------------------------------------------------------


@given(arrays())
def test_repr_str_and_print_match_torch(array):
    assert_prints_alike(*both(array))


@given(arrays(dtypes=FLOAT_DTYPES), st.sampled_from(["requires_grad", "grad_fn"]))
def test_requires_grad_and_grad_fn_suffixes_match_torch(array, suffix):
    expected = assert_prints_alike(*both(array, requires_grad=True,
                                         times_one=suffix == "grad_fn"))
    assert ("grad_fn=<MulBackward0>" if suffix == "grad_fn" else "requires_grad=True") \
        in expected


@given(arrays(), small_option_sets())
def test_print_options_match_torch(array, options):
    with print_options(**options):
        assert_prints_alike(*both(array))


SUMMARISED_SHAPES = [(1001,), (2, 501), (501, 2), (1, 1001), (1001, 1), (10, 10, 11),
                     (3, 4, 5, 17), (2000, 3)]


@pytest.mark.parametrize("shape", SUMMARISED_SHAPES)
@given(dtype=st.sampled_from(DTYPES), scale=st.sampled_from([1, 1e-6, 1e5, 1e9]),
       seed=st.integers(0, 2**32 - 1))
def test_more_than_threshold_elements_are_summarised_like_torch(shape, dtype, scale, seed):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        array = rng.random(shape) < 0.5
    elif dtype in FLOAT_DTYPES:
        with np.errstate(over="ignore"):  # 1e9 is inf in float16
            array = (rng.standard_normal(shape) * scale).astype(dtype)
    else:
        array = rng.integers(-1000, 1000, shape).astype(dtype) * int(min(scale, 1e5))
    expected = assert_prints_alike(*both(array))
    assert "..." in expected


def test_full_profile_prints_every_element():
    array = np.arange(1200, dtype=np.float32) / 7
    with print_options(profile="full"):
        expected = assert_prints_alike(*both(array))
    assert "..." not in expected and expected.count("\n") > 100


@pytest.mark.parametrize("sci_mode", [True, False])
@pytest.mark.parametrize("values", [[0.0, 0.0], [math.inf, math.nan, 1.5], [1e-5, 1.0],
                                    [1.0, 2.0], [123456789.0, 1.0], [-0.0]])
def test_sci_mode_forced_like_torch(values, sci_mode):
    """Forcing sci_mode also changes the width; all-zero tensors ignore it."""
    with print_options(sci_mode=sci_mode):
        assert_prints_alike(*both(np.array(values, np.float32)))


WRAPPING_CASES = [(dtype, requires_grad, length)
                  for dtype in ["float32", "float64", "float16", "int32", "bool"]
                  for requires_grad in ([False, True] if dtype in FLOAT_DTYPES else [False])
                  for length in range(1, 40)]


@pytest.mark.parametrize("dtype, requires_grad, length", WRAPPING_CASES)
def test_suffixes_wrap_onto_their_own_line_like_torch(dtype, requires_grad, length):
    """A suffix that would end past linewidth starts a new line, indented 7."""
    values = np.arange(length) * 3 % 11 - 5
    array = (values > 0) if dtype == "bool" else values.astype(dtype) / 2
    assert_prints_alike(*both(array.astype(dtype), requires_grad=requires_grad))


def test_suffix_wrapping_case_is_exercised():
    """Guard for the test above: some of its cases do put a suffix on a new line."""
    theirs = repr(torch.tensor(np.arange(14) / 2, requires_grad=True))
    assert ",\n       requires_grad=True)" in theirs or ",\n       dtype" in theirs
    assert repr(minigrad.tensor(np.arange(14) / 2, requires_grad=True)) == theirs


@given(array=arrays(shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6)))
def test_views_print_their_own_elements(array):
    """Transposed, sliced and expanded tensors (non-contiguous data) print like torch."""
    theirs, ours = both(array)
    assert_prints_alike(theirs.flip(0), ours.flip(0))
    assert_prints_alike(theirs[1:], ours[1:])
    assert_prints_alike(theirs.unsqueeze(0).expand(2, *array.shape),
                        ours.unsqueeze(0).expand(2, *array.shape))
    if array.ndim >= 2:
        assert_prints_alike(theirs.transpose(0, 1), ours.transpose(0, 1))


@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0), (2, 0, 1), (1, 1, 0)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_empty_tensors_show_size_and_dtype_like_torch(shape, dtype):
    assert_prints_alike(*both(np.zeros(shape, dtype)))


def test_two_tensors_in_one_print():
    theirs, ours = both(np.full((2, 2), 27.0, np.float32), requires_grad=True, times_one=True)
    assert printed(ours, ours.mean()) == printed(theirs, theirs.mean())
    assert printed(ours, ours.mean()) == (
        "tensor([[27., 27.],\n        [27., 27.]], grad_fn=<MulBackward0>) "
        "tensor(27., grad_fn=<MeanBackward0>)\n")


# The tutorial copies' own printed tensors, rebuilt from their values.
SEED_PRINTS = [
    ("torch.tensor([761.4349, -1168.1293, 353.6544], requires_grad=True) * 1",
     "tensor([  761.4349, -1168.1293,   353.6544], grad_fn=<MulBackward0>)"),
    ("torch.tensor([-1494.1448, -286.1320, -200.1645], requires_grad=True) * 1",
     "tensor([-1494.1448,  -286.1320,  -200.1645], grad_fn=<MulBackward0>)"),
    ("torch.tensor([0.1, 1.0, 0.0001]) * 512", "tensor([5.1200e+01, 5.1200e+02, 5.1200e-02])"),
    ("torch.tensor([0.1, 1.0, 0.0001]) * 1024", "tensor([1.0240e+02, 1.0240e+03, 1.0240e-01])"),
    ("torch.tensor([[-0.3270, 1.4292], [-0.6227, -0.1784]])",
     "tensor([[-0.3270,  1.4292],\n        [-0.6227, -0.1784]])"),
    ("torch.full((2, 2), 4.5)", "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])"),
    ("torch.full((2, 2), 27., requires_grad=True).mean()", "tensor(27., grad_fn=<MeanBackward0>)"),
    ("torch.ones(2, 2, requires_grad=True)",
     "tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)"),
]


@pytest.mark.parametrize("source, expected", SEED_PRINTS)
def test_the_tutorials_printed_tensors(source, expected):
    assert repr(eval(source, {"torch": torch})) == expected  # the expectation is torch's
    assert repr(eval(source, {"torch": minigrad})) == expected


# ---- print options themselves -----------------------------------------------------------

option_calls = st.lists(st.fixed_dictionaries({}, optional={
    "precision": st.integers(0, 10), "threshold": st.integers(0, 5000),
    "edgeitems": st.integers(0, 5), "linewidth": st.integers(1, 200),
    "sci_mode": st.sampled_from([None, True, False]),
    "profile": st.sampled_from(["default", "short", "full", "no-such-profile"]),
}), max_size=4)


@given(option_calls)
def test_set_printoptions_keeps_the_same_state_as_torch(calls):
    """Including torch's quirks: every call resets sci_mode; unknown profiles are ignored."""
    try:
        for options in calls:
            torch.set_printoptions(**options)
            minigrad.set_printoptions(**options)
            assert _printing.get_printoptions() == torch._tensor_str.get_printoptions()
    finally:
        torch.set_printoptions(profile="default")
        minigrad.set_printoptions(profile="default")


def test_defaults_are_torchs():
    assert _printing.get_printoptions() == torch._tensor_str.get_printoptions()


def test_printoptions_context_manager_restores_the_options():
    with _printing.printoptions(precision=2), torch._tensor_str.printoptions(precision=2):
        assert repr(minigrad.tensor([1.12345])) == repr(torch.tensor([1.12345])) == \
            "tensor([1.12])"
    assert repr(minigrad.tensor([1.12345])) == repr(torch.tensor([1.12345])) == \
        "tensor([1.1235])"
    assert _printing.get_printoptions() == torch._tensor_str.get_printoptions()


# ---- shapes, dtypes, named tuples, graph nodes -------------------------------------------


@given(hnp.array_shapes(min_dims=0, max_dims=5, min_side=0, max_side=6))
def test_size_prints_like_torch_size(shape):
    theirs, ours = torch.zeros(shape), minigrad.zeros(shape)
    for get in (lambda t: t.shape, lambda t: t.size()):
        assert repr(get(ours)) == repr(get(theirs))
        assert str(get(ours)) == str(get(theirs))
        assert printed(get(ours)) == printed(get(theirs))
        assert get(ours) == tuple(shape) == get(theirs)
    assert printed(ours.size()) == f"torch.Size({list(shape)})\n"


@pytest.mark.parametrize("name", ["bool", "uint8", "int8", "int16", "int32", "int64",
                                  "float16", "float32", "float64",
                                  "float", "double", "half", "long", "int", "short"])
def test_dtypes_print_like_torch(name):
    ours, theirs = getattr(minigrad, name), getattr(torch, name)
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)
    assert printed(ours) == printed(theirs)


@st.composite
def arrays_without_ties(draw):
    """Distinct values, no nan: the indices of max and min are then unambiguous."""
    dtype = draw(st.sampled_from(["float32", "float64", "int64"]))
    values = (st.floats(allow_nan=False, width=np.finfo(dtype).bits) if dtype != "int64"
              else st.integers(-2**63, 2**63 - 1))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    return draw(hnp.arrays(np.dtype(dtype), shape, elements=values, unique=True))


@given(array=arrays_without_ties(), dim=st.sampled_from([0, -1]), keepdim=st.booleans(),
       requires_grad=st.booleans())
def test_max_and_min_along_a_dim_print_as_named_tuples(array, dim, keepdim, requires_grad):
    theirs, ours = both(array, requires_grad=requires_grad and array.dtype.kind == "f")
    for name in ("max", "min"):
        expected = repr(getattr(theirs, name)(dim, keepdim))
        assert repr(getattr(ours, name)(dim, keepdim)) == expected
        assert printed(getattr(ours, name)(dim, keepdim)) == printed(
            getattr(theirs, name)(dim, keepdim))
        assert expected.startswith(f"torch.return_types.{name}(\nvalues=tensor(")


def test_max_of_the_two_by_two_matrix():
    theirs, ours = both(np.array([[1.0, 5.0], [3.0, 2.0]], np.float32), requires_grad=True)
    assert repr(ours.max(0)) == repr(theirs.max(0)) == (
        "torch.return_types.max(\nvalues=tensor([3., 5.], grad_fn=<MaxBackward0>),\n"
        "indices=tensor([1, 0]))")


def masked(text: str) -> str:
    return ADDRESS.sub("0x...", text)


GRAPHS = {
    "x + 2": lambda x: x + 2,
    "x * x * 3": lambda x: x * x * 3,
    "(x * 3).mean()": lambda x: (x * 3).mean(),
    "(x * x).sum()": lambda x: (x * x).sum(),
    "x ** 2": lambda x: x ** 2,
    "x.exp() - 1": lambda x: x.exp() - 1,
    "x.view(4)": lambda x: x.view(4),
}


@pytest.mark.parametrize("expression", GRAPHS)
def test_grad_fn_prints_like_torch(expression):
    theirs, ours = both(np.ones((2, 2), np.float32), requires_grad=True)
    their_result, our_result = GRAPHS[expression](theirs), GRAPHS[expression](ours)
    assert masked(printed(our_result.grad_fn)) == masked(printed(their_result.grad_fn))
    assert masked(repr(our_result.grad_fn.next_functions)) == \
        masked(repr(their_result.grad_fn.next_functions))
    assert printed(ours.grad_fn) == printed(theirs.grad_fn) == "None\n"
    assert re.fullmatch(r"<\w+Backward\d object at 0x[0-9a-f]+>\n",
                        printed(our_result.grad_fn))


def test_a_method_without_parentheses_prints_as_a_builtin_method():
    theirs, ours = both(np.ones(2, np.float32))
    assert masked(printed(ours.eq(ours).all)) == masked(printed(theirs.eq(theirs).all)) == \
        "<built-in method all of Tensor object at 0x...>\n"
    assert repr(ours.any) == f"<built-in method any of Tensor object at {hex(id(ours))}>"
    assert ours.all().item() is True  # still a method


# ---- format() of 0-d tensors --------------------------------------------------------------

FLOAT_SPECS = ["", ".2f", ".3e", ">12.4f", "g", ".1%", "+.0f"]
INT_SPECS = ["", "d", "05d", ">6", "x", ".2f"]


@given(value=st.floats(width=32), spec=st.sampled_from(FLOAT_SPECS),
       requires_grad=st.booleans())
def test_format_of_a_0d_float_tensor_formats_its_value(value, spec, requires_grad):
    theirs, ours = both(np.float32(value), requires_grad=requires_grad)
    assert format(ours, spec) == format(theirs, spec)
    assert f"{ours:{spec}}" == f"{theirs:{spec}}"


@given(value=st.one_of(st.integers(-2**63, 2**63 - 1), st.booleans()),
       spec=st.sampled_from(INT_SPECS))
def test_format_of_a_0d_integer_or_bool_tensor_formats_its_value(value, spec):
    theirs, ours = both(np.array(value))
    assert format(ours, spec) == format(theirs, spec)


def test_format_of_a_tensor_with_dimensions():
    theirs, ours = both(np.array([1.5, 2.0], np.float32))
    assert format(ours, "") == format(theirs, "") == "tensor([1.5000, 2.0000])"
    with pytest.raises(TypeError) as their_error:
        format(theirs, ".2f")
    with pytest.raises(TypeError) as our_error:
        format(ours, ".2f")
    assert str(our_error.value) == str(their_error.value)


RETURN_TYPES = {
    "max": lambda L: L.tensor([[1., 2.], [3., 0.]]).max(0),
    "sort": lambda L: L.tensor([3., 1.]).sort(),
    "aminmax": lambda L: L.tensor([3., 1.]).aminmax(),
    "cummax": lambda L: L.tensor([3., 1.]).cummax(0),
    "histogram": lambda L: L.histogram(L.tensor([1., 2., 1.]), bins=2),
    "frexp": lambda L: L.frexp(L.tensor([8., 0.75])),
    "geqrf": lambda L: L.geqrf(L.tensor([[1., 2.], [3., 4.]])),
    "slogdet": lambda L: L.linalg.slogdet(L.tensor([[1., 2.], [3., 4.]])),
    "max out": lambda L: L.max(L.tensor([[1., 2.], [3., 0.]]), 0,
                               out=(L.empty(0), L.empty(0, dtype=L.int64))),
}
RETURN_TYPE_USES = ["r.foo", "r._fields_", "r.n_fields", "r.n_sequence_fields", "r.n_unnamed_fields",
                    "setattr(r, type(r).__match_args__[0], 1)",
                    "setattr(r, 'other', 1)", "type(r).__name__", "len(r)", "repr(r)"]


@pytest.mark.parametrize("name", sorted(RETURN_TYPES))
def test_return_types_attributes_as_torchs_structseq(name):
    """torch.return_types are structseq types: a missing attribute is named with the
    type's full name ('torch.return_types.max' object has no attribute 'foo'), a field
    is a 'readonly attribute', and they count their fields (n_fields); minigrad's
    namedtuples said 'max' object, 'can't set attribute', and had no n_fields."""
    seen = []
    for lib in (torch, minigrad):
        r = RETURN_TYPES[name](lib)
        shown = []
        for use in RETURN_TYPE_USES:
            try:
                shown.append(repr(eval(use, {"r": r, "setattr": setattr})))
            except Exception as error:  # noqa: BLE001 (compared with torch's)
                shown.append((type(error).__name__, str(error)))
        seen.append(shown)
    assert seen[1] == seen[0]

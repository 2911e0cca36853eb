"""Programs in the style of the lectures and books learners open after the autograd
tutorial, written for this kit from what those lessons do (not copied from them): d2l's
preliminaries (tensors, NumPy-style reductions with ``axis=``/``keepdims=``, autograd) and
linear regression from scratch; Karpathy's makemore lectures (a bigram model counted with
``N[ix1, ix2] += 1`` and trained with ``F.one_hot``, an MLP on an embedding table indexed
with a tensor, and the "backprop ninja" check of hand-derived gradients against autograd,
with ``dlogprobs[range(n), Yb] = -1.0 / n``); a "PyTorch basics" tour of elementwise math.
Data are made here, offline: a few names instead of a download.

Each takes the library as ``torch`` and prints what such a notebook shows.
``test_lecture_programs`` runs each under PyTorch 2.13 and under minigrad and compares.
"""

from __future__ import annotations

NAMES = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn",
         "abigail", "ella", "luna", "ivy", "noah", "liam", "oliver", "elijah", "lucas"]


def _vocabulary():
    chars = sorted(set("".join(NAMES)))
    stoi = {c: i + 1 for i, c in enumerate(chars)}
    stoi["."] = 0
    return stoi, {i: c for c, i in stoi.items()}


def d2l_preliminaries(torch):
    x = torch.arange(12, dtype=torch.float32)
    print(x, x.numel(), x.shape)
    X = x.reshape(3, 4)
    Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
    print(torch.cat((X, Y), dim=0), torch.cat((X, Y), dim=1))
    print(X == Y, X.sum(), X[-1], X[1:3])
    X[1, 2] = 17
    X[:2, :] = 12
    print(X)
    A = torch.arange(20, dtype=torch.float32).reshape(5, 4)
    B = A.clone()
    print(A * B, A.sum(axis=0), A.sum(axis=[0, 1]), A.mean(), A.sum() / A.numel())
    print(A.mean(axis=0), A.sum(axis=0) / A.shape[0])
    sum_A = A.sum(axis=1, keepdims=True)
    print(sum_A, A / sum_A, A.cumsum(axis=0))
    u = torch.tensor([3.0, -4.0])
    print(torch.norm(u), torch.abs(u).sum(), torch.norm(torch.ones((4, 9))))
    x = torch.arange(4.0)
    x.requires_grad_(True)
    y = 2 * torch.dot(x, x)
    y.backward()
    print(y, x.grad, x.grad == 4 * x)
    x.grad.zero_()
    y = x.sum()
    y.backward()
    print(x.grad)
    x.grad.zero_()
    y = x * x
    u = y.detach()
    z = u * x
    z.sum().backward()
    print(x.grad == u)


def d2l_linear_regression_from_scratch(torch):
    def synthetic_data(w, b, num_examples):
        X = torch.normal(0, 1, (num_examples, len(w)))
        y = torch.matmul(X, w) + b
        y += torch.normal(0, 0.01, y.shape)
        return X, y.reshape((-1, 1))

    true_w, true_b = torch.tensor([2, -3.4]), 4.2
    features, labels = synthetic_data(true_w, true_b, 200)
    print("features:", features[0], "\nlabel:", labels[0])

    def data_iter(batch_size, features, labels):
        num_examples = len(features)
        indices = list(range(num_examples))
        for i in range(0, num_examples, batch_size):
            batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
            yield features[batch_indices], labels[batch_indices]

    w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)

    def linreg(X, w, b):
        return torch.matmul(X, w) + b

    def squared_loss(y_hat, y):
        return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2

    def sgd(params, lr, batch_size):
        with torch.no_grad():
            for param in params:
                param -= lr * param.grad / batch_size
                param.grad.zero_()

    lr, num_epochs, batch_size = 0.03, 3, 10
    for epoch in range(num_epochs):
        for X, y in data_iter(batch_size, features, labels):
            l = squared_loss(linreg(X, w, b), y)
            l.sum().backward()
            sgd([w, b], lr, batch_size)
        with torch.no_grad():
            train_l = squared_loss(linreg(features, w, b), labels)
            print(f"epoch {epoch + 1}, loss {float(train_l.mean()):f}")
    print(f"error in w: {true_w - w.reshape(true_w.shape)}")
    print(f"error in b: {true_b - b}")


def makemore_bigram_counts(torch):
    stoi, itos = _vocabulary()
    n = len(stoi)
    N = torch.zeros((n, n), dtype=torch.int32)
    for w in NAMES:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:]):
            N[stoi[ch1], stoi[ch2]] += 1
    print(N[0], N.sum())
    P = (N + 1).float()
    P /= P.sum(1, keepdims=True)
    print(P[0].sum(), P.sum(1, keepdim=True).shape)
    g = torch.Generator().manual_seed(2147483647)
    for _ in range(5):
        out, ix = [], 0
        while True:
            p = P[ix]
            ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
            out.append(itos[ix])
            if ix == 0:
                break
        print("".join(out))
    log_likelihood, count = 0.0, 0
    for w in NAMES[:5]:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:]):
            log_likelihood += torch.log(P[stoi[ch1], stoi[ch2]])
            count += 1
    print(f"{log_likelihood=}", f"{-log_likelihood / count}")


def makemore_bigram_network(torch):
    F = torch.nn.functional
    stoi, _ = _vocabulary()
    n = len(stoi)
    xs, ys = [], []
    for w in NAMES:
        chs = ["."] + list(w) + ["."]
        for ch1, ch2 in zip(chs, chs[1:]):
            xs.append(stoi[ch1])
            ys.append(stoi[ch2])
    xs, ys = torch.tensor(xs), torch.tensor(ys)
    num = xs.nelement()
    g = torch.Generator().manual_seed(2147483647)
    W = torch.randn((n, n), generator=g, requires_grad=True)
    xenc = F.one_hot(xs, num_classes=n).float()
    print(xenc.shape, xenc.dtype, xenc[:3].argmax(1))
    for k in range(30):
        logits = xenc @ W
        counts = logits.exp()
        probs = counts / counts.sum(1, keepdims=True)
        loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W ** 2).mean()
        if k % 10 == 0:
            print(k, loss.item(), probs[range(3), ys[:3]])
        W.grad = None
        loss.backward()
        W.data += -50 * W.grad
    print(loss)


def makemore_mlp(torch):
    F = torch.nn.functional
    stoi, _ = _vocabulary()
    block_size = 3
    X, Y = [], []
    for w in NAMES:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    X, Y = torch.tensor(X), torch.tensor(Y)
    print(X.shape, X.dtype, Y.shape)
    g = torch.Generator().manual_seed(2147483647)
    C = torch.randn((len(stoi), 2), generator=g)
    W1 = torch.randn((6, 50), generator=g) * (5 / 3) / 6 ** 0.5
    b1 = torch.randn(50, generator=g) * 0.01
    W2 = torch.randn((50, len(stoi)), generator=g) * 0.1
    b2 = torch.randn(len(stoi), generator=g) * 0
    parameters = [C, W1, b1, W2, b2]
    print(sum(p.nelement() for p in parameters))
    for p in parameters:
        p.requires_grad = True
    for i in range(200):
        ix = torch.randint(0, X.shape[0], (16,), generator=g)
        emb = C[X[ix]]
        h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
        logits = h @ W2 + b2
        loss = F.cross_entropy(logits, Y[ix])
        for p in parameters:
            p.grad = None
        loss.backward()
        lr = 0.1 if i < 100 else 0.01
        for p in parameters:
            p.data += -lr * p.grad
        if i % 50 == 0:
            print(f"{i:7d}/{200:7d}: {loss.item():.4f}")
    with torch.no_grad():
        emb = C[X]
        h = torch.tanh(emb.view(emb.shape[0], -1) @ W1 + b1)
        print("full loss", F.cross_entropy(h @ W2 + b2, Y).item())
        print("accuracy", ((h @ W2 + b2).argmax(1) == Y).float().mean().item())


def backprop_ninja(torch):
    F = torch.nn.functional
    stoi, _ = _vocabulary()
    X, Y, context = [], [], [0, 0, 0]
    for w in NAMES[:8]:
        context = [0] * 3
        for ch in w + ".":
            X.append(context)
            Y.append(stoi[ch])
            context = context[1:] + [stoi[ch]]
    Xb, Yb = torch.tensor(X), torch.tensor(Y)
    n, vocab_size, n_embd, n_hidden = Xb.shape[0], len(stoi), 4, 16
    g = torch.Generator().manual_seed(2147483647)
    C = torch.randn((vocab_size, n_embd), generator=g)
    W1 = torch.randn((n_embd * 3, n_hidden), generator=g) * (5 / 3) / (n_embd * 3) ** 0.5
    b1 = torch.randn(n_hidden, generator=g) * 0.1
    W2 = torch.randn((n_hidden, vocab_size), generator=g) * 0.1
    b2 = torch.randn(vocab_size, generator=g) * 0.1
    parameters = [C, W1, b1, W2, b2]
    for p in parameters:
        p.requires_grad = True

    def cmp(s, dt, t):
        ex = torch.all(dt == t.grad).item()
        app = torch.allclose(dt, t.grad)
        maxdiff = (dt - t.grad).abs().max().item()
        print(f"{s:15s} | exact: {str(ex):5s} | approximate: {str(app):5s} | maxdiff: {maxdiff:.1e}"
              if not ex else f"{s:15s} | exact: {str(ex):5s} | approximate: {str(app):5s}")

    emb = C[Xb]
    embcat = emb.view(emb.shape[0], -1)
    hprebn = embcat @ W1 + b1
    h = torch.tanh(hprebn)
    logits = h @ W2 + b2
    logit_maxes = logits.max(1, keepdim=True).values
    norm_logits = logits - logit_maxes
    counts = norm_logits.exp()
    counts_sum = counts.sum(1, keepdims=True)
    counts_sum_inv = counts_sum ** -1
    probs = counts * counts_sum_inv
    logprobs = probs.log()
    loss = -logprobs[range(n), Yb].mean()
    for t in [logprobs, probs, counts, counts_sum, counts_sum_inv, norm_logits, logit_maxes,
              logits, h, hprebn, embcat, emb]:
        t.retain_grad()
    loss.backward()
    print(loss.item())
    dlogprobs = torch.zeros_like(logprobs)
    dlogprobs[range(n), Yb] = -1.0 / n
    cmp("logprobs", dlogprobs, logprobs)
    dprobs = (1.0 / probs) * dlogprobs
    cmp("probs", dprobs, probs)
    dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
    cmp("counts_sum_inv", dcounts_sum_inv, counts_sum_inv)
    dcounts = counts_sum_inv * dprobs
    dcounts_sum = (-counts_sum ** -2) * dcounts_sum_inv
    cmp("counts_sum", dcounts_sum, counts_sum)
    dcounts += torch.ones_like(counts) * dcounts_sum
    cmp("counts", dcounts, counts)
    dnorm_logits = counts * dcounts
    cmp("norm_logits", dnorm_logits, norm_logits)
    dlogits = dnorm_logits.clone()
    dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
    cmp("logit_maxes", dlogit_maxes, logit_maxes)
    dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
    cmp("logits", dlogits, logits)
    dh = dlogits @ W2.T
    dW2 = h.T @ dlogits
    db2 = dlogits.sum(0)
    cmp("h", dh, h)
    cmp("W2", dW2, W2)
    cmp("b2", db2, b2)
    dhprebn = (1.0 - h ** 2) * dh
    cmp("hprebn", dhprebn, hprebn)
    dembcat = dhprebn @ W1.T
    dW1 = embcat.T @ dhprebn
    db1 = dhprebn.sum(0)
    cmp("W1", dW1, W1)
    cmp("b1", db1, b1)
    demb = dembcat.view(emb.shape)
    dC = torch.zeros_like(C)
    for k in range(Xb.shape[0]):
        for j in range(Xb.shape[1]):
            dC[Xb[k, j]] += demb[k, j]
    cmp("C", dC, C)
    dlogits_fast = F.softmax(logits, 1)
    dlogits_fast[range(n), Yb] -= 1
    dlogits_fast /= n
    cmp("logits (fast)", dlogits_fast, logits)
    loss_fast = F.cross_entropy(logits, Yb)
    print(loss_fast.item(), "diff:", (loss_fast - loss).item())


def pytorch_basics_math(torch):
    x = torch.tensor([[0.5, 1.5, -2.5], [10.0, 100.0, 1000.0]])
    print(torch.log10(x.abs()), x.abs().log2(), torch.log1p(x.abs()), torch.expm1(x[0]))
    print(torch.floor(x), torch.ceil(x), torch.round(x), torch.trunc(x), torch.frac(x))
    print(torch.round(torch.tensor([3.14159, 2.71828]), decimals=2), x.square(), x.abs().rsqrt())
    a = torch.arange(-5, 6)
    print(a // 3, a % 3, torch.fmod(a, 3), torch.remainder(a, -3), a.float() / 3)
    print(torch.div(a, 3, rounding_mode="trunc"), torch.div(a, 3, rounding_mode="floor"))
    print(x.max(axis=1, keepdims=True), x.argmax(axis=1), x.std(axis=0), x.mean(axis=1, keepdims=True))
    y = torch.linspace(0.1, 2.0, 5, requires_grad=True)
    z = (torch.log10(y) + y.square() + (y * 3).floor() + y.rsqrt() + y.expm1()).sum()
    z.backward()
    print(z, y.grad)
    labels = torch.tensor([0, 2, 1, 2])
    print(torch.nn.functional.one_hot(labels), torch.nn.functional.one_hot(labels, 4).sum(0))
    m = torch.zeros(3, 4)
    m[range(3), [0, 1, 3]] = 1.0
    m[[0, 2]] *= 2
    print(m, m[[True, False, True]], m[:, [0, -1]])


PROGRAMS = [d2l_preliminaries, d2l_linear_regression_from_scratch, makemore_bigram_counts,
            makemore_bigram_network, makemore_mlp, backprop_ninja, pytorch_basics_math]

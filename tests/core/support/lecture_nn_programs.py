"""Programs in the style of the lectures that build networks from ``torch.nn`` modules,
written for this kit from what those lessons do (not copied from them): Karpathy's
makemore part 3 once its layers are modules (an embedding table indexed with a tensor,
``nn.Linear(bias=False)``, ``nn.BatchNorm1d``, ``nn.Tanh``, five hidden layers, the
activation statistics read with forward hooks, SGD with a ``StepLR``), and a d2l-style
classifier (``nn.Sequential`` with ``LeakyReLU``, ``BatchNorm1d`` and ``Dropout``,
``net.apply(init_weights)`` with ``xavier_uniform_``, ``BCELoss``). Data are made here.

Each takes the library as ``torch`` and prints what such a notebook shows;
``test_lecture_nn_programs`` runs each under PyTorch 2.13 and under minigrad.
"""

from __future__ import annotations

from lecture_programs import NAMES


def makemore_batchnorm_modules(torch):
    nn, F = torch.nn, torch.nn.functional
    chars = sorted(set("".join(NAMES)))
    stoi = {c: i + 1 for i, c in enumerate(chars)}
    stoi["."] = 0
    vocab_size, block_size, n_embd, n_hidden = len(stoi), 3, 10, 64
    X, Y = [], []
    for w in NAMES * 3:
        context = [0] * block_size
        for ch in w + ".":
            X.append(context)
            Y.append(stoi[ch])
            context = context[1:] + [stoi[ch]]
    X, Y = torch.tensor(X), torch.tensor(Y)
    g = torch.Generator().manual_seed(2147483647)
    C = torch.randn((vocab_size, n_embd), generator=g)
    layers = [nn.Linear(n_embd * block_size, n_hidden, bias=False), nn.BatchNorm1d(n_hidden),
              nn.Tanh()]
    for _ in range(4):
        layers += [nn.Linear(n_hidden, n_hidden, bias=False), nn.BatchNorm1d(n_hidden), nn.Tanh()]
    layers += [nn.Linear(n_hidden, vocab_size, bias=False), nn.BatchNorm1d(vocab_size)]
    model = nn.Sequential(*layers)
    with torch.no_grad():
        model[-1].weight *= 0.1  # a less confident last layer
        for layer in model:
            if isinstance(layer, nn.Linear):
                layer.weight *= 5 / 3  # the tanh gain
    parameters = [C] + list(model.parameters())
    print(sum(p.nelement() for p in parameters), len(parameters))
    for p in parameters:
        p.requires_grad = True
    print(model[:3], list(model.state_dict())[:6])
    saturation = {}

    def record(module, args, out):
        saturation[len(saturation)] = (out.mean().item(), out.std().item(),
                                       (out.abs() > 0.97).float().mean().item() * 100)

    handles = [layer.register_forward_hook(record) for layer in model
               if isinstance(layer, nn.Tanh)]
    optimizer = torch.optim.SGD(parameters, lr=0.1)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.1)
    for i in range(20):
        ix = torch.randint(0, X.shape[0], (32,), generator=g)
        emb = C[X[ix]]
        logits = model(emb.view(emb.shape[0], -1))
        loss = F.cross_entropy(logits, Y[ix])
        optimizer.zero_grad()
        loss.backward()
        if i == 0:
            for k, (mean, std, saturated) in saturation.items():
                print(f"layer {k}: mean {mean:+.4f}, std {std:.4f}, saturated {saturated:.2f}%")
            for h in handles:
                h.remove()
            ratios = [((0.1 * p.grad).std() / p.data.std()).log10().item()
                      for p in parameters if p.ndim == 2]
            print("update ratios", [f"{r:.4f}" for r in ratios])
        optimizer.step()
        scheduler.step()
        print(f"{i:2d} loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.4f}")
    bn = model[1]
    print(bn.running_mean[:4], bn.running_var[:4], bn.num_batches_tracked)
    print(model[-1].running_mean[:4], model[-1].running_var[:4])
    model.eval()
    with torch.no_grad():
        emb = C[X]
        print("eval loss", f"{F.cross_entropy(model(emb.view(emb.shape[0], -1)), Y).item():.4f}")


def d2l_batchnorm_classifier(torch):
    nn = torch.nn
    X = torch.randn(96, 4)
    y = ((X[:, 0] - 2 * X[:, 1] + X[:, 2] * X[:, 3]) > 0).float().reshape(-1, 1)
    net = nn.Sequential(nn.Linear(4, 16), nn.BatchNorm1d(16), nn.LeakyReLU(0.1),
                        nn.Dropout(0.2), nn.Linear(16, 8), nn.BatchNorm1d(8), nn.ELU(),
                        nn.Linear(8, 1), nn.Sigmoid())

    def init_weights(m):
        if type(m) == nn.Linear:  # noqa: E721 (d2l writes it so)
            nn.init.xavier_uniform_(m.weight)
            nn.init.zeros_(m.bias)

    net.apply(init_weights)
    print(net)
    loss = nn.BCELoss()
    trainer = torch.optim.SGD(net.parameters(), lr=0.3, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.ExponentialLR(trainer, gamma=0.8)
    for epoch in range(8):
        net.train()
        total = 0.0
        for start in range(0, 96, 16):
            Xb, yb = X[start:start + 16], y[start:start + 16]
            l = loss(net(Xb), yb)
            trainer.zero_grad()
            l.backward()
            trainer.step()
            total += l.item() * Xb.shape[0]
        scheduler.step()
        net.eval()
        with torch.no_grad():
            accuracy = ((net(X) > 0.5).float() == y).float().mean().item()
        print(f"epoch {epoch + 1}, loss {total / 96:.4f}, train acc {accuracy:.3f}, "
              f"lr {scheduler.get_last_lr()[0]:.5f}")
    print(net[1].running_mean[:3], net[1].num_batches_tracked)
    print(nn.L1Loss()(net(X), y), nn.SmoothL1Loss()(net(X), y))


PROGRAMS = [makemore_batchnorm_modules, d2l_batchnorm_classifier]

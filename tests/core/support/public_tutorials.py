"""Programs that follow public PyTorch tutorials step for step, run under PyTorch 2.13 and
under ``import minigrad as torch`` by ``tests/core/programs/test_public_tutorials.py``.

Each program was checked against the real text of the tutorial named in its docstring
(repository and path): the real file was run unchanged under both libraries (apart from
what cannot run offline, see below) and every difference found was fixed in minigrad.
What is kept here is written for this kit in the tutorials' own style and order of calls,
not copied: the same API calls, arguments, printing and training loops, each program
shortened where the tutorial trains for minutes.

Offline stand-ins, the same in every program: a torchvision dataset (FashionMNIST, MNIST,
CIFAR10) is seeded random data of its shapes and dtypes (images as ToTensor gives them,
float32 in [0, 1]; labels as Python ints), ``names.txt`` a list of made-up names (d2l's
The Time Machine: those names and a sentence), d2l's airfoil data seeded normal rows and
its English-French pairs a few made-up ones (``FRA_ENG``), d2l's plots printed points, a gym
environment a tiny deterministic one, TensorBoard's SummaryWriter is left out, and a
pretrained torchvision model is a small Sequential (torchvision's resnet18 a small ResNet
of its shape); pytorch/examples' argparse options are a SimpleNamespace of the parser's
defaults with smaller sizes. A class that ``torch.save(model)`` pickles is put at module
level, where pickle finds it (``module_level``). Files are written to a temporary
directory. For the books (rasbt's LLMs-from-scratch and machine-learning-book, Deep
Learning with PyTorch): tiktoken is a word tokenizer of the chapters' own split
(``StandInTokenizer``; ``StandInGPT2Tokenizer`` numbers like gpt2, <|endoftext|> 50256),
the-verdict.txt and other texts a made-up story (``the_verdict``), pandas, sklearn's Iris
and train_test_split, torchtext and networkx small stand-ins of the calls used, and the
data files (wine, bike sharing, spam, instructions, Auto MPG, IMDb) seeded made-up rows.
For fastai's course22p2, mnist.pkl.gz is seeded rows of 784 pixels (``mnist_pickle``) and
fastcore's test_close, store_attr and chunked are small stand-ins; CIFAR-10, the Pokemon
sprites, GloVe, IMDb and SNLI (CS231n, d2l) are seeded images, vectors and made-up sentences.

Each program takes the library as ``torch``, prints what the tutorial prints, and returns
a dict of the tensors it ends with (parameters, gradients), which the test compares too.
"""

from __future__ import annotations

import collections
import contextlib
import csv
import functools
import glob
import importlib
import inspect
import io
import itertools
import json
import math
import os
import pickle
import random
import re
import string
import tempfile
import unicodedata
import warnings
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np


# ---- offline stand-ins ------------------------------------------------------------------

def image_dataset(torch, n, shape=(1, 28, 28), classes=10, seed=1):
    """A Dataset of ``n`` seeded random images of ``shape`` (float32 in [0, 1], as
    ToTensor gives them) with int labels: FashionMNIST/MNIST/CIFAR10 offline."""
    class Images(torch.utils.data.Dataset):
        def __init__(self):
            g = torch.Generator().manual_seed(seed)
            self.data = (torch.rand(n, *shape, generator=g) * 255).to(torch.uint8)
            self.targets = torch.randint(0, classes, (n,), generator=g)

        def __len__(self):
            return len(self.targets)

        def __getitem__(self, i):
            return self.data[i].float() / 255, int(self.targets[i])
    return Images()


NAMES = None


def names():
    """Made-up names standing for makemore's names.txt (deterministic)."""
    global NAMES
    if NAMES is None:
        r = random.Random(7)
        syllables = ["an", "na", "el", "li", "ma", "ri", "jo", "ka", "le", "ya", "mi", "ar",
                     "is", "ta", "son", "ella", "ah", "on", "ie", "bel"]
        words = sorted({"".join(r.choice(syllables) for _ in range(r.randint(1, 4)))
                        for _ in range(300)})
        r.shuffle(words)
        NAMES = words
    return list(NAMES)


@contextlib.contextmanager
def in_temporary_directory():
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as place:
        os.chdir(place)
        try:
            yield place
        finally:
            os.chdir(here)


# ---- pytorch/tutorials: beginner_source/basics --------------------------------------------

def basics_tensors(torch):
    """pytorch/tutorials beginner_source/basics/tensorqs_tutorial.py: tensors from data,
    NumPy and other tensors (ones_like, rand_like with dtype), attributes, indexing and
    assignment, cat, the three matmuls (``out=``) and products, item(), add_, and the
    memory NumPy shares both ways."""
    values = [[1, 2], [3, 4]]
    from_data = torch.tensor(values)
    from_np = torch.from_numpy(np.array(values))
    print(f"Ones Tensor: \n {torch.ones_like(from_data)} \n")
    print(f"Random Tensor: \n {torch.rand_like(from_data, dtype=torch.float)} \n")
    shape = (2, 3,)
    print(f"Random Tensor: \n {torch.rand(shape)} \n")
    print(f"Zeros Tensor: \n {torch.zeros(shape)}", from_np.dtype)
    t = torch.rand(3, 4)
    print(f"Shape of tensor: {t.shape}")
    print(f"Datatype of tensor: {t.dtype}")
    print(f"Device tensor is stored on: {t.device}")
    if torch.cuda.is_available() & (torch.device('cuda').index is not None):
        t = t.to('cuda')
    t = torch.ones(4, 4)
    print('First row: ', t[0])
    print('First column: ', t[:, 0])
    print('Last column:', t[..., -1])
    t[:, 1] = 0
    print(t)
    print(torch.cat([t, t, t], dim=1))
    m1, m2 = t @ t.T, t.matmul(t.T)
    m3 = torch.rand_like(t)
    torch.matmul(t, t.T, out=m3)
    e1, e2 = t * t, t.mul(t)
    e3 = torch.rand_like(t)
    torch.mul(t, t, out=e3)
    total = t.sum().item()
    print(total, type(total), m1.equal(m3), e2.equal(e3))
    print(t, "\n")
    t.add_(5)
    print(t)
    ones = torch.ones(5)
    shared = ones.numpy()
    ones.add_(1)
    print(f"t: {ones}", f"n: {shared}")
    arr = np.ones(5)
    wrapped = torch.from_numpy(arr)
    np.add(arr, 1, out=arr)
    print(f"t: {wrapped}", f"n: {arr}")
    return {"m2": m2, "e1": e1}


def basics_autograd(torch):
    """pytorch/tutorials beginner_source/basics/autogradqs_tutorial.py: a one-layer net
    with binary_cross_entropy_with_logits, its grad_fn objects printed, w.grad and b.grad,
    no_grad and detach, and a Jacobian-vector product called three times with
    retain_graph (accumulating, then after zero_)."""
    x, y = torch.ones(5), torch.zeros(3)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    print(f"Gradient function for z = {z.grad_fn}")
    print(f"Gradient function for loss = {loss.grad_fn}")
    loss.backward()
    print(w.grad)
    print(b.grad)
    print(torch.matmul(x, w).requires_grad)
    with torch.no_grad():
        print((torch.matmul(x, w) + b).requires_grad)
    print((torch.matmul(x, w) + b).detach().requires_grad)
    inp = torch.eye(4, 5, requires_grad=True)
    out = (inp + 1).pow(2).t()
    out.backward(torch.ones_like(out), retain_graph=True)
    print(f"First call\n{inp.grad}")
    out.backward(torch.ones_like(out), retain_graph=True)
    print(f"\nSecond call\n{inp.grad}")
    inp.grad.zero_()
    out.backward(torch.ones_like(out), retain_graph=True)
    print(f"\nCall after zeroing gradients\n{inp.grad}")
    return {"w.grad": w.grad, "b.grad": b.grad, "inp.grad": inp.grad}


def basics_build_model(torch):
    """pytorch/tutorials beginner_source/basics/buildmodel_tutorial.py: a Flatten and
    Linear/ReLU Sequential in a Module, printed; Softmax(dim=1) and argmax(1); each layer
    on a batch of three images; named_parameters with sizes and their first rows."""
    nn = torch.nn
    device = 'cuda' if torch.cuda.is_available() else 'cpu'
    print('Using {} device'.format(device))

    class NeuralNetwork(nn.Module):
        def __init__(self):
            super(NeuralNetwork, self).__init__()
            self.flatten = nn.Flatten()
            self.linear_relu_stack = nn.Sequential(
                nn.Linear(28 * 28, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                nn.Linear(64, 10), nn.ReLU())

        def forward(self, x):
            return self.linear_relu_stack(self.flatten(x))

    model = NeuralNetwork().to(device)
    print(model)
    probabilities = nn.Softmax(dim=1)(model(torch.rand(1, 28, 28, device=device)))
    print(f"Predicted class: {probabilities.argmax(1)}")
    images = torch.rand(3, 28, 28)
    print(images.size())
    flatten = nn.Flatten()
    flat = flatten(images)
    print(flat.size())
    layer1 = nn.Linear(in_features=28 * 28, out_features=20)
    hidden = layer1(flat)
    print(hidden.size())
    print(f"Before ReLU: {hidden}\n\n")
    hidden = nn.ReLU()(hidden)
    print(f"After ReLU: {hidden}")
    seq = nn.Sequential(flatten, layer1, nn.ReLU(), nn.Linear(20, 10))
    print(nn.Softmax(dim=1)(seq(torch.rand(3, 28, 28))))
    print("Model structure: ", model, "\n\n")
    for name, param in model.named_parameters():
        print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
    return {"last": model.linear_relu_stack[4].weight}


def basics_optimization(torch):
    """pytorch/tutorials beginner_source/basics/optimization_tutorial.py (with
    data_tutorial.py's sampling): FashionMNIST through DataLoader(batch_size=64), the
    train_loop (model.train(), zero_grad, backward, step, its formatted progress line)
    and test_loop (model.eval(), no_grad, argmax accuracy via .type(torch.float)) for a
    few epochs of SGD; the data tutorial's randint(len(data), size=(1,)).item() sampling
    and a shuffled loader's first batch."""
    nn = torch.nn
    training_data = image_dataset(torch, 256, seed=1)
    test_data = image_dataset(torch, 128, seed=2)
    labels_map = {0: "T-Shirt", 1: "Trouser", 2: "Pullover", 3: "Dress", 4: "Coat",
                  5: "Sandal", 6: "Shirt", 7: "Sneaker", 8: "Bag", 9: "Ankle Boot"}
    for _ in range(4):
        sample_idx = torch.randint(len(training_data), size=(1,)).item()
        img, label = training_data[sample_idx]
        print(labels_map[label], img.squeeze().shape)
    shuffled = torch.utils.data.DataLoader(training_data, batch_size=64, shuffle=True)
    features, labels = next(iter(shuffled))
    print(f"Feature batch shape: {features.size()}")
    print(f"Labels batch shape: {labels.size()}")
    print(f"Label: {labels[0]}")
    train_dataloader = torch.utils.data.DataLoader(training_data, batch_size=64)
    test_dataloader = torch.utils.data.DataLoader(test_data, batch_size=64)

    class NeuralNetwork(nn.Module):
        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            self.linear_relu_stack = nn.Sequential(
                nn.Linear(28 * 28, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                nn.Linear(128, 10))

        def forward(self, x):
            return self.linear_relu_stack(self.flatten(x))

    model = NeuralNetwork()
    batch_size = 64
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)

    def train_loop(dataloader, model, loss_fn, optimizer):
        size = len(dataloader.dataset)
        model.train()
        for batch, (X, y) in enumerate(dataloader):
            loss = loss_fn(model(X), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if batch % 2 == 0:
                loss, current = loss.item(), batch * batch_size + len(X)
                print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")

    def test_loop(dataloader, model, loss_fn):
        model.eval()
        size, num_batches = len(dataloader.dataset), len(dataloader)
        test_loss, correct = 0, 0
        with torch.no_grad():
            for X, y in dataloader:
                pred = model(X)
                test_loss += loss_fn(pred, y).item()
                correct += (pred.argmax(1) == y).type(torch.float).sum().item()
        test_loss /= num_batches
        correct /= size
        print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")

    for t in range(2):
        print(f"Epoch {t+1}\n-------------------------------")
        train_loop(train_dataloader, model, loss_fn, optimizer)
        test_loop(test_dataloader, model, loss_fn)
    print("Done!")
    return {"w": model.linear_relu_stack[4].weight, "b": model.linear_relu_stack[4].bias}


# ---- pytorch/tutorials: beginner_source/blitz ----------------------------------------------

def blitz_neural_networks(torch):
    """pytorch/tutorials beginner_source/blitz/neural_networks_tutorial.py: LeNet with
    F.max_pool2d((2, 2)) and num_flat_features, parameters(), a backward from random
    gradients, MSELoss and the grad_fn chain (next_functions), conv1.bias.grad before and
    after, the hand-written update f.data.sub_(f.grad.data * lr), then optim.SGD; and
    blitz/autograd_tutorial.py's doubling loop with y.data.norm() and a vector backward."""
    nn, F = torch.nn, torch.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super(Net, self).__init__()
            self.conv1 = nn.Conv2d(1, 6, 5)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            x = x.view(-1, self.num_flat_features(x))
            return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

        def num_flat_features(self, x):
            count = 1
            for s in x.size()[1:]:
                count *= s
            return count

    net = Net()
    print(net)
    params = list(net.parameters())
    print(len(params), params[0].size())
    image = torch.randn(1, 1, 32, 32)
    out = net(image)
    print(out)
    net.zero_grad()
    out.backward(torch.randn(1, 10))
    criterion = nn.MSELoss()
    target = torch.randn(10).view(1, -1)
    loss = criterion(net(image), target)
    print(loss)
    print(loss.grad_fn)
    print(loss.grad_fn.next_functions[0][0])
    print(loss.grad_fn.next_functions[0][0].next_functions[0][0])
    net.zero_grad()
    print('conv1.bias.grad before backward')
    print(net.conv1.bias.grad)
    loss.backward()
    print('conv1.bias.grad after backward')
    print(net.conv1.bias.grad)
    for f in net.parameters():
        f.data.sub_(f.grad.data * 0.01)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
    optimizer.zero_grad()
    criterion(net(image), target).backward()
    optimizer.step()
    x = torch.randn(3, requires_grad=True)
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    print(y)
    y.backward(torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float))
    print(x.grad, x.requires_grad, (x ** 2).requires_grad)
    with torch.no_grad():
        print((x ** 2).requires_grad)
    return {"fc3": net.fc3.weight, "conv1.grad": net.conv1.bias.grad, "x.grad": x.grad}


# ---- pytorch/tutorials: beginner_source/nn_tutorial.py --------------------------------------

def what_is_torch_nn(torch):
    """pytorch/tutorials beginner_source/nn_tutorial.py ("What is torch.nn really?"): MNIST
    as NumPy arrays turned into tensors with map(torch.tensor, ...), logistic regression
    from scratch (weights.requires_grad_(), a hand-written log_softmax, nll by indexing with
    range, updates under no_grad with ``-=`` and grad.zero_()), then F.cross_entropy, a
    Module with nn.Parameter, nn.Linear, optim, TensorDataset slicing, DataLoader,
    validation with model.eval(), fit/get_data with np.sum(np.multiply(losses, nums)),
    the CNN with view, conv2d and avg_pool2d, a Lambda module, AdaptiveAvgPool2d and the
    WrappedDataLoader generator."""
    nn, F, optim = torch.nn, torch.nn.functional, torch.optim
    TensorDataset, DataLoader = torch.utils.data.TensorDataset, torch.utils.data.DataLoader
    rng = np.random.default_rng(0)
    teacher = rng.standard_normal((784, 10)).astype(np.float32)

    def fake(n):  # MNIST offline: mostly-zero float32 pixels, int64 labels
        x = (rng.random((n, 784), dtype=np.float32) * (rng.random((n, 784)) < 0.15))
        return x.astype(np.float32), (x @ teacher).argmax(1).astype(np.int64)

    (x_train, y_train), (x_valid, y_valid) = fake(320), fake(128)
    x_train, y_train, x_valid, y_valid = map(torch.tensor, (x_train, y_train, x_valid, y_valid))
    n, c = x_train.shape
    print(x_train, y_train, x_train.shape, y_train.min(), y_train.max())
    weights = torch.randn(784, 10) / math.sqrt(784)
    weights.requires_grad_()
    bias = torch.zeros(10, requires_grad=True)

    def log_softmax(x):
        return x - x.exp().sum(-1).log().unsqueeze(-1)

    def model(xb):
        return log_softmax(xb @ weights + bias)

    def nll(input, target):
        return -input[range(target.shape[0]), target].mean()

    def accuracy(out, yb):
        return (torch.argmax(out, dim=1) == yb).float().mean()

    bs, lr, epochs = 64, 0.5, 2
    xb, yb = x_train[0:bs], y_train[0:bs]
    preds = model(xb)
    print(preds[0], preds.shape, nll(preds, yb), accuracy(preds, yb))
    for epoch in range(epochs):
        for i in range((n - 1) // bs + 1):
            xb, yb = x_train[i * bs:i * bs + bs], y_train[i * bs:i * bs + bs]
            loss = nll(model(xb), yb)
            loss.backward()
            with torch.no_grad():
                weights -= weights.grad * lr
                bias -= bias.grad * lr
                weights.grad.zero_()
                bias.grad.zero_()
    print(nll(model(xb), yb), accuracy(model(xb), yb))
    loss_func = F.cross_entropy
    print(loss_func(xb @ weights + bias, yb))

    class MnistLogistic(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(784, 10)

        def forward(self, xb):
            return self.lin(xb)

    class MnistParameters(nn.Module):
        def __init__(self):
            super().__init__()
            self.weights = nn.Parameter(torch.randn(784, 10) / math.sqrt(784))
            self.bias = nn.Parameter(torch.zeros(10))

        def forward(self, xb):
            return xb @ self.weights + self.bias

    by_hand = MnistParameters()
    for i in range((n - 1) // bs + 1):
        loss_func(by_hand(x_train[i * bs:i * bs + bs]), y_train[i * bs:i * bs + bs]).backward()
        with torch.no_grad():
            for p in by_hand.parameters():
                p -= p.grad * lr
            by_hand.zero_grad()
    print(loss_func(by_hand(xb), yb))

    def get_model():
        m = MnistLogistic()
        return m, optim.SGD(m.parameters(), lr=lr)

    train_ds = TensorDataset(x_train, y_train)
    valid_ds = TensorDataset(x_valid, y_valid)
    model, opt = get_model()
    for i in range((n - 1) // bs + 1):
        xb, yb = train_ds[i * bs: i * bs + bs]
        loss_func(model(xb), yb).backward()
        opt.step()
        opt.zero_grad()
    print(loss_func(model(xb), yb))
    train_dl = DataLoader(train_ds, batch_size=bs, shuffle=True)
    valid_dl = DataLoader(valid_ds, batch_size=bs * 2)
    model.eval()
    with torch.no_grad():
        valid_loss = sum(loss_func(model(xb), yb) for xb, yb in valid_dl)
    print(valid_loss / len(valid_dl))

    def loss_batch(model, loss_func, xb, yb, opt=None):
        loss = loss_func(model(xb), yb)
        if opt is not None:
            loss.backward()
            opt.step()
            opt.zero_grad()
        return loss.item(), len(xb)

    def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
        for epoch in range(epochs):
            model.train()
            for xb, yb in train_dl:
                loss_batch(model, loss_func, xb, yb, opt)
            model.eval()
            with torch.no_grad():
                losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
            print(epoch, np.sum(np.multiply(losses, nums)) / np.sum(nums))

    class Lambda(nn.Module):
        def __init__(self, func):
            super().__init__()
            self.func = func

        def forward(self, x):
            return self.func(x)

    class MnistCNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1)
            self.conv2 = nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1)

        def forward(self, xb):
            xb = F.relu(self.conv2(F.relu(self.conv1(xb.view(-1, 1, 28, 28)))))
            return F.avg_pool2d(xb, 7).view(-1, xb.size(1))

    cnn = MnistCNN()
    fit(1, cnn, loss_func, optim.SGD(cnn.parameters(), lr=0.1, momentum=0.9), train_dl, valid_dl)

    class WrappedDataLoader:
        def __init__(self, dl, func):
            self.dl, self.func = dl, func

        def __len__(self):
            return len(self.dl)

        def __iter__(self):
            for b in iter(self.dl):
                yield self.func(*b)

    dev = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
    wrap = lambda x, y: (x.view(-1, 1, 28, 28).to(dev), y.to(dev))  # noqa: E731
    seq = nn.Sequential(
        nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), Lambda(lambda x: x.view(x.size(0), -1)))
    seq.to(dev)
    fit(1, seq, loss_func, optim.SGD(seq.parameters(), lr=0.1, momentum=0.9),
        WrappedDataLoader(train_dl, wrap), WrappedDataLoader(valid_dl, wrap))
    print(seq)
    return {"weights": weights, "cnn": cnn.conv2.weight, "seq": seq[2].weight}


# ---- pytorch/tutorials: recipes_source/recipes ----------------------------------------------

def recipes_state_dict_and_checkpoints(torch):
    """pytorch/tutorials recipes_source/recipes/what_is_state_dict.py,
    saving_and_loading_a_general_checkpoint.py, warmstarting_model_using_parameters_from_
    a_different_model.py, zeroing_out_gradients.py and defining_a_neural_network.py: the
    CIFAR LeNet's state_dict sizes and the SGD optimizer's state_dict printed, a general
    checkpoint dict saved and loaded (epoch, loss, both state_dicts), a partial load with
    strict=False, a few SGD-momentum steps on CIFAR10 batches of 4 with the recipe's
    running-loss print, and the MNIST net with Dropout2d, flatten(start_dim=1) and
    log_softmax."""
    nn, F, optim = torch.nn, torch.nn.functional, torch.optim

    class Net(nn.Module):
        def __init__(self):
            super(Net, self).__init__()
            self.conv1 = nn.Conv2d(3, 6, 5)
            self.pool = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv1(x)))
            x = self.pool(F.relu(self.conv2(x)))
            x = x.flatten(start_dim=1)
            return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

    net = Net()
    print(net)
    optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
    print("Model's state_dict:")
    for param_tensor in net.state_dict():
        print(param_tensor, "\t", net.state_dict()[param_tensor].size())
    print("Optimizer's state_dict:")
    for var_name in optimizer.state_dict():
        print(var_name, "\t", optimizer.state_dict()[var_name])
    with in_temporary_directory():
        torch.save({'epoch': 5, 'model_state_dict': net.state_dict(),
                    'optimizer_state_dict': optimizer.state_dict(), 'loss': 0.4}, "model.pt")
        model = Net()
        optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
        checkpoint = torch.load("model.pt")
        print(model.load_state_dict(checkpoint['model_state_dict']))
        optimizer.load_state_dict(checkpoint['optimizer_state_dict'])
        print(checkpoint['epoch'], checkpoint['loss'])
        model.eval()
        model.train()
        torch.save(net.state_dict(), "model.pt")
        partial = {k: v for k, v in torch.load("model.pt").items() if not k.startswith("fc3")}
        other = Net()
        print(other.load_state_dict(partial, strict=False))
    trainset = image_dataset(torch, 48, shape=(3, 32, 32), seed=3)
    trainloader = torch.utils.data.DataLoader(trainset, batch_size=4, shuffle=True,
                                              num_workers=0)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(2):
        running_loss = 0.0
        for i, data in enumerate(trainloader, 0):
            inputs, labels = data
            optimizer.zero_grad()
            loss = criterion(model(inputs), labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
            if i % 6 == 5:
                print('[%d, %5d] loss: %.3f' % (epoch + 1, i + 1, running_loss / 6))
                running_loss = 0.0
    print('Finished Training', optimizer.state_dict()['state'][9]['momentum_buffer'][:3])

    class MnistNet(nn.Module):
        def __init__(self):
            super(MnistNet, self).__init__()
            self.conv1 = nn.Conv2d(1, 32, 3, 1)
            self.conv2 = nn.Conv2d(32, 64, 3, 1)
            self.dropout1 = nn.Dropout2d(0.25)
            self.dropout2 = nn.Dropout2d(0.5)
            self.fc1 = nn.Linear(9216, 128)
            self.fc2 = nn.Linear(128, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv2(F.relu(self.conv1(x)))), 2)
            x = self.dropout1(x).flatten(start_dim=1)
            x = self.dropout2(F.relu(self.fc1(x)))
            return F.log_softmax(self.fc2(x), dim=1)

    mnist = MnistNet()
    print(mnist)
    print(mnist(torch.rand((1, 1, 28, 28))))
    return {"fc3": model.fc3.weight, "other.fc3": other.fc3.bias, "mnist": mnist.fc2.bias}


# ---- pytorch/tutorials: beginner_source/examples_* ------------------------------------------

def learning_with_examples(torch):
    """pytorch/tutorials beginner_source/examples_autograd/polynomial_custom_function.py
    (LegendrePolynomial3, an autograd.Function with ctx.save_for_backward, and updates
    with grad = None), examples_tensor/polynomial_tensor.py (hand-written gradients),
    examples_nn/polynomial_nn.py (x.unsqueeze(-1).pow(p), Flatten(0, 1), MSELoss(sum)),
    polynomial_optim.py (RMSprop), polynomial_module.py and dynamic_net.py
    (random.randint picks the depth), each trained a few hundred steps."""
    class LegendrePolynomial3(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return 0.5 * (5 * input ** 3 - 3 * input)

        @staticmethod
        def backward(ctx, grad_output):
            input, = ctx.saved_tensors
            return grad_output * 1.5 * (5 * input ** 2 - 1)

    dtype, device = torch.float, torch.device("cpu")
    x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
    y = torch.sin(x)
    a, b, c, d = (torch.full((), v, device=device, dtype=dtype, requires_grad=True)
                  for v in (0.0, -1.0, 0.0, 0.3))
    for t in range(200):
        y_pred = a + b * LegendrePolynomial3.apply(c + d * x)
        loss = (y_pred - y).pow(2).sum()
        if t % 100 == 99:
            print(t, loss.item())
        loss.backward()
        with torch.no_grad():
            for p in (a, b, c, d):
                p -= 5e-6 * p.grad
                p.grad = None
    print(f'Result: y = {a.item()} + {b.item()} * P3({c.item()} + {d.item()} x)')
    w = [torch.randn((), device=device, dtype=dtype) for _ in range(4)]
    for t in range(200):
        y_pred = w[0] + w[1] * x + w[2] * x ** 2 + w[3] * x ** 3
        if t % 100 == 99:
            print(t, (y_pred - y).pow(2).sum().item())
        grad_y_pred = 2.0 * (y_pred - y)
        grads = [grad_y_pred.sum(), (grad_y_pred * x).sum(), (grad_y_pred * x ** 2).sum(),
                 (grad_y_pred * x ** 3).sum()]
        for k in range(4):
            w[k] -= 1e-6 * grads[k]
    xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))
    model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
    loss_fn = torch.nn.MSELoss(reduction='sum')
    for t in range(200):
        loss = loss_fn(model(xx), y)
        if t % 100 == 99:
            print(t, loss.item())
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for param in model.parameters():
                param -= 1e-6 * param.grad
    layer = model[0]
    print(f'Result: y = {layer.bias.item()} + {layer.weight[:, 0].item()} x + '
          f'{layer.weight[:, 1].item()} x^2 + {layer.weight[:, 2].item()} x^3')
    after_sgd = model[0].weight.detach().clone()
    # (RMSprop divides by the root of small averages: a coefficient near 0 jitters by the
    # last bits of the sums, so the losses are compared, not its final weights)
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    for t in range(200):
        loss = loss_fn(model(xx), y)
        if t % 100 == 99:
            print(t, loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    class DynamicNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b, self.c, self.d, self.e = (
                torch.nn.Parameter(torch.randn(())) for _ in range(5))

        def forward(self, x):
            y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
            for exp in range(4, random.randint(4, 6)):
                y = y + self.e * x ** exp
            return y

    random.seed(0)
    net = DynamicNet()
    optimizer = torch.optim.SGD(net.parameters(), lr=1e-8, momentum=0.9)
    for t in range(200):
        loss = torch.nn.MSELoss(reduction='sum')(net(x), y)
        if t % 100 == 99:
            print(t, loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(net)
    return {"abcd": torch.stack([a, b, c, d]).detach(), "w": torch.stack(w),
            "linear": after_sgd, "e": net.e}


# ---- karpathy: micrograd, makemore, nn-zero-to-hero, nanoGPT, minGPT ------------------------

def micrograd_engine_tests(torch):
    """karpathy/micrograd test/test_engine.py: the PyTorch halves of its three tests, which
    micrograd's Value is checked against: torch.Tensor([...]).double(), requires_grad set
    as an attribute, relu, powers, division both ways, and torch.Tensor.tanh/exp called
    unbound."""
    x = torch.Tensor([-4.0]).double()
    x.requires_grad = True
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    print(y.data.item(), x.grad.item())
    a, b = torch.Tensor([-4.0]).double(), torch.Tensor([2.0]).double()
    a.requires_grad = True
    b.requires_grad = True
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    print(g.data.item(), a.grad.item(), b.grad.item())
    for fn in (torch.Tensor.tanh, torch.Tensor.exp):
        for v in (-1., .123, 2.):
            xt = torch.Tensor([v]).double()
            xt.requires_grad = True
            yt = fn(xt)
            yt.backward()
            print(yt.data.item(), xt.grad.item())
    return {"a.grad": a.grad, "b.grad": b.grad, "x.grad": x.grad}


def makemore_models(torch):
    """karpathy/makemore makemore.py: its CharDataset (encode/decode, -1 targets masked by
    ignore_index), create_datasets' randperm split, the InfiniteDataLoader over a
    RandomSampler(replacement=True, num_samples=int(1e10)) with pin_memory=True, and each
    model type (Bigram, MLP with torch.roll and an in-place <BLANK> column, RNN and GRU
    cells with expand and stack, BoW with a masked uniform attention, the Transformer with
    NewGELU and a registered causal mask) trained a few AdamW steps with
    zero_grad(set_to_none=True); evaluate() under @torch.inference_mode; generate() with
    topk and multinomial under @torch.no_grad."""
    nn, F = torch.nn, torch.nn.functional

    class CharDataset(torch.utils.data.Dataset):
        def __init__(self, words, chars, max_word_length):
            self.words, self.chars, self.max_word_length = words, chars, max_word_length
            self.stoi = {ch: i + 1 for i, ch in enumerate(chars)}
            self.itos = {i: s for s, i in self.stoi.items()}

        def __len__(self):
            return len(self.words)

        def contains(self, word):
            return word in self.words

        def get_vocab_size(self):
            return len(self.chars) + 1

        def get_output_length(self):
            return self.max_word_length + 1

        def encode(self, word):
            return torch.tensor([self.stoi[w] for w in word], dtype=torch.long)

        def decode(self, ix):
            return ''.join(self.itos[i] for i in ix)

        def __getitem__(self, idx):
            ix = self.encode(self.words[idx])
            x = torch.zeros(self.max_word_length + 1, dtype=torch.long)
            y = torch.zeros(self.max_word_length + 1, dtype=torch.long)
            x[1:1 + len(ix)] = ix
            y[:len(ix)] = ix
            y[len(ix) + 1:] = -1
            return x, y

    words = names()
    chars = sorted(list(set(''.join(words))))
    max_len = max(len(w) for w in words)
    test_set_size = min(1000, int(len(words) * 0.1))
    rp = torch.randperm(len(words)).tolist()
    train = CharDataset([words[i] for i in rp[:-test_set_size]], chars, max_len)
    test = CharDataset([words[i] for i in rp[-test_set_size:]], chars, max_len)
    vocab_size, block_size = train.get_vocab_size(), train.get_output_length()
    print(f"dataset determined that: {vocab_size=}, {block_size=}", len(train), len(test))

    @dataclass
    class ModelConfig:
        block_size: int = None
        vocab_size: int = None
        n_layer: int = 1
        n_embd: int = 16
        n_embd2: int = 16
        n_head: int = 2

    class NewGELU(nn.Module):
        def forward(self, x):
            return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))

    class CausalSelfAttention(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd)
            self.c_proj = nn.Linear(config.n_embd, config.n_embd)
            self.register_buffer("bias", torch.tril(torch.ones(config.block_size, config.block_size))
                                 .view(1, 1, config.block_size, config.block_size))
            self.n_head, self.n_embd = config.n_head, config.n_embd

        def forward(self, x):
            B, T, C = x.size()
            q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
            q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = F.softmax(att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf')), dim=-1)
            return self.c_proj((att @ v).transpose(1, 2).contiguous().view(B, T, C))

    class Transformer(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.block_size = config.block_size
            self.ln_1, self.ln_2, self.ln_f = (nn.LayerNorm(config.n_embd) for _ in range(3))
            self.attn = CausalSelfAttention(config)
            self.mlp = nn.ModuleDict(dict(c_fc=nn.Linear(config.n_embd, 4 * config.n_embd),
                                          c_proj=nn.Linear(4 * config.n_embd, config.n_embd),
                                          act=NewGELU()))
            self.wte = nn.Embedding(config.vocab_size, config.n_embd)
            self.wpe = nn.Embedding(config.block_size, config.n_embd)
            self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

        def get_block_size(self):
            return self.block_size

        def forward(self, idx, targets=None):
            b, t = idx.size()
            pos = torch.arange(0, t, dtype=torch.long, device=idx.device).unsqueeze(0)
            x = self.wte(idx) + self.wpe(pos)
            x = x + self.attn(self.ln_1(x))
            m = self.mlp
            x = x + m.c_proj(m.act(m.c_fc(self.ln_2(x))))
            return _logits_and_loss(self.lm_head(self.ln_f(x)), targets)

    def _logits_and_loss(logits, targets):
        loss = None if targets is None else F.cross_entropy(
            logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss

    class BoW(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.block_size = config.block_size
            self.wte = nn.Embedding(config.vocab_size, config.n_embd)
            self.wpe = nn.Embedding(config.block_size, config.n_embd)
            self.register_buffer("bias", torch.tril(torch.ones(config.block_size, config.block_size))
                                 .view(1, config.block_size, config.block_size))
            self.c_fc = nn.Linear(config.n_embd, config.n_embd2)
            self.c_proj = nn.Linear(config.n_embd2, config.n_embd)
            self.lm_head = nn.Linear(config.n_embd, config.vocab_size)

        def get_block_size(self):
            return self.block_size

        def forward(self, idx, targets=None):
            b, t = idx.size()
            pos = torch.arange(0, t, dtype=torch.long, device=idx.device).unsqueeze(0)
            x = self.wte(idx) + self.wpe(pos)
            B, T, C = x.size()
            att = torch.zeros((B, T, T), device=x.device)
            att = F.softmax(att.masked_fill(self.bias[:, :T, :T] == 0, float('-inf')), dim=-1)
            x = x + att @ x
            x = x + self.c_proj(F.tanh(self.c_fc(x)))
            return _logits_and_loss(self.lm_head(x), targets)

    class RNN(nn.Module):
        def __init__(self, config, cell_type):
            super().__init__()
            self.block_size, self.cell_type = config.block_size, cell_type
            self.start = nn.Parameter(torch.zeros(1, config.n_embd2))
            self.wte = nn.Embedding(config.vocab_size, config.n_embd)
            width = config.n_embd + config.n_embd2
            self.xh_to_h = nn.Linear(width, config.n_embd2)
            self.xh_to_z = nn.Linear(width, config.n_embd2)
            self.xh_to_r = nn.Linear(width, config.n_embd2)
            self.lm_head = nn.Linear(config.n_embd2, config.vocab_size)

        def get_block_size(self):
            return self.block_size

        def cell(self, xt, hprev):
            xh = torch.cat([xt, hprev], dim=1)
            if self.cell_type == 'rnn':
                return F.tanh(self.xh_to_h(xh))
            r = F.sigmoid(self.xh_to_r(xh))
            hbar = F.tanh(self.xh_to_h(torch.cat([xt, r * hprev], dim=1)))
            z = F.sigmoid(self.xh_to_z(xh))
            return (1 - z) * hprev + z * hbar

        def forward(self, idx, targets=None):
            b, t = idx.size()
            emb = self.wte(idx)
            hprev = self.start.expand((b, -1))
            hiddens = []
            for i in range(t):
                hprev = self.cell(emb[:, i, :], hprev)
                hiddens.append(hprev)
            return _logits_and_loss(self.lm_head(torch.stack(hiddens, 1)), targets)

    class MLP(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.block_size, self.vocab_size = config.block_size, config.vocab_size
            self.wte = nn.Embedding(config.vocab_size + 1, config.n_embd)
            self.mlp = nn.Sequential(nn.Linear(self.block_size * config.n_embd, config.n_embd2),
                                     nn.Tanh(), nn.Linear(config.n_embd2, self.vocab_size))

        def get_block_size(self):
            return self.block_size

        def forward(self, idx, targets=None):
            embs = []
            for k in range(self.block_size):
                embs.append(self.wte(idx))
                idx = torch.roll(idx, 1, 1)
                idx[:, 0] = self.vocab_size
            return _logits_and_loss(self.mlp(torch.cat(embs, -1)), targets)

    class Bigram(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.logits = nn.Parameter(torch.zeros((config.vocab_size, config.vocab_size)))

        def get_block_size(self):
            return 1

        def forward(self, idx, targets=None):
            return _logits_and_loss(self.logits[idx], targets)

    @torch.no_grad()
    def generate(model, idx, max_new_tokens, temperature=1.0, do_sample=False, top_k=None):
        for _ in range(max_new_tokens):
            size = model.get_block_size()
            idx_cond = idx if idx.size(1) <= size else idx[:, -size:]
            logits, _ = model(idx_cond)
            logits = logits[:, -1, :] / temperature
            if top_k is not None:
                v, _ = torch.topk(logits, top_k)
                logits[logits < v[:, [-1]]] = -float('Inf')
            probs = F.softmax(logits, dim=-1)
            if do_sample:
                idx_next = torch.multinomial(probs, num_samples=1)
            else:
                _, idx_next = torch.topk(probs, k=1, dim=-1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx

    @torch.inference_mode()
    def evaluate(model, dataset, batch_size=50, max_batches=None):
        model.eval()
        loader = torch.utils.data.DataLoader(dataset, shuffle=True, batch_size=batch_size,
                                             num_workers=0)
        losses = []
        for i, batch in enumerate(loader):
            X, Y = [t.to('cpu') for t in batch]
            losses.append(model(X, Y)[1].item())
            if max_batches is not None and i >= max_batches:
                break
        model.train()
        return torch.tensor(losses).mean().item()

    class InfiniteDataLoader:
        def __init__(self, dataset, **kwargs):
            sampler = torch.utils.data.RandomSampler(dataset, replacement=True,
                                                     num_samples=int(1e10))
            self.train_loader = torch.utils.data.DataLoader(dataset, sampler=sampler, **kwargs)
            self.data_iter = iter(self.train_loader)

        def next(self):
            return next(self.data_iter)

    config = ModelConfig(vocab_size=vocab_size, block_size=block_size)
    finals = {}
    for kind, build in [("bigram", Bigram), ("mlp", MLP), ("rnn", lambda c: RNN(c, 'rnn')),
                        ("gru", lambda c: RNN(c, 'gru')), ("bow", BoW),
                        ("transformer", Transformer)]:
        torch.manual_seed(3407)
        model = build(config)
        print(kind, f"model #params: {sum(p.numel() for p in model.parameters())}")
        optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=0.01,
                                      betas=(0.9, 0.99), eps=1e-8)
        batches = InfiniteDataLoader(train, batch_size=16, pin_memory=True, num_workers=0)
        for step in range(6):
            X, Y = [t.to('cpu') for t in batches.next()]
            logits, loss = model(X, Y)
            model.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            if step % 5 == 0:
                print(f"step {step} | loss {loss.item():.4f}")
        print(f"train loss: {evaluate(model, train, 20, 2)} test loss: {evaluate(model, test, 20, 2)}")
        samples = generate(model, torch.zeros(3, 1, dtype=torch.long), block_size - 1,
                           top_k=5, do_sample=True).to('cpu')
        for row in samples[:, 1:].tolist():
            row = row[:row.index(0)] if 0 in row else row
            word = train.decode(row)
            print(word, train.contains(word), test.contains(word))
        finals[kind] = next(iter(model.parameters())).detach().clone()
    return finals


def nanogpt_train(torch):
    """karpathy/nanoGPT model.py and train.py: LayerNorm with an optional bias through
    F.layer_norm, CausalSelfAttention through F.scaled_dot_product_attention(is_causal=True,
    dropout_p) when torch.nn.functional has it, GELU, weight tying (wte.weight =
    lm_head.weight), apply(_init_weights) and the scaled c_proj init, get_num_params,
    crop_block_size, configure_optimizers (decay/no-decay groups, 'fused' looked up with
    inspect.signature(torch.optim.AdamW)); train.py's set-up (allow_tf32 switches, the
    {'bfloat16': torch.bfloat16, ...} table, nullcontext on the CPU,
    torch.cuda.amp.GradScaler(enabled=False)), get_batch from a uint16 token array with
    torch.from_numpy(...astype(np.int64)), the cosine learning rate, gradient accumulation,
    scaler.unscale_ and clip_grad_norm_, estimate_loss, a checkpoint saved and loaded, and
    sample.py's generate with temperature and top_k."""
    nn, F = torch.nn, torch.nn.functional

    class LayerNorm(nn.Module):
        def __init__(self, ndim, bias):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(ndim))
            self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None

        def forward(self, input):
            return F.layer_norm(input, self.weight.shape, self.weight, self.bias, 1e-5)

    class CausalSelfAttention(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
            self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
            self.attn_dropout = nn.Dropout(config.dropout)
            self.resid_dropout = nn.Dropout(config.dropout)
            self.n_head, self.n_embd, self.dropout = config.n_head, config.n_embd, config.dropout
            self.flash = hasattr(torch.nn.functional, 'scaled_dot_product_attention')
            if not self.flash:
                print("WARNING: using slow attention. Flash Attention requires PyTorch >= 2.0")

        def forward(self, x):
            B, T, C = x.size()
            q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
            q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
            y = torch.nn.functional.scaled_dot_product_attention(
                q, k, v, attn_mask=None, dropout_p=self.dropout if self.training else 0,
                is_causal=True)
            y = y.transpose(1, 2).contiguous().view(B, T, C)
            return self.resid_dropout(self.c_proj(y))

    class MLP(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
            self.gelu = nn.GELU()
            self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)
            self.dropout = nn.Dropout(config.dropout)

        def forward(self, x):
            return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))

    class Block(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.ln_1 = LayerNorm(config.n_embd, bias=config.bias)
            self.attn = CausalSelfAttention(config)
            self.ln_2 = LayerNorm(config.n_embd, bias=config.bias)
            self.mlp = MLP(config)

        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            return x + self.mlp(self.ln_2(x))

    @dataclass
    class GPTConfig:
        block_size: int = 1024
        vocab_size: int = 50304
        n_layer: int = 12
        n_head: int = 12
        n_embd: int = 768
        dropout: float = 0.0
        bias: bool = True

    class GPT(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.config = config
            self.transformer = nn.ModuleDict(dict(
                wte=nn.Embedding(config.vocab_size, config.n_embd),
                wpe=nn.Embedding(config.block_size, config.n_embd),
                drop=nn.Dropout(config.dropout),
                h=nn.ModuleList([Block(config) for _ in range(config.n_layer)]),
                ln_f=LayerNorm(config.n_embd, bias=config.bias)))
            self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
            self.transformer.wte.weight = self.lm_head.weight
            self.apply(self._init_weights)
            for pn, p in self.named_parameters():
                if pn.endswith('c_proj.weight'):
                    torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * config.n_layer))
            print("number of parameters: %.2fM" % (self.get_num_params() / 1e6,))

        def get_num_params(self, non_embedding=True):
            n_params = sum(p.numel() for p in self.parameters())
            return n_params - (self.transformer.wpe.weight.numel() if non_embedding else 0)

        def _init_weights(self, module):
            if isinstance(module, nn.Linear):
                torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
                if module.bias is not None:
                    torch.nn.init.zeros_(module.bias)
            elif isinstance(module, nn.Embedding):
                torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

        def forward(self, idx, targets=None):
            b, t = idx.size()
            pos = torch.arange(0, t, dtype=torch.long, device=idx.device)
            x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
            for block in self.transformer.h:
                x = block(x)
            x = self.transformer.ln_f(x)
            if targets is not None:
                logits = self.lm_head(x)
                return logits, F.cross_entropy(logits.view(-1, logits.size(-1)),
                                               targets.view(-1), ignore_index=-1)
            return self.lm_head(x[:, [-1], :]), None

        def crop_block_size(self, block_size):
            self.config.block_size = block_size
            self.transformer.wpe.weight = nn.Parameter(self.transformer.wpe.weight[:block_size])

        def configure_optimizers(self, weight_decay, learning_rate, betas, device_type):
            param_dict = {pn: p for pn, p in self.named_parameters() if p.requires_grad}
            decay = [p for n, p in param_dict.items() if p.dim() >= 2]
            nodecay = [p for n, p in param_dict.items() if p.dim() < 2]
            groups = [{'params': decay, 'weight_decay': weight_decay},
                      {'params': nodecay, 'weight_decay': 0.0}]
            print(f"num decayed parameter tensors: {len(decay)}, with "
                  f"{sum(p.numel() for p in decay):,} parameters")
            print(f"num non-decayed parameter tensors: {len(nodecay)}, with "
                  f"{sum(p.numel() for p in nodecay):,} parameters")
            fused_available = 'fused' in inspect.signature(torch.optim.AdamW).parameters
            use_fused = fused_available and device_type == 'cuda'
            extra = dict(fused=True) if use_fused else dict()
            print(f"using fused AdamW: {use_fused}")
            return torch.optim.AdamW(groups, lr=learning_rate, betas=betas, **extra)

        @torch.no_grad()
        def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None):
            for _ in range(max_new_tokens):
                size = self.config.block_size
                idx_cond = idx if idx.size(1) <= size else idx[:, -size:]
                logits = self(idx_cond)[0][:, -1, :] / temperature
                if top_k is not None:
                    v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                    logits[logits < v[:, [-1]]] = -float('Inf')
                idx_next = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
                idx = torch.cat((idx, idx_next), dim=1)
            return idx

    batch_size, block_size, device, dtype = 4, 12, 'cpu', 'float32'
    device_type = 'cuda' if 'cuda' in device else 'cpu'
    torch.manual_seed(1337)
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    ptdtype = {'float32': torch.float32, 'bfloat16': torch.bfloat16, 'float16': torch.float16}[dtype]
    ctx = contextlib.nullcontext() if device_type == 'cpu' else torch.amp.autocast(
        device_type=device_type, dtype=ptdtype)
    tokens = np.random.default_rng(0)
    train_data = tokens.integers(0, 65, 3000).astype(np.uint16)
    val_data = tokens.integers(0, 65, 600).astype(np.uint16)

    def get_batch(split):
        data = train_data if split == 'train' else val_data
        ix = torch.randint(len(data) - block_size, (batch_size,))
        x = torch.stack([torch.from_numpy((data[i:i + block_size]).astype(np.int64)) for i in ix])
        y = torch.stack([torch.from_numpy((data[i + 1:i + 1 + block_size]).astype(np.int64)) for i in ix])
        return x.to(device), y.to(device)

    model_args = dict(n_layer=2, n_head=2, n_embd=16, block_size=16, bias=False,
                      vocab_size=65, dropout=0.1)
    model = GPT(GPTConfig(**model_args))
    model.crop_block_size(block_size)
    model_args['block_size'] = block_size
    scaler = torch.cuda.amp.GradScaler(enabled=(dtype == 'float16'))
    optimizer = model.configure_optimizers(0.1, 1e-3, (0.9, 0.99), device_type)

    @torch.no_grad()
    def estimate_loss():
        out = {}
        model.eval()
        for split in ['train', 'val']:
            losses = torch.zeros(3)
            for k in range(3):
                with ctx:
                    losses[k] = model(*get_batch(split))[1].item()
            out[split] = losses.mean()
        model.train()
        return out

    def get_lr(it, warmup=3, decay=12, lr=1e-3, min_lr=1e-4):
        if it < warmup:
            return lr * (it + 1) / (warmup + 1)
        if it > decay:
            return min_lr
        ratio = (it - warmup) / (decay - warmup)
        return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (lr - min_lr)

    X, Y = get_batch('train')
    for iter_num in range(13):
        for group in optimizer.param_groups:
            group['lr'] = get_lr(iter_num)
        if iter_num % 6 == 0:
            losses = estimate_loss()
            print(f"step {iter_num}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
        for micro_step in range(2):
            with ctx:
                loss = model(X, Y)[1] / 2
            X, Y = get_batch('train')
            scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        if iter_num % 4 == 0:
            print(f"iter {iter_num}: loss {loss.item() * 2:.4f}, norm {norm:.4f}")
    with in_temporary_directory():
        torch.save({'model': model.state_dict(), 'optimizer': optimizer.state_dict(),
                    'model_args': model_args, 'iter_num': 13}, 'ckpt.pt')
        checkpoint = torch.load('ckpt.pt', map_location=device)
    restored = GPT(GPTConfig(**checkpoint['model_args']))
    state_dict = checkpoint['model']
    for k, v in list(state_dict.items()):
        if k.startswith('_orig_mod.'):
            state_dict[k[len('_orig_mod.'):]] = state_dict.pop(k)
    print(restored.load_state_dict(state_dict))
    restored.eval()
    start = torch.tensor([1, 2, 3], dtype=torch.long, device=device)[None, ...]
    with torch.no_grad(), ctx:
        print(restored.generate(start, 10, temperature=0.8, top_k=20)[0].tolist())
    return {"wte": model.transformer.wte.weight, "ln_f": model.transformer.ln_f.weight}


def mingpt_char(torch):
    """karpathy/minGPT mingpt/model.py (an early version: key/query/value Linears, a
    registered "mask" buffer, each forward decorated with @autocast() from torch.cuda.amp,
    a pos_emb Parameter, blocks in an nn.Sequential, _init_weights with .data.normal_ and
    .data.fill_) with its play_char CharDataset, AdamW, clip_grad_norm_ and mingpt/utils.py's
    sample() with top_k_logits (clone and -inf assignment) and topk for greedy decoding."""
    nn, F = torch.nn, torch.nn.functional
    autocast = torch.cuda.amp.autocast

    class Config:
        embd_pdrop = resid_pdrop = attn_pdrop = 0.1

        def __init__(self, vocab_size, block_size, **kwargs):
            self.vocab_size, self.block_size = vocab_size, block_size
            for k, v in kwargs.items():
                setattr(self, k, v)

    class SelfAttention(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.key, self.query, self.value, self.proj = (
                nn.Linear(config.n_embd, config.n_embd) for _ in range(4))
            self.attn_drop = nn.Dropout(config.attn_pdrop)
            self.resid_drop = nn.Dropout(config.resid_pdrop)
            self.register_buffer("mask", torch.tril(torch.ones(config.block_size, config.block_size))
                                 .view(1, 1, config.block_size, config.block_size))
            self.n_head = config.n_head

        @autocast()
        def forward(self, x):
            B, T, C = x.size()
            k, q, v = (m(x).view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
                       for m in (self.key, self.query, self.value))
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = self.attn_drop(F.softmax(att.masked_fill(self.mask[:, :, :T, :T] == 0, float('-inf')), dim=-1))
            return self.resid_drop(self.proj((att @ v).transpose(1, 2).contiguous().view(B, T, C)))

    class Block(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(config.n_embd), nn.LayerNorm(config.n_embd)
            self.attn = SelfAttention(config)
            self.mlp = nn.Sequential(nn.Linear(config.n_embd, 4 * config.n_embd), nn.GELU(),
                                     nn.Linear(4 * config.n_embd, config.n_embd),
                                     nn.Dropout(config.resid_pdrop))

        @autocast()
        def forward(self, x):
            x = x + self.attn(self.ln1(x))
            return x + self.mlp(self.ln2(x))

    class GPT(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.tok_emb = nn.Embedding(config.vocab_size, config.n_embd)
            self.pos_emb = nn.Parameter(torch.zeros(1, config.block_size, config.n_embd))
            self.drop = nn.Dropout(config.embd_pdrop)
            self.blocks = nn.Sequential(*[Block(config) for _ in range(config.n_layer)])
            self.ln_f = nn.LayerNorm(config.n_embd)
            self.head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
            self.block_size = config.block_size
            self.apply(self._init_weights)

        def _init_weights(self, module):
            if isinstance(module, (nn.Linear, nn.Embedding)):
                module.weight.data.normal_(mean=0.0, std=0.02)
                if isinstance(module, nn.Linear) and module.bias is not None:
                    module.bias.data.zero_()
            elif isinstance(module, nn.LayerNorm):
                module.bias.data.zero_()
                module.weight.data.fill_(1.0)

        def get_block_size(self):
            return self.block_size

        @autocast()
        def forward(self, idx, targets=None):
            b, t = idx.size()
            x = self.drop(self.tok_emb(idx) + self.pos_emb[:, :t, :])
            logits = self.head(self.ln_f(self.blocks(x)))
            loss = None if targets is None else F.cross_entropy(
                logits.view(-1, logits.size(-1)), targets.view(-1))
            return logits, loss

    class CharDataset(torch.utils.data.Dataset):
        def __init__(self, data, block_size):
            chars = sorted(list(set(data)))
            print('data has %d characters, %d unique.' % (len(data), len(chars)))
            self.stoi = {ch: i for i, ch in enumerate(chars)}
            self.itos = {i: ch for i, ch in enumerate(chars)}
            self.block_size, self.vocab_size, self.data = block_size, len(chars), data

        def __len__(self):
            return len(self.data) - self.block_size

        def __getitem__(self, idx):
            dix = [self.stoi[s] for s in self.data[idx:idx + self.block_size + 1]]
            return torch.tensor(dix[:-1], dtype=torch.long), torch.tensor(dix[1:], dtype=torch.long)

    text = "first citizen: before we proceed any further, hear me speak. all: speak, speak. " * 3
    dataset = CharDataset(text, 12)
    torch.manual_seed(42)
    model = GPT(Config(dataset.vocab_size, dataset.block_size, n_layer=1, n_head=2, n_embd=16))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, betas=(0.9, 0.95))
    loader = torch.utils.data.DataLoader(dataset, shuffle=True, pin_memory=True, batch_size=32,
                                         num_workers=0)
    model.train(True)
    for it, (x, y) in enumerate(loader):
        with torch.set_grad_enabled(True):
            logits, loss = model(x, y)
            loss = loss.mean()
        model.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        print(f"epoch 1 iter {it}: train loss {loss.item():.5f}. lr {3e-3:e}")

    def top_k_logits(logits, k):
        v, ix = torch.topk(logits, k)
        out = logits.clone()
        out[out < v[:, [-1]]] = -float('Inf')
        return out

    @torch.no_grad()
    def sample(model, x, steps, temperature=1.0, sample=False, top_k=None):
        model.eval()
        for k in range(steps):
            x_cond = x if x.size(1) <= model.get_block_size() else x[:, -model.get_block_size():]
            logits = model(x_cond)[0][:, -1, :] / temperature
            if top_k is not None:
                logits = top_k_logits(logits, top_k)
            probs = F.softmax(logits, dim=-1)
            ix = torch.multinomial(probs, num_samples=1) if sample else torch.topk(probs, k=1, dim=-1)[1]
            x = torch.cat((x, ix), dim=1)
        return x

    context = torch.tensor([dataset.stoi[s] for s in "hear "], dtype=torch.long)[None, ...]
    for sampled in (True, False):
        y = sample(model, context, 20, sample=sampled, top_k=5)[0]
        print(''.join([dataset.itos[int(i)] for i in y]))
    return {"head": model.head.weight, "pos_emb": model.pos_emb}


def backprop_ninja(torch):
    """karpathy/nn-zero-to-hero lectures/makemore/makemore_part4_backprop.ipynb: the
    two-layer MLP with batch norm written as small steps (retain_grad on each), its manual
    backward (one_hot of max indices, Bessel's correction, the embedding's scatter by
    loops) checked against autograd with the notebook's cmp() (exact, allclose, maxdiff),
    then the fused cross-entropy and batch-norm gradients."""
    F = torch.nn.functional
    words = names()
    chars = sorted(list(set(''.join(words))))
    stoi = {s: i + 1 for i, s in enumerate(chars)}
    stoi['.'] = 0
    vocab_size, block_size = len(stoi), 3
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + '.':
            X.append(context)
            Y.append(stoi[ch])
            context = context[1:] + [stoi[ch]]
    Xtr, Ytr = torch.tensor(X), torch.tensor(Y)

    def cmp(s, dt, t):
        ex = torch.all(dt == t.grad).item()
        app = torch.allclose(dt, t.grad)
        maxdiff = (dt - t.grad).abs().max().item()
        print(f'{s:15s} | exact: {str(ex):5s} | approximate: {str(app):5s} | maxdiff: {maxdiff}')

    n_embd, n_hidden = 10, 64
    g = torch.Generator().manual_seed(2147483647)
    C = torch.randn((vocab_size, n_embd), generator=g)
    W1 = torch.randn((n_embd * block_size, n_hidden), generator=g) * (5 / 3) / ((n_embd * block_size) ** 0.5)
    b1 = torch.randn(n_hidden, generator=g) * 0.1
    W2 = torch.randn((n_hidden, vocab_size), generator=g) * 0.1
    b2 = torch.randn(vocab_size, generator=g) * 0.1
    bngain = torch.randn((1, n_hidden)) * 0.1 + 1.0
    bnbias = torch.randn((1, n_hidden)) * 0.1
    parameters = [C, W1, b1, W2, b2, bngain, bnbias]
    print(sum(p.nelement() for p in parameters))
    for p in parameters:
        p.requires_grad = True
    n = 32
    ix = torch.randint(0, Xtr.shape[0], (n,), generator=g)
    Xb, Yb = Xtr[ix], Ytr[ix]
    emb = C[Xb]
    embcat = emb.view(emb.shape[0], -1)
    hprebn = embcat @ W1 + b1
    bnmeani = 1 / n * hprebn.sum(0, keepdim=True)
    bndiff = hprebn - bnmeani
    bndiff2 = bndiff ** 2
    bnvar = 1 / (n - 1) * (bndiff2).sum(0, keepdim=True)
    bnvar_inv = (bnvar + 1e-5) ** -0.5
    bnraw = bndiff * bnvar_inv
    hpreact = bngain * bnraw + bnbias
    h = torch.tanh(hpreact)
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
              logits, h, hpreact, bnraw, bnvar_inv, bnvar, bndiff2, bndiff, hprebn, bnmeani,
              embcat, emb]:
        t.retain_grad()
    loss.backward()
    print(loss)
    dlogprobs = torch.zeros_like(logprobs)
    dlogprobs[range(n), Yb] = -1.0 / n
    dprobs = (1.0 / probs) * dlogprobs
    dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
    dcounts = counts_sum_inv * dprobs
    dcounts_sum = (-counts_sum ** -2) * dcounts_sum_inv
    dcounts += torch.ones_like(counts) * dcounts_sum
    dnorm_logits = counts * dcounts
    dlogits = dnorm_logits.clone()
    dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
    dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
    dh = dlogits @ W2.T
    dW2 = h.T @ dlogits
    db2 = dlogits.sum(0)
    dhpreact = (1.0 - h ** 2) * dh
    dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
    dbnraw = bngain * dhpreact
    dbnbias = dhpreact.sum(0, keepdim=True)
    dbndiff = bnvar_inv * dbnraw
    dbnvar_inv = (bndiff * dbnraw).sum(0, keepdim=True)
    dbnvar = (-0.5 * (bnvar + 1e-5) ** -1.5) * dbnvar_inv
    dbndiff2 = (1.0 / (n - 1)) * torch.ones_like(bndiff2) * dbnvar
    dbndiff += (2 * bndiff) * dbndiff2
    dhprebn = dbndiff.clone()
    dbnmeani = (-dbndiff).sum(0)
    dhprebn += 1.0 / n * (torch.ones_like(hprebn) * dbnmeani)
    dembcat = dhprebn @ W1.T
    dW1 = embcat.T @ dhprebn
    db1 = dhprebn.sum(0)
    demb = dembcat.view(emb.shape)
    dC = torch.zeros_like(C)
    for k in range(Xb.shape[0]):
        for j in range(Xb.shape[1]):
            dC[Xb[k, j]] += demb[k, j]
    for name, d, t in [('logprobs', dlogprobs, logprobs), ('probs', dprobs, probs),
                       ('counts_sum_inv', dcounts_sum_inv, counts_sum_inv),
                       ('counts', dcounts, counts), ('logit_maxes', dlogit_maxes, logit_maxes),
                       ('logits', dlogits, logits), ('h', dh, h), ('W2', dW2, W2),
                       ('b2', db2, b2), ('bngain', dbngain, bngain), ('bnbias', dbnbias, bnbias),
                       ('bnvar', dbnvar, bnvar), ('bndiff', dbndiff, bndiff),
                       ('hprebn', dhprebn, hprebn), ('W1', dW1, W1), ('emb', demb, emb),
                       ('C', dC, C)]:
        cmp(name, d, t)
    loss_fast = F.cross_entropy(logits, Yb)
    print(loss_fast.item(), 'diff:', (loss_fast - loss).item())
    dlogits = F.softmax(logits, 1)
    dlogits[range(n), Yb] -= 1
    dlogits /= n
    cmp('logits', dlogits, logits)
    hpreact_fast = bngain * (hprebn - hprebn.mean(0, keepdim=True)) / torch.sqrt(
        hprebn.var(0, keepdim=True, unbiased=True) + 1e-5) + bnbias
    print('max diff:', (hpreact_fast - hpreact).abs().max())
    dhprebn = bngain * bnvar_inv / n * (n * dhpreact - dhpreact.sum(0)
                                        - n / (n - 1) * bnraw * (dhpreact * bnraw).sum(0))
    cmp('hprebn', dhprebn, hprebn)
    return {"dC": dC, "W1.grad": W1.grad, "dW1": dW1}


# ---- d2l-ai/d2l-en --------------------------------------------------------------------------

def d2l_preliminaries(torch):
    """d2l-ai/d2l-en chapter_preliminaries (ndarray.md, linear-algebra.md, autograd.md,
    probability.md, PyTorch tabs): arange/numel/reshape, zeros/ones/randn, indexing and
    slice assignment, elementwise ops with an int tensor, cat along both dims, comparison,
    broadcasting, id() and in-place updates, NumPy round trips, sum/mean with axis= and
    keepdims=, cumsum, dot/mv/mm/norm, x.grad after backward of 2*dot(x, x), detach,
    control flow through a.norm() with torch.randn(size=(), requires_grad=True), and dice
    rolled with torch.distributions.multinomial.Multinomial."""
    from importlib import import_module
    Multinomial = import_module(torch.__name__ + ".distributions.multinomial").Multinomial
    x = torch.arange(12, dtype=torch.float32)
    print(x, x.numel(), x.shape)
    X = x.reshape(3, 4)
    print(X, torch.zeros((2, 3, 4)), torch.ones((2, 3, 4)).sum(), torch.randn(3, 4))
    print(torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))
    print(X[-1], X[1:3])
    X[1, 2] = 17
    X[:2, :] = 12
    print(X, torch.exp(x))
    x, y = torch.tensor([1.0, 2, 4, 8]), torch.tensor([2, 2, 2, 2])
    print(x + y, x - y, x * y, x / y, x ** y)
    X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
    Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
    print(torch.cat((X, Y), dim=0), torch.cat((X, Y), dim=1), X == Y, X.sum())
    a, b = torch.arange(3).reshape((3, 1)), torch.arange(2).reshape((1, 2))
    print(a, b, a + b)
    before = id(Y)
    Y = Y + X
    print(id(Y) == before)
    Z = torch.zeros_like(Y)
    Z[:] = X + Y
    before = id(X)
    X += Y
    print(id(X) == before, Z)
    A = X.numpy()
    B = torch.from_numpy(A)
    print(type(A).__name__, type(B).__name__)
    a = torch.tensor([3.5])
    print(a, a.item(), float(a), int(a))
    A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    B = A.clone()
    print(A.T, A + B, A * B, 2 + A, A.sum(axis=0), A.sum(axis=[0, 1]) == A.sum())
    print(A.mean(), A.sum() / A.numel(), A.mean(axis=0), A.sum(axis=0) / A.shape[0])
    sum_A = A.sum(axis=1, keepdims=True)
    print(sum_A, A / sum_A, A.cumsum(axis=0))
    x, y = torch.arange(3, dtype=torch.float32), torch.ones(3, dtype=torch.float32)
    print(torch.dot(x, y), torch.sum(x * y), torch.mv(A, x), A @ x, torch.mm(A, torch.ones(3, 4)))
    u = torch.tensor([3.0, -4.0])
    print(torch.norm(u), torch.abs(u).sum(), torch.norm(torch.ones((4, 9))))
    x = torch.arange(4.0)
    x.requires_grad_(True)
    print(x.grad)
    y = 2 * torch.dot(x, x)
    y.backward()
    print(y, x.grad, x.grad == 4 * x)
    x.grad.zero_()
    x.sum().backward()
    print(x.grad)
    x.grad.zero_()
    y = x * x
    y.backward(gradient=torch.ones(len(y)))
    print(x.grad)
    x.grad.zero_()
    y = x * x
    u = y.detach()
    (u * x).sum().backward()
    print(x.grad == u)

    def f(a):
        b = a * 2
        while b.norm() < 1000:
            b = b * 2
        return b if b.sum() > 0 else 100 * b

    a = torch.randn(size=(), requires_grad=True)
    d = f(a)
    d.backward()
    print(a, a.grad == d / a)
    fair_probs = torch.tensor([0.5, 0.5])
    print(Multinomial(100, fair_probs).sample() / 100)
    counts = Multinomial(1, torch.ones(6) / 6).sample((1000,))
    cum_counts = counts.cumsum(dim=0)
    estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True)
    print(estimates[-1], estimates[::250, 0])
    return {"a.grad": a.grad, "estimates": estimates[-1]}


def d2l_builders_guide(torch):
    """d2l-ai/d2l-en chapter_builders-guide (model-construction, parameters, init-param,
    lazy-init, custom-layer, read-write), chapter_linear-regression (the from-scratch
    synthetic data, data_iter with random.shuffle, sgd under no_grad) and
    chapter_multilayer-perceptrons (dropout_layer from scratch, weight decay as an SGD
    parameter group): LazyLinear networks, add_module/children, a module with a constant
    rand_weight and a while loop, nested Sequentials, state_dict and named_parameters,
    shared layers, apply() with normal_/constant_/xavier_uniform_/uniform_ and in-place
    masking, custom layers with nn.Parameter, torch.save/load of a tensor, a list and a
    dict, and a lazy clone loaded from a state_dict."""
    nn, F = torch.nn, torch.nn.functional
    X = torch.rand(2, 20)

    class MySequential(nn.Module):
        def __init__(self, *args):
            super().__init__()
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

        def forward(self, X):
            for module in self.children():
                X = module(X)
            return X

    class FixedHiddenMLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.rand_weight = torch.rand((20, 20))
            self.linear = nn.LazyLinear(20)

        def forward(self, X):
            X = self.linear(X)
            X = self.linear(F.relu(X @ self.rand_weight + 1))
            while X.abs().sum() > 1:
                X /= 2
            return X.sum()

    class NestMLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(nn.LazyLinear(64), nn.ReLU(), nn.LazyLinear(32), nn.ReLU())
            self.linear = nn.LazyLinear(16)

        def forward(self, X):
            return self.linear(self.net(X))

    print(MySequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))(X).shape)
    print(FixedHiddenMLP()(X))
    print(nn.Sequential(NestMLP(), nn.LazyLinear(20), FixedHiddenMLP())(X))
    net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1))
    X = torch.rand(size=(2, 4))
    print(net(X).shape, net[2].state_dict(), net[2].bias.data, net[2].weight.grad == None)  # noqa: E711
    print([(name, param.shape) for name, param in net.named_parameters()])
    shared = nn.LazyLinear(8)
    tied = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(),
                         nn.LazyLinear(1))
    tied(X)
    tied[2].weight.data[0, 0] = 100
    print(tied[2].weight.data[0] == tied[4].weight.data[0])

    def init_normal(module):
        if type(module) == nn.Linear:
            nn.init.normal_(module.weight, mean=0, std=0.01)
            nn.init.zeros_(module.bias)

    def init_constant(module):
        if type(module) == nn.Linear:
            nn.init.constant_(module.weight, 1)
            nn.init.zeros_(module.bias)

    def my_init(module):
        if type(module) == nn.Linear:
            print("Init", *[(name, param.shape) for name, param in module.named_parameters()][0])
            nn.init.uniform_(module.weight, -10, 10)
            module.weight.data *= module.weight.data.abs() >= 5

    net.apply(init_normal)
    print(net[0].weight.data[0], net[0].bias.data[0])
    net.apply(init_constant)
    print(net[0].weight.data[0])
    net[0].apply(lambda m: nn.init.xavier_uniform_(m.weight) if type(m) == nn.Linear else None)
    net.apply(my_init)
    net[0].weight.data[:] += 1
    net[0].weight.data[0, 0] = 42
    print(net[0].weight[:2])

    class CenteredLayer(nn.Module):
        def forward(self, X):
            return X - X.mean()

    class MyLinear(nn.Module):
        def __init__(self, in_units, units):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(in_units, units))
            self.bias = nn.Parameter(torch.randn(units,))

        def forward(self, X):
            return F.relu(torch.matmul(X, self.weight.data) + self.bias.data)

    print(CenteredLayer()(torch.tensor([1.0, 2, 3, 4, 5])))
    print(nn.Sequential(nn.LazyLinear(128), CenteredLayer())(torch.rand(4, 8)).mean())
    print(nn.Sequential(MyLinear(64, 8), MyLinear(8, 1))(torch.rand(2, 64)))

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden = nn.LazyLinear(256)
            self.output = nn.LazyLinear(10)

        def forward(self, x):
            return self.output(F.relu(self.hidden(x)))

    mlp = MLP()
    X = torch.randn(size=(2, 20))
    Y = mlp(X)
    with in_temporary_directory():
        x = torch.arange(4)
        torch.save(x, 'x-file')
        torch.save([x, torch.zeros(4)], 'x-files')
        torch.save({'x': x, 'y': torch.zeros(4)}, 'mydict')
        print(torch.load('x-file'), torch.load('x-files'), torch.load('mydict'))
        torch.save(mlp.state_dict(), 'mlp.params')
        clone = MLP()
        clone.load_state_dict(torch.load('mlp.params'))
    print(clone.eval())
    print(clone(X) == Y)

    def synthetic_data(w, b, num_examples):
        X = torch.normal(0, 1, (num_examples, len(w)))
        y = torch.matmul(X, w) + b
        y += torch.normal(0, 0.01, y.shape)
        return X, y.reshape((-1, 1))

    true_w, true_b = torch.tensor([2, -3.4]), 4.2
    features, labels = synthetic_data(true_w, true_b, 200)
    print('features:', features[0], '\nlabel:', labels[0])
    random.seed(0)

    def data_iter(batch_size, features, labels):
        indices = list(range(len(features)))
        random.shuffle(indices)
        for i in range(0, len(features), batch_size):
            batch_indices = torch.tensor(indices[i: min(i + batch_size, len(features))])
            yield features[batch_indices], labels[batch_indices]

    w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    for epoch in range(2):
        for Xb, yb in data_iter(10, features, labels):
            ((torch.matmul(Xb, w) + b - yb.reshape(-1, 1)) ** 2 / 2).sum().backward()
            with torch.no_grad():
                for param in (w, b):
                    param -= 0.03 * param.grad / 10
                    param.grad.zero_()
        with torch.no_grad():
            train_l = (torch.matmul(features, w) + b - labels) ** 2 / 2
            print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')
    print(f'error in estimating w: {true_w - w.reshape(true_w.shape)}')
    print(f'error in estimating b: {true_b - b}')

    def dropout_layer(X, dropout):
        assert 0 <= dropout <= 1
        if dropout == 1:
            return torch.zeros_like(X)
        mask = (torch.rand(X.shape) > dropout).float()
        return mask * X / (1.0 - dropout)

    X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
    print(dropout_layer(X, 0.), dropout_layer(X, 0.5), dropout_layer(X, 1.))
    decayed = nn.Sequential(nn.Linear(20, 1))
    for param in decayed.parameters():
        param.data.normal_()
    trainer = torch.optim.SGD([{"params": decayed[0].weight, 'weight_decay': 3},
                               {"params": decayed[0].bias}], lr=0.003)
    for _ in range(3):
        trainer.zero_grad()
        nn.MSELoss(reduction='none')(decayed(torch.randn(5, 20)), torch.randn(5, 1)).mean().backward()
        trainer.step()
    print(decayed[0].weight.norm().item())
    return {"w": w, "b": b, "net0": net[0].weight, "decayed": decayed[0].weight}


# ---- yunjey/pytorch-tutorial, pytorch/examples ----------------------------------------------

def yunjey_basics(torch):
    """yunjey/pytorch-tutorial tutorials/01-basics: pytorch_basics/main.py (autograd on
    three scalars, nn.Linear with MSELoss and one SGD step, NumPy round trip, a dataset,
    iter(loader).next() written for Python 2 (PyTorch's AttributeError), freezing
    parameters and replacing a layer), linear_regression/main.py (its toy data, 60 epochs,
    the formatted loss) and logistic_regression/main.py (MNIST through a Linear layer,
    torch.max(outputs.data, 1), 100 * correct / total)."""
    nn = torch.nn
    x = torch.tensor(1., requires_grad=True)
    w = torch.tensor(2., requires_grad=True)
    b = torch.tensor(3., requires_grad=True)
    (w * x + b).backward()
    print(x.grad, w.grad, b.grad)
    x, y = torch.randn(10, 3), torch.randn(10, 2)
    linear = nn.Linear(3, 2)
    print('w: ', linear.weight)
    print('b: ', linear.bias)
    criterion = nn.MSELoss()
    optimizer = torch.optim.SGD(linear.parameters(), lr=0.01)
    loss = criterion(linear(x), y)
    print('loss: ', loss.item())
    loss.backward()
    print('dL/dw: ', linear.weight.grad)
    print('dL/db: ', linear.bias.grad)
    optimizer.step()
    print('loss after 1 step optimization: ', criterion(linear(x), y).item())
    print(torch.from_numpy(np.array([[1, 2], [3, 4]])).numpy())
    train_dataset = image_dataset(torch, 100, shape=(3, 32, 32), seed=3)
    image, label = train_dataset[0]
    print(image.size(), label)
    train_loader = torch.utils.data.DataLoader(dataset=train_dataset, batch_size=64, shuffle=True)
    data_iter = iter(train_loader)
    try:
        images, labels = data_iter.next()
    except AttributeError as error:
        print(error)
        images, labels = next(data_iter)
    print(images.shape, labels[:8])
    pretrained = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 16))
    for param in pretrained.parameters():
        param.requires_grad = False
    pretrained.fc = nn.Linear(16, 100)
    print(pretrained(torch.randn(64, 3, 32, 32)).size(), pretrained)
    x_train = np.array([[3.3], [4.4], [5.5], [6.71], [6.93], [4.168], [9.779], [6.182], [7.59],
                        [2.167], [7.042], [10.791], [5.313], [7.997], [3.1]], dtype=np.float32)
    y_train = np.array([[1.7], [2.76], [2.09], [3.19], [1.694], [1.573], [3.366], [2.596],
                        [2.53], [1.221], [2.827], [3.465], [1.65], [2.904], [1.3]], dtype=np.float32)
    model = nn.Linear(1, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
    inputs, targets = torch.from_numpy(x_train), torch.from_numpy(y_train)
    for epoch in range(60):
        loss = criterion(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (epoch + 1) % 10 == 0:
            print('Epoch [{}/{}], Loss: {:.4f}'.format(epoch + 1, 60, loss.item()))
    print(model(inputs).detach().numpy().T)
    train_dataset = image_dataset(torch, 200, seed=1)
    test_dataset = image_dataset(torch, 100, seed=2)
    train_loader = torch.utils.data.DataLoader(dataset=train_dataset, batch_size=50, shuffle=True)
    test_loader = torch.utils.data.DataLoader(dataset=test_dataset, batch_size=50, shuffle=False)
    classifier = nn.Linear(28 * 28, 10)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(classifier.parameters(), lr=0.01)
    for epoch in range(2):
        for i, (images, labels) in enumerate(train_loader):
            loss = criterion(classifier(images.reshape(-1, 28 * 28)), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if (i + 1) % 2 == 0:
                print('Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}'.format(
                    epoch + 1, 2, i + 1, len(train_loader), loss.item()))
    with torch.no_grad():
        correct = total = 0
        for images, labels in test_loader:
            _, predicted = torch.max(classifier(images.reshape(-1, 28 * 28)).data, 1)
            total += labels.size(0)
            correct += (predicted == labels).sum()
        print('Accuracy of the model on the test images: {} %'.format(100 * correct / total))
    return {"linear": model.weight, "classifier": classifier.weight}


def reinforce_policy_gradient(torch):
    """pytorch/examples reinforcement_learning/reinforce.py: a two-layer Policy with
    dropout and softmax, actions sampled from torch.distributions.Categorical and their
    log_prob kept, discounted returns normalised with np.finfo(np.float32).eps.item(),
    the loss torch.cat(policy_loss).sum(), Adam, and the running reward printed (a tiny
    deterministic environment stands for gym's CartPole)."""
    nn, F = torch.nn, torch.nn.functional
    Categorical = torch.distributions.Categorical

    class Policy(nn.Module):
        def __init__(self):
            super(Policy, self).__init__()
            self.affine1 = nn.Linear(4, 32)
            self.dropout = nn.Dropout(p=0.6)
            self.affine2 = nn.Linear(32, 2)
            self.saved_log_probs, self.rewards = [], []

        def forward(self, x):
            x = F.relu(self.dropout(self.affine1(x)))
            return F.softmax(self.affine2(x), dim=1)

    class Environment:  # stands for gym's CartPole-v1: a pole tipping one way or the other
        def reset(self, seed=None):
            self.state, self.steps = np.array([0.01, -0.02, 0.03, 0.01], np.float32), 0
            return self.state, {}

        def step(self, action):
            self.steps += 1
            self.state = self.state + np.float32(0.05) * (action * 2 - 1) * np.arange(1, 5, dtype=np.float32)
            done = bool(abs(self.state[2]) > 0.3) or self.steps >= 20
            return self.state, 1.0, done, False, {}

    policy = Policy()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    eps = np.finfo(np.float32).eps.item()
    env, gamma, running_reward = Environment(), 0.99, 10
    for i_episode in range(1, 6):
        state, _ = env.reset(seed=543)
        ep_reward = 0
        for t in range(1, 10000):
            probs = policy(torch.from_numpy(state).float().unsqueeze(0))
            m = Categorical(probs)
            action = m.sample()
            policy.saved_log_probs.append(m.log_prob(action))
            state, reward, done, _, _ = env.step(action.item())
            policy.rewards.append(reward)
            ep_reward += reward
            if done:
                break
        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
        R, policy_loss, returns = 0, [], []
        for r in policy.rewards[::-1]:
            R = r + gamma * R
            returns.insert(0, R)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + eps)
        for log_prob, R in zip(policy.saved_log_probs, returns):
            policy_loss.append(-log_prob * R)
        optimizer.zero_grad()
        policy_loss = torch.cat(policy_loss).sum()
        policy_loss.backward()
        optimizer.step()
        del policy.rewards[:]
        del policy.saved_log_probs[:]
        print('Episode {}\tLast reward: {:.2f}\tAverage reward: {:.2f}'.format(
            i_episode, ep_reward, running_reward), policy_loss.item())
    return {"affine2": policy.affine2.weight}


# ---- pytorch/tutorials: introyt (the YouTube series), examples_nn, char-RNN; d2l attention --

def introyt_tensors(torch):
    """pytorch/tutorials beginner_source/introyt/tensors_deeper_tutorial.py: empty, zeros,
    ones and rand after manual_seed(1729) (twice, the same draws), the *_like factories,
    tensors from nested tuples and lists, dtype=int16 and .to(int32), arithmetic with
    numbers and tensors (twos ** powers), broadcasting (and the three shapes that refuse to
    broadcast, with PyTorch's messages), abs/ceil/floor/clamp, sin/asin, bitwise_xor, eq,
    max/mean/std/prod/unique, cross, matmul and svd, sin_ and add_/mul_ in place,
    matmul(out=) and rand(out=) keeping the object, clone and detach().clone(), devices
    (and 'gpu' refused), unsqueeze/squeeze(_), reshape, and NumPy sharing memory."""
    x = torch.empty(3, 4)
    print(type(x).__name__, x.shape)
    print(torch.zeros(2, 3), torch.ones(2, 3))
    torch.manual_seed(1729)
    random1, random2 = torch.rand(2, 3), torch.rand(2, 3)
    torch.manual_seed(1729)
    print(random1, random2, torch.rand(2, 3), torch.rand(2, 3))
    x = torch.empty(2, 2, 3)
    for made in (torch.empty_like(x), torch.zeros_like(x), torch.ones_like(x),
                 torch.rand_like(x)):
        print(made.shape, made.dtype)
    print(torch.zeros_like(x), torch.ones_like(x), torch.rand_like(x))
    print(torch.tensor([[3.1415926, 2.71828], [1.61803, 0.0072897]]),
          torch.tensor((2, 3, 5, 7, 11, 13, 17, 19)), torch.tensor(((2, 4, 6), [3, 6, 9])))
    a = torch.ones((2, 3), dtype=torch.int16)
    b = torch.rand((2, 3), dtype=torch.float64) * 20.
    print(a, b, b.to(torch.int32))
    ones = torch.zeros(2, 2) + 1
    twos = torch.ones(2, 2) * 2
    threes = (torch.ones(2, 2) * 7 - 1) / 2
    fours = twos ** 2
    print(ones, twos, threes, fours, twos ** 0.5)
    print(twos ** torch.tensor([[1, 2], [3, 4]]), ones + fours, threes * fours)
    rand = torch.rand(2, 4)
    print(rand, rand * (torch.ones(1, 4) * 2))
    a = torch.ones(4, 3, 2)
    print(a * torch.rand(3, 2), a * torch.rand(3, 1), a * torch.rand(1, 2))
    for shape in ((3, 2), (4, 3), (2, 3), (0,)):
        try:
            print((torch.rand(2, 3) if shape == (3, 2) else a) * torch.rand(shape))
        except RuntimeError as error:
            print("RuntimeError:", error)
    a = torch.rand(2, 4) * 2 - 1
    print('Common functions:', torch.abs(a), torch.ceil(a), torch.floor(a),
          torch.clamp(a, -0.5, 0.5))
    angles = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
    print(angles, torch.sin(angles), torch.asin(torch.sin(angles)))
    print(torch.bitwise_xor(torch.tensor([1, 5, 11]), torch.tensor([2, 7, 10])))
    d = torch.tensor([[1., 2.], [3., 4.]])
    print(torch.eq(d, torch.ones(1, 2)), torch.max(d), torch.max(d).item(), torch.mean(d),
          torch.std(d), torch.prod(d), torch.unique(torch.tensor([1, 2, 1, 2, 1, 2])))
    m1 = torch.rand(2, 2)
    m3 = torch.matmul(m1, torch.tensor([[3., 0.], [0., 3.]]))
    print(torch.cross(torch.tensor([0., 1., 0.]), torch.tensor([1., 0., 0.])), m1, m3)
    U, S, V = torch.svd(m3)
    print(S, (U @ torch.diag(S) @ V.T - m3).abs().max() < 1e-5)
    a = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
    print(torch.sin(a), a)
    b = a.clone()
    print(torch.sin_(b), b)
    a, b = torch.ones(2, 2), torch.rand(2, 2)
    print(a.add_(b), a, b, b.mul_(b), b)
    a, b, c = torch.rand(2, 2), torch.rand(2, 2), torch.zeros(2, 2)
    old_id = id(c)
    d = torch.matmul(a, b, out=c)
    print(c, c is d, id(c) == old_id)
    torch.rand(2, 2, out=c)
    print(c, id(c) == old_id)
    a = torch.ones(2, 2)
    b = a
    a[0][1] = 561
    print(b)
    a = torch.ones(2, 2)
    b = a.clone()
    print(b is not a, torch.eq(a, b))
    a[0][1] = 561
    print(b)
    a = torch.rand(2, 2, requires_grad=True)
    print(a, a.clone(), a.detach().clone(), a)
    my_device = torch.device('cuda') if torch.cuda.is_available() else torch.device('cpu')
    print('Device: {}'.format(my_device), torch.rand(2, 2, device=my_device),
          torch.rand(2, 2).to(my_device).device)
    try:
        torch.rand(2, 2, device='gpu')
    except RuntimeError as error:
        print("RuntimeError:", error)
    a = torch.rand(3, 226, 226)
    print(a.shape, a.unsqueeze(0).shape, torch.rand(1, 1, 1, 1, 1))
    a = torch.rand(1, 20)
    print(a.shape, a, a.squeeze(0).shape, a.squeeze(0), torch.rand(2, 2).squeeze(0).shape)
    c = torch.rand(3).unsqueeze(1)
    print(c.shape, torch.ones(4, 3, 2) * c)
    batch_me = torch.rand(3, 226, 226)
    batch_me.unsqueeze_(0)
    print(batch_me.shape)
    output3d = torch.rand(6, 20, 20)
    print(output3d.reshape(6 * 20 * 20).shape, torch.reshape(output3d, (6 * 20 * 20,)).shape)
    numpy_array = np.ones((2, 3))
    pytorch_tensor = torch.from_numpy(numpy_array)
    pytorch_rand = torch.rand(2, 3)
    numpy_rand = pytorch_rand.numpy()
    print(pytorch_tensor, pytorch_rand, numpy_rand)
    numpy_array[1, 1] = 23
    pytorch_rand[1, 1] = 17
    print(pytorch_tensor, numpy_rand)
    return {"c": c, "pytorch_rand": pytorch_rand}


def introyt_autograd(torch):
    """pytorch/tutorials beginner_source/introyt/autogradyt_tutorial.py: linspace with
    requires_grad, sin, 2 * b + 1 and its sum printed with their grad_fns, walking
    d.grad_fn.next_functions down to AccumulateGrad, a.grad after backward; TinyModel
    (Linear-ReLU-Linear) and one SGD step on a squared-distance loss, gradients that
    accumulate over five backward calls until zero_grad (grad None); requires_grad turned
    off, no_grad as context and decorator, detach, the in-place error on a leaf, the
    autograd profiler (its ops and counts; the times vary), the doubling loop's vector
    backward, and torch.autograd.functional's jacobian, hessian, vjp, jvp, vhp, hvp."""
    a = torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True)
    b = torch.sin(a)
    c = 2 * b
    d = c + 1
    out = d.sum()
    print(a, b, c, d, out)
    print(d.grad_fn, d.grad_fn.next_functions, d.grad_fn.next_functions[0][0].next_functions)
    node = d.grad_fn.next_functions[0][0].next_functions[0][0]
    print(node.next_functions, node.next_functions[0][0].next_functions, c.grad_fn,
          b.grad_fn, a.grad_fn)
    out.backward()
    print(a.grad, c.grad if c.is_leaf else None)

    class TinyModel(torch.nn.Module):
        def __init__(self):
            super(TinyModel, self).__init__()
            self.layer1 = torch.nn.Linear(1000, 100)
            self.relu = torch.nn.ReLU()
            self.layer2 = torch.nn.Linear(100, 10)

        def forward(self, x):
            return self.layer2(self.relu(self.layer1(x)))

    some_input = torch.randn(16, 1000, requires_grad=False)
    ideal_output = torch.randn(16, 10, requires_grad=False)
    model = TinyModel()
    print(model.layer2.weight[0][0:10], model.layer2.weight.grad)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
    loss = (ideal_output - model(some_input)).pow(2).sum()
    print(loss)
    loss.backward()
    print(model.layer2.weight[0][0:10], model.layer2.weight.grad[0][0:10])
    optimizer.step()
    print(model.layer2.weight[0][0:10], model.layer2.weight.grad[0][0:10])
    for i in range(0, 5):
        loss = (ideal_output - model(some_input)).pow(2).sum()
        loss.backward()
    print(model.layer2.weight.grad[0][0:10])
    optimizer.zero_grad()
    print(model.layer2.weight.grad)
    a = torch.ones(2, 3, requires_grad=True)
    b1 = 2 * a
    a.requires_grad = False
    print(b1, 2 * a)
    a = torch.ones(2, 3, requires_grad=True) * 2
    b = torch.ones(2, 3, requires_grad=True) * 3
    with torch.no_grad():
        c2 = a + b
    print(a + b, c2, a * b)

    @torch.no_grad()
    def add_tensors2(x, y):
        return x + y
    print(add_tensors2(a, b))
    x = torch.rand(5, requires_grad=True)
    print(x, x.detach())
    try:
        torch.sin_(torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True))
    except RuntimeError as error:
        print("RuntimeError:", error)
    x = torch.randn(2, 3, requires_grad=True)
    y = torch.rand(2, 3, requires_grad=True)
    z = torch.ones(2, 3, requires_grad=True)
    with torch.autograd.profiler.profile(use_cuda=False) as prf:
        for _ in range(100):
            z = (z / x) * y
    print(sorted((event.key, event.count) for event in prf.key_averages()))
    x = torch.randn(3, requires_grad=True)
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    print(y)
    try:
        y.backward()
    except RuntimeError as error:
        print("RuntimeError:", error)
    y.backward(torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float))
    print(x.grad)

    def exp_adder(x, y):
        return 2 * x.exp() + 3 * y
    functional = torch.autograd.functional
    for n in (1, 3):
        inputs = (torch.rand(n), torch.rand(n))
        print(inputs, functional.jacobian(exp_adder, inputs))
    print(functional.hessian(lambda x: (x.exp() * x).sum(), inputs[0]))

    def do_some_doubling(x):
        y = x * 2
        while y.data.norm() < 1000:
            y = y * 2
        return y
    inputs, v = torch.randn(3), torch.tensor([0.1, 1.0, 0.0001])
    print(functional.vjp(do_some_doubling, inputs, v=v),
          functional.jvp(do_some_doubling, inputs, v=v))
    print(functional.vhp(lambda x: (x ** 3).sum(), inputs, v),
          functional.hvp(lambda x: (x ** 3).sum(), inputs, v))
    return {"x.grad": x.grad, "layer2.weight": model.layer2.weight}


def introyt_models(torch):
    """pytorch/tutorials beginner_source/introyt/modelsyt_tutorial.py: TinyModel with an
    nn.Softmax() without dim (PyTorch's deprecation warning when called), the model and
    its parameters printed, a Linear(3, 2) on rand(1, 3), LeNet written against
    ``import torch.functional as F`` (which has no max_pool2d: the tutorial's slip, an
    AttributeError), an LSTM tagger (Embedding, LSTM, log_softmax), MaxPool2d(3),
    BatchNorm1d on a (1, 4, 4) input, Dropout(p=0.4) twice, and a small nn.Transformer
    printed (its nested-tensor warning)."""
    from importlib import import_module
    F = import_module(torch.__name__ + ".functional")

    class TinyModel(torch.nn.Module):
        def __init__(self):
            super(TinyModel, self).__init__()
            self.linear1 = torch.nn.Linear(100, 200)
            self.activation = torch.nn.ReLU()
            self.linear2 = torch.nn.Linear(200, 10)
            self.softmax = torch.nn.Softmax()

        def forward(self, x):
            return self.softmax(self.linear2(self.activation(self.linear1(x))))

    tinymodel = TinyModel()
    print('The model:', tinymodel, '\n\nJust one layer:', tinymodel.linear2)
    for param in tinymodel.linear2.parameters():
        print(param)
    print([tuple(p.shape) for p in tinymodel.parameters()], tinymodel(torch.rand(2, 100)))
    lin = torch.nn.Linear(3, 2)
    x = torch.rand(1, 3)
    print('Input:', x, *lin.parameters(), lin(x))

    class LeNet(torch.nn.Module):
        def __init__(self):
            super(LeNet, self).__init__()
            self.conv1 = torch.nn.Conv2d(1, 6, 5)
            self.conv2 = torch.nn.Conv2d(6, 16, 3)
            self.fc1 = torch.nn.Linear(16 * 6 * 6, 120)
            self.fc2 = torch.nn.Linear(120, 84)
            self.fc3 = torch.nn.Linear(84, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
            return x

    net = LeNet()
    print(net)
    try:
        net(torch.rand(1, 1, 32, 32))
    except AttributeError as error:
        print(type(error).__name__, "max_pool2d" in str(error))

    class LSTMTagger(torch.nn.Module):
        def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
            super(LSTMTagger, self).__init__()
            self.hidden_dim = hidden_dim
            self.word_embeddings = torch.nn.Embedding(vocab_size, embedding_dim)
            self.lstm = torch.nn.LSTM(embedding_dim, hidden_dim)
            self.hidden2tag = torch.nn.Linear(hidden_dim, tagset_size)

        def forward(self, sentence):
            embeds = self.word_embeddings(sentence)
            lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
            tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
            return torch.nn.functional.log_softmax(tag_space, dim=1)

    tagger = LSTMTagger(6, 5, 9, 3)
    scores = tagger(torch.tensor([0, 4, 2, 8]))
    scores.sum().backward()
    print(tagger, scores)
    my_tensor = torch.rand(1, 6, 6)
    print(my_tensor, torch.nn.MaxPool2d(3)(my_tensor))
    my_tensor = torch.rand(1, 4, 4) * 20 + 5
    normed_tensor = torch.nn.BatchNorm1d(4)(my_tensor)
    print(my_tensor, my_tensor.mean(), normed_tensor, normed_tensor.mean().abs() < 1e-6)
    my_tensor = torch.rand(1, 4, 4)
    dropout = torch.nn.Dropout(p=0.4)
    print(dropout(my_tensor), dropout(my_tensor))
    print(torch.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1,
                               num_decoder_layers=1, dim_feedforward=16))
    return {"lstm.weight_hh_l0.grad": tagger.lstm.weight_hh_l0.grad,
            "normed": normed_tensor}


def two_layer_nets(torch):
    """pytorch/tutorials beginner_source/examples_nn/two_layer_net_nn.py (Sequential,
    MSELoss(reduction='sum'), model.zero_grad and ``param -= learning_rate * param.grad``
    under no_grad), two_layer_net_optim.py and two_layer_net_module.py in their older
    form (``Variable``, ``MSELoss(size_average=False)`` and its deprecation warning,
    Adam, a TwoLayerNet Module with ``clamp(min=0)`` called through ``model.forward``,
    SGD, and ``loss.data[0]``, which PyTorch now refuses with its IndexError), each for
    100 of the 500 steps."""
    from importlib import import_module
    Variable = import_module(torch.__name__ + ".autograd").Variable
    N, D_in, H, D_out = 64, 1000, 100, 10
    x, y = torch.randn(N, D_in), torch.randn(N, D_out)
    model = torch.nn.Sequential(torch.nn.Linear(D_in, H), torch.nn.ReLU(),
                                torch.nn.Linear(H, D_out))
    loss_fn = torch.nn.MSELoss(reduction='sum')
    for t in range(100):
        loss = loss_fn(model(x), y)
        if t % 25 == 24:
            print(t, loss.item())
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for param in model.parameters():
                param -= 1e-4 * param.grad
    finals = {"nn.2.weight": model[2].weight}
    x = Variable(torch.randn(N, D_in))
    y = Variable(torch.randn(N, D_out), requires_grad=False)
    model = torch.nn.Sequential(torch.nn.Linear(D_in, H), torch.nn.ReLU(),
                                torch.nn.Linear(H, D_out))
    loss_fn = torch.nn.MSELoss(size_average=False)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for t in range(100):
        loss = loss_fn(model(x), y)
        try:
            print(t, loss.data[0])
        except IndexError as error:
            if t == 0:
                print("IndexError:", error)
        if t % 25 == 24:
            print(t, loss.data.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    finals["optim.2.weight"] = model[2].weight

    class TwoLayerNet(torch.nn.Module):
        def __init__(self, D_in, H, D_out):
            super(TwoLayerNet, self).__init__()
            self.linear1 = torch.nn.Linear(D_in, H)
            self.linear2 = torch.nn.Linear(H, D_out)

        def forward(self, x):
            return self.linear2(self.linear1(x).clamp(min=0))

    model = TwoLayerNet(D_in, H, D_out)
    criterion = torch.nn.MSELoss(size_average=False)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
    for t in range(100):
        loss = criterion(model.forward(x), y)
        if t % 25 == 24:
            print(t, loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    finals["module.linear2.weight"] = model.linear2.weight
    return finals


def d2l_attention(torch):
    """d2l-ai/d2l-en chapter_attention-mechanisms-and-transformers (attention-scoring-
    functions.md, multihead-attention.md, self-attention-and-positional-encoding.md,
    PyTorch tabs): masked_softmax (a float arange compared with valid lengths, X[~mask] =
    -1e6, repeat_interleave), bmm, DotProductAttention in eval mode, AdditiveAttention on
    LazyLinear layers (printed before and after their first call), MultiHeadAttention's
    transpose_qkv/transpose_output with permute and a backward, and PositionalEncoding
    (torch.pow(10000, ...), sin and cos written into strided slices)."""
    nn = torch.nn

    def masked_softmax(X, valid_lens):
        def _sequence_mask(X, valid_len, value=0):
            maxlen = X.size(1)
            mask = torch.arange((maxlen), dtype=torch.float32,
                                device=X.device)[None, :] < valid_len[:, None]
            X[~mask] = value
            return X
        if valid_lens is None:
            return nn.functional.softmax(X, dim=-1)
        shape = X.shape
        if valid_lens.dim() == 1:
            valid_lens = torch.repeat_interleave(valid_lens, shape[1])
        else:
            valid_lens = valid_lens.reshape(-1)
        X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
        return nn.functional.softmax(X.reshape(shape), dim=-1)

    print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([2, 3])),
          masked_softmax(torch.rand(2, 2, 4), torch.tensor([[1, 3], [2, 4]])),
          torch.bmm(torch.ones((2, 3, 4)), torch.ones((2, 4, 6))).shape)

    class DotProductAttention(nn.Module):
        def __init__(self, dropout):
            super().__init__()
            self.dropout = nn.Dropout(dropout)

        def forward(self, queries, keys, values, valid_lens=None):
            d = queries.shape[-1]
            scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
            self.attention_weights = masked_softmax(scores, valid_lens)
            return torch.bmm(self.dropout(self.attention_weights), values)

    queries, keys = torch.normal(0, 1, (2, 1, 2)), torch.normal(0, 1, (2, 10, 2))
    values, valid_lens = torch.normal(0, 1, (2, 10, 4)), torch.tensor([2, 6])
    attention = DotProductAttention(dropout=0.5)
    attention.eval()
    print(attention(queries, keys, values, valid_lens),
          attention.attention_weights.reshape((1, 1, 2, 10)))

    class AdditiveAttention(nn.Module):
        def __init__(self, num_hiddens, dropout, **kwargs):
            super(AdditiveAttention, self).__init__(**kwargs)
            self.W_k = nn.LazyLinear(num_hiddens, bias=False)
            self.W_q = nn.LazyLinear(num_hiddens, bias=False)
            self.w_v = nn.LazyLinear(1, bias=False)
            self.dropout = nn.Dropout(dropout)

        def forward(self, queries, keys, values, valid_lens):
            queries, keys = self.W_q(queries), self.W_k(keys)
            features = torch.tanh(queries.unsqueeze(2) + keys.unsqueeze(1))
            scores = self.w_v(features).squeeze(-1)
            self.attention_weights = masked_softmax(scores, valid_lens)
            return torch.bmm(self.dropout(self.attention_weights), values)

    attention = AdditiveAttention(num_hiddens=8, dropout=0.1)
    print(attention)
    attention.eval()
    out = attention(torch.normal(0, 1, (2, 1, 20)), keys, values, valid_lens)
    out.sum().backward()
    print(attention, out, attention.W_q.weight.grad[0], attention.w_v.weight.grad)
    finals = {"additive.W_k.grad": attention.W_k.weight.grad}

    class MultiHeadAttention(nn.Module):
        def __init__(self, num_hiddens, num_heads, dropout, bias=False, **kwargs):
            super().__init__()
            self.num_heads = num_heads
            self.attention = DotProductAttention(dropout)
            self.W_q = nn.LazyLinear(num_hiddens, bias=bias)
            self.W_k = nn.LazyLinear(num_hiddens, bias=bias)
            self.W_v = nn.LazyLinear(num_hiddens, bias=bias)
            self.W_o = nn.LazyLinear(num_hiddens, bias=bias)

        def forward(self, queries, keys, values, valid_lens):
            queries = self.transpose_qkv(self.W_q(queries))
            keys = self.transpose_qkv(self.W_k(keys))
            values = self.transpose_qkv(self.W_v(values))
            if valid_lens is not None:
                valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
            output = self.attention(queries, keys, values, valid_lens)
            return self.W_o(self.transpose_output(output))

        def transpose_qkv(self, X):
            X = X.reshape(X.shape[0], X.shape[1], self.num_heads, -1)
            X = X.permute(0, 2, 1, 3)
            return X.reshape(-1, X.shape[2], X.shape[3])

        def transpose_output(self, X):
            X = X.reshape(-1, self.num_heads, X.shape[1], X.shape[2])
            X = X.permute(0, 2, 1, 3)
            return X.reshape(X.shape[0], X.shape[1], -1)

    attention = MultiHeadAttention(100, 5, 0.5)
    X, Y = torch.ones((2, 4, 100)), torch.ones((2, 6, 100))
    out = attention(X, Y, Y, torch.tensor([3, 2]))
    out.sum().backward()
    print(out.shape, out[0, 0, :5], attention.W_o.weight.grad[:2, :4])
    finals["multihead.W_q.grad"] = attention.W_q.weight.grad

    class PositionalEncoding(nn.Module):
        def __init__(self, num_hiddens, dropout, max_len=1000):
            super().__init__()
            self.dropout = nn.Dropout(dropout)
            self.P = torch.zeros((1, max_len, num_hiddens))
            X = torch.arange(max_len, dtype=torch.float32).reshape(-1, 1) / torch.pow(
                10000, torch.arange(0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)
            self.P[:, :, 0::2] = torch.sin(X)
            self.P[:, :, 1::2] = torch.cos(X)

        def forward(self, X):
            X = X + self.P[:, :X.shape[1], :].to(X.device)
            return self.dropout(X)

    pos_encoding = PositionalEncoding(32, 0)
    X = pos_encoding(torch.zeros((1, 60, 32)))
    P = pos_encoding.P[:, :X.shape[1], :]
    print(P[0, :, 6:10].T[:, ::12], P[0, :, :].unsqueeze(0).unsqueeze(0).shape)
    finals["P"] = P
    return finals


def char_rnn_generation(torch):
    """pytorch/tutorials intermediate_source/char_rnn_generation_tutorial.py: the RNN
    with a category one-hot concatenated to each letter (i2h, i2o, o2o, Dropout(0.1),
    nn.LogSoftmax(dim=1)), one-hot input tensors built by item assignment, LongTensor
    targets unsqueeze_(-1)'d, NLLLoss summed over the letters, updates with
    ``p.data.add_(p.grad.data, alpha=-learning_rate)``, the printed progress line, and
    sampling with output.topk(1) until EOS. A few made-up names per language stand for
    data/names/*.txt, and 300 of the 100,000 iterations are run."""
    import string
    import unicodedata
    all_letters = string.ascii_letters + " .,;'-"
    n_letters = len(all_letters) + 1

    def unicodeToAscii(s):
        return ''.join(c for c in unicodedata.normalize('NFD', s)
                       if unicodedata.category(c) != 'Mn' and c in all_letters)
    category_lines = {'Russian': ['Abramov', 'Ivanov', 'Romanov', 'Sokolov'],
                      'German': ['Bauer', 'Muller', 'Schmidt', 'Weber'],
                      'Spanish': ['Garcia', 'Lopez', 'Perez', 'Sanchez'],
                      'Chinese': ['Chen', 'Huang', 'Li', 'Zhang']}
    all_categories = list(category_lines)
    n_categories = len(all_categories)
    print('# categories:', n_categories, all_categories, unicodeToAscii("O'Néàl"))
    nn = torch.nn

    class RNN(nn.Module):
        def __init__(self, input_size, hidden_size, output_size):
            super(RNN, self).__init__()
            self.hidden_size = hidden_size
            self.i2h = nn.Linear(n_categories + input_size + hidden_size, hidden_size)
            self.i2o = nn.Linear(n_categories + input_size + hidden_size, output_size)
            self.o2o = nn.Linear(hidden_size + output_size, output_size)
            self.dropout = nn.Dropout(0.1)
            self.softmax = nn.LogSoftmax(dim=1)

        def forward(self, category, input, hidden):
            input_combined = torch.cat((category, input, hidden), 1)
            hidden = self.i2h(input_combined)
            output = self.i2o(input_combined)
            output = self.o2o(torch.cat((hidden, output), 1))
            return self.softmax(self.dropout(output)), hidden

        def initHidden(self):
            return torch.zeros(1, self.hidden_size)

    def randomChoice(items):
        return items[random.randint(0, len(items) - 1)]

    def categoryTensor(category):
        tensor = torch.zeros(1, n_categories)
        tensor[0][all_categories.index(category)] = 1
        return tensor

    def inputTensor(line):
        tensor = torch.zeros(len(line), 1, n_letters)
        for li in range(len(line)):
            tensor[li][0][all_letters.find(line[li])] = 1
        return tensor

    def targetTensor(line):
        letter_indexes = [all_letters.find(line[li]) for li in range(1, len(line))]
        letter_indexes.append(n_letters - 1)
        return torch.LongTensor(letter_indexes)

    def randomTrainingExample():
        category = randomChoice(all_categories)
        line = randomChoice(category_lines[category])
        return categoryTensor(category), inputTensor(line), targetTensor(line)

    criterion = nn.NLLLoss()
    learning_rate = 0.0005
    rnn = RNN(n_letters, 128, n_letters)

    def train(category_tensor, input_line_tensor, target_line_tensor):
        target_line_tensor.unsqueeze_(-1)
        hidden = rnn.initHidden()
        rnn.zero_grad()
        loss = torch.Tensor([0])
        for i in range(input_line_tensor.size(0)):
            output, hidden = rnn(category_tensor, input_line_tensor[i], hidden)
            loss += criterion(output, target_line_tensor[i])
        loss.backward()
        for p in rnn.parameters():
            p.data.add_(p.grad.data, alpha=-learning_rate)
        return output, loss.item() / input_line_tensor.size(0)

    n_iters, total_loss = 300, 0
    for iter in range(1, n_iters + 1):
        output, loss = train(*randomTrainingExample())
        total_loss += loss
        if iter % 100 == 0:
            print('%s (%d %d%%) %.4f' % ('0m 0s', iter, iter / n_iters * 100, loss))

    def sample(category, start_letter='A'):
        with torch.no_grad():
            category_tensor = categoryTensor(category)
            input = inputTensor(start_letter)
            hidden = rnn.initHidden()
            output_name = start_letter
            for i in range(20):
                output, hidden = rnn(category_tensor, input[0], hidden)
                topv, topi = output.topk(1)
                topi = topi[0][0]
                if topi == n_letters - 1:
                    break
                letter = all_letters[topi]
                output_name += letter
                input = inputTensor(letter)
            return output_name

    for category, letters in (('Russian', 'RUS'), ('German', 'GER'), ('Chinese', 'CHI')):
        print([sample(category, start_letter) for start_letter in letters])
    return {"o2o.weight": rnn.o2o.weight, "i2h.bias.grad": rnn.i2h.bias.grad}

def recipes_default_device_and_multiple_models(torch):
    """pytorch/tutorials recipes_source/recipes/changing_default_device.py (a Linear's
    output device, ``with torch.device('cpu')`` around a Linear and a randn, 'cuda'
    refused here, set_default_device) and saving_multiple_models_in_one_file.py (two
    LeNet-like Nets with SGD(momentum=0.9), one dict of both state dicts and both
    optimizers' saved with torch.save and loaded into new ones; eval()/train())."""
    nn, F = torch.nn, torch.nn.functional
    mod = torch.nn.Linear(20, 30)
    print(mod(torch.randn(128, 20, device='cpu')).device)
    with torch.device('cpu'):
        mod = torch.nn.Linear(20, 30)
        print(mod.weight.device, mod(torch.randn(128, 20)).device)
    try:
        with torch.device('cuda'):
            torch.nn.Linear(20, 30)
    except (AssertionError, RuntimeError) as error:
        print(type(error).__name__, error)
    torch.set_default_device('cpu')
    mod = torch.nn.Linear(20, 30)
    print(mod.weight.device, mod(torch.randn(128, 20)).device, torch.get_default_device())

    class Net(nn.Module):
        def __init__(self):
            super(Net, self).__init__()
            self.conv1 = nn.Conv2d(3, 6, 5)
            self.pool = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv1(x)))
            x = self.pool(F.relu(self.conv2(x)))
            x = x.flatten(start_dim=1)
            return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

    netA, netB = Net(), Net()
    optimizerA = torch.optim.SGD(netA.parameters(), lr=0.001, momentum=0.9)
    optimizerB = torch.optim.SGD(netB.parameters(), lr=0.001, momentum=0.9)
    netA(torch.rand(2, 3, 32, 32)).sum().backward()
    optimizerA.step()
    with in_temporary_directory():
        torch.save({'modelA_state_dict': netA.state_dict(),
                    'modelB_state_dict': netB.state_dict(),
                    'optimizerA_state_dict': optimizerA.state_dict(),
                    'optimizerB_state_dict': optimizerB.state_dict()}, "model.pt")
        modelA, modelB = Net(), Net()
        optimModelA = torch.optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
        optimModelB = torch.optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)
        checkpoint = torch.load("model.pt")
    print(modelA.load_state_dict(checkpoint['modelA_state_dict']),
          modelB.load_state_dict(checkpoint['modelB_state_dict']))
    optimModelA.load_state_dict(checkpoint['optimizerA_state_dict'])
    optimModelB.load_state_dict(checkpoint['optimizerB_state_dict'])
    print(optimModelA.state_dict()['param_groups'], optimModelB.state_dict()['state'],
          sorted(checkpoint))
    print(modelA.eval(), modelB.eval().training, modelA.train().training)
    return {"modelA.fc3.bias": modelA.fc3.bias,
            "momentum_buffer": optimModelA.state_dict()['state'][0]['momentum_buffer']}

def introyt_training(torch):
    """pytorch/tutorials beginner_source/introyt/trainingyt.py: FashionMNIST (normalized
    to [-1, 1]) through DataLoaders of 4 with num_workers=2, the old ``dataiter.next()``
    (PyTorch's AttributeError naming its _MultiProcessingDataLoaderIter), the
    GarmentClassifier (LeNet-5 variant with view(-1, 16 * 4 * 4)), CrossEntropyLoss on
    dummy outputs, SGD with momentum, train_one_epoch's running loss, validation losses
    summed as tensors (``running_vloss += vloss``) and formatted with '{}', the best
    model saved by state_dict and loaded back. TensorBoard's SummaryWriter is left out
    and 80 + 20 random images stand for the data, two epochs."""
    def stand_in(n, seed):
        data = image_dataset(torch, n, seed=seed)

        class Normalized(torch.utils.data.Dataset):
            def __len__(self):
                return len(data)

            def __getitem__(self, i):
                image, label = data[i]
                return (image - 0.5) / 0.5, label
        return Normalized()
    training_set, validation_set = stand_in(80, 1), stand_in(20, 2)
    training_loader = torch.utils.data.DataLoader(training_set, batch_size=4, shuffle=True,
                                                  num_workers=2)
    validation_loader = torch.utils.data.DataLoader(validation_set, batch_size=4,
                                                    shuffle=False, num_workers=2)
    classes = ('T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt',
               'Sneaker', 'Bag', 'Ankle Boot')
    print('Training set has {} instances'.format(len(training_set)))
    dataiter = iter(training_loader)
    try:
        images, labels = dataiter.next()
    except AttributeError as error:
        print(error)
        images, labels = next(dataiter)
    print("  ".join(classes[labels[j]] for j in range(4)),
          (images[0].mean(dim=0) / 2 + 0.5).sum())
    nn, F = torch.nn, torch.nn.functional

    class GarmentClassifier(nn.Module):
        def __init__(self):
            super(GarmentClassifier, self).__init__()
            self.conv1 = nn.Conv2d(1, 6, 5)
            self.pool = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 4 * 4, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv1(x)))
            x = self.pool(F.relu(self.conv2(x)))
            x = x.view(-1, 16 * 4 * 4)
            return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

    model = GarmentClassifier()
    loss_fn = torch.nn.CrossEntropyLoss()
    dummy_outputs, dummy_labels = torch.rand(4, 10), torch.tensor([1, 5, 3, 7])
    print(dummy_outputs, dummy_labels,
          'Total loss for this batch: {}'.format(loss_fn(dummy_outputs, dummy_labels).item()))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

    def train_one_epoch():
        running_loss, last_loss = 0., 0.
        for i, (inputs, labels) in enumerate(training_loader):
            optimizer.zero_grad()
            loss = loss_fn(model(inputs), labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
            if i % 10 == 9:
                last_loss = running_loss / 10
                print('  batch {} loss: {}'.format(i + 1, last_loss))
                running_loss = 0.
        return last_loss

    best_vloss = 1_000_000.
    with in_temporary_directory():
        for epoch_number in range(2):
            print('EPOCH {}:'.format(epoch_number + 1))
            model.train(True)
            avg_loss = train_one_epoch()
            model.train(False)
            running_vloss = 0.0
            for i, (vinputs, vlabels) in enumerate(validation_loader):
                running_vloss += loss_fn(model(vinputs), vlabels)
            avg_vloss = running_vloss / (i + 1)
            print('LOSS train {} valid {}'.format(avg_loss, avg_vloss))
            if avg_vloss < best_vloss:
                best_vloss = avg_vloss
                model_path = 'model_{}'.format(epoch_number)
                torch.save(model.state_dict(), model_path)
        saved_model = GarmentClassifier()
        print(saved_model.load_state_dict(torch.load(model_path)), best_vloss)
    return {"fc3.weight": saved_model.fc3.weight, "conv1.grad": model.conv1.weight.grad}

def recipes_reasoning_about_shapes(torch):
    """pytorch/tutorials recipes_source/recipes/reasoning_about_shapes.py: a Conv2d on the
    meta device, on an input of 2**10 x 3 x 2**16 x 2**16 elements that no memory holds,
    then a LeNet built inside ``with torch.device("meta")`` whose forward hooks print each
    layer's output shape. (The recipe also prints the time each convolution took; that
    number differs from run to run, and is left out.)"""
    nn, F = torch.nn, torch.nn.functional
    t = torch.rand(2, 3, 10, 10, device="meta")
    conv = torch.nn.Conv2d(3, 5, 2, device="meta")
    out = conv(t)
    print(out)
    t_large = torch.rand(2**10, 3, 2**16, 2**16, device="meta")
    out = conv(t_large)
    print(out)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 6, 5)
            self.pool = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv1(x)))
            x = self.pool(F.relu(self.conv2(x)))
            x = torch.flatten(x, 1)
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return self.fc3(x)

    def fw_hook(module, input, output):
        print(f"Shape of output to {module} is {output.shape}.")

    with torch.device("meta"):
        net = Net()
        inp = torch.randn((1024, 3, 32, 32))
    for name, layer in net.named_modules():
        layer.register_forward_hook(fw_hook)
    out = net(inp)
    print(out, net.fc1.weight.device, conv.weight)
    # (the generator was left alone by every meta factory: the next CPU draw is seed 0's)
    return {"shape": torch.tensor(list(out.shape)), "draw": torch.rand(3)}

def pruning_tutorial(torch):
    """pytorch/tutorials intermediate_source/pruning_tutorial.py: LeNet's conv1 pruned at
    random (30 % of its weight) and by L1 (its bias' 3 smallest), pruned again along its
    output channels by L2 norm (a PruningContainer), its state_dict keys, the pruning made
    permanent with ``remove``, every conv and linear layer of a new LeNet pruned by L1,
    global pruning over five layers with the sparsity of each, and a pruning method of the
    tutorial's own (every other entry). The hooks' OrderedDict is printed as its values:
    its keys count every hook the process has registered before."""
    nn, F = torch.nn, torch.nn.functional
    prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")  # (import ... as prune)

    class LeNet(nn.Module):
        def __init__(self):
            super(LeNet, self).__init__()
            self.conv1 = nn.Conv2d(1, 6, 3)
            self.conv2 = nn.Conv2d(6, 16, 3)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            x = x.flatten(start_dim=1)
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return self.fc3(x)

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = LeNet().to(device=device)
    module = model.conv1
    print(list(module.named_parameters()))
    print(list(module.named_buffers()))
    prune.random_unstructured(module, name="weight", amount=0.3)
    print(list(module.named_parameters()))
    print(list(module.named_buffers()))
    print(module.weight)
    print(list(module._forward_pre_hooks.values()))
    prune.l1_unstructured(module, name="bias", amount=3)
    print(list(module.named_parameters()))
    print(list(module.named_buffers()))
    print(module.bias)
    print(list(module._forward_pre_hooks.values()))
    prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
    print(module.weight)
    for hook in module._forward_pre_hooks.values():
        if hook._tensor_name == "weight":
            break
    print(list(hook))
    print(model.state_dict().keys())
    out = model(torch.randn(2, 1, 28, 28))  # (the hooks recompute weight and bias first)
    print(out)
    prune.remove(module, "weight")
    print(list(module.named_parameters()))
    print(list(module.named_buffers()))

    new_model = LeNet()
    for name, module in new_model.named_modules():
        if isinstance(module, torch.nn.Conv2d):
            prune.l1_unstructured(module, name="weight", amount=0.2)
        elif isinstance(module, torch.nn.Linear):
            prune.l1_unstructured(module, name="weight", amount=0.4)
    print(dict(new_model.named_buffers()).keys())

    model = LeNet()
    parameters_to_prune = ((model.conv1, "weight"), (model.conv2, "weight"),
                           (model.fc1, "weight"), (model.fc2, "weight"), (model.fc3, "weight"))
    prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured,
                              amount=0.2)
    for name in ("conv1", "conv2", "fc1", "fc2", "fc3"):
        weight = getattr(model, name).weight
        print("Sparsity in {}.weight: {:.2f}%".format(
            name, 100. * float(torch.sum(weight == 0)) / float(weight.nelement())))
    zeros = sum(torch.sum(m.weight == 0) for m, _ in parameters_to_prune)
    print("Global sparsity: {:.2f}%".format(
        100. * float(zeros) / float(sum(m.weight.nelement() for m, _ in parameters_to_prune))))

    class FooBarPruningMethod(prune.BasePruningMethod):
        PRUNING_TYPE = "unstructured"

        def compute_mask(self, t, default_mask):
            mask = default_mask.clone()
            mask.flatten()[::2] = 0
            return mask

    def foobar_unstructured(module, name):
        FooBarPruningMethod.apply(module, name)
        return module

    model = LeNet()
    foobar_unstructured(model.fc3, name="bias")
    print(model.fc3.bias_mask, prune.is_pruned(model), prune.is_pruned(new_model.fc1))
    return {"mask": model.fc3.bias_mask, "fc1": new_model.fc1.weight, "out": out}


def visualizing_gradients(torch):
    """pytorch/tutorials intermediate_source/visualizing_gradients_tutorial.py: two deep
    sigmoid MLPs (with BatchNorm1d and with Identity) on dummy data, a forward hook on
    every leaf module that registers a backward hook on its output, ten SGD steps with
    momentum, then each layer's mean absolute gradient (the tutorial plots them: printed
    here as points)."""
    nn, optim, F = torch.nn, torch.optim, torch.nn.functional

    def fc_layer(in_size, out_size, norm_layer):
        return nn.Sequential(nn.Linear(in_size, out_size), norm_layer(out_size), nn.Sigmoid())

    class Net(nn.Module):
        def __init__(self, in_size=28 * 28, hidden_size=128, out_size=10, num_layers=3,
                     batchnorm=False):
            super().__init__()
            norm_layer = nn.Identity if batchnorm is False else nn.BatchNorm1d
            layers = [fc_layer(in_size, hidden_size, norm_layer)]
            for i in range(num_layers - 1):
                layers.append(fc_layer(hidden_size, hidden_size, norm_layer))
            layers.append(nn.Linear(hidden_size, out_size))
            self.layers = nn.Sequential(*layers)

        def forward(self, x):
            x = torch.flatten(x, 1)
            return self.layers(x)

    x = torch.randn(10, 28, 28)
    y = torch.randint(10, (10, ))
    model_bn = Net(batchnorm=True, num_layers=3)
    model_nobn = Net(batchnorm=False, num_layers=3)
    model_bn.train()
    model_nobn.train()
    optimizer_bn = optim.SGD(model_bn.parameters(), lr=0.01, momentum=0.9)
    optimizer_nobn = optim.SGD(model_nobn.parameters(), lr=0.01, momentum=0.9)
    print(model_bn.layers[0])
    print(model_nobn.layers[0])

    def hook_forward(module_name, grads, hook_backward):
        def hook(module, args, output):
            output.register_hook(hook_backward(module_name, grads))
        return hook

    def hook_backward(module_name, grads):
        def hook(grad):
            grads.append((module_name, grad))
        return hook

    def get_all_layers(model, hook_forward, hook_backward):
        layers, grads = dict(), []
        for name, layer in model.named_modules():
            if any(layer.children()) is False:
                layers[layer] = name
                layer.register_forward_hook(hook_forward(name, grads, hook_backward))
        return layers, grads

    layers_bn, grads_bn = get_all_layers(model_bn, hook_forward, hook_backward)
    layers_nobn, grads_nobn = get_all_layers(model_nobn, hook_forward, hook_backward)
    for epoch in range(10):
        grads_bn.clear()
        grads_nobn.clear()
        optimizer_bn.zero_grad()
        optimizer_nobn.zero_grad()
        y_pred_bn = model_bn(x)
        y_pred_nobn = model_nobn(x)
        loss_bn = F.cross_entropy(y_pred_bn, y)
        loss_nobn = F.cross_entropy(y_pred_nobn, y)
        loss_bn.backward()
        loss_nobn.backward()
        optimizer_bn.step()
        optimizer_nobn.step()

    def get_grads(grads):
        layer_idx, avg_grads = [], []
        for idx, (name, grad) in enumerate(grads):
            if grad is not None:
                avg_grads.append(grad.abs().mean())
                layer_idx.append(len(grads) - 1 - idx)
        return layer_idx, avg_grads

    for label, grads in (("With BatchNorm", grads_bn), ("Without BatchNorm", grads_nobn)):
        print(label, [name for name, _ in grads])
        print(*get_grads(grads))
    print(loss_bn, loss_nobn, len(layers_bn), len(layers_nobn))
    return {"bn": model_bn.layers[0][0].weight, "nobn": model_nobn.layers[3].bias,
            "running": model_bn.layers[1][1].running_var}


def _graph_names(*tensors):
    """torchviz.make_dot's picture offline: each node of the graphs, depth first, by name."""
    names, seen, stack = [], set(), [t.grad_fn for t in tensors if t.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        names.append(node.name())
        stack += [child for child, _ in node.next_functions]
    return names


def custom_function_double_backward(torch):
    """pytorch/tutorials intermediate_source/custom_function_double_backward_tutorial.py:
    custom Functions that save an input (Square), an output (Exp), intermediate results
    returned as outputs (Sinh) or kept on ctx (the tutorial's "what NOT to do"), and a
    backward written as a Function of its own (Cube, CubeBackward), each checked with
    gradcheck and gradgradcheck; torchviz's pictures of their double-backward graphs are
    printed as the graphs' node names."""
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**2

        @staticmethod
        def backward(ctx, grad_out):
            x, = ctx.saved_tensors
            return grad_out * 2 * x

    x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
    print(torch.autograd.gradcheck(Square.apply, x), torch.autograd.gradgradcheck(Square.apply, x))
    x = torch.tensor(1., requires_grad=True).clone()
    out = Square.apply(x)
    grad_x, = torch.autograd.grad(out, x, create_graph=True)
    print(grad_x, out, _graph_names(grad_x, x, out))

    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = torch.exp(x)
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_out):
            result, = ctx.saved_tensors
            return result * grad_out

    x = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
    print(torch.autograd.gradcheck(Exp.apply, x), torch.autograd.gradgradcheck(Exp.apply, x))
    out = Exp.apply(x)
    grad_x, = torch.autograd.grad(out, x, create_graph=True)
    print(grad_x, _graph_names(grad_x, x, out))

    class Sinh(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            expx = torch.exp(x)
            expnegx = torch.exp(-x)
            ctx.save_for_backward(expx, expnegx)
            return (expx - expnegx) / 2, expx, expnegx

        @staticmethod
        def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
            expx, expnegx = ctx.saved_tensors
            grad_input = grad_out * (expx + expnegx) / 2
            grad_input += _grad_out_exp * expx
            grad_input -= _grad_out_negexp * expnegx
            return grad_input

    def sinh(x):
        return Sinh.apply(x)[0]

    x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
    print(torch.autograd.gradcheck(sinh, x), torch.autograd.gradgradcheck(sinh, x))
    out = sinh(x)
    grad_x, = torch.autograd.grad(out.sum(), x, create_graph=True)
    print(grad_x, _graph_names(grad_x, x, out))

    class Sinh(torch.autograd.Function):  # (what NOT to do: intermediates kept on ctx)
        @staticmethod
        def forward(ctx, x):
            expx = torch.exp(x)
            expnegx = torch.exp(-x)
            ctx.expx = expx
            ctx.expnegx = expnegx
            return (expx - expnegx) / 2

        @staticmethod
        def backward(ctx, grad_out):
            return grad_out * (ctx.expx + ctx.expnegx) / 2

    out = Sinh.apply(x)
    grad_x, = torch.autograd.grad(out.sum(), x, create_graph=True)
    print(grad_x.requires_grad, grad_x.grad_fn, _graph_names(grad_x, x, out))

    def cube_forward(x):
        return x**3

    def cube_backward(grad_out, x):
        return grad_out * 3 * x**2

    def cube_backward_backward(grad_out, sav_grad_out, x):
        return grad_out * sav_grad_out * 6 * x

    def cube_backward_backward_grad_out(grad_out, x):
        return grad_out * 3 * x**2

    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return cube_forward(x)

        @staticmethod
        def backward(ctx, grad_out):
            x, = ctx.saved_tensors
            return CubeBackward.apply(grad_out, x)

    class CubeBackward(torch.autograd.Function):
        @staticmethod
        def forward(ctx, grad_out, x):
            ctx.save_for_backward(x, grad_out)
            return cube_backward(grad_out, x)

        @staticmethod
        def backward(ctx, grad_out):
            x, sav_grad_out = ctx.saved_tensors
            dx = cube_backward_backward(grad_out, sav_grad_out, x)
            dgrad_out = cube_backward_backward_grad_out(grad_out, x)
            return dgrad_out, dx

    x = torch.tensor(2., requires_grad=True, dtype=torch.double)
    print(torch.autograd.gradcheck(Cube.apply, x), torch.autograd.gradgradcheck(Cube.apply, x))
    out = Cube.apply(x)
    grad_x, = torch.autograd.grad(out, x, create_graph=True)
    print(grad_x, _graph_names(grad_x, x, out))
    grad_grad_x, = torch.autograd.grad(grad_x, x)
    print(grad_grad_x)
    return {"grad_x": grad_x.detach(), "grad_grad_x": grad_grad_x}


def saved_tensors_hooks(torch):
    """pytorch/tutorials intermediate_source/autograd_saved_tensors_hooks_tutorial.py: the
    tensors a node saves (``_saved_self``, ``_saved_other``, ``_saved_result``: which is the
    same object, which only the same values), saved_tensors_hooks that print, scale, keep
    an index, a tuple or a repr (read back with ``eval("torch." + ...)``, here with the
    library as ``torch``), save_on_cpu in a module, hooks that save to and load from files
    (the "incorrect version" whose second access fails, and files deleted with their
    holder), a SaveToDisk module under nn.DataParallel."""
    nn = torch.nn
    a = torch.randn(5, requires_grad=True)
    b = torch.ones(5, requires_grad=True)
    y = a * b
    print(y.grad_fn._saved_self)
    print(y.grad_fn._saved_other)

    def f(x):
        return x * x

    x = torch.randn(5, requires_grad=True)
    y = f(f(f(x)))
    a = torch.randn(5, requires_grad=True)
    b = torch.ones(5, requires_grad=True)
    y = a * b
    print(y.grad_fn._saved_self is a)
    print(y.grad_fn._saved_other is b)
    a = torch.randn(5, requires_grad=True)
    y = torch.exp(a)
    print(y.grad_fn._saved_result.equal(y))
    print(y.grad_fn._saved_result is y)

    def pack_hook(x):
        print("Packing", x)
        return x

    def unpack_hook(x):
        print("Unpacking", x)
        return x

    a = torch.ones(5, requires_grad=True)
    b = torch.ones(5, requires_grad=True) * 2
    with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
        y = a * b
    y.sum().backward()
    x = torch.randn(5, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda x: x * 4, lambda x: x / 4):
        y = torch.pow(x, 2)
    y.sum().backward()
    assert x.grad.equal(2 * x)
    storage = []

    def pack(x):
        storage.append(x)
        return len(storage) - 1

    def unpack(x):
        return storage[x]

    x = torch.randn(5, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x * x
    y.sum().backward()
    assert x.grad.equal(2 * x)

    def pack(x):
        delta = torch.randn(*x.size())
        return x - delta, lambda x: x + delta

    def unpack(packed):
        x, f = packed
        return f(x)

    x = torch.randn(5, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x * x
    y.sum().backward()
    assert torch.allclose(x.grad, 2 * x)
    x = torch.randn(5, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(
            lambda x: repr(x), lambda x: eval("torch." + x, {"torch": torch})):
        y = x * x
    y.sum().backward()
    assert torch.all(x.grad - 2 * x <= 1e-4)
    x = torch.randn(5, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x * x
    y.sum().backward()
    print(torch.allclose(x.grad, (2 * x)))

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.randn(5))

        def forward(self, x):
            with torch.autograd.graph.save_on_cpu(pin_memory=True):
                return self.w * x

    x = torch.randn(5)
    model = Model()
    loss = model(x).sum()
    loss.backward()
    print(model.w.grad)

    class SaveToCpu(nn.Module):
        def __init__(self, module):
            super().__init__()
            self.module = module

        def forward(self, *args, **kwargs):
            with torch.autograd.graph.save_on_cpu(pin_memory=True):
                return self.module(*args, **kwargs)

    model = nn.Sequential(nn.Linear(10, 100), SaveToCpu(nn.Linear(100, 100)), nn.Linear(100, 10))
    x = torch.randn(10)
    loss = model(x).sum()
    loss.backward()
    print(loss, model[1].module.bias.grad[:4])
    with in_temporary_directory() as tmp_dir:
        counter = iter(range(1000))

        def pack_hook(tensor):
            name = os.path.join(tmp_dir, f"saved-{next(counter)}")
            torch.save(tensor, name)
            return name

        def unpack_hook(name):
            tensor = torch.load(name)
            os.remove(name)
            return tensor

        x = torch.ones(5, requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
            y = x.pow(2)
        print(y.grad_fn._saved_self)
        try:
            print(y.grad_fn._saved_self)
            print("Double access succeeded!")
        except Exception:  # (the tutorial's bare except)
            print("Double access failed!")

        class SelfDeletingTempFile():
            def __init__(self):
                self.name = os.path.join(tmp_dir, f"saved-{next(counter)}")

            def __del__(self):
                os.remove(self.name)

        def pack_hook(tensor):
            temp_file = SelfDeletingTempFile()
            torch.save(tensor, temp_file.name)
            return temp_file

        def unpack_hook(temp_file):
            return torch.load(temp_file.name)

        x = torch.linspace(-1, 1, 5, requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
            y = (x * x).exp()
        print(sorted(os.listdir(tmp_dir)))
        y.sum().backward()
        del y
        print(x.grad, sorted(os.listdir(tmp_dir)))

    class SaveToDisk(nn.Module):
        def __init__(self, module):
            super().__init__()
            self.module = module

        def forward(self, *args, **kwargs):
            with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
                return self.module(*args, **kwargs)

    net = nn.DataParallel(SaveToDisk(Model()))
    print(net, list(net.state_dict()), net.device_ids)
    return {"grad": x.grad, "w": net.module.module.w}


def optimizer_step_in_backward(torch):
    """pytorch/tutorials intermediate_source/optimizer_step_in_backward_tutorial.py: a
    training loop with Adam, then the same one with a per-parameter Adam (``foreach=False``)
    stepped from each parameter's ``register_post_accumulate_grad_hook``, so no gradient
    is left after backward. Offline and on the CPU: a small convolutional model stands for
    torchvision's ViT, 3x32x32 fake images for 224x224 ones; CUDA's memory snapshots
    are left out."""
    nn = torch.nn
    image_size = 32

    def make_model():
        return nn.Sequential(nn.Conv2d(3, 4, 3, stride=2), nn.ReLU(), nn.Flatten(),
                             nn.Linear(4 * 15 * 15, 10))

    model = make_model()
    optimizer = torch.optim.Adam(model.parameters())

    def train(model, optimizer):
        fake_image = torch.rand(1, 3, image_size, image_size)
        loss = model.forward(fake_image)
        loss.sum().backward()
        optimizer.step()
        optimizer.zero_grad()
        return loss.sum()

    for _ in range(3):
        print(train(model, optimizer))
    optimizer_dict = {p: torch.optim.Adam([p], foreach=False) for p in model.parameters()}

    def optimizer_hook(parameter) -> None:
        optimizer_dict[parameter].step()
        optimizer_dict[parameter].zero_grad()

    for p in model.parameters():
        p.register_post_accumulate_grad_hook(optimizer_hook)

    def train(model):
        fake_image = torch.rand(1, 3, image_size, image_size)
        loss = model.forward(fake_image)
        loss.sum().backward()
        return loss.sum()

    del optimizer
    for _ in range(3):
        print(train(model), [p.grad for p in model.parameters()][:2])
    state = optimizer_dict[model[3].bias].state[model[3].bias]
    print(state["step"], state["exp_avg"][:3])
    return {"weight": model[0].weight, "bias": model[3].bias}


def fused_conv_bn(torch):
    """pytorch/tutorials intermediate_source/custom_function_conv_bn_tutorial.py: Conv2D and
    BatchNorm as custom Functions with hand-written backwards (``once_differentiable``),
    each checked with gradcheck, fused into one Function that recomputes the convolution
    in backward, wrapped in a module, then pytorch/examples' MNIST network trained fused
    and unfused (Adadelta, StepLR, ``inference_mode`` for testing). Offline: 48 seeded
    random images stand for MNIST, in batches of 16 (the tutorial's 2048), one epoch each;
    CUDA's peak-memory figures are left out, and gradcheck is given smaller tensors (the
    tutorial's 10x3x7x7 input makes PyTorch's gradcheck run its double convolution
    thousands of times: tens of seconds on two busy cores)."""
    once_differentiable = importlib.import_module(
        torch.__name__ + ".autograd.function").once_differentiable
    F, nn, optim = torch.nn.functional, torch.nn, torch.optim

    def convolution_backward(grad_out, X, weight):
        grad_input = F.conv2d(X.transpose(0, 1), grad_out.transpose(0, 1)).transpose(0, 1)
        grad_X = F.conv_transpose2d(grad_out, weight)
        return grad_X, grad_input

    class Conv2D(torch.autograd.Function):
        @staticmethod
        def forward(ctx, X, weight):
            ctx.save_for_backward(X, weight)
            return F.conv2d(X, weight)

        @staticmethod
        @once_differentiable
        def backward(ctx, grad_out):
            X, weight = ctx.saved_tensors
            return convolution_backward(grad_out, X, weight)

    weight = torch.rand(2, 3, 3, 3, requires_grad=True, dtype=torch.double)
    X = torch.rand(2, 3, 5, 5, requires_grad=True, dtype=torch.double)
    print(torch.autograd.gradcheck(Conv2D.apply, (X, weight)))

    def unsqueeze_all(t):
        return t[None, :, None, None]

    def batch_norm_backward(grad_out, X, sum, sqrt_var, N, eps):
        tmp = -((X - unsqueeze_all(sum) / N) * grad_out).sum(dim=(0, 2, 3))
        d_denom = tmp / (sqrt_var + eps)**2
        d_var = d_denom / (2 * sqrt_var)
        d_mean_dx = grad_out / unsqueeze_all(sqrt_var + eps)
        d_mean_dx = unsqueeze_all(-d_mean_dx.sum(dim=(0, 2, 3)) / N)
        grad_input = X * unsqueeze_all(d_var * N)
        grad_input += unsqueeze_all(-d_var * sum)
        grad_input *= 2 / ((N - 1) * N)
        grad_input += d_mean_dx
        grad_input *= unsqueeze_all(sqrt_var + eps)
        grad_input += grad_out
        grad_input /= unsqueeze_all(sqrt_var + eps)
        return grad_input

    class BatchNorm(torch.autograd.Function):
        @staticmethod
        def forward(ctx, X, eps=1e-3):
            sum = X.sum(dim=(0, 2, 3))
            var = X.var(unbiased=True, dim=(0, 2, 3))
            N = X.numel() / X.size(1)
            sqrt_var = torch.sqrt(var)
            ctx.save_for_backward(X)
            ctx.eps, ctx.sum, ctx.N, ctx.sqrt_var = eps, sum, N, sqrt_var
            mean = sum / N
            denom = sqrt_var + eps
            return (X - unsqueeze_all(mean)) / unsqueeze_all(denom)

        @staticmethod
        @once_differentiable
        def backward(ctx, grad_out):
            X, = ctx.saved_tensors
            return batch_norm_backward(grad_out, X, ctx.sum, ctx.sqrt_var, ctx.N, ctx.eps)

    a = torch.rand(1, 2, 3, 4, requires_grad=True, dtype=torch.double)
    print(torch.autograd.gradcheck(BatchNorm.apply, (a,), fast_mode=False))

    class FusedConvBN2DFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, X, conv_weight, eps=1e-3):
            assert X.ndim == 4
            ctx.save_for_backward(X, conv_weight)
            X = F.conv2d(X, conv_weight)
            sum = X.sum(dim=(0, 2, 3))
            var = X.var(unbiased=True, dim=(0, 2, 3))
            N = X.numel() / X.size(1)
            sqrt_var = torch.sqrt(var)
            ctx.eps, ctx.sum, ctx.N, ctx.sqrt_var = eps, sum, N, sqrt_var
            mean = sum / N
            denom = sqrt_var + eps
            out = X - unsqueeze_all(mean)
            out /= unsqueeze_all(denom)
            return out

        @staticmethod
        def backward(ctx, grad_out):
            X, conv_weight, = ctx.saved_tensors
            X_conv_out = F.conv2d(X, conv_weight)
            grad_out = batch_norm_backward(grad_out, X_conv_out, ctx.sum, ctx.sqrt_var,
                                           ctx.N, ctx.eps)
            grad_X, grad_input = convolution_backward(grad_out, X, conv_weight)
            return grad_X, grad_input, None, None, None, None, None

    class FusedConvBN(nn.Module):
        def __init__(self, in_channels, out_channels, kernel_size, exp_avg_factor=0.1,
                     eps=1e-3, device=None, dtype=None):
            super(FusedConvBN, self).__init__()
            factory_kwargs = {'device': device, 'dtype': dtype}
            weight_shape = (out_channels, in_channels, kernel_size, kernel_size)
            self.conv_weight = nn.Parameter(torch.empty(*weight_shape, **factory_kwargs))
            self.num_features = out_channels
            self.eps = eps
            self.reset_parameters()

        def forward(self, X):
            return FusedConvBN2DFunction.apply(X, self.conv_weight, self.eps)

        def reset_parameters(self) -> None:
            nn.init.kaiming_uniform_(self.conv_weight, a=math.sqrt(5))

    weight = torch.rand(2, 3, 3, 3, requires_grad=True, dtype=torch.double)
    X = torch.rand(2, 3, 4, 4, requires_grad=True, dtype=torch.double)
    print(torch.autograd.gradcheck(FusedConvBN2DFunction.apply, (X, weight)))

    class Net(nn.Module):
        def __init__(self, fused=True):
            super(Net, self).__init__()
            self.fused = fused
            if fused:
                self.convbn1 = FusedConvBN(1, 32, 3)
                self.convbn2 = FusedConvBN(32, 64, 3)
            else:
                self.conv1 = nn.Conv2d(1, 32, 3, 1, bias=False)
                self.bn1 = nn.BatchNorm2d(32, affine=False, track_running_stats=False)
                self.conv2 = nn.Conv2d(32, 64, 3, 1, bias=False)
                self.bn2 = nn.BatchNorm2d(64, affine=False, track_running_stats=False)
            self.fc1 = nn.Linear(9216, 128)
            self.dropout = nn.Dropout(0.5)
            self.fc2 = nn.Linear(128, 10)

        def forward(self, x):
            x = self.convbn1(x) if self.fused else self.bn1(self.conv1(x))
            x = F.relu(x)
            x = self.convbn2(x) if self.fused else self.bn2(self.conv2(x))
            x = F.relu(x)
            x = F.max_pool2d(x, 2)
            x = F.relu(x)
            x = x.flatten(1)
            x = self.fc1(x)
            x = self.dropout(x)
            x = F.relu(x)
            x = self.fc2(x)
            return F.log_softmax(x, dim=1)

    def train(model, device, train_loader, optimizer, epoch):
        model.train()
        for batch_idx, (data, target) in enumerate(train_loader):
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            output = model(data)
            loss = F.nll_loss(output, target)
            loss.backward()
            optimizer.step()
            if batch_idx % 2 == 0:
                print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                    epoch, batch_idx * len(data), len(train_loader.dataset),
                    100. * batch_idx / len(train_loader), loss.item()))

    def test(model, device, test_loader):
        model.eval()
        test_loss, correct = 0, 0
        with torch.inference_mode():
            for data, target in test_loader:
                data, target = data.to(device), target.to(device)
                output = model(data)
                test_loss += F.nll_loss(output, target, reduction='sum').item()
                pred = output.argmax(dim=1, keepdim=True)
                correct += pred.eq(target.view_as(pred)).sum().item()
        test_loss /= len(test_loader.dataset)
        print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
            test_loss, correct, len(test_loader.dataset),
            100. * correct / len(test_loader.dataset)))

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = torch.utils.data.DataLoader(image_dataset(torch, 32), batch_size=16)
    test_loader = torch.utils.data.DataLoader(image_dataset(torch, 16, seed=2), batch_size=16)
    finals = {}
    for fused in (True, False):
        torch.manual_seed(123456)
        model = Net(fused=fused).to(device)
        optimizer = optim.Adadelta(model.parameters(), lr=1.0)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
        for epoch in range(1):
            train(model, device, train_loader, optimizer, epoch)
            test(model, device, test_loader)
            scheduler.step()
        finals[f"fc2 {fused}"] = model.fc2.weight
    return finals


# ---- d2l-ai/d2l-en: the book's own classes, then its chapters -------------------------------

FRA_ENG = [("go .", "va !"), ("hi .", "salut !"), ("run !", "cours !"), ("who ?", "qui ?"),
           ("wow !", "ça alors !"), ("i lost .", "j'ai perdu ."), ("he's calm .", "il est calme ."),
           ("i'm home .", "je suis chez moi ."), ("i'm calm .", "je suis calme ."),
           ("he's home .", "il est chez lui ."), ("we lost .", "nous avons perdu ."),
           ("go home .", "va chez toi !"), ("i'm lost .", "je suis perdu ."),
           ("he ran .", "il a couru ."), ("we ran .", "nous avons couru .")]


def d2l_library(torch):
    """The classes and helpers the d2l book saves into its ``d2l`` package (``#@save``),
    written out as chapter_linear-regression/oo-design.md, synthetic-regression-data.md,
    linear-regression-scratch.md and linear-regression-concise.md, chapter_linear-
    classification/classification.md, image-classification-dataset.md and softmax-
    regression-concise.md, chapter_convolutional-neural-networks/lenet.md and
    chapter_recurrent-neural-networks/text-sequence.md, chapter_recurrent-modern/machine-
    translation-and-dataset.md, encoder-decoder.md and seq2seq.md, and chapter_attention-
    mechanisms-and-transformers/attention-scoring-functions.md and multihead-attention.md
    define them. Offline stand-ins (MTFraEng reads ``FRA_ENG``):
    ProgressBoard prints the points it would draw (the book's averaging every ``every_n``
    points), FashionMNIST is ``image_dataset`` and TimeMachine reads a made-up text."""
    nn, F = torch.nn, torch.nn.functional
    d2l = type("d2l", (), {})

    def add_to_class(Class):
        def wrapper(obj):
            setattr(Class, obj.__name__, obj)
        return wrapper

    class HyperParameters:
        def save_hyperparameters(self, ignore=[]):
            frame = inspect.currentframe().f_back
            _, _, _, local_vars = inspect.getargvalues(frame)
            self.hparams = {k: v for k, v in local_vars.items()
                            if k not in set(ignore + ['self']) and not k.startswith('_')}
            for k, v in self.hparams.items():
                setattr(self, k, v)

    class ProgressBoard(HyperParameters):
        def __init__(self, xlabel=None, ylabel=None, xlim=None, ylim=None, xscale='linear',
                     yscale='linear', ls=['-', '--', '-.', ':'], colors=['C0', 'C1', 'C2', 'C3'],
                     fig=None, axes=None, figsize=(3.5, 2.5), display=True):
            self.save_hyperparameters()

        def draw(self, x, y, label, every_n=1):
            if not hasattr(self, 'raw_points'):
                self.raw_points, self.data = {}, {}
            points = self.raw_points.setdefault(label, [])
            points.append((x, y))
            if len(points) != every_n:
                return
            mean = lambda v: sum(v) / len(v)
            point = (mean([p[0] for p in points]), mean([p[1] for p in points]))
            self.data.setdefault(label, []).append(point)
            points.clear()
            print(f"{label} {point[0]:.2f} {point[1]:.5f}")

    class Module(nn.Module, HyperParameters):
        def __init__(self, plot_train_per_epoch=2, plot_valid_per_epoch=1):
            super().__init__()
            self.save_hyperparameters()
            self.board = ProgressBoard()

        def loss(self, y_hat, y):
            raise NotImplementedError

        def forward(self, X):
            assert hasattr(self, 'net'), 'Neural network is defined'
            return self.net(X)

        def plot(self, key, value, train):
            assert hasattr(self, 'trainer'), 'Trainer is not inited'
            self.board.xlabel = 'epoch'
            if train:
                x = self.trainer.train_batch_idx / self.trainer.num_train_batches
                n = self.trainer.num_train_batches / self.plot_train_per_epoch
            else:
                x = self.trainer.epoch + 1
                n = self.trainer.num_val_batches / self.plot_valid_per_epoch
            self.board.draw(x, value.to(torch.device('cpu')).detach().numpy(),
                            ('train_' if train else 'val_') + key, every_n=int(n))

        def training_step(self, batch):
            l = self.loss(self(*batch[:-1]), batch[-1])
            self.plot('loss', l, train=True)
            return l

        def validation_step(self, batch):
            l = self.loss(self(*batch[:-1]), batch[-1])
            self.plot('loss', l, train=False)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=self.lr)

        def apply_init(self, inputs, init=None):
            self.forward(*inputs)
            if init is not None:
                self.net.apply(init)

    class DataModule(HyperParameters):
        def __init__(self, root='../data', num_workers=4):
            self.save_hyperparameters()

        def get_dataloader(self, train):
            raise NotImplementedError

        def train_dataloader(self):
            return self.get_dataloader(train=True)

        def val_dataloader(self):
            return self.get_dataloader(train=False)

        def get_tensorloader(self, tensors, train, indices=slice(0, None)):
            tensors = tuple(a[indices] for a in tensors)
            dataset = torch.utils.data.TensorDataset(*tensors)
            return torch.utils.data.DataLoader(dataset, self.batch_size, shuffle=train)

    class Trainer(HyperParameters):
        def __init__(self, max_epochs, num_gpus=0, gradient_clip_val=0):
            self.save_hyperparameters()
            assert num_gpus == 0, 'No GPU support yet'

        def prepare_data(self, data):
            self.train_dataloader = data.train_dataloader()
            self.val_dataloader = data.val_dataloader()
            self.num_train_batches = len(self.train_dataloader)
            self.num_val_batches = (len(self.val_dataloader)
                                    if self.val_dataloader is not None else 0)

        def prepare_model(self, model):
            model.trainer = self
            model.board.xlim = [0, self.max_epochs]
            self.model = model

        def fit(self, model, data):
            self.prepare_data(data)
            self.prepare_model(model)
            self.optim = model.configure_optimizers()
            self.epoch = 0
            self.train_batch_idx = 0
            self.val_batch_idx = 0
            for self.epoch in range(self.max_epochs):
                self.fit_epoch()

        def prepare_batch(self, batch):
            return batch

        def fit_epoch(self):
            self.model.train()
            for batch in self.train_dataloader:
                loss = self.model.training_step(self.prepare_batch(batch))
                self.optim.zero_grad()
                with torch.no_grad():
                    loss.backward()
                    if self.gradient_clip_val > 0:
                        self.clip_gradients(self.gradient_clip_val, self.model)
                    self.optim.step()
                self.train_batch_idx += 1
            if self.val_dataloader is None:
                return
            self.model.eval()
            for batch in self.val_dataloader:
                with torch.no_grad():
                    self.model.validation_step(self.prepare_batch(batch))
                self.val_batch_idx += 1

        def clip_gradients(self, grad_clip_val, model):
            params = [p for p in model.parameters() if p.requires_grad]
            norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
            if norm > grad_clip_val:
                for param in params:
                    param.grad[:] *= grad_clip_val / norm

    class SyntheticRegressionData(DataModule):
        def __init__(self, w, b, noise=0.01, num_train=1000, num_val=1000, batch_size=32):
            super().__init__()
            self.save_hyperparameters()
            n = num_train + num_val
            self.X = torch.randn(n, len(w))
            noise = torch.randn(n, 1) * noise
            self.y = torch.matmul(self.X, w.reshape((-1, 1))) + b + noise

        def get_dataloader(self, train):
            i = slice(0, self.num_train) if train else slice(self.num_train, None)
            return self.get_tensorloader((self.X, self.y), train, i)

    class LinearRegressionScratch(Module):
        def __init__(self, num_inputs, lr, sigma=0.01):
            super().__init__()
            self.save_hyperparameters()
            self.w = torch.normal(0, sigma, (num_inputs, 1), requires_grad=True)
            self.b = torch.zeros(1, requires_grad=True)

        def forward(self, X):
            return torch.matmul(X, self.w) + self.b

        def loss(self, y_hat, y):
            l = (y_hat - y) ** 2 / 2
            return l.mean()

        def configure_optimizers(self):
            return SGD([self.w, self.b], self.lr)

    class SGD(HyperParameters):
        def __init__(self, params, lr):
            self.save_hyperparameters()

        def step(self):
            for param in self.params:
                param -= self.lr * param.grad

        def zero_grad(self):
            for param in self.params:
                if param.grad is not None:
                    param.grad.zero_()

    class LinearRegression(Module):
        def __init__(self, lr):
            super().__init__()
            self.save_hyperparameters()
            self.net = nn.LazyLinear(1)
            self.net.weight.data.normal_(0, 0.01)
            self.net.bias.data.fill_(0)

        def forward(self, X):
            return self.net(X)

        def loss(self, y_hat, y):
            fn = nn.MSELoss()
            return fn(y_hat, y)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), self.lr)

        def get_w_b(self):
            return (self.net.weight.data, self.net.bias.data)

    class Classifier(Module):
        def validation_step(self, batch):
            Y_hat = self(*batch[:-1])
            self.plot('loss', self.loss(Y_hat, batch[-1]), train=False)
            self.plot('acc', self.accuracy(Y_hat, batch[-1]), train=False)

        def accuracy(self, Y_hat, Y, averaged=True):
            Y_hat = Y_hat.reshape((-1, Y_hat.shape[-1]))
            preds = Y_hat.argmax(axis=1).type(Y.dtype)
            compare = (preds == Y.reshape(-1)).type(torch.float32)
            return compare.mean() if averaged else compare

        def loss(self, Y_hat, Y, averaged=True):
            Y_hat = Y_hat.reshape((-1, Y_hat.shape[-1]))
            Y = Y.reshape((-1,))
            return F.cross_entropy(Y_hat, Y, reduction='mean' if averaged else 'none')

        def layer_summary(self, X_shape):
            X = torch.randn(*X_shape)
            for layer in self.net:
                X = layer(X)
                print(layer.__class__.__name__, 'output shape:\t', X.shape)

    class FashionMNIST(DataModule):
        def __init__(self, batch_size=64, resize=(28, 28), num_train=600, num_val=200):
            super().__init__()
            self.save_hyperparameters()
            self.train = image_dataset(torch, num_train, (1,) + tuple(resize), seed=1)
            self.val = image_dataset(torch, num_val, (1,) + tuple(resize), seed=2)

        def text_labels(self, indices):
            labels = ['t-shirt', 'trouser', 'pullover', 'dress', 'coat',
                      'sandal', 'shirt', 'sneaker', 'bag', 'ankle boot']
            return [labels[int(i)] for i in indices]

        def get_dataloader(self, train):
            data = self.train if train else self.val
            return torch.utils.data.DataLoader(data, self.batch_size, shuffle=train,
                                               num_workers=self.num_workers)

    def init_cnn(module):
        if type(module) == nn.Linear or type(module) == nn.Conv2d:
            nn.init.xavier_uniform_(module.weight)

    class Vocab:
        def __init__(self, tokens=[], min_freq=0, reserved_tokens=[]):
            if tokens and isinstance(tokens[0], list):
                tokens = [token for line in tokens for token in line]
            counter = collections.Counter(tokens)
            self.token_freqs = sorted(counter.items(), key=lambda x: x[1], reverse=True)
            self.idx_to_token = list(sorted(set(['<unk>'] + reserved_tokens + [
                token for token, freq in self.token_freqs if freq >= min_freq])))
            self.token_to_idx = {token: idx for idx, token in enumerate(self.idx_to_token)}

        def __len__(self):
            return len(self.idx_to_token)

        def __getitem__(self, tokens):
            if not isinstance(tokens, (list, tuple)):
                return self.token_to_idx.get(tokens, self.unk)
            return [self.__getitem__(token) for token in tokens]

        def to_tokens(self, indices):
            if hasattr(indices, '__len__') and len(indices) > 1:
                return [self.idx_to_token[int(index)] for index in indices]
            return self.idx_to_token[indices]

        @property
        def unk(self):
            return self.token_to_idx['<unk>']

    class TimeMachine(DataModule):
        def _download(self):
            return " ".join(names()) + " the time traveller for so it will be convenient to speak"

        def _preprocess(self, text):
            return re.sub('[^A-Za-z]+', ' ', text).lower()

        def _tokenize(self, text):
            return list(text)

        def build(self, raw_text, vocab=None):
            tokens = self._tokenize(self._preprocess(raw_text))
            if vocab is None:
                vocab = Vocab(tokens)
            corpus = [vocab[token] for token in tokens]
            return corpus, vocab

        def __init__(self, batch_size, num_steps, num_train=600, num_val=200):
            super().__init__()
            self.save_hyperparameters()
            corpus, self.vocab = self.build(self._download())
            array = torch.tensor([corpus[i:i + num_steps + 1]
                                  for i in range(len(corpus) - num_steps)])
            self.X, self.Y = array[:, :-1], array[:, 1:]

        def get_dataloader(self, train):
            idx = slice(0, self.num_train) if train else slice(
                self.num_train, self.num_train + self.num_val)
            return self.get_tensorloader([self.X, self.Y], train, idx)

    class Accumulator:
        def __init__(self, n):
            self.data = [0.0] * n

        def add(self, *args):
            self.data = [a + float(b) for a, b in zip(self.data, args)]

        def __getitem__(self, idx):
            return self.data[idx]

    def accuracy(y_hat, y):
        if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
            y_hat = y_hat.argmax(axis=1)
        cmp = y_hat.type(y.dtype) == y
        return float(cmp.type(y.dtype).sum())

    def evaluate_accuracy_gpu(net, data_iter, device=None):
        if isinstance(net, nn.Module):
            net.eval()
            if not device:
                device = next(iter(net.parameters())).device
        metric = Accumulator(2)
        with torch.no_grad():
            for X, y in data_iter:
                X, y = X.to(device), y.to(device)
                metric.add(accuracy(net(X), y), y.numel())
        return metric[0] / metric[1]

    def masked_softmax(X, valid_lens):
        def _sequence_mask(X, valid_len, value=0):
            maxlen = X.size(1)
            mask = torch.arange((maxlen), dtype=torch.float32,
                                device=X.device)[None, :] < valid_len[:, None]
            X[~mask] = value
            return X

        if valid_lens is None:
            return nn.functional.softmax(X, dim=-1)
        shape = X.shape
        if valid_lens.dim() == 1:
            valid_lens = torch.repeat_interleave(valid_lens, shape[1])
        else:
            valid_lens = valid_lens.reshape(-1)
        X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
        return nn.functional.softmax(X.reshape(shape), dim=-1)

    class DotProductAttention(nn.Module):
        def __init__(self, dropout):
            super().__init__()
            self.dropout = nn.Dropout(dropout)

        def forward(self, queries, keys, values, valid_lens=None):
            d = queries.shape[-1]
            scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
            self.attention_weights = masked_softmax(scores, valid_lens)
            return torch.bmm(self.dropout(self.attention_weights), values)

    class AdditiveAttention(nn.Module):
        def __init__(self, num_hiddens, dropout, **kwargs):
            super(AdditiveAttention, self).__init__(**kwargs)
            self.W_k = nn.LazyLinear(num_hiddens, bias=False)
            self.W_q = nn.LazyLinear(num_hiddens, bias=False)
            self.w_v = nn.LazyLinear(1, bias=False)
            self.dropout = nn.Dropout(dropout)

        def forward(self, queries, keys, values, valid_lens):
            queries, keys = self.W_q(queries), self.W_k(keys)
            features = queries.unsqueeze(2) + keys.unsqueeze(1)
            features = torch.tanh(features)
            scores = self.w_v(features).squeeze(-1)
            self.attention_weights = masked_softmax(scores, valid_lens)
            return torch.bmm(self.dropout(self.attention_weights), values)

    class MultiHeadAttention(Module):
        def __init__(self, num_hiddens, num_heads, dropout, bias=False, **kwargs):
            super().__init__()
            self.num_heads = num_heads
            self.attention = DotProductAttention(dropout)
            self.W_q = nn.LazyLinear(num_hiddens, bias=bias)
            self.W_k = nn.LazyLinear(num_hiddens, bias=bias)
            self.W_v = nn.LazyLinear(num_hiddens, bias=bias)
            self.W_o = nn.LazyLinear(num_hiddens, bias=bias)

        def forward(self, queries, keys, values, valid_lens):
            queries = self.transpose_qkv(self.W_q(queries))
            keys = self.transpose_qkv(self.W_k(keys))
            values = self.transpose_qkv(self.W_v(values))
            if valid_lens is not None:
                valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
            output = self.attention(queries, keys, values, valid_lens)
            output_concat = self.transpose_output(output)
            return self.W_o(output_concat)

        def transpose_qkv(self, X):
            X = X.reshape(X.shape[0], X.shape[1], self.num_heads, -1)
            X = X.permute(0, 2, 1, 3)
            return X.reshape(-1, X.shape[2], X.shape[3])

        def transpose_output(self, X):
            X = X.reshape(-1, self.num_heads, X.shape[1], X.shape[2])
            X = X.permute(0, 2, 1, 3)
            return X.reshape(X.shape[0], X.shape[1], -1)

    class PositionalEncoding(nn.Module):
        def __init__(self, num_hiddens, dropout, max_len=1000):
            super().__init__()
            self.dropout = nn.Dropout(dropout)
            self.P = torch.zeros((1, max_len, num_hiddens))
            X = torch.arange(max_len, dtype=torch.float32).reshape(
                -1, 1) / torch.pow(10000, torch.arange(
                0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)
            self.P[:, :, 0::2] = torch.sin(X)
            self.P[:, :, 1::2] = torch.cos(X)

        def forward(self, X):
            X = X + self.P[:, :X.shape[1], :].to(X.device)
            return self.dropout(X)

    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()

        def forward(self, X, *args):
            raise NotImplementedError

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()

        def init_state(self, enc_all_outputs, *args):
            raise NotImplementedError

        def forward(self, X, state):
            raise NotImplementedError

    class EncoderDecoder(Classifier):
        def __init__(self, encoder, decoder):
            super().__init__()
            self.encoder = encoder
            self.decoder = decoder

        def forward(self, enc_X, dec_X, *args):
            enc_all_outputs = self.encoder(enc_X, *args)
            dec_state = self.decoder.init_state(enc_all_outputs, *args)
            return self.decoder(dec_X, dec_state)[0]

        def predict_step(self, batch, device, num_steps, save_attention_weights=False):
            batch = [a.to(device) for a in batch]
            src, tgt, src_valid_len, _ = batch
            enc_all_outputs = self.encoder(src, src_valid_len)
            dec_state = self.decoder.init_state(enc_all_outputs, src_valid_len)
            outputs, attention_weights = [tgt[:, (0)].unsqueeze(1), ], []
            for _ in range(num_steps):
                Y, dec_state = self.decoder(outputs[-1], dec_state)
                outputs.append(Y.argmax(2))
                if save_attention_weights:
                    attention_weights.append(self.decoder.attention_weights)
            return torch.cat(outputs[1:], 1), attention_weights

    class Seq2Seq(EncoderDecoder):
        def __init__(self, encoder, decoder, tgt_pad, lr):
            super().__init__(encoder, decoder)
            self.save_hyperparameters()

        def validation_step(self, batch):
            Y_hat = self(*batch[:-1])
            self.plot('loss', self.loss(Y_hat, batch[-1]), train=False)

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=self.lr)

        def loss(self, Y_hat, Y):
            l = super(Seq2Seq, self).loss(Y_hat, Y, averaged=False)
            mask = (Y.reshape(-1) != self.tgt_pad).type(torch.float32)
            return (l * mask).sum() / mask.sum()

    class MTFraEng(DataModule):
        def _download(self):
            lines = [f"{a}\t{b}" for a, b in FRA_ENG]
            lines += [f"{a[:-2].capitalize()} {c}\t{b[:-2]} {d}" for a, b in FRA_ENG
                      for c, d in (("?", "?"), ("!", "!"))]
            return "\n".join(lines * 2).replace("!", "\u202f!", 3)

        def _preprocess(self, text):
            text = text.replace('\u202f', ' ').replace('\xa0', ' ')
            no_space = lambda char, prev_char: char in ',.!?' and prev_char != ' '
            out = [' ' + char if i > 0 and no_space(char, text[i - 1]) else char
                   for i, char in enumerate(text.lower())]
            return ''.join(out)

        def _tokenize(self, text, max_examples=None):
            src, tgt = [], []
            for i, line in enumerate(text.split('\n')):
                if max_examples and i > max_examples:
                    break
                parts = line.split('\t')
                if len(parts) == 2:
                    src.append([t for t in f'{parts[0]} <eos>'.split(' ') if t])
                    tgt.append([t for t in f'{parts[1]} <eos>'.split(' ') if t])
            return src, tgt

        def __init__(self, batch_size, num_steps=9, num_train=64, num_val=26):
            super().__init__()
            self.save_hyperparameters()
            self.arrays, self.src_vocab, self.tgt_vocab = self._build_arrays(
                self._download())

        def _build_arrays(self, raw_text, src_vocab=None, tgt_vocab=None):
            def _build_array(sentences, vocab, is_tgt=False):
                pad_or_trim = lambda seq, t: (
                    seq[:t] if len(seq) > t else seq + ['<pad>'] * (t - len(seq)))
                sentences = [pad_or_trim(s, self.num_steps) for s in sentences]
                if is_tgt:
                    sentences = [['<bos>'] + s for s in sentences]
                if vocab is None:
                    vocab = Vocab(sentences, min_freq=2)
                array = torch.tensor([vocab[s] for s in sentences])
                valid_len = (array != vocab['<pad>']).type(torch.int32).sum(1)
                return array, vocab, valid_len
            src, tgt = self._tokenize(self._preprocess(raw_text),
                                      self.num_train + self.num_val)
            src_array, src_vocab, src_valid_len = _build_array(src, src_vocab)
            tgt_array, tgt_vocab, _ = _build_array(tgt, tgt_vocab, True)
            return ((src_array, tgt_array[:, :-1], src_valid_len, tgt_array[:, 1:]),
                    src_vocab, tgt_vocab)

        def get_dataloader(self, train):
            idx = slice(0, self.num_train) if train else slice(self.num_train, None)
            return self.get_tensorloader(self.arrays, train, idx)

        def build(self, src_sentences, tgt_sentences):
            raw_text = '\n'.join([src + '\t' + tgt for src, tgt in zip(
                src_sentences, tgt_sentences)])
            arrays, _, _ = self._build_arrays(raw_text, self.src_vocab, self.tgt_vocab)
            return arrays

    def init_seq2seq(module):
        if type(module) == nn.Linear:
            nn.init.xavier_uniform_(module.weight)
        if type(module) == nn.GRU:
            for param in module._flat_weights_names:
                if "weight" in param:
                    nn.init.xavier_uniform_(module._parameters[param])

    class Seq2SeqEncoder(Encoder):
        def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embed_size)
            self.rnn = nn.GRU(embed_size, num_hiddens, num_layers, dropout=dropout)
            self.apply(init_seq2seq)

        def forward(self, X, *args):
            embs = self.embedding(X.t().type(torch.int64))
            outputs, state = self.rnn(embs)
            return outputs, state

    def bleu(pred_seq, label_seq, k):
        pred_tokens, label_tokens = pred_seq.split(' '), label_seq.split(' ')
        len_pred, len_label = len(pred_tokens), len(label_tokens)
        score = math.exp(min(0, 1 - len_label / len_pred))
        for n in range(1, min(k, len_pred) + 1):
            num_matches, label_subs = 0, collections.defaultdict(int)
            for i in range(len_label - n + 1):
                label_subs[' '.join(label_tokens[i: i + n])] += 1
            for i in range(len_pred - n + 1):
                if label_subs[' '.join(pred_tokens[i: i + n])] > 0:
                    num_matches += 1
                    label_subs[' '.join(pred_tokens[i: i + n])] -= 1
            score *= math.pow(num_matches / (len_pred - n + 1), math.pow(0.5, n))
        return score

    for name, value in list(locals().items()):
        if name not in ("torch", "nn", "F", "d2l"):
            setattr(d2l, name, value)
    return d2l


def d2l_linear_regression(torch):
    """d2l-ai/d2l-en chapter_linear-regression (oo-design.md, synthetic-regression-data.md,
    linear-regression-scratch.md, linear-regression-concise.md, weight-decay.md, PyTorch
    tabs): save_hyperparameters, SyntheticRegressionData with its DataLoader, the scratch
    model (plain tensors with requires_grad as attributes of an nn.Module, the book's SGD
    class subtracting in place, loss.backward() called under no_grad by Trainer.fit_epoch),
    the concise model (LazyLinear whose uninitialised weight.data is normal_-ed, MSELoss,
    torch.optim.SGD), the printed estimation errors, and weight decay from scratch
    (l2_penalty) and as an SGD parameter group holding a LazyLinear's parameter before its
    first call."""
    d2l = d2l_library(torch)
    nn = torch.nn

    class B(d2l.HyperParameters):
        def __init__(self, a, b, c):
            self.save_hyperparameters(ignore=['c'])
            print('self.a =', self.a, 'self.b =', self.b)
            print('There is no self.c =', not hasattr(self, 'c'))

    b = B(a=1, b=2, c=3)
    data = d2l.SyntheticRegressionData(w=torch.tensor([2, -3.4]), b=4.2)
    print('features:', data.X[0], '\nlabel:', data.y[0])
    X, y = next(iter(data.train_dataloader()))
    print('X shape:', X.shape, '\ny shape:', y.shape, len(data.train_dataloader()))

    model = d2l.LinearRegressionScratch(2, lr=0.03)
    data = d2l.SyntheticRegressionData(w=torch.tensor([2, -3.4]), b=4.2)
    trainer = d2l.Trainer(max_epochs=3)
    trainer.fit(model, data)
    with torch.no_grad():
        print(f'error in estimating w: {data.w - model.w.reshape(data.w.shape)}')
        print(f'error in estimating b: {data.b - model.b}')
    print(data.w - model.w.reshape(data.w.shape), model.w.grad)
    finals = {"scratch.w": model.w, "scratch.b.grad": model.b.grad}

    model = d2l.LinearRegression(lr=0.03)
    data = d2l.SyntheticRegressionData(w=torch.tensor([2, -3.4]), b=4.2)
    trainer = d2l.Trainer(max_epochs=3)
    trainer.fit(model, data)
    w, b = model.get_w_b()
    print(f'error in estimating w: {data.w - w.reshape(data.w.shape)}')
    print(f'error in estimating b: {data.b - b}')
    print(model, model.net.weight.grad)
    finals["concise.w"] = model.net.weight

    class Data(d2l.DataModule):
        def __init__(self, num_train, num_val, num_inputs, batch_size):
            self.save_hyperparameters()
            n = num_train + num_val
            self.X = torch.randn(n, num_inputs)
            noise = torch.randn(n, 1) * 0.01
            w, b = torch.ones((num_inputs, 1)) * 0.01, 0.05
            self.y = torch.matmul(self.X, w) + b + noise

        def get_dataloader(self, train):
            i = slice(0, self.num_train) if train else slice(self.num_train, None)
            return self.get_tensorloader([self.X, self.y], train, i)

    def l2_penalty(w):
        return (w ** 2).sum() / 2

    class WeightDecayScratch(d2l.LinearRegressionScratch):
        def __init__(self, num_inputs, lambd, lr, sigma=0.01):
            super().__init__(num_inputs, lr, sigma)
            self.save_hyperparameters()

        def loss(self, y_hat, y):
            return (super().loss(y_hat, y) + self.lambd * l2_penalty(self.w))

    data = Data(num_train=20, num_val=100, num_inputs=200, batch_size=5)
    trainer = d2l.Trainer(max_epochs=4)

    def train_scratch(lambd):
        model = WeightDecayScratch(num_inputs=200, lambd=lambd, lr=0.01)
        model.board.yscale = 'log'
        trainer.fit(model, data)
        print('L2 norm of w:', float(l2_penalty(model.w)))
        return model

    train_scratch(0)
    finals["decay.scratch.w"] = train_scratch(3).w

    class WeightDecay(d2l.LinearRegression):
        def __init__(self, wd, lr):
            super().__init__(lr)
            self.save_hyperparameters()
            self.wd = wd

        def configure_optimizers(self):
            return torch.optim.SGD([
                {'params': self.net.weight, 'weight_decay': self.wd},
                {'params': self.net.bias}], lr=self.lr)

    model = WeightDecay(wd=3, lr=0.01)
    model.board.yscale = 'log'
    trainer.fit(model, data)
    print('L2 norm of w:', float(l2_penalty(model.get_w_b()[0])))
    print(trainer.optim)
    finals["decay.concise.w"] = model.net.weight
    return finals


def d2l_linear_classification(torch):
    """d2l-ai/d2l-en chapter_linear-classification (classification.md, image-
    classification-dataset.md, softmax-regression-scratch.md, softmax-regression-
    concise.md, PyTorch tabs): the FashionMNIST DataModule (a seeded stand-in) and its
    first batch's shapes and dtypes, softmax written with exp and sum(1, keepdims=True),
    y_hat[[0, 1], y] picking, cross_entropy as -log of picked entries, the scratch model
    overriding parameters() with a list of plain tensors, the concise Flatten + LazyLinear
    model with F.cross_entropy, accuracy with argmax(axis=1).type(Y.dtype), and the wrong
    predictions of a validation batch."""
    d2l = d2l_library(torch)
    nn = torch.nn
    data = d2l.FashionMNIST(resize=(32, 32))
    print(len(data.train), len(data.val), data.train[0][0].shape)
    X, y = next(iter(data.train_dataloader()))
    print(X.shape, X.dtype, y.shape, y.dtype, data.text_labels(y[:6]))

    X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    print(X.sum(0, keepdims=True), X.sum(1, keepdims=True))

    def softmax(X):
        X_exp = torch.exp(X)
        partition = X_exp.sum(1, keepdims=True)
        return X_exp / partition

    X = torch.rand((2, 5))
    X_prob = softmax(X)
    print(X_prob, X_prob.sum(1))

    class SoftmaxRegressionScratch(d2l.Classifier):
        def __init__(self, num_inputs, num_outputs, lr, sigma=0.01):
            super().__init__()
            self.save_hyperparameters()
            self.W = torch.normal(0, sigma, size=(num_inputs, num_outputs), requires_grad=True)
            self.b = torch.zeros(num_outputs, requires_grad=True)

        def parameters(self):
            return [self.W, self.b]

        def forward(self, X):
            X = X.reshape((-1, self.W.shape[0]))
            return softmax(torch.matmul(X, self.W) + self.b)

    y = torch.tensor([0, 2])
    y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
    print(y_hat[[0, 1], y])

    def cross_entropy(y_hat, y):
        return -torch.log(y_hat[list(range(len(y_hat))), y]).mean()

    print(cross_entropy(y_hat, y))

    @d2l.add_to_class(SoftmaxRegressionScratch)
    def loss(self, y_hat, y):
        return cross_entropy(y_hat, y)

    data = d2l.FashionMNIST(batch_size=256)
    model = SoftmaxRegressionScratch(num_inputs=784, num_outputs=10, lr=0.1)
    trainer = d2l.Trainer(max_epochs=3)
    trainer.fit(model, data)
    X, y = next(iter(data.val_dataloader()))
    preds = model(X).argmax(axis=1)
    print(preds.shape)
    wrong = preds.type(y.dtype) != y
    X, y, preds = X[wrong], y[wrong], preds[wrong]
    labels = [a + '\n' + b for a, b in zip(data.text_labels(y), data.text_labels(preds))]
    print(len(labels), labels[:3], model.accuracy(model(X), y))
    finals = {"scratch.W": model.W, "scratch.b.grad": model.b.grad}

    class SoftmaxRegression(d2l.Classifier):
        def __init__(self, num_outputs, lr):
            super().__init__()
            self.save_hyperparameters()
            self.net = nn.Sequential(nn.Flatten(), nn.LazyLinear(num_outputs))

        def forward(self, X):
            return self.net(X)

    model = SoftmaxRegression(num_outputs=10, lr=0.1)
    trainer = d2l.Trainer(max_epochs=3)
    trainer.fit(model, data)
    X, y = next(iter(data.val_dataloader()))
    print(model.loss(model(X), y, averaged=False)[:5], model.accuracy(model(X), y, False)[:5])
    finals["concise.W"] = model.net[1].weight
    return finals


def d2l_multilayer_perceptrons(torch):
    """d2l-ai/d2l-en chapter_multilayer-perceptrons (mlp.md, mlp-implementation.md,
    dropout.md, numerical-stability-and-init.md, PyTorch tabs): relu/sigmoid/tanh on an
    arange with requires_grad and their gradients through backward(torch.ones_like(x),
    retain_graph=True) and x.grad.data.zero_(), relu as torch.max(X, zeros_like), the
    scratch MLP of nn.Parameter(randn * sigma), the concise MLP of LazyLinear layers,
    dropout_layer and DropoutMLPScratch (self.training), the concise DropoutMLP, and
    random 4x4 matrices multiplied: 10 here, where the book multiplies 100, whose product
    (about 1e23) differs from PyTorch's in the 5th digit: PyTorch's BLAS (MKL) sums some
    small products in another order than NumPy's, and 100 products add up the ulps."""
    d2l = d2l_library(torch)
    nn = torch.nn
    x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
    y = torch.relu(x)
    y.backward(torch.ones_like(x), retain_graph=True)
    print(y[75:85], x.grad[75:85])
    y = torch.sigmoid(x)
    x.grad.data.zero_()
    y.backward(torch.ones_like(x), retain_graph=True)
    print(y[::20], x.grad[::20])
    y = torch.tanh(x)
    x.grad.data.zero_()
    y.backward(torch.ones_like(x), retain_graph=True)
    print(y[::20], x.grad[::20], y)

    class MLPScratch(d2l.Classifier):
        def __init__(self, num_inputs, num_outputs, num_hiddens, lr, sigma=0.01):
            super().__init__()
            self.save_hyperparameters()
            self.W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens) * sigma)
            self.b1 = nn.Parameter(torch.zeros(num_hiddens))
            self.W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs) * sigma)
            self.b2 = nn.Parameter(torch.zeros(num_outputs))

    def relu(X):
        a = torch.zeros_like(X)
        return torch.max(X, a)

    @d2l.add_to_class(MLPScratch)
    def forward(self, X):
        X = X.reshape((-1, self.num_inputs))
        H = relu(torch.matmul(X, self.W1) + self.b1)
        return torch.matmul(H, self.W2) + self.b2

    model = MLPScratch(num_inputs=784, num_outputs=10, num_hiddens=64, lr=0.1)
    data = d2l.FashionMNIST(batch_size=256)
    trainer = d2l.Trainer(max_epochs=3)
    trainer.fit(model, data)
    finals = {"scratch.W1": model.W1, "scratch.b2.grad": model.b2.grad}

    class MLP(d2l.Classifier):
        def __init__(self, num_outputs, num_hiddens, lr):
            super().__init__()
            self.save_hyperparameters()
            self.net = nn.Sequential(nn.Flatten(), nn.LazyLinear(num_hiddens),
                                     nn.ReLU(), nn.LazyLinear(num_outputs))

    model = MLP(num_outputs=10, num_hiddens=64, lr=0.1)
    trainer.fit(model, data)
    print(model)
    finals["concise.W"] = model.net[3].weight

    def dropout_layer(X, dropout):
        assert 0 <= dropout <= 1
        if dropout == 1:
            return torch.zeros_like(X)
        mask = (torch.rand(X.shape) > dropout).float()
        return mask * X / (1.0 - dropout)

    X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
    print('dropout_p = 0:', dropout_layer(X, 0))
    print('dropout_p = 0.5:', dropout_layer(X, 0.5))
    print('dropout_p = 1:', dropout_layer(X, 1))

    class DropoutMLPScratch(d2l.Classifier):
        def __init__(self, num_outputs, num_hiddens_1, num_hiddens_2,
                     dropout_1, dropout_2, lr):
            super().__init__()
            self.save_hyperparameters()
            self.lin1 = nn.LazyLinear(num_hiddens_1)
            self.lin2 = nn.LazyLinear(num_hiddens_2)
            self.lin3 = nn.LazyLinear(num_outputs)
            self.relu = nn.ReLU()

        def forward(self, X):
            H1 = self.relu(self.lin1(X.reshape((X.shape[0], -1))))
            if self.training:
                H1 = dropout_layer(H1, self.dropout_1)
            H2 = self.relu(self.lin2(H1))
            if self.training:
                H2 = dropout_layer(H2, self.dropout_2)
            return self.lin3(H2)

    hparams = {'num_outputs': 10, 'num_hiddens_1': 64, 'num_hiddens_2': 32,
               'dropout_1': 0.5, 'dropout_2': 0.5, 'lr': 0.1}
    model = DropoutMLPScratch(**hparams)
    trainer = d2l.Trainer(max_epochs=2)
    trainer.fit(model, data)
    finals["dropout.scratch.lin1"] = model.lin1.weight

    class DropoutMLP(d2l.Classifier):
        def __init__(self, num_outputs, num_hiddens_1, num_hiddens_2,
                     dropout_1, dropout_2, lr):
            super().__init__()
            self.save_hyperparameters()
            self.net = nn.Sequential(
                nn.Flatten(), nn.LazyLinear(num_hiddens_1), nn.ReLU(),
                nn.Dropout(dropout_1), nn.LazyLinear(num_hiddens_2), nn.ReLU(),
                nn.Dropout(dropout_2), nn.LazyLinear(num_outputs))

    model = DropoutMLP(**hparams)
    trainer.fit(model, data)
    print(model)
    finals["dropout.concise.lin"] = model.net[4].weight.grad

    x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
    y = torch.sigmoid(x)
    y.backward(torch.ones_like(x))
    print(x.grad[::16])
    M = torch.normal(0, 1, size=(4, 4))
    print('a single matrix \n', M)
    for i in range(10):  # the book multiplies 100 (see the docstring)
        M = M @ torch.normal(0, 1, size=(4, 4))
    print('after multiplying 10 matrices\n', M)
    return finals


def d2l_convolutions(torch):
    """d2l-ai/d2l-en chapter_convolutional-neural-networks (conv-layer.md, padding-and-
    strides.md, channels.md, pooling.md, lenet.md, PyTorch tabs): corr2d written with a
    double loop and element assignment, the Conv2D module of nn.Parameter, edge detection
    with the kernel [[1, -1]] and X.t(), learning that kernel with a LazyConv2d and
    weight.data[:] -= lr * weight.grad, f'{l.sum():.3f}', comp_conv2d with (1, 1) +
    X.shape, padding and strides as ints and pairs, corr2d_multi_in with sum() over zip,
    torch.stack of outputs, the 1x1 convolution as a matmul, pool2d from scratch (max and
    avg), MaxPool2d with padding and strides over 1 and 2 channels, and LeNet: its
    layer_summary, apply_init with init_cnn (xavier_uniform_) after a lazy first call, and
    training on the FashionMNIST stand-in."""
    d2l = d2l_library(torch)
    nn = torch.nn

    def corr2d(X, K):
        h, w = K.shape
        Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
        for i in range(Y.shape[0]):
            for j in range(Y.shape[1]):
                Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
        return Y

    X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
    K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
    print(corr2d(X, K))

    class Conv2D(nn.Module):
        def __init__(self, kernel_size):
            super().__init__()
            self.weight = nn.Parameter(torch.rand(kernel_size))
            self.bias = nn.Parameter(torch.zeros(1))

        def forward(self, x):
            return corr2d(x, self.weight) + self.bias

    X = torch.ones((6, 8))
    X[:, 2:6] = 0
    K = torch.tensor([[1.0, -1.0]])
    Y = corr2d(X, K)
    print(X, Y, corr2d(X.t(), K))
    layer = Conv2D(kernel_size=(1, 2))
    out = layer(X)
    out.sum().backward()
    print(out[:2], layer.weight.grad, layer.bias.grad)

    conv2d = nn.LazyConv2d(1, kernel_size=(1, 2), bias=False)
    X = X.reshape((1, 1, 6, 8))
    Y = Y.reshape((1, 1, 6, 7))
    lr = 3e-2
    for i in range(10):
        Y_hat = conv2d(X)
        l = (Y_hat - Y) ** 2
        conv2d.zero_grad()
        l.sum().backward()
        conv2d.weight.data[:] -= lr * conv2d.weight.grad
        if (i + 1) % 2 == 0:
            print(f'epoch {i + 1}, loss {l.sum():.3f}')
    print(conv2d.weight.data.reshape((1, 2)))
    finals = {"conv2d.weight": conv2d.weight}

    def comp_conv2d(conv2d, X):
        X = X.reshape((1, 1) + X.shape)
        Y = conv2d(X)
        return Y.reshape(Y.shape[2:])

    conv2d = nn.LazyConv2d(1, kernel_size=3, padding=1)
    X = torch.rand(size=(8, 8))
    print(comp_conv2d(conv2d, X).shape)
    conv2d = nn.LazyConv2d(1, kernel_size=(5, 3), padding=(2, 1))
    print(comp_conv2d(conv2d, X).shape)
    conv2d = nn.LazyConv2d(1, kernel_size=3, padding=1, stride=2)
    print(comp_conv2d(conv2d, X).shape)
    conv2d = nn.LazyConv2d(1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4))
    print(comp_conv2d(conv2d, X).shape, comp_conv2d(conv2d, X))

    def corr2d_multi_in(X, K):
        return sum(corr2d(x, k) for x, k in zip(X, K))

    X = torch.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
                      [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])
    K = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
    print(corr2d_multi_in(X, K))

    def corr2d_multi_in_out(X, K):
        return torch.stack([corr2d_multi_in(X, k) for k in K], 0)

    K = torch.stack((K, K + 1, K + 2), 0)
    print(K.shape, corr2d_multi_in_out(X, K))

    def corr2d_multi_in_out_1x1(X, K):
        c_i, h, w = X.shape
        c_o = K.shape[0]
        X = X.reshape((c_i, h * w))
        K = K.reshape((c_o, c_i))
        Y = torch.matmul(K, X)
        return Y.reshape((c_o, h, w))

    X = torch.normal(0, 1, (3, 3, 3))
    K = torch.normal(0, 1, (2, 3, 1, 1))
    Y1 = corr2d_multi_in_out_1x1(X, K)
    Y2 = corr2d_multi_in_out(X, K)
    assert float(torch.abs(Y1 - Y2).sum()) < 1e-6
    print(Y1)

    def pool2d(X, pool_size, mode='max'):
        p_h, p_w = pool_size
        Y = torch.zeros((X.shape[0] - p_h + 1, X.shape[1] - p_w + 1))
        for i in range(Y.shape[0]):
            for j in range(Y.shape[1]):
                if mode == 'max':
                    Y[i, j] = X[i: i + p_h, j: j + p_w].max()
                elif mode == 'avg':
                    Y[i, j] = X[i: i + p_h, j: j + p_w].mean()
        return Y

    X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
    print(pool2d(X, (2, 2)), pool2d(X, (2, 2), 'avg'))
    X = torch.arange(16, dtype=torch.float32).reshape((1, 1, 4, 4))
    print(X, nn.MaxPool2d(3)(X), nn.MaxPool2d(3, padding=1, stride=2)(X),
          nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))(X))
    X = torch.cat((X, X + 1), 1)
    print(X, nn.MaxPool2d(3, padding=1, stride=2)(X))

    class LeNet(d2l.Classifier):
        def __init__(self, lr=0.1, num_classes=10):
            super().__init__()
            self.save_hyperparameters()
            self.net = nn.Sequential(
                nn.LazyConv2d(6, kernel_size=5, padding=2), nn.Sigmoid(),
                nn.AvgPool2d(kernel_size=2, stride=2),
                nn.LazyConv2d(16, kernel_size=5), nn.Sigmoid(),
                nn.AvgPool2d(kernel_size=2, stride=2),
                nn.Flatten(),
                nn.LazyLinear(120), nn.Sigmoid(),
                nn.LazyLinear(84), nn.Sigmoid(),
                nn.LazyLinear(num_classes))

    model = LeNet()
    model.layer_summary((1, 1, 28, 28))
    trainer = d2l.Trainer(max_epochs=2)
    data = d2l.FashionMNIST(batch_size=128, num_train=384, num_val=128)
    model = LeNet(lr=0.1)
    model.apply_init([next(iter(data.get_dataloader(True)))[0]], d2l.init_cnn)
    print(model.net[0].weight[0, 0, 0])
    trainer.fit(model, data)
    print(model)
    finals["lenet.conv"] = model.net[3].weight
    finals["lenet.grad"] = model.net[0].weight.grad
    return finals


def d2l_modern_cnns(torch):
    """d2l-ai/d2l-en chapter_convolutional-modern (batch-norm.md, resnet.md, densenet.md,
    nin.md, vgg.md, PyTorch tabs), on tiny inputs: batch_norm from scratch (the
    torch.is_grad_enabled() branch, mean over dims (0, 2, 3) with keepdim, moving averages
    returned as .data), the BatchNorm module in a LeNet trained through the d2l Trainer
    (validation under no_grad takes the moving statistics), the concise LazyBatchNorm2d/1d
    LeNet, Residual with LazyConv2d/LazyBatchNorm2d, `Y += X` and `if self.conv3:`, a small
    ResNet built with add_module and AdaptiveAvgPool2d((1, 1)), DenseBlock concatenating
    along channels and transition_block, nin_block and vgg_block networks summarised layer
    by layer. The book's ResNet-18, NiN and VGG-11 take 96x96 and 224x224 images; here
    their blocks are narrower and the images smaller."""
    d2l = d2l_library(torch)
    nn, F = torch.nn, torch.nn.functional

    def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
        if not torch.is_grad_enabled():
            X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
        else:
            assert len(X.shape) in (2, 4)
            if len(X.shape) == 2:
                mean = X.mean(dim=0)
                var = ((X - mean) ** 2).mean(dim=0)
            else:
                mean = X.mean(dim=(0, 2, 3), keepdim=True)
                var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
            X_hat = (X - mean) / torch.sqrt(var + eps)
            moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
            moving_var = (1.0 - momentum) * moving_var + momentum * var
        Y = gamma * X_hat + beta
        return Y, moving_mean.data, moving_var.data

    class BatchNorm(nn.Module):
        def __init__(self, num_features, num_dims):
            super().__init__()
            if num_dims == 2:
                shape = (1, num_features)
            else:
                shape = (1, num_features, 1, 1)
            self.gamma = nn.Parameter(torch.ones(shape))
            self.beta = nn.Parameter(torch.zeros(shape))
            self.moving_mean = torch.zeros(shape)
            self.moving_var = torch.ones(shape)

        def forward(self, X):
            if self.moving_mean.device != X.device:
                self.moving_mean = self.moving_mean.to(X.device)
                self.moving_var = self.moving_var.to(X.device)
            Y, self.moving_mean, self.moving_var = batch_norm(
                X, self.gamma, self.beta, self.moving_mean,
                self.moving_var, eps=1e-5, momentum=0.1)
            return Y

    class BNLeNetScratch(d2l.Classifier):
        def __init__(self, lr=0.1, num_classes=10):
            super().__init__()
            self.save_hyperparameters()
            self.net = nn.Sequential(
                nn.LazyConv2d(6, kernel_size=5), BatchNorm(6, num_dims=4),
                nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
                nn.LazyConv2d(16, kernel_size=5), BatchNorm(16, num_dims=4),
                nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
                nn.Flatten(), nn.LazyLinear(120), BatchNorm(120, num_dims=2),
                nn.Sigmoid(), nn.LazyLinear(84), BatchNorm(84, num_dims=2),
                nn.Sigmoid(), nn.LazyLinear(num_classes))

    trainer = d2l.Trainer(max_epochs=2)
    data = d2l.FashionMNIST(batch_size=128, num_train=256, num_val=128)
    model = BNLeNetScratch(lr=0.1)
    model.apply_init([next(iter(data.get_dataloader(True)))[0]], d2l.init_cnn)
    trainer.fit(model, data)
    print(model.net[1].gamma.reshape((-1,)), model.net[1].beta.reshape((-1,)),
          model.net[1].moving_var.reshape((-1,)))
    finals = {"scratch.gamma": model.net[1].gamma, "scratch.moving_mean": model.net[5].moving_mean}

    class BNLeNet(d2l.Classifier):
        def __init__(self, lr=0.1, num_classes=10):
            super().__init__()
            self.save_hyperparameters()
            self.net = nn.Sequential(
                nn.LazyConv2d(6, kernel_size=5), nn.LazyBatchNorm2d(),
                nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
                nn.LazyConv2d(16, kernel_size=5), nn.LazyBatchNorm2d(),
                nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
                nn.Flatten(), nn.LazyLinear(120), nn.LazyBatchNorm1d(),
                nn.Sigmoid(), nn.LazyLinear(84), nn.LazyBatchNorm1d(),
                nn.Sigmoid(), nn.LazyLinear(num_classes))

    model = BNLeNet(lr=0.1)
    model.apply_init([next(iter(data.get_dataloader(True)))[0]], d2l.init_cnn)
    trainer.fit(model, data)
    print(model.net[1].weight, model.net[1].running_var, model.net[5].num_batches_tracked)
    finals["concise.bn"] = model.net[1].running_mean

    class Residual(nn.Module):
        def __init__(self, num_channels, use_1x1conv=False, strides=1):
            super().__init__()
            self.conv1 = nn.LazyConv2d(num_channels, kernel_size=3, padding=1,
                                       stride=strides)
            self.conv2 = nn.LazyConv2d(num_channels, kernel_size=3, padding=1)
            if use_1x1conv:
                self.conv3 = nn.LazyConv2d(num_channels, kernel_size=1, stride=strides)
            else:
                self.conv3 = None
            self.bn1 = nn.LazyBatchNorm2d()
            self.bn2 = nn.LazyBatchNorm2d()

        def forward(self, X):
            Y = F.relu(self.bn1(self.conv1(X)))
            Y = self.bn2(self.conv2(Y))
            if self.conv3:
                X = self.conv3(X)
            Y += X
            return F.relu(Y)

    blk = Residual(3)
    X = torch.randn(4, 3, 6, 6)
    print(blk(X).shape)
    blk = Residual(6, use_1x1conv=True, strides=2)
    Y = blk(X)
    Y.sum().backward()
    print(Y.shape, Y.grad_fn, blk.conv3.weight.grad[0, :, 0, 0])

    class ResNet(d2l.Classifier):
        def b1(self):
            return nn.Sequential(
                nn.LazyConv2d(8, kernel_size=7, stride=2, padding=3),
                nn.LazyBatchNorm2d(), nn.ReLU(),
                nn.MaxPool2d(kernel_size=3, stride=2, padding=1))

        def block(self, num_residuals, num_channels, first_block=False):
            blk = []
            for i in range(num_residuals):
                if i == 0 and not first_block:
                    blk.append(Residual(num_channels, use_1x1conv=True, strides=2))
                else:
                    blk.append(Residual(num_channels))
            return nn.Sequential(*blk)

        def __init__(self, arch, lr=0.1, num_classes=10):
            super(ResNet, self).__init__()
            self.save_hyperparameters()
            self.net = nn.Sequential(self.b1())
            for i, b in enumerate(arch):
                self.net.add_module(f'b{i+2}', self.block(*b, first_block=(i == 0)))
            self.net.add_module('last', nn.Sequential(
                nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(),
                nn.LazyLinear(num_classes)))
            self.net.apply(d2l.init_cnn)

    class ResNet18(ResNet):
        def __init__(self, lr=0.1, num_classes=10):
            super().__init__(((2, 8), (2, 16), (2, 32), (2, 64)), lr, num_classes)

    ResNet18().layer_summary((1, 1, 64, 64))
    model = ResNet18(lr=0.01)
    data = d2l.FashionMNIST(batch_size=32, resize=(64, 64), num_train=64, num_val=32)
    model.apply_init([next(iter(data.get_dataloader(True)))[0]], d2l.init_cnn)
    trainer = d2l.Trainer(max_epochs=1)
    trainer.fit(model, data)
    print(model.net.b2[0].bn1.running_mean, model.net.last[2].bias)
    finals["resnet.last"] = model.net.last[2].weight

    def conv_block(num_channels):
        return nn.Sequential(
            nn.LazyBatchNorm2d(), nn.ReLU(),
            nn.LazyConv2d(num_channels, kernel_size=3, padding=1))

    class DenseBlock(nn.Module):
        def __init__(self, num_convs, num_channels):
            super(DenseBlock, self).__init__()
            layer = []
            for i in range(num_convs):
                layer.append(conv_block(num_channels))
            self.net = nn.Sequential(*layer)

        def forward(self, X):
            for blk in self.net:
                Y = blk(X)
                X = torch.cat((X, Y), dim=1)
            return X

    blk = DenseBlock(2, 10)
    X = torch.randn(4, 3, 8, 8)
    Y = blk(X)
    print(Y.shape)

    def transition_block(num_channels):
        return nn.Sequential(
            nn.LazyBatchNorm2d(), nn.ReLU(),
            nn.LazyConv2d(num_channels, kernel_size=1),
            nn.AvgPool2d(kernel_size=2, stride=2))

    blk = transition_block(10)
    Z = blk(Y)
    Z.mean().backward()
    print(Z.shape, Z[0, 0], blk[2].weight.grad[:2, :4, 0, 0])
    finals["transition.grad"] = blk[2].weight.grad

    def nin_block(out_channels, kernel_size, strides, padding):
        return nn.Sequential(
            nn.LazyConv2d(out_channels, kernel_size, strides, padding), nn.ReLU(),
            nn.LazyConv2d(out_channels, kernel_size=1), nn.ReLU(),
            nn.LazyConv2d(out_channels, kernel_size=1), nn.ReLU())

    class NiN(d2l.Classifier):
        def __init__(self, lr=0.1, num_classes=10):
            super().__init__()
            self.save_hyperparameters()
            self.net = nn.Sequential(
                nin_block(24, kernel_size=11, strides=4, padding=0),
                nn.MaxPool2d(3, stride=2),
                nin_block(32, kernel_size=5, strides=1, padding=2),
                nn.MaxPool2d(3, stride=2),
                nin_block(48, kernel_size=3, strides=1, padding=1),
                nn.MaxPool2d(3, stride=2),
                nn.Dropout(0.5),
                nin_block(num_classes, kernel_size=3, strides=1, padding=1),
                nn.AdaptiveAvgPool2d((1, 1)),
                nn.Flatten())
            self.net.apply(d2l.init_cnn)

    NiN().layer_summary((1, 1, 112, 112))

    def vgg_block(num_convs, out_channels):
        layers = []
        for _ in range(num_convs):
            layers.append(nn.LazyConv2d(out_channels, kernel_size=3, padding=1))
            layers.append(nn.ReLU())
        layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
        return nn.Sequential(*layers)

    class VGG(d2l.Classifier):
        def __init__(self, arch, lr=0.1, num_classes=10):
            super().__init__()
            self.save_hyperparameters()
            conv_blks = []
            for (num_convs, out_channels) in arch:
                conv_blks.append(vgg_block(num_convs, out_channels))
            self.net = nn.Sequential(
                *conv_blks, nn.Flatten(),
                nn.LazyLinear(64), nn.ReLU(), nn.Dropout(0.5),
                nn.LazyLinear(64), nn.ReLU(), nn.Dropout(0.5),
                nn.LazyLinear(num_classes))
            self.net.apply(d2l.init_cnn)

    model = VGG(arch=((1, 4), (1, 8), (2, 16), (2, 16), (2, 16)))
    model.layer_summary((1, 1, 64, 64))
    print(model.net[6].weight.shape, model(torch.rand(2, 1, 64, 64)))
    finals["vgg.out"] = model.net[-1].weight
    return finals


def d2l_recurrent(torch):
    """d2l-ai/d2l-en chapter_recurrent-neural-networks (rnn-scratch.md, rnn-concise.md,
    PyTorch tabs; text-sequence.md's TimeMachine on a made-up text): RNNScratch looping
    over the time steps of X (iterating a tensor's first dim, `state, = state`),
    RNNLMScratch with F.one_hot(X.T, V).type(torch.float32), torch.stack of the outputs
    along dim 1, torch.exp of the loss as perplexity, Trainer.clip_gradients (the global
    norm from a generator of sums, param.grad[:] *= ...), predict with
    int(Y.argmax(axis=2).reshape(1)), and the concise model: nn.RNN with LazyLinear and
    swapaxes(0, 1). The book trains 100 epochs; here 2, on a smaller text."""
    d2l = d2l_library(torch)
    nn, F = torch.nn, torch.nn.functional

    class RNNScratch(d2l.Module):
        def __init__(self, num_inputs, num_hiddens, sigma=0.01):
            super().__init__()
            self.save_hyperparameters()
            self.W_xh = nn.Parameter(torch.randn(num_inputs, num_hiddens) * sigma)
            self.W_hh = nn.Parameter(torch.randn(num_hiddens, num_hiddens) * sigma)
            self.b_h = nn.Parameter(torch.zeros(num_hiddens))

        def forward(self, inputs, state=None):
            if state is None:
                state = torch.zeros((inputs.shape[1], self.num_hiddens), device=inputs.device)
            else:
                state, = state
            outputs = []
            for X in inputs:
                state = torch.tanh(torch.matmul(X, self.W_xh) +
                                   torch.matmul(state, self.W_hh) + self.b_h)
                outputs.append(state)
            return outputs, state

    batch_size, num_inputs, num_hiddens, num_steps = 2, 16, 32, 100
    rnn = RNNScratch(num_inputs, num_hiddens)
    X = torch.ones((num_steps, batch_size, num_inputs))
    outputs, state = rnn(X)

    def check_len(a, n):
        assert len(a) == n, f'list\'s length {len(a)} != expected length {n}'

    def check_shape(a, shape):
        assert a.shape == shape, f'tensor\'s shape {a.shape} != expected shape {shape}'

    check_len(outputs, num_steps)
    check_shape(outputs[0], (batch_size, num_hiddens))
    check_shape(state, (batch_size, num_hiddens))
    print(state[0, :6], outputs[0].grad_fn)

    class RNNLMScratch(d2l.Classifier):
        def __init__(self, rnn, vocab_size, lr=0.01):
            super().__init__()
            self.save_hyperparameters()
            self.init_params()

        def init_params(self):
            self.W_hq = nn.Parameter(
                torch.randn(self.rnn.num_hiddens, self.vocab_size) * self.rnn.sigma)
            self.b_q = nn.Parameter(torch.zeros(self.vocab_size))

        def training_step(self, batch):
            l = self.loss(self(*batch[:-1]), batch[-1])
            self.plot('ppl', torch.exp(l), train=True)
            return l

        def validation_step(self, batch):
            l = self.loss(self(*batch[:-1]), batch[-1])
            self.plot('ppl', torch.exp(l), train=False)

        def one_hot(self, X):
            return F.one_hot(X.T, self.vocab_size).type(torch.float32)

        def output_layer(self, rnn_outputs):
            outputs = [torch.matmul(H, self.W_hq) + self.b_q for H in rnn_outputs]
            return torch.stack(outputs, 1)

        def forward(self, X, state=None):
            embs = self.one_hot(X)
            rnn_outputs, _ = self.rnn(embs, state)
            return self.output_layer(rnn_outputs)

        def predict(self, prefix, num_preds, vocab, device=None):
            state, outputs = None, [vocab[prefix[0]]]
            for i in range(len(prefix) + num_preds - 1):
                X = torch.tensor([[outputs[-1]]], device=device)
                embs = self.one_hot(X)
                rnn_outputs, state = self.rnn(embs, state)
                if i < len(prefix) - 1:
                    outputs.append(vocab[prefix[i + 1]])
                else:
                    Y = self.output_layer(rnn_outputs)
                    outputs.append(int(Y.argmax(axis=2).reshape(1)))
            return ''.join([vocab.idx_to_token[i] for i in outputs])

    model = RNNLMScratch(rnn, num_inputs)
    outputs = model(torch.ones((batch_size, num_steps), dtype=torch.int64))
    check_shape(outputs, (batch_size, num_steps, num_inputs))
    print(model.one_hot(torch.tensor([[0, 2]])), outputs[0, :2, :4])

    data = d2l.TimeMachine(batch_size=64, num_steps=16)
    print(len(data.vocab), data.vocab.idx_to_token[:6], data.X.shape, data.X[0, :8])
    rnn = RNNScratch(num_inputs=len(data.vocab), num_hiddens=32)
    model = RNNLMScratch(rnn, vocab_size=len(data.vocab), lr=1)
    trainer = d2l.Trainer(max_epochs=2, gradient_clip_val=1)
    trainer.fit(model, data)
    print(model.predict('it has', 20, data.vocab))
    finals = {"scratch.W_hq": model.W_hq, "scratch.W_xh.grad": rnn.W_xh.grad}

    class RNN(d2l.Module):
        def __init__(self, num_inputs, num_hiddens):
            super().__init__()
            self.save_hyperparameters()
            self.rnn = nn.RNN(num_inputs, num_hiddens)

        def forward(self, inputs, H=None):
            return self.rnn(inputs, H)

    class RNNLM(RNNLMScratch):
        def init_params(self):
            self.linear = nn.LazyLinear(self.vocab_size)

        def output_layer(self, hiddens):
            return self.linear(hiddens).swapaxes(0, 1)

    rnn = RNN(num_inputs=len(data.vocab), num_hiddens=32)
    model = RNNLM(rnn, vocab_size=len(data.vocab), lr=1)
    print(model.predict('it has', 20, data.vocab))
    trainer = d2l.Trainer(max_epochs=2, gradient_clip_val=1)
    trainer.fit(model, data)
    print(model.predict('it has', 20, data.vocab), model)
    finals["concise.weight_hh"] = rnn.rnn.weight_hh_l0
    return finals


def d2l_optimization(torch):
    """d2l-ai/d2l-en chapter_optimization (gd.md, sgd.md, minibatch-sgd.md, momentum.md,
    adagrad.md, rmsprop.md, adadelta.md, adam.md, lr-scheduler.md, PyTorch tabs): gradient
    descent on Python floats and on tensors (x -= eta * f_grad(x) / f_hess(x) turns x into a
    tensor, printed), train_2d with noisy gradients from torch.normal(0.0, 1, (1,)).item()
    and exponential and polynomial rates, train_ch11 (the airfoil data standardised and
    loaded with load_array; a seeded stand-in of 400 rows) with sgd, momentum, adagrad, rmsprop,
    adadelta and adam written with p.data.sub_, `with torch.no_grad(): v[:] = ...` and
    p.grad.data.zero_(), train_concise_ch11 with torch.optim.SGD (momentum), Adagrad,
    RMSprop (alpha), Adadelta (rho) and Adam, and the lr-scheduler chapter's LeNet
    trained with hand-written SquareRoot, Factor and Cosine (warm-up) schedulers set into
    param_groups and with lr_scheduler.MultiStepLR (told apart by scheduler.__module__ ==
    lr_scheduler.__name__), get_last_lr(). Timings are not printed; the epochs are fewer."""
    d2l = d2l_library(torch)
    nn = torch.nn
    lr_scheduler = torch.optim.lr_scheduler

    def f(x):
        return x ** 2

    def f_grad(x):
        return 2 * x

    def gd(eta, f_grad):
        x = 10.0
        results = [x]
        for i in range(10):
            x -= eta * f_grad(x)
            results.append(float(x))
        print(f'epoch 10, x: {x:f}')
        return results

    results = gd(0.2, f_grad)
    gd(0.05, f_grad), gd(1.1, f_grad)
    c = torch.tensor(0.15 * np.pi)

    def f(x):
        return x * torch.cos(c * x)

    def f_grad(x):
        return torch.cos(c * x) - c * x * torch.sin(c * x)

    print(gd(2, f_grad)[-3:])
    c = torch.tensor(0.5)

    def f(x):
        return torch.cosh(c * x)

    def f_grad(x):
        return c * torch.sinh(c * x)

    def f_hess(x):
        return c**2 * torch.cosh(c * x)

    def newton(eta=1):
        x = 10.0
        results = [x]
        for i in range(10):
            x -= eta * f_grad(x) / f_hess(x)
            results.append(float(x))
        print('epoch 10, x:', x)
        return results

    newton()
    c = torch.tensor(0.15 * np.pi)

    def f_grad(x):
        return torch.cos(c * x) - c * x * torch.sin(c * x)

    def f_hess(x):
        return - 2 * c * torch.sin(c * x) - x * c**2 * torch.cos(c * x)

    newton(), newton(0.5)

    def train_2d(trainer, steps=20, f_grad=None):
        x1, x2, s1, s2 = -5, -2, 0, 0
        results = [(x1, x2)]
        for i in range(steps):
            if f_grad:
                x1, x2, s1, s2 = trainer(x1, x2, s1, s2, f_grad)
            else:
                x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
            results.append((x1, x2))
        print(f'epoch {i + 1}, x1: {float(x1):f}, x2: {float(x2):f}')
        return results

    def f_2d_grad(x1, x2):
        return 2 * x1, 4 * x2

    def sgd_2d(x1, x2, s1, s2, f_grad):
        g1, g2 = f_grad(x1, x2)
        g1 += torch.normal(0.0, 1, (1,)).item()
        g2 += torch.normal(0.0, 1, (1,)).item()
        eta_t = eta * lr()
        return (x1 - eta_t * g1, x2 - eta_t * g2, 0, 0)

    def constant_lr():
        return 1

    eta, lr = 0.1, constant_lr
    train_2d(sgd_2d, steps=50, f_grad=f_2d_grad)
    t = 1

    def exponential_lr():
        nonlocal t
        t += 1
        return math.exp(-0.1 * t)

    lr = exponential_lr
    train_2d(sgd_2d, steps=1000, f_grad=f_2d_grad)
    t = 1

    def polynomial_lr():
        nonlocal t
        t += 1
        return (1 + 0.1 * t) ** (-0.5)

    lr = polynomial_lr
    train_2d(sgd_2d, steps=50, f_grad=f_2d_grad)

    def get_data_ch11(batch_size=10, n=1500):
        rows = np.random.default_rng(3).normal(size=(400, 6)).astype(np.float32)
        rows[:, -1] = rows[:, :-1] @ np.array([1.0, -2, 0.5, 0, 3], np.float32) + rows[:, -1]
        data = torch.from_numpy((rows - rows.mean(axis=0)) / rows.std(axis=0))
        dataset = torch.utils.data.TensorDataset(data[:n, :-1], data[:n, -1])
        data_iter = torch.utils.data.DataLoader(dataset, batch_size, shuffle=True)
        return data_iter, data.shape[1] - 1

    def linreg(X, w, b):
        return torch.matmul(X, w) + b

    def squared_loss(y_hat, y):
        return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2

    def evaluate_loss(net, data_iter, loss):
        metric = d2l.Accumulator(2)
        for X, y in data_iter:
            out = net(X)
            y = y.reshape(out.shape)
            l = loss(out, y)
            metric.add(l.sum(), l.numel())
        return metric[0] / metric[1]

    def train_ch11(trainer_fn, states, hyperparams, data_iter, feature_dim, num_epochs=2):
        w = torch.normal(mean=0.0, std=0.01, size=(feature_dim, 1), requires_grad=True)
        b = torch.zeros((1), requires_grad=True)
        net, loss = lambda X: linreg(X, w, b), squared_loss
        losses, n = [], 0
        for _ in range(num_epochs):
            for X, y in data_iter:
                l = loss(net(X), y).mean()
                l.backward()
                trainer_fn([w, b], states, hyperparams)
                n += X.shape[0]
                if n % 200 == 0:
                    losses.append(evaluate_loss(net, data_iter, loss))
        print(f'loss: {losses[-1]:.3f}', [f'{v:.4f}' for v in losses[::3]])
        return w, b

    def train_concise_ch11(trainer_fn, hyperparams, data_iter, num_epochs=4):
        net = nn.Sequential(nn.Linear(5, 1))

        def init_weights(module):
            if type(module) == nn.Linear:
                torch.nn.init.normal_(module.weight, std=0.01)

        net.apply(init_weights)
        optimizer = trainer_fn(net.parameters(), **hyperparams)
        loss = nn.MSELoss(reduction='none')
        losses, n = [], 0
        for _ in range(num_epochs):
            for X, y in data_iter:
                optimizer.zero_grad()
                out = net(X)
                y = y.reshape(out.shape)
                l = loss(out, y)
                l.mean().backward()
                optimizer.step()
                n += X.shape[0]
                if n % 200 == 0:
                    losses.append(evaluate_loss(net, data_iter, loss) / 2)
        print(f'loss: {losses[-1]:.3f}', [f'{v:.4f}' for v in losses[::4]])
        return net[0].weight

    def sgd(params, states, hyperparams):
        for p in params:
            p.data.sub_(hyperparams['lr'] * p.grad)
            p.grad.data.zero_()

    def train_sgd(lr, batch_size, num_epochs=2):
        data_iter, feature_dim = get_data_ch11(batch_size)
        return train_ch11(sgd, None, {'lr': lr}, data_iter, feature_dim, num_epochs)

    finals = {"gd.w": train_sgd(1, 1500, 10)[0]}
    train_sgd(0.005, 1), train_sgd(.4, 100), train_sgd(.05, 10)
    data_iter, _ = get_data_ch11(10)
    finals["sgd.concise"] = train_concise_ch11(torch.optim.SGD, {'lr': 0.01}, data_iter)

    data_iter, feature_dim = get_data_ch11(batch_size=10)

    def init_momentum_states(feature_dim):
        v_w = torch.zeros((feature_dim, 1))
        v_b = torch.zeros(1)
        return (v_w, v_b)

    def sgd_momentum(params, states, hyperparams):
        for p, v in zip(params, states):
            with torch.no_grad():
                v[:] = hyperparams['momentum'] * v + p.grad
                p[:] -= hyperparams['lr'] * v
            p.grad.data.zero_()

    def train_momentum(lr, momentum, num_epochs=2):
        return train_ch11(sgd_momentum, init_momentum_states(feature_dim),
                          {'lr': lr, 'momentum': momentum}, data_iter, feature_dim, num_epochs)

    train_momentum(0.02, 0.5), train_momentum(0.01, 0.9)
    finals["momentum.w"] = train_momentum(0.005, 0.9)[0]
    finals["momentum.concise"] = train_concise_ch11(
        torch.optim.SGD, {'lr': 0.005, 'momentum': 0.9}, data_iter)

    def init_adagrad_states(feature_dim):
        s_w = torch.zeros((feature_dim, 1))
        s_b = torch.zeros(1)
        return (s_w, s_b)

    def adagrad(params, states, hyperparams):
        eps = 1e-6
        for p, s in zip(params, states):
            with torch.no_grad():
                s[:] += torch.square(p.grad)
                p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)
            p.grad.data.zero_()

    finals["adagrad.w"] = train_ch11(adagrad, init_adagrad_states(feature_dim),
                                     {'lr': 0.1}, data_iter, feature_dim)[0]
    finals["adagrad.concise"] = train_concise_ch11(torch.optim.Adagrad, {'lr': 0.1}, data_iter)

    def rmsprop(params, states, hyperparams):
        gamma, eps = hyperparams['gamma'], 1e-6
        for p, s in zip(params, states):
            with torch.no_grad():
                s[:] = gamma * s + (1 - gamma) * torch.square(p.grad)
                p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)
            p.grad.data.zero_()

    finals["rmsprop.w"] = train_ch11(rmsprop, init_adagrad_states(feature_dim),
                                     {'lr': 0.01, 'gamma': 0.9}, data_iter, feature_dim)[0]
    finals["rmsprop.concise"] = train_concise_ch11(torch.optim.RMSprop,
                                                   {'lr': 0.01, 'alpha': 0.9}, data_iter)

    def init_adadelta_states(feature_dim):
        s_w, s_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
        delta_w, delta_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
        return ((s_w, delta_w), (s_b, delta_b))

    def adadelta(params, states, hyperparams):
        rho, eps = hyperparams['rho'], 1e-5
        for p, (s, delta) in zip(params, states):
            with torch.no_grad():
                s[:] = rho * s + (1 - rho) * torch.square(p.grad)
                g = (torch.sqrt(delta + eps) / torch.sqrt(s + eps)) * p.grad
                p[:] -= g
                delta[:] = rho * delta + (1 - rho) * g * g
            p.grad.data.zero_()

    finals["adadelta.w"] = train_ch11(adadelta, init_adadelta_states(feature_dim),
                                      {'rho': 0.9}, data_iter, feature_dim)[0]
    finals["adadelta.concise"] = train_concise_ch11(torch.optim.Adadelta, {'rho': 0.9},
                                                    data_iter)

    def init_adam_states(feature_dim):
        v_w, v_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
        s_w, s_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
        return ((v_w, s_w), (v_b, s_b))

    def adam(params, states, hyperparams):
        beta1, beta2, eps = 0.9, 0.999, 1e-6
        for p, (v, s) in zip(params, states):
            with torch.no_grad():
                v[:] = beta1 * v + (1 - beta1) * p.grad
                s[:] = beta2 * s + (1 - beta2) * torch.square(p.grad)
                v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
                s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
                p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
            p.grad.data.zero_()
        hyperparams['t'] += 1

    finals["adam.w"] = train_ch11(adam, init_adam_states(feature_dim),
                                  {'lr': 0.01, 't': 1}, data_iter, feature_dim)[0]
    finals["adam.concise"] = train_concise_ch11(torch.optim.Adam, {'lr': 0.01}, data_iter)

    def yogi(params, states, hyperparams):
        beta1, beta2, eps = 0.9, 0.999, 1e-3
        for p, (v, s) in zip(params, states):
            with torch.no_grad():
                v[:] = beta1 * v + (1 - beta1) * p.grad
                s[:] = s + (1 - beta2) * torch.sign(
                    torch.square(p.grad) - s) * torch.square(p.grad)
                v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
                s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
                p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
            p.grad.data.zero_()
        hyperparams['t'] += 1

    finals["yogi.w"] = train_ch11(yogi, init_adam_states(feature_dim),
                                  {'lr': 0.01, 't': 1}, data_iter, feature_dim)[0]

    def net_fn():
        model = nn.Sequential(
            nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
            nn.Conv2d(6, 16, kernel_size=5), nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
            nn.Flatten(),
            nn.Linear(16 * 5 * 5, 120), nn.ReLU(),
            nn.Linear(120, 84), nn.ReLU(),
            nn.Linear(84, 10))
        return model

    loss = nn.CrossEntropyLoss()
    device = torch.device('cpu')
    fashion = d2l.FashionMNIST(batch_size=64, num_train=256, num_val=64)
    train_iter, test_iter = fashion.train_dataloader(), fashion.val_dataloader()

    def train(net, train_iter, test_iter, num_epochs, loss, trainer, device, scheduler=None):
        net.to(device)
        for epoch in range(num_epochs):
            metric = d2l.Accumulator(3)
            for i, (X, y) in enumerate(train_iter):
                net.train()
                trainer.zero_grad()
                X, y = X.to(device), y.to(device)
                y_hat = net(X)
                l = loss(y_hat, y)
                l.backward()
                trainer.step()
                with torch.no_grad():
                    metric.add(l * X.shape[0], d2l.accuracy(y_hat, y), X.shape[0])
                train_loss = metric[0] / metric[2]
                train_acc = metric[1] / metric[2]
            test_acc = d2l.evaluate_accuracy_gpu(net, test_iter)
            if scheduler:
                if scheduler.__module__ == lr_scheduler.__name__:
                    scheduler.step()
                else:
                    for param_group in trainer.param_groups:
                        param_group['lr'] = scheduler(epoch)
        print(f'train loss {train_loss:.3f}, train acc {train_acc:.3f}, '
              f'test acc {test_acc:.3f}', trainer.param_groups[0]['lr'])

    lr, num_epochs = 0.3, 2
    net = net_fn()
    trainer = torch.optim.SGD(net.parameters(), lr=lr)
    train(net, train_iter, test_iter, num_epochs, loss, trainer, device)
    lr = 0.1
    trainer.param_groups[0]["lr"] = lr
    print(f'learning rate is now {trainer.param_groups[0]["lr"]:.2f}')

    class SquareRootScheduler:
        def __init__(self, lr=0.1):
            self.lr = lr

        def __call__(self, num_update):
            return self.lr * pow(num_update + 1.0, -0.5)

    scheduler = SquareRootScheduler(lr=0.1)
    print([scheduler(t) for t in range(0, 30, 6)])
    net = net_fn()
    trainer = torch.optim.SGD(net.parameters(), lr)
    train(net, train_iter, test_iter, num_epochs, loss, trainer, device, scheduler)

    class FactorScheduler:
        def __init__(self, factor=1, stop_factor_lr=1e-7, base_lr=0.1):
            self.factor = factor
            self.stop_factor_lr = stop_factor_lr
            self.base_lr = base_lr

        def __call__(self, num_update):
            self.base_lr = max(self.stop_factor_lr, self.base_lr * self.factor)
            return self.base_lr

    scheduler = FactorScheduler(factor=0.9, stop_factor_lr=1e-2, base_lr=2.0)
    print([scheduler(t) for t in range(50)][::10])

    net = net_fn()
    trainer = torch.optim.SGD(net.parameters(), lr=0.5)
    scheduler = lr_scheduler.MultiStepLR(trainer, milestones=[15, 30], gamma=0.5)

    def get_lr(trainer, scheduler):
        lr = scheduler.get_last_lr()[0]
        trainer.step()
        scheduler.step()
        return lr

    print([get_lr(trainer, scheduler) for t in range(40)][::5])
    train(net, train_iter, test_iter, num_epochs, loss, trainer, device, scheduler)
    finals["multistep.fc"] = net[-1].weight

    class CosineScheduler:
        def __init__(self, max_update, base_lr=0.01, final_lr=0, warmup_steps=0,
                     warmup_begin_lr=0):
            self.base_lr_orig = base_lr
            self.max_update = max_update
            self.final_lr = final_lr
            self.warmup_steps = warmup_steps
            self.warmup_begin_lr = warmup_begin_lr
            self.max_steps = self.max_update - self.warmup_steps

        def get_warmup_lr(self, epoch):
            increase = (self.base_lr_orig - self.warmup_begin_lr) \
                * float(epoch) / float(self.warmup_steps)
            return self.warmup_begin_lr + increase

        def __call__(self, epoch):
            if epoch < self.warmup_steps:
                return self.get_warmup_lr(epoch)
            if epoch <= self.max_update:
                self.base_lr = self.final_lr + (
                    self.base_lr_orig - self.final_lr) * (1 + math.cos(
                        math.pi * (epoch - self.warmup_steps) / self.max_steps)) / 2
            return self.base_lr

    scheduler = CosineScheduler(max_update=20, base_lr=0.3, final_lr=0.01)
    print([round(scheduler(t), 6) for t in range(0, 30, 3)])
    net = net_fn()
    trainer = torch.optim.SGD(net.parameters(), lr=0.3)
    train(net, train_iter, test_iter, num_epochs, loss, trainer, device, scheduler)
    scheduler = CosineScheduler(20, warmup_steps=5, base_lr=0.3, final_lr=0.01)
    print([round(scheduler(t), 6) for t in range(0, 30, 3)])
    net = net_fn()
    trainer = torch.optim.SGD(net.parameters(), lr=0.3)
    train(net, train_iter, test_iter, num_epochs, loss, trainer, device, scheduler)
    finals["cosine.conv"] = net[0].weight
    return finals


def d2l_modern_rnns(torch):
    """d2l-ai/d2l-en chapter_recurrent-modern (lstm.md, gru.md, deep-rnn.md, bi-rnn.md,
    machine-translation-and-dataset.md, encoder-decoder.md, seq2seq.md, PyTorch tabs):
    LSTMScratch and GRUScratch (triples of nn.Parameter made by lambdas, the gates step by
    step), nn.LSTM and nn.GRU in the book's RNN/RNNLM classes, StackedRNNScratch (an
    nn.Sequential of RNNScratch, torch.stack of each layer's outputs), a 2-layer GRU,
    BiRNNScratch (reversed(inputs), torch.cat of both directions) and the bidirectional
    GRU, then MTFraEng (a made-up English-French text: preprocessing, <eos>/<bos>/<pad>,
    valid lengths), the Seq2Seq encoder and decoder (nn.Embedding with int64 and int32
    indices, init_seq2seq reaching nn.GRU's _flat_weights_names, the context repeated and
    concatenated, LazyLinear, swapaxes), the masked loss, Adam, predict_step and bleu.
    The book trains 50 epochs on The Time Machine and 30 on the Tatoeba pairs; here 2 and 12."""
    d2l = d2l_library(torch)
    nn = torch.nn

    class RNNScratch(d2l.Module):
        def __init__(self, num_inputs, num_hiddens, sigma=0.01):
            super().__init__()
            self.save_hyperparameters()
            self.W_xh = nn.Parameter(torch.randn(num_inputs, num_hiddens) * sigma)
            self.W_hh = nn.Parameter(torch.randn(num_hiddens, num_hiddens) * sigma)
            self.b_h = nn.Parameter(torch.zeros(num_hiddens))

        def forward(self, inputs, state=None):
            if state is None:
                state = torch.zeros((inputs.shape[1], self.num_hiddens), device=inputs.device)
            else:
                state, = state
            outputs = []
            for X in inputs:
                state = torch.tanh(torch.matmul(X, self.W_xh) +
                                   torch.matmul(state, self.W_hh) + self.b_h)
                outputs.append(state)
            return outputs, state

    class RNNLMScratch(d2l.Classifier):
        def __init__(self, rnn, vocab_size, lr=0.01):
            super().__init__()
            self.save_hyperparameters()
            self.init_params()

        def init_params(self):
            self.W_hq = nn.Parameter(
                torch.randn(self.rnn.num_hiddens, self.vocab_size) * self.rnn.sigma)
            self.b_q = nn.Parameter(torch.zeros(self.vocab_size))

        def training_step(self, batch):
            l = self.loss(self(*batch[:-1]), batch[-1])
            self.plot('ppl', torch.exp(l), train=True)
            return l

        def validation_step(self, batch):
            l = self.loss(self(*batch[:-1]), batch[-1])
            self.plot('ppl', torch.exp(l), train=False)

        def one_hot(self, X):
            return torch.nn.functional.one_hot(X.T, self.vocab_size).type(torch.float32)

        def output_layer(self, rnn_outputs):
            outputs = [torch.matmul(H, self.W_hq) + self.b_q for H in rnn_outputs]
            return torch.stack(outputs, 1)

        def forward(self, X, state=None):
            embs = self.one_hot(X)
            rnn_outputs, _ = self.rnn(embs, state)
            return self.output_layer(rnn_outputs)

        def predict(self, prefix, num_preds, vocab, device=None):
            state, outputs = None, [vocab[prefix[0]]]
            for i in range(len(prefix) + num_preds - 1):
                X = torch.tensor([[outputs[-1]]], device=device)
                embs = self.one_hot(X)
                rnn_outputs, state = self.rnn(embs, state)
                if i < len(prefix) - 1:
                    outputs.append(vocab[prefix[i + 1]])
                else:
                    Y = self.output_layer(rnn_outputs)
                    outputs.append(int(Y.argmax(axis=2).reshape(1)))
            return ''.join([vocab.idx_to_token[i] for i in outputs])

    class RNN(d2l.Module):
        def __init__(self, num_inputs, num_hiddens):
            super().__init__()
            self.save_hyperparameters()
            self.rnn = nn.RNN(num_inputs, num_hiddens)

        def forward(self, inputs, H=None):
            return self.rnn(inputs, H)

    class RNNLM(RNNLMScratch):
        def init_params(self):
            self.linear = nn.LazyLinear(self.vocab_size)

        def output_layer(self, hiddens):
            return self.linear(hiddens).swapaxes(0, 1)

    class LSTMScratch(d2l.Module):
        def __init__(self, num_inputs, num_hiddens, sigma=0.01):
            super().__init__()
            self.save_hyperparameters()
            init_weight = lambda *shape: nn.Parameter(torch.randn(*shape) * sigma)
            triple = lambda: (init_weight(num_inputs, num_hiddens),
                              init_weight(num_hiddens, num_hiddens),
                              nn.Parameter(torch.zeros(num_hiddens)))
            self.W_xi, self.W_hi, self.b_i = triple()
            self.W_xf, self.W_hf, self.b_f = triple()
            self.W_xo, self.W_ho, self.b_o = triple()
            self.W_xc, self.W_hc, self.b_c = triple()

        def forward(self, inputs, H_C=None):
            if H_C is None:
                H = torch.zeros((inputs.shape[1], self.num_hiddens), device=inputs.device)
                C = torch.zeros((inputs.shape[1], self.num_hiddens), device=inputs.device)
            else:
                H, C = H_C
            outputs = []
            for X in inputs:
                I = torch.sigmoid(torch.matmul(X, self.W_xi) +
                                  torch.matmul(H, self.W_hi) + self.b_i)
                F = torch.sigmoid(torch.matmul(X, self.W_xf) +
                                  torch.matmul(H, self.W_hf) + self.b_f)
                O = torch.sigmoid(torch.matmul(X, self.W_xo) +
                                  torch.matmul(H, self.W_ho) + self.b_o)
                C_tilde = torch.tanh(torch.matmul(X, self.W_xc) +
                                     torch.matmul(H, self.W_hc) + self.b_c)
                C = F * C + I * C_tilde
                H = O * torch.tanh(C)
                outputs.append(H)
            return outputs, (H, C)

    data = d2l.TimeMachine(batch_size=64, num_steps=16)
    lstm = LSTMScratch(num_inputs=len(data.vocab), num_hiddens=32)
    model = RNNLMScratch(lstm, vocab_size=len(data.vocab), lr=4)
    trainer = d2l.Trainer(max_epochs=2, gradient_clip_val=1)
    trainer.fit(model, data)
    print(model.predict('it has', 20, data.vocab))
    finals = {"lstm.scratch.W_xc": lstm.W_xc}

    class LSTM(RNN):
        def __init__(self, num_inputs, num_hiddens):
            d2l.Module.__init__(self)
            self.save_hyperparameters()
            self.rnn = nn.LSTM(num_inputs, num_hiddens)

        def forward(self, inputs, H_C=None):
            return self.rnn(inputs, H_C)

    lstm = LSTM(num_inputs=len(data.vocab), num_hiddens=32)
    model = RNNLM(lstm, vocab_size=len(data.vocab), lr=4)
    trainer.fit(model, data)
    print(model.predict('it has', 20, data.vocab))
    finals["lstm.weight_hh"] = lstm.rnn.weight_hh_l0

    class GRUScratch(d2l.Module):
        def __init__(self, num_inputs, num_hiddens, sigma=0.01):
            super().__init__()
            self.save_hyperparameters()
            init_weight = lambda *shape: nn.Parameter(torch.randn(*shape) * sigma)
            triple = lambda: (init_weight(num_inputs, num_hiddens),
                              init_weight(num_hiddens, num_hiddens),
                              nn.Parameter(torch.zeros(num_hiddens)))
            self.W_xz, self.W_hz, self.b_z = triple()
            self.W_xr, self.W_hr, self.b_r = triple()
            self.W_xh, self.W_hh, self.b_h = triple()

        def forward(self, inputs, H=None):
            if H is None:
                H = torch.zeros((inputs.shape[1], self.num_hiddens), device=inputs.device)
            outputs = []
            for X in inputs:
                Z = torch.sigmoid(torch.matmul(X, self.W_xz) +
                                  torch.matmul(H, self.W_hz) + self.b_z)
                R = torch.sigmoid(torch.matmul(X, self.W_xr) +
                                  torch.matmul(H, self.W_hr) + self.b_r)
                H_tilde = torch.tanh(torch.matmul(X, self.W_xh) +
                                     torch.matmul(R * H, self.W_hh) + self.b_h)
                H = Z * H + (1 - Z) * H_tilde
                outputs.append(H)
            return outputs, H

    gru = GRUScratch(num_inputs=len(data.vocab), num_hiddens=32)
    model = RNNLMScratch(gru, vocab_size=len(data.vocab), lr=4)
    trainer.fit(model, data)
    finals["gru.scratch.W_hh"] = gru.W_hh

    class GRU(RNN):
        def __init__(self, num_inputs, num_hiddens, num_layers=1, dropout=0):
            d2l.Module.__init__(self)
            self.save_hyperparameters()
            self.rnn = nn.GRU(num_inputs, num_hiddens, num_layers, dropout=dropout)

    gru = GRU(num_inputs=len(data.vocab), num_hiddens=32)
    model = RNNLM(gru, vocab_size=len(data.vocab), lr=4)
    trainer.fit(model, data)
    print(model.predict('it has', 20, data.vocab))

    class StackedRNNScratch(d2l.Module):
        def __init__(self, num_inputs, num_hiddens, num_layers, sigma=0.01):
            super().__init__()
            self.save_hyperparameters()
            self.rnns = nn.Sequential(*[RNNScratch(
                num_inputs if i == 0 else num_hiddens, num_hiddens, sigma)
                for i in range(num_layers)])

        def forward(self, inputs, Hs=None):
            outputs = inputs
            if Hs is None:
                Hs = [None] * self.num_layers
            for i in range(self.num_layers):
                outputs, Hs[i] = self.rnns[i](outputs, Hs[i])
                outputs = torch.stack(outputs, 0)
            return outputs, Hs

    rnn_block = StackedRNNScratch(num_inputs=len(data.vocab), num_hiddens=32, num_layers=2)
    model = RNNLMScratch(rnn_block, vocab_size=len(data.vocab), lr=2)
    trainer.fit(model, data)
    gru = GRU(num_inputs=len(data.vocab), num_hiddens=32, num_layers=2)
    model = RNNLM(gru, vocab_size=len(data.vocab), lr=2)
    trainer.fit(model, data)
    print(model.predict('it has', 20, data.vocab), gru.rnn)
    finals["deep.gru"] = gru.rnn.weight_ih_l1

    class BiRNNScratch(d2l.Module):
        def __init__(self, num_inputs, num_hiddens, sigma=0.01):
            super().__init__()
            self.save_hyperparameters()
            self.f_rnn = RNNScratch(num_inputs, num_hiddens, sigma)
            self.b_rnn = RNNScratch(num_inputs, num_hiddens, sigma)
            self.num_hiddens *= 2

        def forward(self, inputs, Hs=None):
            f_H, b_H = Hs if Hs is not None else (None, None)
            f_outputs, f_H = self.f_rnn(inputs, f_H)
            b_outputs, b_H = self.b_rnn(reversed(inputs), b_H)
            outputs = [torch.cat((f, b), -1) for f, b in zip(
                f_outputs, reversed(b_outputs))]
            return outputs, (f_H, b_H)

    bi_rnn = BiRNNScratch(num_inputs=len(data.vocab), num_hiddens=8)
    outputs, (f_H, b_H) = bi_rnn(torch.ones((4, 2, len(data.vocab))))
    print(len(outputs), outputs[0].shape, outputs[1][0, :3], outputs[1][0, 8:11])

    class BiGRU(RNN):
        def __init__(self, num_inputs, num_hiddens):
            d2l.Module.__init__(self)
            self.save_hyperparameters()
            self.rnn = nn.GRU(num_inputs, num_hiddens, bidirectional=True)
            self.num_hiddens *= 2

    bi_gru = BiGRU(num_inputs=len(data.vocab), num_hiddens=8)
    out, H = bi_gru(torch.ones((4, 2, len(data.vocab))))
    print(out.shape, H.shape, out[1, 0, :3], bi_gru.num_hiddens)

    class MTFraEng(d2l.DataModule):
        def _download(self):
            lines = [f"{a}\t{b}" for a, b in FRA_ENG]
            lines += [f"{a[:-2].capitalize()} {c}\t{b[:-2]} {d}" for a, b in FRA_ENG
                      for c, d in (("?", "?"), ("!", "!"))]
            return "\n".join(lines * 2).replace("!", "\u202f!", 3)

        def _preprocess(self, text):
            text = text.replace('\u202f', ' ').replace('\xa0', ' ')
            no_space = lambda char, prev_char: char in ',.!?' and prev_char != ' '
            out = [' ' + char if i > 0 and no_space(char, text[i - 1]) else char
                   for i, char in enumerate(text.lower())]
            return ''.join(out)

        def _tokenize(self, text, max_examples=None):
            src, tgt = [], []
            for i, line in enumerate(text.split('\n')):
                if max_examples and i > max_examples:
                    break
                parts = line.split('\t')
                if len(parts) == 2:
                    src.append([t for t in f'{parts[0]} <eos>'.split(' ') if t])
                    tgt.append([t for t in f'{parts[1]} <eos>'.split(' ') if t])
            return src, tgt

        def __init__(self, batch_size, num_steps=9, num_train=64, num_val=26):
            super().__init__()
            self.save_hyperparameters()
            self.arrays, self.src_vocab, self.tgt_vocab = self._build_arrays(
                self._download())

        def _build_arrays(self, raw_text, src_vocab=None, tgt_vocab=None):
            def _build_array(sentences, vocab, is_tgt=False):
                pad_or_trim = lambda seq, t: (
                    seq[:t] if len(seq) > t else seq + ['<pad>'] * (t - len(seq)))
                sentences = [pad_or_trim(s, self.num_steps) for s in sentences]
                if is_tgt:
                    sentences = [['<bos>'] + s for s in sentences]
                if vocab is None:
                    vocab = d2l.Vocab(sentences, min_freq=2)
                array = torch.tensor([vocab[s] for s in sentences])
                valid_len = (array != vocab['<pad>']).type(torch.int32).sum(1)
                return array, vocab, valid_len
            src, tgt = self._tokenize(self._preprocess(raw_text),
                                      self.num_train + self.num_val)
            src_array, src_vocab, src_valid_len = _build_array(src, src_vocab)
            tgt_array, tgt_vocab, _ = _build_array(tgt, tgt_vocab, True)
            return ((src_array, tgt_array[:, :-1], src_valid_len, tgt_array[:, 1:]),
                    src_vocab, tgt_vocab)

        def get_dataloader(self, train):
            idx = slice(0, self.num_train) if train else slice(self.num_train, None)
            return self.get_tensorloader(self.arrays, train, idx)

        def build(self, src_sentences, tgt_sentences):
            raw_text = '\n'.join([src + '\t' + tgt for src, tgt in zip(
                src_sentences, tgt_sentences)])
            arrays, _, _ = self._build_arrays(raw_text, self.src_vocab, self.tgt_vocab)
            return arrays

    data = MTFraEng(batch_size=3)
    src, tgt, src_valid_len, label = next(iter(data.train_dataloader()))
    print('source:', src.type(torch.int32))
    print('decoder input:', tgt.type(torch.int32))
    print('source len excluding pad:', src_valid_len.type(torch.int32))
    print('label:', label.type(torch.int32))
    src, tgt, _, _ = data.build(['hi .'], ['salut .'])
    print('source:', data.src_vocab.to_tokens(src[0].type(torch.int32)))
    print('target:', data.tgt_vocab.to_tokens(tgt[0].type(torch.int32)))

    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()

        def forward(self, X, *args):
            raise NotImplementedError

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()

        def init_state(self, enc_all_outputs, *args):
            raise NotImplementedError

        def forward(self, X, state):
            raise NotImplementedError

    class EncoderDecoder(d2l.Classifier):
        def __init__(self, encoder, decoder):
            super().__init__()
            self.encoder = encoder
            self.decoder = decoder

        def forward(self, enc_X, dec_X, *args):
            enc_all_outputs = self.encoder(enc_X, *args)
            dec_state = self.decoder.init_state(enc_all_outputs, *args)
            return self.decoder(dec_X, dec_state)[0]

        def predict_step(self, batch, device, num_steps, save_attention_weights=False):
            batch = [a.to(device) for a in batch]
            src, tgt, src_valid_len, _ = batch
            enc_all_outputs = self.encoder(src, src_valid_len)
            dec_state = self.decoder.init_state(enc_all_outputs, src_valid_len)
            outputs, attention_weights = [tgt[:, (0)].unsqueeze(1), ], []
            for _ in range(num_steps):
                Y, dec_state = self.decoder(outputs[-1], dec_state)
                outputs.append(Y.argmax(2))
                if save_attention_weights:
                    attention_weights.append(self.decoder.attention_weights)
            return torch.cat(outputs[1:], 1), attention_weights

    def init_seq2seq(module):
        if type(module) == nn.Linear:
            nn.init.xavier_uniform_(module.weight)
        if type(module) == nn.GRU:
            for param in module._flat_weights_names:
                if "weight" in param:
                    nn.init.xavier_uniform_(module._parameters[param])

    class Seq2SeqEncoder(Encoder):
        def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embed_size)
            self.rnn = GRU(embed_size, num_hiddens, num_layers, dropout)
            self.apply(init_seq2seq)

        def forward(self, X, *args):
            embs = self.embedding(X.t().type(torch.int64))
            outputs, state = self.rnn(embs)
            return outputs, state

    vocab_size, embed_size, num_hiddens, num_layers = 10, 8, 16, 2
    batch_size, num_steps = 4, 9
    encoder = Seq2SeqEncoder(vocab_size, embed_size, num_hiddens, num_layers)
    X = torch.zeros((batch_size, num_steps))
    enc_outputs, enc_state = encoder(X)
    print(enc_outputs.shape, enc_state.shape, enc_state[1, 0, :4])

    class Seq2SeqDecoder(Decoder):
        def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embed_size)
            self.rnn = GRU(embed_size + num_hiddens, num_hiddens, num_layers, dropout)
            self.dense = nn.LazyLinear(vocab_size)
            self.apply(init_seq2seq)

        def init_state(self, enc_all_outputs, *args):
            return enc_all_outputs

        def forward(self, X, state):
            embs = self.embedding(X.t().type(torch.int32))
            enc_output, hidden_state = state
            context = enc_output[-1]
            context = context.repeat(embs.shape[0], 1, 1)
            embs_and_context = torch.cat((embs, context), -1)
            outputs, hidden_state = self.rnn(embs_and_context, hidden_state)
            outputs = self.dense(outputs).swapaxes(0, 1)
            return outputs, [enc_output, hidden_state]

    decoder = Seq2SeqDecoder(vocab_size, embed_size, num_hiddens, num_layers)
    state = decoder.init_state(encoder(X))
    dec_outputs, state = decoder(X, state)
    print(dec_outputs.shape, state[1].shape, dec_outputs[0, 0, :4])

    class Seq2Seq(EncoderDecoder):
        def __init__(self, encoder, decoder, tgt_pad, lr):
            super().__init__(encoder, decoder)
            self.save_hyperparameters()

        def validation_step(self, batch):
            Y_hat = self(*batch[:-1])
            self.plot('loss', self.loss(Y_hat, batch[-1]), train=False)

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=self.lr)

        def loss(self, Y_hat, Y):
            l = super(Seq2Seq, self).loss(Y_hat, Y, averaged=False)
            mask = (Y.reshape(-1) != self.tgt_pad).type(torch.float32)
            return (l * mask).sum() / mask.sum()

    data = MTFraEng(batch_size=16)
    embed_size, num_hiddens, num_layers, dropout = 16, 16, 2, 0.2
    encoder = Seq2SeqEncoder(len(data.src_vocab), embed_size, num_hiddens, num_layers, dropout)
    decoder = Seq2SeqDecoder(len(data.tgt_vocab), embed_size, num_hiddens, num_layers, dropout)
    model = Seq2Seq(encoder, decoder, tgt_pad=data.tgt_vocab['<pad>'], lr=0.02)
    trainer = d2l.Trainer(max_epochs=12, gradient_clip_val=1)
    trainer.fit(model, data)

    def bleu(pred_seq, label_seq, k):
        pred_tokens, label_tokens = pred_seq.split(' '), label_seq.split(' ')
        len_pred, len_label = len(pred_tokens), len(label_tokens)
        score = math.exp(min(0, 1 - len_label / len_pred))
        for n in range(1, min(k, len_pred) + 1):
            num_matches, label_subs = 0, collections.defaultdict(int)
            for i in range(len_label - n + 1):
                label_subs[' '.join(label_tokens[i: i + n])] += 1
            for i in range(len_pred - n + 1):
                if label_subs[' '.join(pred_tokens[i: i + n])] > 0:
                    num_matches += 1
                    label_subs[' '.join(pred_tokens[i: i + n])] -= 1
            score *= math.pow(num_matches / (len_pred - n + 1), math.pow(0.5, n))
        return score

    engs = ['go .', 'i lost .', 'he\'s calm .', 'i\'m home .']
    fras = ['va !', 'j\'ai perdu .', 'il est calme .', 'je suis chez moi .']
    preds, _ = model.predict_step(data.build(engs, fras), torch.device('cpu'), data.num_steps)
    for en, fr, p in zip(engs, fras, preds):
        translation = []
        for token in data.tgt_vocab.to_tokens(p):
            if token == '<eos>':
                break
            translation.append(token)
        print(f'{en} => {translation}, bleu,', f'{bleu(" ".join(translation), fr, k=2):.3f}')
    finals["seq2seq.dense"] = decoder.dense.weight
    finals["seq2seq.embedding.grad"] = encoder.embedding.weight.grad
    return finals


def d2l_classic_chapters(torch):
    """d2l-ai/d2l-en d2l/torch.py as saved by the book's 0.x editions (chapter_linear-
    networks/softmax-regression-scratch.md and -concise.md, chapter_multilayer-perceptrons/
    underfit-overfit.md, chapter_recurrent-neural-networks/rnn-scratch.md and rnn-
    concise.md, chapter_recurrent-modern/seq2seq.md, PyTorch tabs): train_epoch_ch3 with a
    hand-written updater (d2l.sgd: param.data.sub_, param.grad.data.zero_()) and with
    torch.optim (isinstance(updater, torch.optim.Optimizer), y.size().numel()), Accumulator,
    evaluate_accuracy, polynomial features from NumPy (np.power, math.gamma) turned into
    float32 tensors and fitted by nn.Linear(bias=False) with evaluate_loss,
    RNNModelScratch with get_params/init_rnn_state/rnn functions, seq_data_iter_random and
    seq_data_iter_sequential, grad_clipping, train_epoch_ch8 (state.detach_(), Y.T.reshape,
    l * d2l.size(y)), predict_ch8, RNNModel around nn.RNN/nn.GRU, and seq2seq with
    MaskedSoftmaxCELoss (a CrossEntropyLoss subclass that sets self.reduction = 'none' in
    forward), xavier_init_weights through nn.GRU's _flat_weights_names and train_seq2seq
    with Adam. Offline: FashionMNIST, The Time Machine and fra-eng are the stand-ins used
    by the other d2l programs; the plots and timings are left out."""
    nn, F = torch.nn, torch.nn.functional
    data = torch.utils.data

    def load_array(data_arrays, batch_size, is_train=True):
        dataset = data.TensorDataset(*data_arrays)
        return data.DataLoader(dataset, batch_size, shuffle=is_train)

    def load_data_fashion_mnist(batch_size):
        return (data.DataLoader(image_dataset(torch, 300, seed=1), batch_size, shuffle=True,
                                num_workers=4),
                data.DataLoader(image_dataset(torch, 100, seed=2), batch_size, shuffle=False,
                                num_workers=4))

    class Accumulator:
        def __init__(self, n):
            self.data = [0.0] * n

        def add(self, *args):
            self.data = [a + float(b) for a, b in zip(self.data, args)]

        def reset(self):
            self.data = [0.0] * len(self.data)

        def __getitem__(self, idx):
            return self.data[idx]

    def accuracy(y_hat, y):
        if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
            y_hat = y_hat.argmax(axis=1)
        cmp = y_hat.type(y.dtype) == y
        return float(cmp.type(y.dtype).sum())

    def evaluate_accuracy(net, data_iter):
        if isinstance(net, torch.nn.Module):
            net.eval()
        metric = Accumulator(2)
        with torch.no_grad():
            for X, y in data_iter:
                metric.add(accuracy(net(X), y), y.numel())
        return metric[0] / metric[1]

    def train_epoch_ch3(net, train_iter, loss, updater):
        if isinstance(net, torch.nn.Module):
            net.train()
        metric = Accumulator(3)
        for X, y in train_iter:
            y_hat = net(X)
            l = loss(y_hat, y)
            if isinstance(updater, torch.optim.Optimizer):
                updater.zero_grad()
                l.mean().backward()
                updater.step()
                metric.add(float(l.sum()), accuracy(y_hat, y), y.size().numel())
            else:
                l.sum().backward()
                updater(X.shape[0])
                metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
        return metric[0] / metric[2], metric[1] / metric[2]

    def train_ch3(net, train_iter, test_iter, loss, num_epochs, updater):
        for epoch in range(num_epochs):
            train_metrics = train_epoch_ch3(net, train_iter, loss, updater)
            test_acc = evaluate_accuracy(net, test_iter)
            print(epoch + 1, train_metrics + (test_acc,))

    def sgd(params, lr, batch_size):
        with torch.no_grad():
            for param in params:
                param -= lr * param.grad / batch_size
                param.grad.zero_()

    batch_size = 64
    train_iter, test_iter = load_data_fashion_mnist(batch_size)
    num_inputs, num_outputs = 784, 10
    W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
    b = torch.zeros(num_outputs, requires_grad=True)

    def softmax(X):
        X_exp = torch.exp(X)
        partition = X_exp.sum(1, keepdim=True)
        return X_exp / partition

    def net(X):
        return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)

    def cross_entropy(y_hat, y):
        return - torch.log(y_hat[range(len(y_hat)), y])

    y = torch.tensor([0, 2])
    y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
    print(cross_entropy(y_hat, y), accuracy(y_hat, y) / len(y), evaluate_accuracy(net, test_iter))
    lr = 0.1

    def updater(batch_size):
        return sgd([W, b], lr, batch_size)

    train_ch3(net, train_iter, test_iter, cross_entropy, 2, updater)
    finals = {"ch3.W": W}

    net = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))

    def init_weights(m):
        if type(m) == nn.Linear:
            nn.init.normal_(m.weight, std=0.01)

    net.apply(init_weights)
    loss = nn.CrossEntropyLoss(reduction='none')
    trainer = torch.optim.SGD(net.parameters(), lr=0.1)
    train_ch3(net, train_iter, test_iter, loss, 2, trainer)
    finals["ch3.concise"] = net[1].weight

    rng = np.random.RandomState(4)
    max_degree = 20
    n_train, n_test = 100, 100
    true_w = np.zeros(max_degree)
    true_w[0:4] = np.array([5, 1.2, -3.4, 5.6])
    features = rng.normal(size=(n_train + n_test, 1))
    rng.shuffle(features)
    poly_features = np.power(features, np.arange(max_degree).reshape(1, -1))
    for i in range(max_degree):
        poly_features[:, i] /= math.gamma(i + 1)
    labels = np.dot(poly_features, true_w)
    labels += rng.normal(scale=0.1, size=labels.shape)
    true_w, features, poly_features, labels = [torch.tensor(x, dtype=torch.float32)
                                               for x in [true_w, features, poly_features, labels]]
    print(features[:2], poly_features[:2, :4], labels[:2])

    def evaluate_loss(net, data_iter, loss):
        metric = Accumulator(2)
        for X, y in data_iter:
            out = net(X)
            y = y.reshape(out.shape)
            l = loss(out, y)
            metric.add(l.sum(), l.numel())
        return metric[0] / metric[1]

    def train(train_features, test_features, train_labels, test_labels, num_epochs=100):
        loss = nn.MSELoss(reduction='none')
        input_shape = train_features.shape[-1]
        net = nn.Sequential(nn.Linear(input_shape, 1, bias=False))
        batch_size = min(10, train_labels.shape[0])
        train_iter = load_array((train_features, train_labels.reshape(-1, 1)), batch_size)
        test_iter = load_array((test_features, test_labels.reshape(-1, 1)), batch_size,
                               is_train=False)
        trainer = torch.optim.SGD(net.parameters(), lr=0.01)
        for epoch in range(num_epochs):
            train_epoch_ch3(net, train_iter, loss, trainer)
            if epoch == 0 or (epoch + 1) % 20 == 0:
                print(epoch + 1, evaluate_loss(net, train_iter, loss),
                      evaluate_loss(net, test_iter, loss))
        print('weight:', net[0].weight.data.numpy())
        return net[0].weight

    finals["poly.third"] = train(poly_features[:n_train, :4], poly_features[n_train:, :4],
                                 labels[:n_train], labels[n_train:])
    train(poly_features[:n_train, :2], poly_features[n_train:, :2],
          labels[:n_train], labels[n_train:], num_epochs=40)

    text = " ".join(names()) + " the time traveller for so it will be convenient to speak"
    tokens = list(re.sub('[^A-Za-z]+', ' ', text).strip().lower())
    counter = collections.Counter(tokens)
    idx_to_token = ['<unk>'] + [t for t, _ in sorted(counter.items(), key=lambda x: x[1],
                                                     reverse=True)]
    token_to_idx = {t: i for i, t in enumerate(idx_to_token)}
    corpus = [token_to_idx[t] for t in tokens]
    vocab_size = len(idx_to_token)

    def seq_data_iter_random(corpus, batch_size, num_steps):
        corpus = corpus[random.randint(0, num_steps - 1):]
        num_subseqs = (len(corpus) - 1) // num_steps
        initial_indices = list(range(0, num_subseqs * num_steps, num_steps))
        random.shuffle(initial_indices)

        def data(pos):
            return corpus[pos: pos + num_steps]

        num_batches = num_subseqs // batch_size
        for i in range(0, batch_size * num_batches, batch_size):
            initial_indices_per_batch = initial_indices[i: i + batch_size]
            X = [data(j) for j in initial_indices_per_batch]
            Y = [data(j + 1) for j in initial_indices_per_batch]
            yield torch.tensor(X), torch.tensor(Y)

    def seq_data_iter_sequential(corpus, batch_size, num_steps):
        offset = random.randint(0, num_steps)
        num_tokens = ((len(corpus) - offset - 1) // batch_size) * batch_size
        Xs = torch.tensor(corpus[offset: offset + num_tokens])
        Ys = torch.tensor(corpus[offset + 1: offset + 1 + num_tokens])
        Xs, Ys = Xs.reshape(batch_size, -1), Ys.reshape(batch_size, -1)
        num_batches = Xs.shape[1] // num_steps
        for i in range(0, num_steps * num_batches, num_steps):
            X = Xs[:, i: i + num_steps]
            Y = Ys[:, i: i + num_steps]
            yield X, Y

    my_seq = list(range(35))
    for X, Y in seq_data_iter_random(my_seq, batch_size=2, num_steps=5):
        print('X: ', X, '\nY:', Y)
    for X, Y in seq_data_iter_sequential(my_seq, batch_size=2, num_steps=5):
        print('X: ', X, '\nY:', Y)

    def get_params(vocab_size, num_hiddens, device):
        num_inputs = num_outputs = vocab_size

        def normal(shape):
            return torch.randn(size=shape, device=device) * 0.01

        W_xh = normal((num_inputs, num_hiddens))
        W_hh = normal((num_hiddens, num_hiddens))
        b_h = torch.zeros(num_hiddens, device=device)
        W_hq = normal((num_hiddens, num_outputs))
        b_q = torch.zeros(num_outputs, device=device)
        params = [W_xh, W_hh, b_h, W_hq, b_q]
        for param in params:
            param.requires_grad_(True)
        return params

    def init_rnn_state(batch_size, num_hiddens, device):
        return (torch.zeros((batch_size, num_hiddens), device=device), )

    def rnn(inputs, state, params):
        W_xh, W_hh, b_h, W_hq, b_q = params
        H, = state
        outputs = []
        for X in inputs:
            H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
            Y = torch.mm(H, W_hq) + b_q
            outputs.append(Y)
        return torch.cat(outputs, dim=0), (H,)

    class RNNModelScratch:
        def __init__(self, vocab_size, num_hiddens, device, get_params, init_state,
                     forward_fn):
            self.vocab_size, self.num_hiddens = vocab_size, num_hiddens
            self.params = get_params(vocab_size, num_hiddens, device)
            self.init_state, self.forward_fn = init_state, forward_fn

        def __call__(self, X, state):
            X = F.one_hot(X.T, self.vocab_size).type(torch.float32)
            return self.forward_fn(X, state, self.params)

        def begin_state(self, batch_size, device):
            return self.init_state(batch_size, self.num_hiddens, device)

    device = torch.device('cpu')
    num_hiddens = 32
    net = RNNModelScratch(vocab_size, num_hiddens, device, get_params, init_rnn_state, rnn)
    X = torch.arange(10).reshape((2, 5))
    state = net.begin_state(X.shape[0], device)
    Y, new_state = net(X.to(device), state)
    print(Y.shape, len(new_state), new_state[0].shape)

    def predict_ch8(prefix, num_preds, net, vocab, device):
        state = net.begin_state(batch_size=1, device=device)
        outputs = [token_to_idx[prefix[0]]]
        get_input = lambda: torch.tensor([outputs[-1]], device=device).reshape((1, 1))
        for y in prefix[1:]:
            _, state = net(get_input(), state)
            outputs.append(token_to_idx[y])
        for _ in range(num_preds):
            y, state = net(get_input(), state)
            outputs.append(int(y.argmax(dim=1).reshape(1)))
        return ''.join([idx_to_token[i] for i in outputs])

    print(predict_ch8('time traveller ', 10, net, None, device))

    def grad_clipping(net, theta):
        if isinstance(net, nn.Module):
            params = [p for p in net.parameters() if p.requires_grad]
        else:
            params = net.params
        norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
        if norm > theta:
            for param in params:
                param.grad[:] *= theta / norm

    def train_epoch_ch8(net, train_iter, loss, updater, device, use_random_iter):
        state = None
        metric = Accumulator(2)
        for X, Y in train_iter:
            if state is None or use_random_iter:
                state = net.begin_state(batch_size=X.shape[0], device=device)
            else:
                if isinstance(net, nn.Module) and not isinstance(state, tuple):
                    state.detach_()
                else:
                    for s in state:
                        s.detach_()
            y = Y.T.reshape(-1)
            X, y = X.to(device), y.to(device)
            y_hat, state = net(X, state)
            l = loss(y_hat, y.long()).mean()
            if isinstance(updater, torch.optim.Optimizer):
                updater.zero_grad()
                l.backward()
                grad_clipping(net, 1)
                updater.step()
            else:
                l.backward()
                grad_clipping(net, 1)
                updater(batch_size=1)
            metric.add(l * y.numel(), y.numel())
        return math.exp(metric[0] / metric[1])

    def train_ch8(net, lr, num_epochs, device, use_random_iter=False):
        loss = nn.CrossEntropyLoss()
        if isinstance(net, nn.Module):
            updater = torch.optim.SGD(net.parameters(), lr)
        else:
            updater = lambda batch_size: sgd(net.params, lr, batch_size)
        predict = lambda prefix: predict_ch8(prefix, 20, net, None, device)
        for epoch in range(num_epochs):
            iterator = (seq_data_iter_random if use_random_iter
                        else seq_data_iter_sequential)(corpus, 32, 35)
            ppl = train_epoch_ch8(net, iterator, loss, updater, device, use_random_iter)
        print(f'perplexity {ppl:.1f}')
        print(predict('time traveller'))
        print(predict('traveller'))

    train_ch8(net, 1, 3, device)
    finals["ch8.W_hq"] = net.params[3]
    net = RNNModelScratch(vocab_size, num_hiddens, device, get_params, init_rnn_state, rnn)
    train_ch8(net, 1, 3, device, use_random_iter=True)

    class RNNModel(nn.Module):
        def __init__(self, rnn_layer, vocab_size, **kwargs):
            super(RNNModel, self).__init__(**kwargs)
            self.rnn = rnn_layer
            self.vocab_size = vocab_size
            self.num_hiddens = self.rnn.hidden_size
            if not self.rnn.bidirectional:
                self.num_directions = 1
                self.linear = nn.Linear(self.num_hiddens, self.vocab_size)
            else:
                self.num_directions = 2
                self.linear = nn.Linear(self.num_hiddens * 2, self.vocab_size)

        def forward(self, inputs, state):
            X = F.one_hot(inputs.T.long(), self.vocab_size)
            X = X.to(torch.float32)
            Y, state = self.rnn(X, state)
            output = self.linear(Y.reshape((-1, Y.shape[-1])))
            return output, state

        def begin_state(self, device, batch_size=1):
            if not isinstance(self.rnn, nn.LSTM):
                return torch.zeros((self.num_directions * self.rnn.num_layers,
                                    batch_size, self.num_hiddens), device=device)
            else:
                return (torch.zeros((self.num_directions * self.rnn.num_layers,
                                     batch_size, self.num_hiddens), device=device),
                        torch.zeros((self.num_directions * self.rnn.num_layers,
                                     batch_size, self.num_hiddens), device=device))

    rnn_layer = nn.RNN(vocab_size, num_hiddens)
    state = torch.zeros((1, 32, num_hiddens))
    X = torch.rand(size=(35, 32, vocab_size))
    Y, state_new = rnn_layer(X, state)
    print(Y.shape, state_new.shape)
    net = RNNModel(rnn_layer, vocab_size=vocab_size).to(device)
    print(predict_ch8('time traveller', 10, net, None, device))
    train_ch8(net, 1, 3, device)
    net = RNNModel(nn.GRU(vocab_size, num_hiddens), vocab_size=vocab_size)
    train_ch8(net, 1, 2, device)
    net = RNNModel(nn.LSTM(vocab_size, num_hiddens, num_layers=2), vocab_size=vocab_size)
    train_ch8(net, 2, 2, device)
    finals["ch8.lstm"] = net.rnn.weight_hh_l1

    def sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = torch.arange((maxlen), dtype=torch.float32,
                            device=X.device)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X

    X = torch.tensor([[1, 2, 3], [4, 5, 6]])
    print(sequence_mask(X, torch.tensor([1, 2])))
    X = torch.ones(2, 3, 4)
    print(sequence_mask(X, torch.tensor([1, 2]), value=-1))

    class MaskedSoftmaxCELoss(nn.CrossEntropyLoss):
        def forward(self, pred, label, valid_len):
            weights = torch.ones_like(label)
            weights = sequence_mask(weights, valid_len)
            self.reduction = 'none'
            unweighted_loss = super(MaskedSoftmaxCELoss, self).forward(
                pred.permute(0, 2, 1), label)
            weighted_loss = (unweighted_loss * weights).mean(dim=1)
            return weighted_loss

    loss = MaskedSoftmaxCELoss()
    print(loss(torch.ones(3, 4, 10), torch.ones((3, 4), dtype=torch.long),
               torch.tensor([4, 2, 0])))

    class Seq2SeqEncoder(nn.Module):
        def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0,
                     **kwargs):
            super(Seq2SeqEncoder, self).__init__(**kwargs)
            self.embedding = nn.Embedding(vocab_size, embed_size)
            self.rnn = nn.GRU(embed_size, num_hiddens, num_layers, dropout=dropout)

        def forward(self, X, *args):
            X = self.embedding(X)
            X = X.permute(1, 0, 2)
            output, state = self.rnn(X)
            return output, state

    class Seq2SeqDecoder(nn.Module):
        def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0,
                     **kwargs):
            super(Seq2SeqDecoder, self).__init__(**kwargs)
            self.embedding = nn.Embedding(vocab_size, embed_size)
            self.rnn = nn.GRU(embed_size + num_hiddens, num_hiddens, num_layers,
                              dropout=dropout)
            self.dense = nn.Linear(num_hiddens, vocab_size)

        def init_state(self, enc_outputs, *args):
            return enc_outputs[1]

        def forward(self, X, state):
            X = self.embedding(X).permute(1, 0, 2)
            context = state[-1].repeat(X.shape[0], 1, 1)
            X_and_context = torch.cat((X, context), 2)
            output, state = self.rnn(X_and_context, state)
            output = self.dense(output).permute(1, 0, 2)
            return output, state

    class EncoderDecoder(nn.Module):
        def __init__(self, encoder, decoder, **kwargs):
            super(EncoderDecoder, self).__init__(**kwargs)
            self.encoder = encoder
            self.decoder = decoder

        def forward(self, enc_X, dec_X, *args):
            enc_outputs = self.encoder(enc_X, *args)
            dec_state = self.decoder.init_state(enc_outputs, *args)
            return self.decoder(dec_X, dec_state)

    pairs = [(a.split(' ') + ['<eos>'], b.split(' ') + ['<eos>']) for a, b in FRA_ENG] * 4

    def build_vocab(lines):
        words = collections.Counter(t for line in lines for t in line)
        itos = ['<unk>', '<pad>', '<bos>', '<eos>'] + sorted(t for t in words if t != '<eos>')
        return {t: i for i, t in enumerate(itos)}

    src_vocab, tgt_vocab = build_vocab([p[0] for p in pairs]), build_vocab([p[1] for p in pairs])

    def build_array(lines, vocab, num_steps=8):
        rows = [[vocab[t] for t in line][:num_steps] for line in lines]
        array = torch.tensor([r + [vocab['<pad>']] * (num_steps - len(r)) for r in rows])
        valid_len = (array != vocab['<pad>']).type(torch.int32).sum(1)
        return array, valid_len

    src_array, src_valid_len = build_array([p[0] for p in pairs], src_vocab)
    tgt_array, tgt_valid_len = build_array([p[1] for p in pairs], tgt_vocab)
    data_iter = load_array((src_array, src_valid_len, tgt_array, tgt_valid_len), 16)

    def train_seq2seq(net, data_iter, lr, num_epochs, tgt_vocab, device):
        def xavier_init_weights(m):
            if type(m) == nn.Linear:
                nn.init.xavier_uniform_(m.weight)
            if type(m) == nn.GRU:
                for param in m._flat_weights_names:
                    if "weight" in param:
                        nn.init.xavier_uniform_(m._parameters[param])

        net.apply(xavier_init_weights)
        net.to(device)
        optimizer = torch.optim.Adam(net.parameters(), lr=lr)
        loss = MaskedSoftmaxCELoss()
        net.train()
        for epoch in range(num_epochs):
            metric = Accumulator(2)
            for batch in data_iter:
                optimizer.zero_grad()
                X, X_valid_len, Y, Y_valid_len = [x.to(device) for x in batch]
                bos = torch.tensor([tgt_vocab['<bos>']] * Y.shape[0],
                                   device=device).reshape(-1, 1)
                dec_input = torch.cat([bos, Y[:, :-1]], 1)
                Y_hat, _ = net(X, dec_input, X_valid_len)
                l = loss(Y_hat, Y, Y_valid_len)
                l.sum().backward()
                grad_clipping(net, 1)
                num_tokens = Y_valid_len.sum()
                optimizer.step()
                with torch.no_grad():
                    metric.add(l.sum(), num_tokens)
            if (epoch + 1) % 5 == 0:
                print(f'loss {metric[0] / metric[1]:.3f}')

    encoder = Seq2SeqEncoder(len(src_vocab), 16, 16, 2, 0.1)
    decoder = Seq2SeqDecoder(len(tgt_vocab), 16, 16, 2, 0.1)
    net = EncoderDecoder(encoder, decoder)
    train_seq2seq(net, data_iter, 0.01, 15, tgt_vocab, device)
    net.eval()
    src = torch.tensor([[src_vocab[t] for t in "he's calm . <eos>".split(' ')]])
    dec_state = net.decoder.init_state(net.encoder(src))
    dec_X = torch.unsqueeze(torch.tensor([tgt_vocab['<bos>']], dtype=torch.long), dim=0)
    itos = {i: t for t, i in tgt_vocab.items()}
    output_seq = []
    for _ in range(8):
        Y, dec_state = net.decoder(dec_X, dec_state)
        dec_X = Y.argmax(dim=2)
        pred = dec_X.squeeze(dim=0).type(torch.int32).item()
        if pred == tgt_vocab['<eos>']:
            break
        output_seq.append(itos[pred])
    print(' '.join(output_seq), Y[0, 0, :4])
    finals["seq2seq.dense"] = decoder.dense.weight
    return finals


def d2l_transformers(torch):
    """d2l-ai/d2l-en chapter_attention-mechanisms-and-transformers (queries-keys-values.md,
    attention-pooling.md, bahdanau-attention.md, transformer.md, vision-transformer.md,
    PyTorch tabs): torch.eye attention weights, Nadaraya-Watson pooling with gaussian,
    boxcar (a bool tensor .type(torch.float32)), constant and Epanechikov kernels over
    sorted random points, the Bahdanau decoder (AdditiveAttention over the encoder's
    outputs, a loop over the time steps of X with torch.unsqueeze, a property for the
    weights) trained as Seq2Seq, PositionWiseFFN, LayerNorm against LazyBatchNorm1d,
    AddNorm, the Transformer encoder and decoder blocks (the decoder's key-value cache in
    state[2], 2-D dec_valid_lens from arange().repeat in training, None in eval), a whole
    Transformer trained on the made-up English-French pairs with its predictions and
    BLEU, and the vision Transformer (PatchEmbedding on a LazyConv2d, flatten(2).
    transpose(1, 2), GELU, cls_token.expand, the head on X[:, 0]) trained through the
    Trainer. Sizes are smaller and the epochs fewer than the book's."""
    d2l = d2l_library(torch)
    nn = torch.nn
    attention_weights = torch.eye(10).reshape((1, 1, 10, 10))
    print(attention_weights.shape, attention_weights[0, 0, :3, :3])

    def gaussian(x):
        return torch.exp(-x**2 / 2)

    def boxcar(x):
        return torch.abs(x) < 1.0

    def constant(x):
        return 1.0 + 0 * x

    def epanechikov(x):
        return torch.max(1 - torch.abs(x), torch.zeros_like(x))

    kernels = (gaussian, boxcar, constant, epanechikov)
    x = torch.arange(-2.5, 2.5, 0.1)
    print([kernel(x)[20:24] for kernel in kernels])

    def f(x):
        return 2 * torch.sin(x) + x

    n = 40
    x_train, _ = torch.sort(torch.rand(n) * 5)
    y_train = f(x_train) + torch.randn(n)
    x_val = torch.arange(0, 5, 0.1)
    y_val = f(x_val)

    def nadaraya_watson(x_train, y_train, x_val, kernel):
        dists = x_train.reshape((-1, 1)) - x_val.reshape((1, -1))
        k = kernel(dists).type(torch.float32)
        attention_w = k / k.sum(0)
        y_hat = y_train @ attention_w
        return y_hat, attention_w

    for kernel in kernels:
        y_hat, attention_w = nadaraya_watson(x_train, y_train, x_val, kernel)
        print(kernel.__name__, y_hat[::10], attention_w[:3, 0], (y_hat - y_val).abs().mean())
    sigmas = (0.1, 0.2, 0.5, 1)
    for sigma in sigmas:
        y_hat, _ = nadaraya_watson(x_train, y_train, x_val,
                                   lambda x: torch.exp(-x**2 / (2 * sigma**2)))
        print(sigma, y_hat[::12])

    class AttentionDecoder(d2l.Decoder):
        def __init__(self):
            super().__init__()

        @property
        def attention_weights(self):
            raise NotImplementedError

    class Seq2SeqAttentionDecoder(AttentionDecoder):
        def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0):
            super().__init__()
            self.attention = d2l.AdditiveAttention(num_hiddens, dropout)
            self.embedding = nn.Embedding(vocab_size, embed_size)
            self.rnn = nn.GRU(embed_size + num_hiddens, num_hiddens, num_layers,
                              dropout=dropout)
            self.dense = nn.LazyLinear(vocab_size)
            self.apply(d2l.init_seq2seq)

        def init_state(self, enc_outputs, enc_valid_lens):
            outputs, hidden_state = enc_outputs
            return (outputs.permute(1, 0, 2), hidden_state, enc_valid_lens)

        def forward(self, X, state):
            enc_outputs, hidden_state, enc_valid_lens = state
            X = self.embedding(X).permute(1, 0, 2)
            outputs, self._attention_weights = [], []
            for x in X:
                query = torch.unsqueeze(hidden_state[-1], dim=1)
                context = self.attention(query, enc_outputs, enc_outputs, enc_valid_lens)
                x = torch.cat((context, torch.unsqueeze(x, dim=1)), dim=-1)
                out, hidden_state = self.rnn(x.permute(1, 0, 2), hidden_state)
                outputs.append(out)
                self._attention_weights.append(self.attention.attention_weights)
            outputs = self.dense(torch.cat(outputs, dim=0))
            return outputs.permute(1, 0, 2), [enc_outputs, hidden_state, enc_valid_lens]

        @property
        def attention_weights(self):
            return self._attention_weights

    vocab_size, embed_size, num_hiddens, num_layers = 10, 8, 16, 2
    batch_size, num_steps = 4, 7
    encoder = d2l.Seq2SeqEncoder(vocab_size, embed_size, num_hiddens, num_layers)
    decoder = Seq2SeqAttentionDecoder(vocab_size, embed_size, num_hiddens, num_layers)
    X = torch.zeros((batch_size, num_steps), dtype=torch.long)
    state = decoder.init_state(encoder(X), None)
    output, state = decoder(X, state)
    print(output.shape, len(state), state[0].shape, state[1].shape, output[0, 0, :4])

    data = d2l.MTFraEng(batch_size=16)
    embed_size, num_hiddens, num_layers, dropout = 16, 16, 2, 0.2
    encoder = d2l.Seq2SeqEncoder(len(data.src_vocab), embed_size, num_hiddens, num_layers,
                                 dropout)
    decoder = Seq2SeqAttentionDecoder(len(data.tgt_vocab), embed_size, num_hiddens,
                                      num_layers, dropout)
    model = d2l.Seq2Seq(encoder, decoder, tgt_pad=data.tgt_vocab['<pad>'], lr=0.01)
    trainer = d2l.Trainer(max_epochs=6, gradient_clip_val=1)
    trainer.fit(model, data)
    engs = ['go .', 'i lost .', 'he\'s calm .', 'i\'m home .']
    fras = ['va !', 'j\'ai perdu .', 'il est calme .', 'je suis chez moi .']

    def translate(model):
        preds, attention = model.predict_step(data.build(engs, fras), torch.device('cpu'),
                                              data.num_steps, True)
        for en, fr, p in zip(engs, fras, preds):
            translation = []
            for token in data.tgt_vocab.to_tokens(p):
                if token == '<eos>':
                    break
                translation.append(token)
            print(f'{en} => {translation}, bleu,',
                  f'{d2l.bleu(" ".join(translation), fr, k=2):.3f}')
        return attention

    attention = translate(model)
    print(len(attention), attention[0][0].shape if isinstance(attention[0], list)
          else attention[0].shape)
    finals = {"bahdanau.dense": decoder.dense.weight}

    class PositionWiseFFN(nn.Module):
        def __init__(self, ffn_num_hiddens, ffn_num_outputs):
            super().__init__()
            self.dense1 = nn.LazyLinear(ffn_num_hiddens)
            self.relu = nn.ReLU()
            self.dense2 = nn.LazyLinear(ffn_num_outputs)

        def forward(self, X):
            return self.dense2(self.relu(self.dense1(X)))

    ffn = PositionWiseFFN(4, 8)
    ffn.eval()
    print(ffn(torch.ones((2, 3, 4)))[0])
    ln = nn.LayerNorm(2)
    bn = nn.LazyBatchNorm1d()
    X = torch.tensor([[1, 2], [2, 3]], dtype=torch.float32)
    print('layer norm:', ln(X), '\nbatch norm:', bn(X))

    class AddNorm(nn.Module):
        def __init__(self, norm_shape, dropout):
            super().__init__()
            self.dropout = nn.Dropout(dropout)
            self.ln = nn.LayerNorm(norm_shape)

        def forward(self, X, Y):
            return self.ln(self.dropout(Y) + X)

    add_norm = AddNorm(4, 0.5)
    shape = (2, 3, 4)
    print(add_norm(torch.ones(shape), torch.ones(shape)).shape)

    class TransformerEncoderBlock(nn.Module):
        def __init__(self, num_hiddens, ffn_num_hiddens, num_heads, dropout, use_bias=False):
            super().__init__()
            self.attention = d2l.MultiHeadAttention(num_hiddens, num_heads, dropout, use_bias)
            self.addnorm1 = AddNorm(num_hiddens, dropout)
            self.ffn = PositionWiseFFN(ffn_num_hiddens, num_hiddens)
            self.addnorm2 = AddNorm(num_hiddens, dropout)

        def forward(self, X, valid_lens):
            Y = self.addnorm1(X, self.attention(X, X, X, valid_lens))
            return self.addnorm2(Y, self.ffn(Y))

    X = torch.ones((2, 100, 24))
    valid_lens = torch.tensor([3, 2])
    encoder_blk = TransformerEncoderBlock(24, 48, 8, 0.5)
    encoder_blk.eval()
    print(encoder_blk(X, valid_lens)[0, :2, :4])

    class TransformerEncoder(d2l.Encoder):
        def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks,
                     dropout, use_bias=False):
            super().__init__()
            self.num_hiddens = num_hiddens
            self.embedding = nn.Embedding(vocab_size, num_hiddens)
            self.pos_encoding = d2l.PositionalEncoding(num_hiddens, dropout)
            self.blks = nn.Sequential()
            for i in range(num_blks):
                self.blks.add_module("block"+str(i), TransformerEncoderBlock(
                    num_hiddens, ffn_num_hiddens, num_heads, dropout, use_bias))

        def forward(self, X, valid_lens):
            X = self.pos_encoding(self.embedding(X) * math.sqrt(self.num_hiddens))
            self.attention_weights = [None] * len(self.blks)
            for i, blk in enumerate(self.blks):
                X = blk(X, valid_lens)
                self.attention_weights[i] = blk.attention.attention.attention_weights
            return X

    encoder = TransformerEncoder(200, 24, 48, 8, 2, 0.5)
    print(encoder(torch.ones((2, 100), dtype=torch.long), valid_lens).shape)

    class TransformerDecoderBlock(nn.Module):
        def __init__(self, num_hiddens, ffn_num_hiddens, num_heads, dropout, i):
            super().__init__()
            self.i = i
            self.attention1 = d2l.MultiHeadAttention(num_hiddens, num_heads, dropout)
            self.addnorm1 = AddNorm(num_hiddens, dropout)
            self.attention2 = d2l.MultiHeadAttention(num_hiddens, num_heads, dropout)
            self.addnorm2 = AddNorm(num_hiddens, dropout)
            self.ffn = PositionWiseFFN(ffn_num_hiddens, num_hiddens)
            self.addnorm3 = AddNorm(num_hiddens, dropout)

        def forward(self, X, state):
            enc_outputs, enc_valid_lens = state[0], state[1]
            if state[2][self.i] is None:
                key_values = X
            else:
                key_values = torch.cat((state[2][self.i], X), dim=1)
            state[2][self.i] = key_values
            if self.training:
                batch_size, num_steps, _ = X.shape
                dec_valid_lens = torch.arange(1, num_steps + 1, device=X.device).repeat(
                    batch_size, 1)
            else:
                dec_valid_lens = None
            X2 = self.attention1(X, key_values, key_values, dec_valid_lens)
            Y = self.addnorm1(X, X2)
            Y2 = self.attention2(Y, enc_outputs, enc_outputs, enc_valid_lens)
            Z = self.addnorm2(Y, Y2)
            return self.addnorm3(Z, self.ffn(Z)), state

    decoder_blk = TransformerDecoderBlock(24, 48, 8, 0.5, 0)
    X = torch.ones((2, 100, 24))
    state = [encoder_blk(X, valid_lens), valid_lens, [None]]
    out = decoder_blk(X, state)[0]
    out[:, :, 0].sum().backward()
    print(out.shape, decoder_blk.ffn.dense1.weight.grad[0, :4])
    finals["decoder_blk.grad"] = decoder_blk.attention2.W_q.weight.grad

    class TransformerDecoder(AttentionDecoder):
        def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads,
                     num_blks, dropout):
            super().__init__()
            self.num_hiddens = num_hiddens
            self.num_blks = num_blks
            self.embedding = nn.Embedding(vocab_size, num_hiddens)
            self.pos_encoding = d2l.PositionalEncoding(num_hiddens, dropout)
            self.blks = nn.Sequential()
            for i in range(num_blks):
                self.blks.add_module("block"+str(i), TransformerDecoderBlock(
                    num_hiddens, ffn_num_hiddens, num_heads, dropout, i))
            self.dense = nn.LazyLinear(vocab_size)

        def init_state(self, enc_outputs, enc_valid_lens):
            return [enc_outputs, enc_valid_lens, [None] * self.num_blks]

        def forward(self, X, state):
            X = self.pos_encoding(self.embedding(X) * math.sqrt(self.num_hiddens))
            self._attention_weights = [[None] * len(self.blks) for _ in range(2)]
            for i, blk in enumerate(self.blks):
                X, state = blk(X, state)
                self._attention_weights[0][i] = blk.attention1.attention.attention_weights
                self._attention_weights[1][i] = blk.attention2.attention.attention_weights
            return self.dense(X), state

        @property
        def attention_weights(self):
            return self._attention_weights

    num_hiddens, num_blks, dropout = 32, 2, 0.2
    ffn_num_hiddens, num_heads = 64, 4
    encoder = TransformerEncoder(len(data.src_vocab), num_hiddens, ffn_num_hiddens,
                                 num_heads, num_blks, dropout)
    decoder = TransformerDecoder(len(data.tgt_vocab), num_hiddens, ffn_num_hiddens,
                                 num_heads, num_blks, dropout)
    model = d2l.Seq2Seq(encoder, decoder, tgt_pad=data.tgt_vocab['<pad>'], lr=0.002)
    trainer = d2l.Trainer(max_epochs=6, gradient_clip_val=1)
    trainer.fit(model, data)
    attention = translate(model)
    enc_attention_weights = torch.cat(model.encoder.attention_weights, 0)
    print(enc_attention_weights.shape, enc_attention_weights.argmax(-1)[0])
    dec_attention_weights_2d = [head[0].tolist() for step in attention
                                for attn in step for blk in attn for head in blk]
    print(len(dec_attention_weights_2d))
    finals["transformer.dense"] = decoder.dense.weight

    class PatchEmbedding(nn.Module):
        def __init__(self, img_size=96, patch_size=16, num_hiddens=512):
            super().__init__()

            def _make_tuple(x):
                if not isinstance(x, (list, tuple)):
                    return (x, x)
                return x

            img_size, patch_size = _make_tuple(img_size), _make_tuple(patch_size)
            self.num_patches = (img_size[0] // patch_size[0]) * (
                img_size[1] // patch_size[1])
            self.conv = nn.LazyConv2d(num_hiddens, kernel_size=patch_size, stride=patch_size)

        def forward(self, X):
            return self.conv(X).flatten(2).transpose(1, 2)

    img_size, patch_size, num_hiddens, batch_size = 32, 8, 48, 4
    patch_emb = PatchEmbedding(img_size, patch_size, num_hiddens)
    X = torch.zeros(batch_size, 3, img_size, img_size)
    print(patch_emb(X).shape)

    class ViTMLP(nn.Module):
        def __init__(self, mlp_num_hiddens, mlp_num_outputs, dropout=0.5):
            super().__init__()
            self.dense1 = nn.LazyLinear(mlp_num_hiddens)
            self.gelu = nn.GELU()
            self.dropout1 = nn.Dropout(dropout)
            self.dense2 = nn.LazyLinear(mlp_num_outputs)
            self.dropout2 = nn.Dropout(dropout)

        def forward(self, x):
            return self.dropout2(self.dense2(self.dropout1(self.gelu(self.dense1(x)))))

    class ViTBlock(nn.Module):
        def __init__(self, num_hiddens, norm_shape, mlp_num_hiddens, num_heads, dropout,
                     use_bias=False):
            super().__init__()
            self.ln1 = nn.LayerNorm(norm_shape)
            self.attention = d2l.MultiHeadAttention(num_hiddens, num_heads, dropout, use_bias)
            self.ln2 = nn.LayerNorm(norm_shape)
            self.mlp = ViTMLP(mlp_num_hiddens, num_hiddens, dropout)

        def forward(self, X, valid_lens=None):
            X = X + self.attention(*([self.ln1(X)] * 3), valid_lens)
            return X + self.mlp(self.ln2(X))

    X = torch.ones((2, 100, 24))
    encoder_blk = ViTBlock(24, 24, 48, 8, 0.5)
    encoder_blk.eval()
    print(encoder_blk(X).shape)

    class ViT(d2l.Classifier):
        def __init__(self, img_size, patch_size, num_hiddens, mlp_num_hiddens,
                     num_heads, num_blks, emb_dropout, blk_dropout, lr=0.1,
                     use_bias=False, num_classes=10):
            super().__init__()
            self.save_hyperparameters()
            self.patch_embedding = PatchEmbedding(img_size, patch_size, num_hiddens)
            self.cls_token = nn.Parameter(torch.zeros(1, 1, num_hiddens))
            num_steps = self.patch_embedding.num_patches + 1
            self.pos_embedding = nn.Parameter(torch.randn(1, num_steps, num_hiddens))
            self.dropout = nn.Dropout(emb_dropout)
            self.blks = nn.Sequential()
            for i in range(num_blks):
                self.blks.add_module(f"{i}", ViTBlock(
                    num_hiddens, num_hiddens, mlp_num_hiddens,
                    num_heads, blk_dropout, use_bias))
            self.head = nn.Sequential(nn.LayerNorm(num_hiddens),
                                      nn.Linear(num_hiddens, num_classes))

        def forward(self, X):
            X = self.patch_embedding(X)
            X = torch.cat((self.cls_token.expand(X.shape[0], -1, -1), X), 1)
            X = self.dropout(X + self.pos_embedding)
            for blk in self.blks:
                X = blk(X)
            return self.head(X[:, 0])

    num_hiddens, mlp_num_hiddens, num_heads, num_blks = 48, 96, 4, 2
    emb_dropout, blk_dropout, lr = 0.1, 0.1, 0.1
    model = ViT(img_size, patch_size, num_hiddens, mlp_num_hiddens, num_heads,
                num_blks, emb_dropout, blk_dropout, lr)
    trainer = d2l.Trainer(max_epochs=2)
    data = d2l.FashionMNIST(batch_size=64, resize=(img_size, img_size), num_train=128,
                            num_val=64)
    trainer.fit(model, data)
    print(model.head, model.cls_token[0, 0, :4])
    finals["vit.head"] = model.head[1].weight
    finals["vit.conv.grad"] = model.patch_embedding.conv.weight.grad
    return finals


def d2l_cnn_designs(torch):
    """d2l-ai/d2l-en chapter_convolutional-modern (alexnet.md, googlenet.md, resnet.md's
    ResNeXtBlock, cnn-design.md, PyTorch tabs), narrower and on smaller images than the
    book's: AlexNet's layers summarised, GoogLeNet's Inception block (four LazyConv2d
    paths concatenated with torch.cat along dim 1, methods added with add_to_class) and
    its five stages with AdaptiveAvgPool2d((1, 1)), ResNeXtBlock (grouped LazyConv2d,
    a 1x1 shortcut with LazyBatchNorm2d), and AnyNet/RegNetX32 (stem, stages of
    ResNeXt blocks, head) summarised and trained a step with apply_init."""
    d2l = d2l_library(torch)
    nn, F = torch.nn, torch.nn.functional

    class AlexNet(d2l.Classifier):
        def __init__(self, lr=0.1, num_classes=10):
            super().__init__()
            self.save_hyperparameters()
            self.net = nn.Sequential(
                nn.LazyConv2d(24, kernel_size=11, stride=4, padding=1),
                nn.ReLU(), nn.MaxPool2d(kernel_size=3, stride=2),
                nn.LazyConv2d(64, kernel_size=5, padding=2), nn.ReLU(),
                nn.MaxPool2d(kernel_size=3, stride=2),
                nn.LazyConv2d(96, kernel_size=3, padding=1), nn.ReLU(),
                nn.LazyConv2d(96, kernel_size=3, padding=1), nn.ReLU(),
                nn.LazyConv2d(64, kernel_size=3, padding=1), nn.ReLU(),
                nn.MaxPool2d(kernel_size=3, stride=2), nn.Flatten(),
                nn.LazyLinear(128), nn.ReLU(), nn.Dropout(p=0.5),
                nn.LazyLinear(128), nn.ReLU(), nn.Dropout(p=0.5),
                nn.LazyLinear(num_classes))
            self.net.apply(d2l.init_cnn)

    AlexNet().layer_summary((1, 1, 112, 112))

    class Inception(nn.Module):
        def __init__(self, c1, c2, c3, c4, **kwargs):
            super(Inception, self).__init__(**kwargs)
            self.b1_1 = nn.LazyConv2d(c1, kernel_size=1)
            self.b2_1 = nn.LazyConv2d(c2[0], kernel_size=1)
            self.b2_2 = nn.LazyConv2d(c2[1], kernel_size=3, padding=1)
            self.b3_1 = nn.LazyConv2d(c3[0], kernel_size=1)
            self.b3_2 = nn.LazyConv2d(c3[1], kernel_size=5, padding=2)
            self.b4_1 = nn.MaxPool2d(kernel_size=3, stride=1, padding=1)
            self.b4_2 = nn.LazyConv2d(c4, kernel_size=1)

        def forward(self, x):
            b1 = F.relu(self.b1_1(x))
            b2 = F.relu(self.b2_2(F.relu(self.b2_1(x))))
            b3 = F.relu(self.b3_2(F.relu(self.b3_1(x))))
            b4 = F.relu(self.b4_2(self.b4_1(x)))
            return torch.cat((b1, b2, b3, b4), dim=1)

    class GoogleNet(d2l.Classifier):
        def b1(self):
            return nn.Sequential(
                nn.LazyConv2d(16, kernel_size=7, stride=2, padding=3),
                nn.ReLU(), nn.MaxPool2d(kernel_size=3, stride=2, padding=1))

    @d2l.add_to_class(GoogleNet)
    def b2(self):
        return nn.Sequential(
            nn.LazyConv2d(16, kernel_size=1), nn.ReLU(),
            nn.LazyConv2d(48, kernel_size=3, padding=1), nn.ReLU(),
            nn.MaxPool2d(kernel_size=3, stride=2, padding=1))

    @d2l.add_to_class(GoogleNet)
    def b3(self):
        return nn.Sequential(Inception(16, (24, 32), (4, 8), 8),
                             Inception(32, (32, 48), (8, 24), 16),
                             nn.MaxPool2d(kernel_size=3, stride=2, padding=1))

    @d2l.add_to_class(GoogleNet)
    def b4(self):
        return nn.Sequential(Inception(48, (24, 52), (4, 12), 16),
                             Inception(40, (28, 56), (6, 16), 16),
                             nn.MaxPool2d(kernel_size=3, stride=2, padding=1))

    @d2l.add_to_class(GoogleNet)
    def b5(self):
        return nn.Sequential(Inception(64, (40, 80), (8, 32), 32),
                             nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten())

    @d2l.add_to_class(GoogleNet)
    def __init__(self, lr=0.1, num_classes=10):
        super(GoogleNet, self).__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(self.b1(), self.b2(), self.b3(), self.b4(),
                                 self.b5(), nn.LazyLinear(num_classes))
        self.net.apply(d2l.init_cnn)

    model = GoogleNet().layer_summary((1, 1, 48, 48))
    model = GoogleNet(lr=0.01)
    data = d2l.FashionMNIST(batch_size=32, resize=(48, 48), num_train=64, num_val=32)
    model.apply_init([next(iter(data.get_dataloader(True)))[0]], d2l.init_cnn)
    trainer = d2l.Trainer(max_epochs=1)
    trainer.fit(model, data)
    finals = {"googlenet.last": model.net[-1].weight,
              "googlenet.b3.grad": model.net[2][0].b2_2.weight.grad}

    class ResNeXtBlock(nn.Module):
        def __init__(self, num_channels, groups, bot_mul, use_1x1conv=False, strides=1):
            super().__init__()
            bot_channels = int(round(num_channels * bot_mul))
            self.conv1 = nn.LazyConv2d(bot_channels, kernel_size=1, stride=1)
            self.conv2 = nn.LazyConv2d(bot_channels, kernel_size=3, stride=strides,
                                       padding=1, groups=bot_channels // groups)
            self.conv3 = nn.LazyConv2d(num_channels, kernel_size=1, stride=1)
            self.bn1 = nn.LazyBatchNorm2d()
            self.bn2 = nn.LazyBatchNorm2d()
            self.bn3 = nn.LazyBatchNorm2d()
            if use_1x1conv:
                self.conv4 = nn.LazyConv2d(num_channels, kernel_size=1, stride=strides)
                self.bn4 = nn.LazyBatchNorm2d()
            else:
                self.conv4 = None

        def forward(self, X):
            Y = F.relu(self.bn1(self.conv1(X)))
            Y = F.relu(self.bn2(self.conv2(Y)))
            Y = self.bn3(self.conv3(Y))
            if self.conv4:
                X = self.bn4(self.conv4(X))
            return F.relu(Y + X)

    blk = ResNeXtBlock(32, 16, 1)
    X = torch.randn(4, 32, 6, 6)
    Y = blk(X)
    Y.mean().backward()
    print(Y.shape, blk.conv2, blk.conv2.weight.grad.shape, blk.bn2.weight.grad[:4])
    finals["resnext.grad"] = blk.conv2.weight.grad

    class AnyNet(d2l.Classifier):
        def stem(self, num_channels):
            return nn.Sequential(
                nn.LazyConv2d(num_channels, kernel_size=3, stride=2, padding=1),
                nn.LazyBatchNorm2d(), nn.ReLU())

        def stage(self, depth, num_channels, groups, bot_mul):
            blk = []
            for i in range(depth):
                if i == 0:
                    blk.append(ResNeXtBlock(num_channels, groups, bot_mul,
                                            use_1x1conv=True, strides=2))
                else:
                    blk.append(ResNeXtBlock(num_channels, groups, bot_mul))
            return nn.Sequential(*blk)

        def __init__(self, arch, stem_channels, lr=0.1, num_classes=10):
            super(AnyNet, self).__init__()
            self.save_hyperparameters()
            self.net = nn.Sequential(self.stem(stem_channels))
            for i, s in enumerate(arch):
                self.net.add_module(f'stage{i+1}', self.stage(*s))
            self.net.add_module('head', nn.Sequential(
                nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(),
                nn.LazyLinear(num_classes)))

    class RegNetX32(AnyNet):
        def __init__(self, lr=0.1, num_classes=10):
            stem_channels, groups, bot_mul = 16, 8, 1
            depths, channels = (2, 3), (16, 32)
            super().__init__(
                ((depths[0], channels[0], groups, bot_mul),
                 (depths[1], channels[1], groups, bot_mul)),
                stem_channels, lr, num_classes)

    RegNetX32().layer_summary((1, 1, 48, 48))
    model = RegNetX32(lr=0.05)
    data = d2l.FashionMNIST(batch_size=32, resize=(48, 48), num_train=64, num_val=32)
    model.apply_init([next(iter(data.get_dataloader(True)))[0]], d2l.init_cnn)
    trainer = d2l.Trainer(max_epochs=1)
    trainer.fit(model, data)
    print(model.net.stage1[0].bn4.running_var[:4])
    finals["regnet.head"] = model.net.head[2].weight
    return finals


def d2l_sequences(torch):
    """d2l-ai/d2l-en chapter_recurrent-neural-networks (sequence.md, text-sequence.md,
    language-model.md, PyTorch tabs): the noisy sine Data module (features stacked from
    shifted slices with torch.stack(..., 1)), the book's LinearRegression trained on it,
    one-step predictions through .detach().numpy(), multi-step predictions written back
    element by element into a tensor (multistep_preds[i] = model(...): the tensor then
    requires grad), k-step predictions, then the TimeMachine text: _preprocess,
    _tokenize, Vocab with token_freqs and to_tokens, unigram/bigram/trigram counts, and
    the first minibatch of the sequence DataModule. NumPy arrays are printed as tensors
    (NumPy prints all 8 digits of a float32, where the last one shows the matrix product's
    rounding)."""
    d2l = d2l_library(torch)

    class Data(d2l.DataModule):
        def __init__(self, batch_size=16, T=1000, num_train=600, tau=4):
            self.save_hyperparameters()
            self.time = torch.arange(1, T + 1, dtype=torch.float32)
            self.x = torch.sin(0.01 * self.time) + torch.randn(T) * 0.2

        def get_dataloader(self, train):
            features = [self.x[i: self.T - self.tau + i] for i in range(self.tau)]
            self.features = torch.stack(features, 1)
            self.labels = self.x[self.tau:].reshape((-1, 1))
            i = slice(0, self.num_train) if train else slice(self.num_train, None)
            return self.get_tensorloader([self.features, self.labels], train, i)

    data = Data()
    print(data.x[:5], data.time[-3:])
    model = d2l.LinearRegression(lr=0.01)
    trainer = d2l.Trainer(max_epochs=5)
    trainer.fit(model, data)
    onestep_preds = model(data.features).detach().numpy()
    print(type(onestep_preds).__name__, onestep_preds.dtype, onestep_preds.shape,
          torch.from_numpy(onestep_preds[:3, 0]))
    multistep_preds = torch.zeros(data.T)
    multistep_preds[:] = data.x
    for i in range(data.num_train + data.tau, data.T):
        multistep_preds[i] = model(multistep_preds[i - data.tau:i].reshape((1, -1)))
    print(multistep_preds.requires_grad, multistep_preds.grad_fn, multistep_preds[-3:])
    multistep_preds = multistep_preds.detach().numpy()
    print(torch.from_numpy(multistep_preds[data.num_train + data.tau:][:3]))

    def k_step_pred(k):
        features = []
        for i in range(data.tau):
            features.append(data.x[i: i + data.T - data.tau - k + 1])
        for i in range(k):
            preds = model(torch.stack(features[i: i + data.tau], 1))
            features.append(preds.reshape(-1))
        return features[data.tau:]

    steps = (1, 4, 16, 64)
    preds = k_step_pred(steps[-1])
    print([preds[k - 1][:2] for k in steps], len(preds))
    finals = {"sine.w": model.net.weight}

    data = d2l.TimeMachine(batch_size=2, num_steps=10)
    raw_text = data._download()
    print(raw_text[:60])
    text = data._preprocess(raw_text)
    tokens = data._tokenize(text)
    print(','.join(tokens[:30]))
    vocab = d2l.Vocab(tokens)
    indices = vocab[tokens[:10]]
    print('indices:', indices)
    print('words:', vocab.to_tokens(indices))
    corpus, vocab = data.build(raw_text)
    print(len(corpus), len(vocab))
    words = text.split()
    vocab = d2l.Vocab(words)
    print(vocab.token_freqs[:10])
    freqs = [freq for token, freq in vocab.token_freqs]
    bigram_tokens = ['--'.join(pair) for pair in zip(words[:-1], words[1:])]
    bigram_vocab = d2l.Vocab(bigram_tokens)
    print(bigram_vocab.token_freqs[:5], freqs[:5])
    trigram_tokens = ['--'.join(triple) for triple in zip(words[:-2], words[1:-1], words[2:])]
    trigram_vocab = d2l.Vocab(trigram_tokens)
    print(trigram_vocab.token_freqs[:3])
    for X, Y in data.train_dataloader():
        print('X:', X, '\nY:', Y)
        break
    finals["X"] = X
    return finals


NAME_FILES = {"Italian": ["Abandonato", "Abatangelo", "Abatantuono", "Rossi", "Bianchi", "Ricci"],
              "German": ["Abel", "Schmidt", "Müller", "Schneider", "Fischer", "Weber"],
              "Polish": ["Adamczak", "Ślusàrski", "Nowak", "Kowalski", "Wiśniewski"],
              "Japanese": ["Abe", "Satoshi", "Tanaka", "Suzuki", "Takahashi", "Ito"]}


def char_rnn_classification(torch):
    """pytorch/tutorials intermediate_source/char_rnn_classification_tutorial.py,
    in its first text (findFiles with glob, unicodeToAscii, one-hot letterToTensor and
    lineToTensor, the RNN of i2h/i2o Linears over torch.cat with LogSoftmax, Variable,
    topk, Python's random training examples, the hand-written update through the
    deprecated ``p.data.add_(-learning_rate, p.grad.data)`` (PyTorch's UserWarning),
    ``loss.data[0]``'s IndexError on a 0-dim loss, the confusion matrix and predict's
    top 3) and its present one (set_default_device, a NamesDataset, random_split with
    fractions and a seeded Generator, CharRNN around nn.RNN, label_from_output, minibatches
    from np.array_split with the summed loss, clip_grad_norm_ and SGD, the normalised
    confusion matrix). The names are a few made-up files of four languages; fewer
    iterations."""
    nn = torch.nn
    Variable = torch.autograd.Variable
    with in_temporary_directory():
        os.makedirs('data/names')
        for language, names in NAME_FILES.items():
            with open(f'data/names/{language}.txt', 'w', encoding='utf-8') as f:
                f.write("\n".join(names) + "\n")

        def findFiles(path): return sorted(glob.glob(path))
        print(findFiles('data/names/*.txt'))
        all_letters = string.ascii_letters + " .,;'"
        n_letters = len(all_letters)

        def unicodeToAscii(s):
            return ''.join(
                c for c in unicodedata.normalize('NFD', s)
                if unicodedata.category(c) != 'Mn'
                and c in all_letters
            )
        print(unicodeToAscii('Ślusàrski'))
        category_lines = {}
        all_categories = []

        def readLines(filename):
            lines = open(filename, encoding='utf-8').read().strip().split('\n')
            return [unicodeToAscii(line) for line in lines]

        for filename in findFiles('data/names/*.txt'):
            category = filename.split('/')[-1].split('.')[0]
            all_categories.append(category)
            lines = readLines(filename)
            category_lines[category] = lines
    n_categories = len(all_categories)
    print(category_lines['Italian'][:5])

    def letterToIndex(letter):
        return all_letters.find(letter)

    def letterToTensor(letter):
        tensor = torch.zeros(1, n_letters)
        tensor[0][letterToIndex(letter)] = 1
        return tensor

    def lineToTensor(line):
        tensor = torch.zeros(len(line), 1, n_letters)
        for li, letter in enumerate(line):
            tensor[li][0][letterToIndex(letter)] = 1
        return tensor

    print(letterToTensor('J'))
    print(lineToTensor('Jones').size())

    class RNN(nn.Module):
        def __init__(self, input_size, hidden_size, output_size):
            super(RNN, self).__init__()
            self.hidden_size = hidden_size
            self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
            self.i2o = nn.Linear(input_size + hidden_size, output_size)
            self.softmax = nn.LogSoftmax(dim=1)

        def forward(self, input, hidden):
            combined = torch.cat((input, hidden), 1)
            hidden = self.i2h(combined)
            output = self.i2o(combined)
            output = self.softmax(output)
            return output, hidden

        def initHidden(self):
            return Variable(torch.zeros(1, self.hidden_size))

    n_hidden = 128
    rnn = RNN(n_letters, n_hidden, n_categories)
    input = Variable(letterToTensor('A'))
    hidden = Variable(torch.zeros(1, n_hidden))
    output, next_hidden = rnn(input, hidden)
    input = Variable(lineToTensor('Albert'))
    hidden = Variable(torch.zeros(1, n_hidden))
    output, next_hidden = rnn(input[0], hidden)
    print(output)

    def categoryFromOutput(output):
        top_n, top_i = output.data.topk(1)
        category_i = top_i[0][0]
        return all_categories[category_i], category_i

    print(categoryFromOutput(output))

    def randomChoice(l):
        return l[random.randint(0, len(l) - 1)]

    def randomTrainingExample():
        category = randomChoice(all_categories)
        line = randomChoice(category_lines[category])
        category_tensor = Variable(torch.LongTensor([all_categories.index(category)]))
        line_tensor = Variable(lineToTensor(line))
        return category, line, category_tensor, line_tensor

    for i in range(10):
        category, line, category_tensor, line_tensor = randomTrainingExample()
        print('category =', category, '/ line =', line)
    criterion = nn.NLLLoss()
    learning_rate = 0.005

    def train(category_tensor, line_tensor):
        hidden = rnn.initHidden()
        rnn.zero_grad()
        for i in range(line_tensor.size()[0]):
            output, hidden = rnn(line_tensor[i], hidden)
        loss = criterion(output, category_tensor)
        loss.backward()
        for p in rnn.parameters():
            p.data.add_(-learning_rate, p.grad.data)
        try:
            return output, loss.data[0]
        except IndexError as error:
            if "0-dim" not in str(error):
                raise
            return output, loss.item()

    n_iters = 100
    print_every = 25
    plot_every = 10
    current_loss = 0
    all_losses = []
    for iter in range(1, n_iters + 1):
        category, line, category_tensor, line_tensor = randomTrainingExample()
        output, loss = train(category_tensor, line_tensor)
        current_loss += loss
        if iter % print_every == 0:
            guess, guess_i = categoryFromOutput(output)
            correct = '✓' if guess == category else '✗ (%s)' % category
            print('%d %d%% %.4f %s / %s %s' % (iter, iter / n_iters * 100, loss, line, guess, correct))
        if iter % plot_every == 0:
            all_losses.append(current_loss / plot_every)
            current_loss = 0
    print(all_losses)
    confusion = torch.zeros(n_categories, n_categories)
    n_confusion = 40

    def evaluate(line_tensor):
        hidden = rnn.initHidden()
        for i in range(line_tensor.size()[0]):
            output, hidden = rnn(line_tensor[i], hidden)
        return output

    for i in range(n_confusion):
        category, line, category_tensor, line_tensor = randomTrainingExample()
        output = evaluate(line_tensor)
        guess, guess_i = categoryFromOutput(output)
        category_i = all_categories.index(category)
        confusion[category_i][guess_i] += 1
    for i in range(n_categories):
        confusion[i] = confusion[i] / confusion[i].sum()
    print(confusion.numpy().round(3))

    def predict(input_line, n_predictions=3):
        print('\n> %s' % input_line)
        output = evaluate(Variable(lineToTensor(input_line)))
        topv, topi = output.data.topk(n_predictions, 1, True)
        predictions = []
        for i in range(n_predictions):
            value = topv[0][i]
            category_index = topi[0][i]
            print('(%.2f) %s' % (value, all_categories[category_index]))
            predictions.append([value, all_categories[category_index]])

    predict('Dovesky')
    predict('Jackson')
    predict('Satoshi')
    finals = {"i2o.weight": rnn.i2o.weight, "i2h.grad": rnn.i2h.weight.grad}

    # the tutorial's present text: a Dataset, random_split, nn.RNN and minibatches
    Dataset = torch.utils.data.Dataset
    device = torch.device('cpu')
    torch.set_default_device(device)
    allowed_characters = string.ascii_letters + " .,;'" + "_"
    n_letters = len(allowed_characters)

    def letterToIndex(letter):
        if letter not in allowed_characters:
            return allowed_characters.find("_")
        else:
            return allowed_characters.find(letter)

    def lineToTensor(line):
        tensor = torch.zeros(len(line), 1, n_letters)
        for li, letter in enumerate(line):
            tensor[li][0][letterToIndex(letter)] = 1
        return tensor

    class NamesDataset(Dataset):
        def __init__(self, data_dir):
            self.data_dir = data_dir
            labels_set = set()
            self.data = []
            self.data_tensors = []
            self.labels = []
            self.labels_tensors = []
            text_files = sorted(glob.glob(os.path.join(data_dir, '*.txt')))
            for filename in text_files:
                label = os.path.splitext(os.path.basename(filename))[0]
                labels_set.add(label)
                lines = open(filename, encoding='utf-8').read().strip().split('\n')
                for name in lines:
                    self.data.append(name)
                    self.data_tensors.append(lineToTensor(name))
                    self.labels.append(label)
            self.labels_uniq = sorted(labels_set)
            for idx in range(len(self.labels)):
                temp_tensor = torch.tensor([self.labels_uniq.index(self.labels[idx])], dtype=torch.long)
                self.labels_tensors.append(temp_tensor)

        def __len__(self):
            return len(self.data)

        def __getitem__(self, idx):
            data_item = self.data[idx]
            data_label = self.labels[idx]
            data_tensor = self.data_tensors[idx]
            label_tensor = self.labels_tensors[idx]
            return label_tensor, data_tensor, data_label, data_item

    with in_temporary_directory():
        os.makedirs('data/names')
        for language, names in NAME_FILES.items():
            with open(f'data/names/{language}.txt', 'w', encoding='utf-8') as f:
                f.write("\n".join(names) + "\n")
        alldata = NamesDataset("data/names")
    print(f"loaded {len(alldata)} items of data")
    print(f"example = {alldata[0]}")
    train_set, test_set = torch.utils.data.random_split(
        alldata, [.85, .15], generator=torch.Generator(device=device).manual_seed(2024))
    print(f"train examples = {len(train_set)}, validation examples = {len(test_set)}")

    class CharRNN(nn.Module):
        def __init__(self, input_size, hidden_size, output_size):
            super(CharRNN, self).__init__()
            self.rnn = nn.RNN(input_size, hidden_size)
            self.h2o = nn.Linear(hidden_size, output_size)
            self.softmax = nn.LogSoftmax(dim=1)

        def forward(self, line_tensor):
            rnn_out, hidden = self.rnn(line_tensor)
            output = self.h2o(hidden[0])
            output = self.softmax(output)
            return output

    n_hidden = 32
    rnn = CharRNN(n_letters, n_hidden, len(alldata.labels_uniq))
    print(rnn)

    def label_from_output(output, output_labels):
        top_n, top_i = output.topk(1)
        label_i = top_i[0].item()
        return output_labels[label_i], label_i

    input = lineToTensor('Albert')
    output = rnn(input)
    print(output)
    print(label_from_output(output, alldata.labels_uniq))

    def train(rnn, training_data, n_epoch=10, n_batch_size=64, report_every=50,
              learning_rate=0.2, criterion=nn.NLLLoss()):
        current_loss = 0
        all_losses = []
        rnn.train()
        optimizer = torch.optim.SGD(rnn.parameters(), lr=learning_rate)
        print(f"training on data set with n = {len(training_data)}")
        for iter in range(1, n_epoch + 1):
            rnn.zero_grad()
            batches = list(range(len(training_data)))
            random.shuffle(batches)
            batches = np.array_split(batches, len(batches) // n_batch_size)
            for idx, batch in enumerate(batches):
                batch_loss = 0
                for i in batch:
                    (label_tensor, text_tensor, label, text) = training_data[i]
                    output = rnn.forward(text_tensor)
                    loss = criterion(output, label_tensor)
                    batch_loss += loss
                batch_loss.backward()
                nn.utils.clip_grad_norm_(rnn.parameters(), 3)
                optimizer.step()
                optimizer.zero_grad()
                current_loss += batch_loss.item() / len(batch)
            all_losses.append(current_loss / len(batches))
            if iter % report_every == 0:
                print(f"{iter} ({iter / n_epoch:.0%}): \t average batch loss = {all_losses[-1]}")
            current_loss = 0
        return all_losses

    all_losses = train(rnn, train_set, n_epoch=6, n_batch_size=5, learning_rate=0.15,
                       report_every=2)

    def evaluate(rnn, testing_data, classes):
        confusion = torch.zeros(len(classes), len(classes))
        rnn.eval()
        with torch.no_grad():
            for i in range(len(testing_data)):
                (label_tensor, text_tensor, label, text) = testing_data[i]
                output = rnn(text_tensor)
                guess, guess_i = label_from_output(output, classes)
                label_i = classes.index(label)
                confusion[label_i][guess_i] += 1
        for i in range(len(classes)):
            denom = confusion[i].sum()
            if denom > 0:
                confusion[i] = confusion[i] / denom
        print(confusion.numpy())

    evaluate(rnn, test_set, classes=alldata.labels_uniq)
    finals["CharRNN.h2o"] = rnn.h2o.weight
    return finals


def transformer_language_model(torch):
    """pytorch/tutorials beginner_source/transformer_tutorial.py ("Language
    Modeling with nn.Transformer and torchtext"): TransformerModel of a PositionalEncoding
    buffer (pe[:, 0, 0::2] = sin, ...), TransformerEncoderLayer/TransformerEncoder (with
    PyTorch's enable_nested_tensor warning), Embedding and Linear initialised through
    ``.data.uniform_``, nn.Transformer.generate_square_subsequent_mask, data_process's
    torch.cat over filter(numel() > 0), batchify, get_batch, CrossEntropyLoss, SGD(lr=5.0)
    with StepLR(gamma=0.95), clip_grad_norm_, the log line with get_last_lr(), evaluate
    under no_grad in eval (PyTorch's fused fast path), the best state dict saved in a
    TemporaryDirectory and loaded back, the test perplexity. torchtext's WikiText2,
    tokenizer and vocabulary are a made-up corpus, str.split and a dict ordered by
    frequency; smaller model, timing left out of the prints."""
    nn = torch.nn
    Tensor = torch.Tensor
    TransformerEncoder, TransformerEncoderLayer = nn.TransformerEncoder, nn.TransformerEncoderLayer
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

    class TransformerModel(nn.Module):
        def __init__(self, ntoken: int, d_model: int, nhead: int, d_hid: int,
                     nlayers: int, dropout: float = 0.5):
            super().__init__()
            self.model_type = 'Transformer'
            self.pos_encoder = PositionalEncoding(d_model, dropout)
            encoder_layers = TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
            self.transformer_encoder = TransformerEncoder(encoder_layers, nlayers)
            self.embedding = nn.Embedding(ntoken, d_model)
            self.d_model = d_model
            self.linear = nn.Linear(d_model, ntoken)
            self.init_weights()

        def init_weights(self) -> None:
            initrange = 0.1
            self.embedding.weight.data.uniform_(-initrange, initrange)
            self.linear.bias.data.zero_()
            self.linear.weight.data.uniform_(-initrange, initrange)

        def forward(self, src: Tensor, src_mask: Tensor = None) -> Tensor:
            src = self.embedding(src) * math.sqrt(self.d_model)
            src = self.pos_encoder(src)
            if src_mask is None:
                src_mask = nn.Transformer.generate_square_subsequent_mask(len(src)).to(device)
            output = self.transformer_encoder(src, src_mask)
            output = self.linear(output)
            return output

    class PositionalEncoding(nn.Module):
        def __init__(self, d_model: int, dropout: float = 0.1, max_len: int = 5000):
            super().__init__()
            self.dropout = nn.Dropout(p=dropout)
            position = torch.arange(max_len).unsqueeze(1)
            div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
            pe = torch.zeros(max_len, 1, d_model)
            pe[:, 0, 0::2] = torch.sin(position * div_term)
            pe[:, 0, 1::2] = torch.cos(position * div_term)
            self.register_buffer('pe', pe)

        def forward(self, x: Tensor) -> Tensor:
            x = x + self.pe[:x.size(0)]
            return self.dropout(x)

    # torchtext's WikiText2, basic_english tokenizer and build_vocab_from_iterator, in small
    train_iter = CORPUS * 4
    tokenizer = lambda line: line.lower().split()
    counts = collections.Counter(token for line in train_iter for token in tokenizer(line))
    itos = ['<unk>'] + sorted(counts, key=lambda token: (-counts[token], token))
    stoi = {token: i for i, token in enumerate(itos)}
    vocab = lambda tokens: [stoi.get(token, 0) for token in tokens]

    def data_process(raw_text_iter):
        data = [torch.tensor(vocab(tokenizer(item)), dtype=torch.long) for item in raw_text_iter]
        return torch.cat(tuple(filter(lambda t: t.numel() > 0, data)))

    train_data = data_process(train_iter)
    val_data = data_process(CORPUS[:2] + ["", "a mat"])
    test_data = data_process(CORPUS[2:] + ["the unknown cat"])

    def batchify(data: Tensor, bsz: int) -> Tensor:
        seq_len = data.size(0) // bsz
        data = data[:seq_len * bsz]
        data = data.view(bsz, seq_len).t().contiguous()
        return data.to(device)

    batch_size = 4
    eval_batch_size = 2
    train_data = batchify(train_data, batch_size)
    val_data = batchify(val_data, eval_batch_size)
    test_data = batchify(test_data, eval_batch_size)
    bptt = 6

    def get_batch(source: Tensor, i: int):
        seq_len = min(bptt, len(source) - 1 - i)
        data = source[i:i+seq_len]
        target = source[i+1:i+1+seq_len].reshape(-1)
        return data, target

    ntokens = len(itos)
    emsize = 16
    d_hid = 16
    nlayers = 2
    nhead = 2
    dropout = 0.2
    model = TransformerModel(ntokens, emsize, nhead, d_hid, nlayers, dropout).to(device)
    criterion = nn.CrossEntropyLoss()
    lr = 5.0
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.95)

    def train(model: nn.Module) -> None:
        model.train()
        total_loss = 0.
        log_interval = 2
        num_batches = len(train_data) // bptt
        for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
            data, targets = get_batch(train_data, i)
            output = model(data)
            output_flat = output.view(-1, ntokens)
            loss = criterion(output_flat, targets)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optimizer.step()
            total_loss += loss.item()
            if batch % log_interval == 0 and batch > 0:
                lr = scheduler.get_last_lr()[0]
                cur_loss = total_loss / log_interval
                ppl = math.exp(cur_loss)
                print(f'| epoch {epoch:3d} | {batch:5d}/{num_batches:5d} batches | '
                      f'lr {lr:02.2f} | loss {cur_loss:5.2f} | ppl {ppl:8.2f}')
                total_loss = 0

    def evaluate(model: nn.Module, eval_data: Tensor) -> float:
        model.eval()
        total_loss = 0.
        with torch.no_grad():
            for i in range(0, eval_data.size(0) - 1, bptt):
                data, targets = get_batch(eval_data, i)
                seq_len = data.size(0)
                output = model(data)
                output_flat = output.view(-1, ntokens)
                total_loss += seq_len * criterion(output_flat, targets).item()
        return total_loss / (len(eval_data) - 1)

    best_val_loss = float('inf')
    epochs = 3
    with tempfile.TemporaryDirectory() as tempdir:
        best_model_params_path = os.path.join(tempdir, "best_model_params.pt")
        for epoch in range(1, epochs + 1):
            train(model)
            val_loss = evaluate(model, val_data)
            val_ppl = math.exp(val_loss)
            print('-' * 89)
            print(f'| end of epoch {epoch:3d} | valid loss {val_loss:5.2f} | valid ppl {val_ppl:8.2f}')
            print('-' * 89)
            if val_loss < best_val_loss:
                best_val_loss = val_loss
                torch.save(model.state_dict(), best_model_params_path)
            scheduler.step()
        model.load_state_dict(torch.load(best_model_params_path))
    test_loss = evaluate(model, test_data)
    test_ppl = math.exp(test_loss)
    print('=' * 89)
    print(f'| End of training | test loss {test_loss:5.2f} | '
          f'test ppl {test_ppl:8.2f}')
    print('=' * 89)
    return {"linear.weight": model.linear.weight, "embedding.grad": model.embedding.weight.grad}


def data_loading_face_landmarks(torch):
    """pytorch/tutorials beginner_source/data_loading_tutorial.py: the face
    landmarks CSV read and a row's landmarks reshaped with NumPy, FaceLandmarksDataset
    (torch.is_tensor(idx), dict samples), the Rescale, RandomCrop (NumPy's global random
    numbers) and ToTensor transforms (transpose((2, 0, 1)), torch.from_numpy of uint8 and
    float64 arrays), Compose, and a DataLoader(batch_size=4, shuffle=True, num_workers=0)
    collating dicts of tensors. pandas' read_csv/iloc, skimage's imread (a seeded image
    per file name) and resize (nearest neighbour) are small stand-ins; no plots."""
    Dataset, DataLoader = torch.utils.data.Dataset, torch.utils.data.DataLoader

    class Frame:  # pandas' read_csv and iloc, for this file
        def __init__(self, rows):
            self.rows = rows

        def __len__(self):
            return len(self.rows)

        @property
        def iloc(self):
            rows = self.rows

            class Locator:
                def __getitem__(self, key):
                    row, column = key
                    return rows[row][column]
            return Locator()

    def read_csv(path):
        with open(path) as f:
            rows = list(csv.reader(f))[1:]
        return Frame([[row[0]] + [float(v) for v in row[1:]] for row in rows])

    def imread(path):  # skimage.io.imread of a face: a seeded image of its size
        seed = sum(map(ord, os.path.basename(path)))
        return np.random.RandomState(seed).randint(0, 256, (40 + seed % 7, 30 + seed % 5, 3)).astype(np.uint8)

    def resize(image, size):  # skimage.transform.resize, nearest neighbour here
        h, w = image.shape[:2]
        rows = (np.arange(size[0]) * h // size[0])
        cols = (np.arange(size[1]) * w // size[1])
        return image[rows][:, cols] / 255.0

    with in_temporary_directory():
        os.makedirs('data/faces')
        rng = np.random.RandomState(3)
        with open('data/faces/face_landmarks.csv', 'w', newline='') as f:
            writer = csv.writer(f)
            writer.writerow(['image_name'] + [f'part_{i}_{c}' for i in range(4) for c in 'xy'])
            for n in range(10):
                writer.writerow([f'face{n}.jpg'] + [int(v) for v in rng.randint(0, 30, 8)])
        landmarks_frame = read_csv('data/faces/face_landmarks.csv')
        n = 6
        img_name = landmarks_frame.iloc[n, 0]
        landmarks = landmarks_frame.iloc[n, slice(1, None)]
        landmarks = np.asarray(landmarks, dtype=float).reshape(-1, 2)
        print('Image name: {}'.format(img_name))
        print('Landmarks shape: {}'.format(landmarks.shape))
        print('First 4 Landmarks: {}'.format(landmarks[:4]))

        class FaceLandmarksDataset(Dataset):
            def __init__(self, csv_file, root_dir, transform=None):
                self.landmarks_frame = read_csv(csv_file)
                self.root_dir = root_dir
                self.transform = transform

            def __len__(self):
                return len(self.landmarks_frame)

            def __getitem__(self, idx):
                if torch.is_tensor(idx):
                    idx = idx.tolist()
                img_name = os.path.join(self.root_dir, self.landmarks_frame.iloc[idx, 0])
                image = imread(img_name)
                landmarks = self.landmarks_frame.iloc[idx, slice(1, None)]
                landmarks = np.array([landmarks], dtype=float).reshape(-1, 2)
                sample = {'image': image, 'landmarks': landmarks}
                if self.transform:
                    sample = self.transform(sample)
                return sample

        face_dataset = FaceLandmarksDataset(csv_file='data/faces/face_landmarks.csv',
                                            root_dir='data/faces/')
        for i, sample in enumerate(face_dataset):
            print(i, sample['image'].shape, sample['landmarks'].shape)
            if i == 3:
                break

        class Rescale(object):
            def __init__(self, output_size):
                assert isinstance(output_size, (int, tuple))
                self.output_size = output_size

            def __call__(self, sample):
                image, landmarks = sample['image'], sample['landmarks']
                h, w = image.shape[:2]
                if isinstance(self.output_size, int):
                    if h > w:
                        new_h, new_w = self.output_size * h / w, self.output_size
                    else:
                        new_h, new_w = self.output_size, self.output_size * w / h
                else:
                    new_h, new_w = self.output_size
                new_h, new_w = int(new_h), int(new_w)
                img = resize(image, (new_h, new_w))
                landmarks = landmarks * [new_w / w, new_h / h]
                return {'image': img, 'landmarks': landmarks}

        class RandomCrop(object):
            def __init__(self, output_size):
                assert isinstance(output_size, (int, tuple))
                if isinstance(output_size, int):
                    self.output_size = (output_size, output_size)
                else:
                    assert len(output_size) == 2
                    self.output_size = output_size

            def __call__(self, sample):
                image, landmarks = sample['image'], sample['landmarks']
                h, w = image.shape[:2]
                new_h, new_w = self.output_size
                top = np.random.randint(0, h - new_h + 1)
                left = np.random.randint(0, w - new_w + 1)
                image = image[top: top + new_h,
                              left: left + new_w]
                landmarks = landmarks - [left, top]
                return {'image': image, 'landmarks': landmarks}

        class ToTensor(object):
            def __call__(self, sample):
                image, landmarks = sample['image'], sample['landmarks']
                image = image.transpose((2, 0, 1))
                return {'image': torch.from_numpy(image),
                        'landmarks': torch.from_numpy(landmarks)}

        class Compose:  # torchvision.transforms.Compose
            def __init__(self, transforms):
                self.transforms = transforms

            def __call__(self, sample):
                for t in self.transforms:
                    sample = t(sample)
                return sample

        np.random.seed(0)
        scale = Rescale(32)
        crop = RandomCrop(16)
        composed = Compose([Rescale(32), RandomCrop(28)])
        sample = face_dataset[6]
        for i, tsfrm in enumerate([scale, crop, composed]):
            transformed_sample = tsfrm(sample)
            print(type(tsfrm).__name__, transformed_sample['image'].shape,
                  transformed_sample['landmarks'][:2])
        transformed_dataset = FaceLandmarksDataset(csv_file='data/faces/face_landmarks.csv',
                                                   root_dir='data/faces/',
                                                   transform=Compose([
                                                       Rescale(32),
                                                       RandomCrop(28),
                                                       ToTensor()
                                                   ]))
        for i, sample in enumerate(transformed_dataset):
            print(i, sample['image'].size(), sample['landmarks'].size(), sample['image'].dtype,
                  sample['landmarks'].dtype)
            if i == 3:
                break
        dataloader = DataLoader(transformed_dataset, batch_size=4,
                                shuffle=True, num_workers=0)
        for i_batch, sample_batched in enumerate(dataloader):
            print(i_batch, sample_batched['image'].size(),
                  sample_batched['landmarks'].size())
            images_batch, landmarks_batch = sample_batched['image'], sample_batched['landmarks']
            print(images_batch.dtype, images_batch.is_contiguous(), landmarks_batch[0, :2],
                  images_batch.sum())
    return {"landmarks": landmarks_batch, "image": images_batch}


def tuning_guide_cpu(torch):
    """pytorch/tutorials recipes_source/recipes/tuning_guide.py, its CPU
    advice as code: set_num_threads, a DataLoader with num_workers and pin_memory (PyTorch's
    warning without an accelerator), cudnn.benchmark set, a convolution without bias
    before BatchNorm, ``zero_grad(set_to_none=True)`` and ``param.grad = None``, the
    debugging APIs switched off (set_detect_anomaly(False), profiler.profile(False),
    profiler.emit_nvtx(False)), activation checkpointing (use_reentrant=False), no_grad
    and inference_mode for evaluation. The fused GELU is left uncompiled here (PyTorch's
    inductor takes 17 s and rounds its fusion otherwise; torch.compile is tested in
    tests/nn/test_nn_compile.py); channels_last and bfloat16 autocast are not in minigrad."""
    nn, F = torch.nn, torch.nn.functional
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    print(torch.get_num_threads())
    loader = torch.utils.data.DataLoader(image_dataset(torch, 16, shape=(3, 8, 8)), batch_size=4,
                                         shuffle=True, num_workers=2, pin_memory=True)
    torch.backends.cudnn.benchmark = True
    model = nn.Sequential(nn.Conv2d(3, 8, 3, bias=False), nn.BatchNorm2d(8), nn.ReLU(),
                          nn.Flatten(), nn.Linear(8 * 6 * 6, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    def gelu(x):  # (the guide compiles it: tests/nn/test_nn_compile.py)
        return x * 0.5 * (1.0 + torch.erf(x / 1.41421))

    torch.autograd.set_detect_anomaly(False)
    torch.autograd.profiler.profile(False)
    torch.autograd.profiler.emit_nvtx(False)
    for step, (images, labels) in enumerate(loader):
        model.zero_grad(set_to_none=True)
        for param in model.parameters():
            param.grad = None
        logits = model(images)
        loss = F.cross_entropy(gelu(logits), labels)
        loss.backward()
        optimizer.step()
        print(step, loss.item(), model[0].weight.grad is None)
    hidden = torch.utils.checkpoint.checkpoint(model[:3], images, use_reentrant=False)
    hidden.sum().backward()
    model.eval()
    with torch.no_grad():
        out = model(images)
    with torch.inference_mode():
        again = model(images)
    print(out.requires_grad, again.is_inference(), (out - again).abs().max())
    torch.set_num_threads(threads)
    return {"running_var": model[1].running_var, "linear": model[4].weight}


def seq2seq_translation(torch):
    """pytorch/tutorials intermediate_source/seq2seq_translation_tutorial.py:
    Lang, unicodeToAscii and normalizeString with re, prepareData reversed and filtered,
    EncoderRNN (Embedding, batch_first GRU, Dropout), DecoderRNN (``torch.empty(...,
    dtype=torch.long).fill_(SOS_token)``, teacher forcing from target_tensor[:, i], else
    topk and detach; log_softmax over the cat), BahdanauAttention (Va(tanh(Wa(q) + Ua(k))),
    squeeze(2).unsqueeze(1), softmax, bmm) and AttnDecoderRNN (hidden.permute(1, 0, 2),
    cat of embedding and context), get_dataloader (NumPy id arrays, torch.LongTensor,
    TensorDataset, RandomSampler), train_epoch with two Adam optimizers and NLLLoss over
    view(-1, ...), the loss prints, evaluate under no_grad and evaluateRandomly. The
    English-French pairs are FRA_ENG's; four epochs of a 16-wide model (timeSince and
    showAttention's plot left out: the attention's argmax printed)."""
    nn, F, optim = torch.nn, torch.nn.functional, torch.optim
    TensorDataset, DataLoader, RandomSampler = (torch.utils.data.TensorDataset,
                                                torch.utils.data.DataLoader,
                                                torch.utils.data.RandomSampler)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    SOS_token = 0
    EOS_token = 1

    class Lang:
        def __init__(self, name):
            self.name = name
            self.word2index = {}
            self.word2count = {}
            self.index2word = {0: "SOS", 1: "EOS"}
            self.n_words = 2

        def addSentence(self, sentence):
            for word in sentence.split(' '):
                self.addWord(word)

        def addWord(self, word):
            if word not in self.word2index:
                self.word2index[word] = self.n_words
                self.word2count[word] = 1
                self.index2word[self.n_words] = word
                self.n_words += 1
            else:
                self.word2count[word] += 1

    def unicodeToAscii(s):
        return ''.join(
            c for c in unicodedata.normalize('NFD', s)
            if unicodedata.category(c) != 'Mn'
        )

    def normalizeString(s):
        s = unicodeToAscii(s.lower().strip())
        s = re.sub(r"([.!?])", r" \1", s)
        s = re.sub(r"[^a-zA-Z!?]+", r" ", s)
        return s.strip()

    def readLangs(lang1, lang2, reverse=False):
        print("Reading lines...")
        lines = [f"{english}\t{french}" for english, french in FRA_ENG]
        pairs = [[normalizeString(s) for s in l.split('\t')] for l in lines]
        if reverse:
            pairs = [list(reversed(p)) for p in pairs]
            input_lang = Lang(lang2)
            output_lang = Lang(lang1)
        else:
            input_lang = Lang(lang1)
            output_lang = Lang(lang2)
        return input_lang, output_lang, pairs

    MAX_LENGTH = 10

    def filterPair(p):
        return len(p[0].split(' ')) < MAX_LENGTH and \
            len(p[1].split(' ')) < MAX_LENGTH

    def filterPairs(pairs):
        return [pair for pair in pairs if filterPair(pair)]

    def prepareData(lang1, lang2, reverse=False):
        input_lang, output_lang, pairs = readLangs(lang1, lang2, reverse)
        print("Read %s sentence pairs" % len(pairs))
        pairs = filterPairs(pairs)
        print("Trimmed to %s sentence pairs" % len(pairs))
        print("Counting words...")
        for pair in pairs:
            input_lang.addSentence(pair[0])
            output_lang.addSentence(pair[1])
        print("Counted words:")
        print(input_lang.name, input_lang.n_words)
        print(output_lang.name, output_lang.n_words)
        return input_lang, output_lang, pairs

    input_lang, output_lang, pairs = prepareData('eng', 'fra', True)
    print(random.choice(pairs))

    class EncoderRNN(nn.Module):
        def __init__(self, input_size, hidden_size, dropout_p=0.1):
            super(EncoderRNN, self).__init__()
            self.hidden_size = hidden_size
            self.embedding = nn.Embedding(input_size, hidden_size)
            self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
            self.dropout = nn.Dropout(dropout_p)

        def forward(self, input):
            embedded = self.dropout(self.embedding(input))
            output, hidden = self.gru(embedded)
            return output, hidden

    class DecoderRNN(nn.Module):
        def __init__(self, hidden_size, output_size):
            super(DecoderRNN, self).__init__()
            self.embedding = nn.Embedding(output_size, hidden_size)
            self.gru = nn.GRU(hidden_size, hidden_size, batch_first=True)
            self.out = nn.Linear(hidden_size, output_size)

        def forward(self, encoder_outputs, encoder_hidden, target_tensor=None):
            batch_size = encoder_outputs.size(0)
            decoder_input = torch.empty(batch_size, 1, dtype=torch.long, device=device).fill_(SOS_token)
            decoder_hidden = encoder_hidden
            decoder_outputs = []
            for i in range(MAX_LENGTH):
                decoder_output, decoder_hidden = self.forward_step(decoder_input, decoder_hidden)
                decoder_outputs.append(decoder_output)
                if target_tensor is not None:
                    decoder_input = target_tensor[:, i].unsqueeze(1)
                else:
                    _, topi = decoder_output.topk(1)
                    decoder_input = topi.squeeze(-1).detach()
            decoder_outputs = torch.cat(decoder_outputs, dim=1)
            decoder_outputs = F.log_softmax(decoder_outputs, dim=-1)
            return decoder_outputs, decoder_hidden, None

        def forward_step(self, input, hidden):
            output = self.embedding(input)
            output = F.relu(output)
            output, hidden = self.gru(output, hidden)
            output = self.out(output)
            return output, hidden

    class BahdanauAttention(nn.Module):
        def __init__(self, hidden_size):
            super(BahdanauAttention, self).__init__()
            self.Wa = nn.Linear(hidden_size, hidden_size)
            self.Ua = nn.Linear(hidden_size, hidden_size)
            self.Va = nn.Linear(hidden_size, 1)

        def forward(self, query, keys):
            scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
            scores = scores.squeeze(2).unsqueeze(1)
            weights = F.softmax(scores, dim=-1)
            context = torch.bmm(weights, keys)
            return context, weights

    class AttnDecoderRNN(nn.Module):
        def __init__(self, hidden_size, output_size, dropout_p=0.1):
            super(AttnDecoderRNN, self).__init__()
            self.embedding = nn.Embedding(output_size, hidden_size)
            self.attention = BahdanauAttention(hidden_size)
            self.gru = nn.GRU(2 * hidden_size, hidden_size, batch_first=True)
            self.out = nn.Linear(hidden_size, output_size)
            self.dropout = nn.Dropout(dropout_p)

        def forward(self, encoder_outputs, encoder_hidden, target_tensor=None):
            batch_size = encoder_outputs.size(0)
            decoder_input = torch.empty(batch_size, 1, dtype=torch.long, device=device).fill_(SOS_token)
            decoder_hidden = encoder_hidden
            decoder_outputs = []
            attentions = []
            for i in range(MAX_LENGTH):
                decoder_output, decoder_hidden, attn_weights = self.forward_step(
                    decoder_input, decoder_hidden, encoder_outputs
                )
                decoder_outputs.append(decoder_output)
                attentions.append(attn_weights)
                if target_tensor is not None:
                    decoder_input = target_tensor[:, i].unsqueeze(1)
                else:
                    _, topi = decoder_output.topk(1)
                    decoder_input = topi.squeeze(-1).detach()
            decoder_outputs = torch.cat(decoder_outputs, dim=1)
            decoder_outputs = F.log_softmax(decoder_outputs, dim=-1)
            attentions = torch.cat(attentions, dim=1)
            return decoder_outputs, decoder_hidden, attentions

        def forward_step(self, input, hidden, encoder_outputs):
            embedded = self.dropout(self.embedding(input))
            query = hidden.permute(1, 0, 2)
            context, attn_weights = self.attention(query, encoder_outputs)
            input_gru = torch.cat((embedded, context), dim=2)
            output, hidden = self.gru(input_gru, hidden)
            output = self.out(output)
            return output, hidden, attn_weights

    def indexesFromSentence(lang, sentence):
        return [lang.word2index[word] for word in sentence.split(' ')]

    def tensorFromSentence(lang, sentence):
        indexes = indexesFromSentence(lang, sentence)
        indexes.append(EOS_token)
        return torch.tensor(indexes, dtype=torch.long, device=device).view(1, -1)

    def get_dataloader(batch_size):
        input_lang, output_lang, pairs = prepareData('eng', 'fra', True)
        n = len(pairs)
        input_ids = np.zeros((n, MAX_LENGTH), dtype=np.int32)
        target_ids = np.zeros((n, MAX_LENGTH), dtype=np.int32)
        for idx, (inp, tgt) in enumerate(pairs):
            inp_ids = indexesFromSentence(input_lang, inp)
            tgt_ids = indexesFromSentence(output_lang, tgt)
            inp_ids.append(EOS_token)
            tgt_ids.append(EOS_token)
            input_ids[idx, :len(inp_ids)] = inp_ids
            target_ids[idx, :len(tgt_ids)] = tgt_ids
        train_data = TensorDataset(torch.LongTensor(input_ids).to(device),
                                   torch.LongTensor(target_ids).to(device))
        train_sampler = RandomSampler(train_data)
        train_dataloader = DataLoader(train_data, sampler=train_sampler, batch_size=batch_size)
        return input_lang, output_lang, train_dataloader

    def train_epoch(dataloader, encoder, decoder, encoder_optimizer,
                    decoder_optimizer, criterion):
        total_loss = 0
        for data in dataloader:
            input_tensor, target_tensor = data
            encoder_optimizer.zero_grad()
            decoder_optimizer.zero_grad()
            encoder_outputs, encoder_hidden = encoder(input_tensor)
            decoder_outputs, _, _ = decoder(encoder_outputs, encoder_hidden, target_tensor)
            loss = criterion(
                decoder_outputs.view(-1, decoder_outputs.size(-1)),
                target_tensor.view(-1)
            )
            loss.backward()
            encoder_optimizer.step()
            decoder_optimizer.step()
            total_loss += loss.item()
        return total_loss / len(dataloader)

    def train(train_dataloader, encoder, decoder, n_epochs, learning_rate=0.001,
              print_every=100, plot_every=100):
        plot_losses = []
        print_loss_total = 0
        plot_loss_total = 0
        encoder_optimizer = optim.Adam(encoder.parameters(), lr=learning_rate)
        decoder_optimizer = optim.Adam(decoder.parameters(), lr=learning_rate)
        criterion = nn.NLLLoss()
        for epoch in range(1, n_epochs + 1):
            loss = train_epoch(train_dataloader, encoder, decoder, encoder_optimizer, decoder_optimizer, criterion)
            print_loss_total += loss
            plot_loss_total += loss
            if epoch % print_every == 0:
                print_loss_avg = print_loss_total / print_every
                print_loss_total = 0
                print('(%d %d%%) %.4f' % (epoch, epoch / n_epochs * 100, print_loss_avg))
            if epoch % plot_every == 0:
                plot_loss_avg = plot_loss_total / plot_every
                plot_losses.append(plot_loss_avg)
                plot_loss_total = 0
        print(plot_losses)

    def evaluate(encoder, decoder, sentence, input_lang, output_lang):
        with torch.no_grad():
            input_tensor = tensorFromSentence(input_lang, sentence)
            encoder_outputs, encoder_hidden = encoder(input_tensor)
            decoder_outputs, decoder_hidden, decoder_attn = decoder(encoder_outputs, encoder_hidden)
            _, topi = decoder_outputs.topk(1)
            decoded_ids = topi.squeeze()
            decoded_words = []
            for idx in decoded_ids:
                if idx.item() == EOS_token:
                    decoded_words.append('<EOS>')
                    break
                decoded_words.append(output_lang.index2word[idx.item()])
        return decoded_words, decoder_attn

    def evaluateRandomly(encoder, decoder, n=10):
        for i in range(n):
            pair = random.choice(pairs)
            print('>', pair[0])
            print('=', pair[1])
            output_words, _ = evaluate(encoder, decoder, pair[0], input_lang, output_lang)
            output_sentence = ' '.join(output_words)
            print('<', output_sentence)
            print('')

    hidden_size = 16
    batch_size = 4
    input_lang, output_lang, train_dataloader = get_dataloader(batch_size)
    encoder = EncoderRNN(input_lang.n_words, hidden_size).to(device)
    decoder = AttnDecoderRNN(hidden_size, output_lang.n_words).to(device)
    train(train_dataloader, encoder, decoder, 4, print_every=2, plot_every=2)
    encoder.eval()
    decoder.eval()
    evaluateRandomly(encoder, decoder, n=2)
    output_words, attentions = evaluate(encoder, decoder, pairs[0][0], input_lang, output_lang)
    print(attentions.shape, attentions[0].argmax(-1))  # (showAttention plots them)
    plain = DecoderRNN(hidden_size, output_lang.n_words).to(device)
    outputs, hidden, _ = plain(*encoder(tensorFromSentence(input_lang, pairs[1][0])))
    print(outputs.shape, hidden.shape)
    return {"decoder.out": decoder.out.weight, "attention.Va.grad": decoder.attention.Va.weight.grad,
            "encoder.gru": encoder.gru.weight_hh_l0}


# ---- pytorch/tutorials: the blitz, fgsm, saving and loading ------------------------------

def blitz_tensors_autograd_cifar10(torch):
    """pytorch/tutorials beginner_source/blitz/tensor_tutorial.py
    (its first and its present text: empty's shape, rand, zeros of long, new_ones with a
    dtype, randn_like overriding it, size(), the additions with ``out=`` and add_,
    view(-1, 8), item(), the NumPy bridge both ways, ones_like/rand_like, cat, mul, matmul
    and @ with .T, add_), blitz/autograd_tutorial.py (a resnet's prediction and
    (prediction - labels).sum().backward(), SGD with momentum, Q = 3a^3 - b^2 with an
    external gradient and ``9*a**2 == a.grad``, requires_grad of a sum, a frozen resnet with
    a new fc) and blitz/cifar10_tutorial.py (normalised CIFAR10 through DataLoaders with
    num_workers=2, imshow's unnormalising and np.transpose, the Net with torch.flatten,
    CrossEntropyLoss and SGD-momentum for two epochs, the running-loss print, the state
    dict saved and loaded with weights_only=True, torch.max(outputs, 1), overall and
    per-class accuracy over zip(labels, predictions)). torchvision's resnet18 is the small
    ResNet of resnet_stand_in, CIFAR10 40 + 20 random images, make_grid a torch.cat."""
    x = torch.empty(5, 3)
    print(x.shape, x.dtype)
    x = torch.rand(5, 3)
    print(x)
    x = torch.zeros(5, 3, dtype=torch.long)
    print(x)
    x = torch.tensor([5.5, 3])
    print(x)
    x = x.new_ones(5, 3, dtype=torch.double)
    print(x)
    x = torch.randn_like(x, dtype=torch.float)
    print(x)
    print(x.size())
    y = torch.rand(5, 3)
    print(x + y)
    print(torch.add(x, y))
    result = torch.empty(5, 3)
    torch.add(x, y, out=result)
    print(result)
    y.add_(x)
    print(y)
    print(x[:, 1])
    x = torch.randn(4, 4)
    y = x.view(16)
    z = x.view(-1, 8)
    print(x.size(), y.size(), z.size())
    x = torch.randn(1)
    print(x)
    print(x.item())
    a = torch.ones(5)
    print(a)
    b = a.numpy()
    print(b)
    a.add_(1)
    print(a)
    print(b)
    a = np.ones(5)
    b = torch.from_numpy(a)
    np.add(a, 1, out=a)
    print(a)
    print(b)
    if torch.cuda.is_available():
        device = torch.device("cuda")
    # the newer tensor_tutorial.py
    data = [[1, 2], [3, 4]]
    x_data = torch.tensor(data)
    np_array = np.array(data)
    x_np = torch.from_numpy(np_array)
    x_ones = torch.ones_like(x_data)
    print(f"Ones Tensor: \n {x_ones} \n")
    x_rand = torch.rand_like(x_data, dtype=torch.float)
    print(f"Random Tensor: \n {x_rand} \n")
    tensor = torch.ones(4, 4)
    tensor[:,1] = 0
    print(tensor)
    t1 = torch.cat([tensor, tensor, tensor], dim=1)
    print(t1)
    print(f"tensor.mul(tensor) \n {tensor.mul(tensor)} \n")
    print(f"tensor * tensor \n {tensor * tensor}")
    print(f"tensor.matmul(tensor.T) \n {tensor.matmul(tensor.T)} \n")
    print(f"tensor @ tensor.T \n {tensor @ tensor.T}")
    print(tensor, "\n")
    tensor.add_(5)
    print(tensor)
    t = torch.ones(5)
    print(f"t: {t}")
    n = t.numpy()
    print(f"n: {n}")
    t.add_(1)
    print(f"t: {t}")
    print(f"n: {n}")
    n = np.ones(5)
    t = torch.from_numpy(n)
    np.add(n, 1, out=n)
    print(f"t: {t}")
    print(f"n: {n}")

    # beginner_source/blitz/autograd_tutorial.py
    nn, optim = torch.nn, torch.optim
    model = resnet_stand_in(torch)()
    data = torch.rand(1, 3, 48, 48)
    labels = torch.rand(1, 1000)
    prediction = model(data)
    loss = (prediction - labels).sum()
    loss.backward()
    optim_ = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    optim_.step()
    a = torch.tensor([2., 3.], requires_grad=True)
    b = torch.tensor([6., 4.], requires_grad=True)
    Q = 3*a**3 - b**2
    external_grad = torch.tensor([1., 1.])
    Q.backward(gradient=external_grad)
    print(9*a**2 == a.grad)
    print(-2*b == b.grad)
    x = torch.rand(5, 5)
    y = torch.rand(5, 5)
    z = torch.rand((5, 5), requires_grad=True)
    a = x + y
    print(f"Does `a` require gradients?: {a.requires_grad}")
    b = x + z
    print(f"Does `b` require gradients?: {b.requires_grad}")
    for param in model.parameters():
        param.requires_grad = False
    model.fc = nn.Linear(64, 10)
    optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    model(data).sum().backward()
    optimizer.step()
    print([name for name, p in model.named_parameters() if p.requires_grad],
          model.conv1.weight.grad.shape, model.fc.weight.grad.abs().sum() > 0)

    # beginner_source/blitz/cifar10_tutorial.py
    def normalized(n, seed):
        data = image_dataset(torch, n, shape=(3, 32, 32), seed=seed)

        class Normalized(torch.utils.data.Dataset):
            def __len__(self):
                return len(data)

            def __getitem__(self, i):
                image, label = data[i]
                return (image - 0.5) / 0.5, label
        return Normalized()
    batch_size = 4
    trainset = normalized(40, 1)
    trainloader = torch.utils.data.DataLoader(trainset, batch_size=batch_size,
                                              shuffle=True, num_workers=2)
    testset = normalized(20, 2)
    testloader = torch.utils.data.DataLoader(testset, batch_size=batch_size,
                                             shuffle=False, num_workers=2)
    classes = ('plane', 'car', 'bird', 'cat',
               'deer', 'dog', 'frog', 'horse', 'ship', 'truck')

    def imshow(img):
        img = img / 2 + 0.5
        npimg = img.numpy()
        print(np.transpose(npimg, (1, 2, 0)).shape, npimg.mean())

    dataiter = iter(trainloader)
    images, labels = next(dataiter)
    imshow(torch.cat(list(images), 2))
    print(' '.join(f'{classes[labels[j]]:5s}' for j in range(batch_size)))
    F = torch.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 6, 5)
            self.pool = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv1(x)))
            x = self.pool(F.relu(self.conv2(x)))
            x = torch.flatten(x, 1)
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            x = self.fc3(x)
            return x

    net = Net()
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
    for epoch in range(2):
        running_loss = 0.0
        for i, data in enumerate(trainloader, 0):
            inputs, labels = data
            optimizer.zero_grad()
            outputs = net(inputs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
            if i % 5 == 4:
                print(f'[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 5:.3f}')
                running_loss = 0.0
    print('Finished Training')
    with in_temporary_directory():
        PATH = './cifar_net.pth'
        torch.save(net.state_dict(), PATH)
        dataiter = iter(testloader)
        images, labels = next(dataiter)
        print('GroundTruth: ', ' '.join(f'{classes[labels[j]]:5s}' for j in range(4)))
        net = Net()
        print(net.load_state_dict(torch.load(PATH, weights_only=True)))
    outputs = net(images)
    _, predicted = torch.max(outputs, 1)
    print('Predicted: ', ' '.join(f'{classes[predicted[j]]:5s}' for j in range(4)))
    correct = 0
    total = 0
    with torch.no_grad():
        for data in testloader:
            images, labels = data
            outputs = net(images)
            _, predicted = torch.max(outputs.data, 1)
            total += labels.size(0)
            correct += (predicted == labels).sum().item()
    print(f'Accuracy of the network on the 10000 test images: {100 * correct // total} %')
    correct_pred = {classname: 0 for classname in classes}
    total_pred = {classname: 0 for classname in classes}
    with torch.no_grad():
        for data in testloader:
            images, labels = data
            outputs = net(images)
            _, predictions = torch.max(outputs, 1)
            for label, prediction in zip(labels, predictions):
                if label == prediction:
                    correct_pred[classes[label]] += 1
                total_pred[classes[label]] += 1
    for classname, correct_count in correct_pred.items():
        if total_pred[classname]:
            accuracy = 100 * float(correct_count) / total_pred[classname]
            print(f'Accuracy for class: {classname:5s} is {accuracy:.1f} %')
    device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
    print(device)
    return {"fc3.weight": net.fc3.weight, "a.grad": a.grad if a.grad is not None else z,
            "model.fc.bias.grad": model.fc.bias.grad}


def fgsm_adversarial_examples(torch):
    """pytorch/tutorials beginner_source/fgsm_tutorial.py: the
    pretrained MNIST LeNet loaded with map_location and weights_only=True, eval(), the
    attack over seven epsilons (``data.requires_grad = True``, output.max(1,
    keepdim=True)[1], model.zero_grad(), data.grad.data.sign(), torch.clamp, denorm with
    view(1, -1, 1, 1), transforms.Normalize again, the accuracy line) and the adversarial
    examples to numpy. The pretrained model is a seeded one saved first, MNIST 10 random
    images labelled with its predictions (two of them wrongly, which the test skips);
    transforms.Normalize a small class doing what torchvision's does to a tensor."""
    nn, F = torch.nn, torch.nn.functional
    epsilons = [0, .05, .1, .15, .2, .25, .3]
    pretrained_model = "lenet_mnist_model.pth"
    use_cuda = True
    torch.manual_seed(42)

    class Net(nn.Module):
        def __init__(self):
            super(Net, self).__init__()
            self.conv1 = nn.Conv2d(1, 32, 3, 1)
            self.conv2 = nn.Conv2d(32, 64, 3, 1)
            self.dropout1 = nn.Dropout(0.25)
            self.dropout2 = nn.Dropout(0.5)
            self.fc1 = nn.Linear(9216, 128)
            self.fc2 = nn.Linear(128, 10)

        def forward(self, x):
            x = self.conv1(x)
            x = F.relu(x)
            x = self.conv2(x)
            x = F.relu(x)
            x = F.max_pool2d(x, 2)
            x = self.dropout1(x)
            x = torch.flatten(x, 1)
            x = self.fc1(x)
            x = F.relu(x)
            x = self.dropout2(x)
            x = self.fc2(x)
            output = F.log_softmax(x, dim=1)
            return output

    class Normalize:
        def __init__(self, mean, std):
            self.mean, self.std = mean, std

        def __call__(self, tensor):
            mean = torch.as_tensor(self.mean, dtype=tensor.dtype).view(-1, 1, 1)
            std = torch.as_tensor(self.std, dtype=tensor.dtype).view(-1, 1, 1)
            return tensor.sub(mean).div(std)
    transforms = SimpleNamespace(Normalize=Normalize)
    # the pretrained LeNet: a seeded one, and MNIST's labels what it predicts on 8 of 10
    # random images (its mistakes are skipped, as the tutorial's test skips them)
    with in_temporary_directory():
        teacher = Net().eval()
        torch.save(teacher.state_dict(), pretrained_model)
        images = image_dataset(torch, 10, seed=5).data.float() / 255
        with torch.no_grad():
            labels = teacher(Normalize((0.1307,), (0.3081,))(images)).argmax(1)
        labels[8:] = (labels[8:] + 1) % 10
        test_loader = torch.utils.data.DataLoader(
            torch.utils.data.TensorDataset(Normalize((0.1307,), (0.3081,))(images), labels),
            batch_size=1, shuffle=True)
        print("CUDA Available: ", torch.cuda.is_available())
        device = torch.device("cuda" if use_cuda and torch.cuda.is_available() else "cpu")
        model = Net().to(device)
        model.load_state_dict(torch.load(pretrained_model, map_location=device, weights_only=True))
        model.eval()

    def fgsm_attack(image, epsilon, data_grad):
        sign_data_grad = data_grad.sign()
        perturbed_image = image + epsilon*sign_data_grad
        perturbed_image = torch.clamp(perturbed_image, 0, 1)
        return perturbed_image

    def denorm(batch, mean=[0.1307], std=[0.3081]):
        if isinstance(mean, list):
            mean = torch.tensor(mean).to(device)
        if isinstance(std, list):
            std = torch.tensor(std).to(device)
        return batch * std.view(1, -1, 1, 1) + mean.view(1, -1, 1, 1)

    def test(model, device, test_loader, epsilon):
        correct = 0
        adv_examples = []
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            data.requires_grad = True
            output = model(data)
            init_pred = output.max(1, keepdim=True)[1]
            if init_pred.item() != target.item():
                continue
            loss = F.nll_loss(output, target)
            model.zero_grad()
            loss.backward()
            data_grad = data.grad.data
            data_denorm = denorm(data)
            perturbed_data = fgsm_attack(data_denorm, epsilon, data_grad)
            perturbed_data_normalized = transforms.Normalize((0.1307,), (0.3081,))(perturbed_data)
            output = model(perturbed_data_normalized)
            final_pred = output.max(1, keepdim=True)[1]
            if final_pred.item() == target.item():
                correct += 1
                if epsilon == 0 and len(adv_examples) < 5:
                    adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
                    adv_examples.append((init_pred.item(), final_pred.item(), adv_ex))
            else:
                if len(adv_examples) < 5:
                    adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
                    adv_examples.append((init_pred.item(), final_pred.item(), adv_ex))
        final_acc = correct/float(len(test_loader))
        print(f"Epsilon: {epsilon}\tTest Accuracy = {correct} / {len(test_loader)} = {final_acc}")
        return final_acc, adv_examples

    accuracies = []
    examples = []
    for eps in epsilons:
        acc, ex = test(model, device, test_loader, eps)
        accuracies.append(acc)
        examples.append(ex)
    for i in range(len(epsilons)):
        for j in range(len(examples[i])):
            orig, adv, ex = examples[i][j]
            print(f"{orig} -> {adv}", ex.shape, ex.dtype, round(float(ex.sum()), 2))
    return {"fc2.grad": model.fc2.weight.grad, "fc1.weight": model.fc1.weight}


def saving_and_loading_models(torch):
    """pytorch/tutorials beginner_source/saving_loading_models.py
    (the state_dicts printed, a state dict saved and loaded with weights_only=True, the
    entire model saved with ``torch.save(model, PATH)`` and loaded with
    ``weights_only=False``, a general checkpoint with the loss tensor, two models and
    optimizers in one file, warmstarting with strict=False, map_location to the CPU,
    the model exported with ``torch.jit.script``, saved and loaded with ``torch.jit.load``),
    recipes_source/recipes/
    saving_and_loading_models_for_inference.py (state dict and entire model, eval()) and
    save_load_across_devices.py (map_location=torch.device('cpu'))."""
    nn, F, optim = torch.nn, torch.nn.functional, torch.optim

    class TheModelClass(nn.Module):
        def __init__(self):
            super(TheModelClass, self).__init__()
            self.conv1 = nn.Conv2d(3, 6, 5)
            self.pool = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv1(x)))
            x = self.pool(F.relu(self.conv2(x)))
            x = x.view(-1, 16 * 5 * 5)
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            x = self.fc3(x)
            return x

    module_level(torch, TheModelClass)
    model = TheModelClass()
    optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
    print("Model's state_dict:")
    for param_tensor in model.state_dict():
        print(param_tensor, "\t", model.state_dict()[param_tensor].size())
    print("Optimizer's state_dict:")
    for var_name in optimizer.state_dict():
        print(var_name, "\t", optimizer.state_dict()[var_name])
    inputs, labels = torch.randn(4, 3, 32, 32), torch.tensor([1, 0, 4, 9])
    loss = F.cross_entropy(model(inputs), labels)
    loss.backward()
    optimizer.step()
    epoch = 1
    with in_temporary_directory():
        PATH = "state_dict_model.pt"
        torch.save(model.state_dict(), PATH)
        model = TheModelClass()
        print(model.load_state_dict(torch.load(PATH, weights_only=True)))
        print(model.eval())
        PATH = "entire_model.pt"
        torch.save(model, PATH)
        model = torch.load(PATH, weights_only=False)
        model.eval()
        print(type(model).__name__, model(inputs).argmax(1))
        # (PyTorch's DeprecationWarnings, hidden by Python's default filters, left out
        # here: it warns once per function TorchScript compiles first in the process)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            model_scripted = torch.jit.script(model)  # Export to TorchScript
            model_scripted.save('model_scripted.pt')  # Save
            model = torch.jit.load('model_scripted.pt')
        model.eval()
        print(model, type(model).__name__, model(inputs).argmax(1))
        PATH = "model.tar"
        torch.save({
            'epoch': epoch,
            'model_state_dict': model.state_dict(),
            'optimizer_state_dict': optimizer.state_dict(),
            'loss': loss,
        }, PATH)
        model = TheModelClass()
        optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
        checkpoint = torch.load(PATH, weights_only=True)
        model.load_state_dict(checkpoint['model_state_dict'])
        optimizer.load_state_dict(checkpoint['optimizer_state_dict'])
        epoch = checkpoint['epoch']
        loss = checkpoint['loss']
        print(epoch, loss, optimizer.state_dict()['state'][0]['momentum_buffer'].shape)
        model.train()
        modelA, modelB = TheModelClass(), TheModelClass()
        optimizerA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
        optimizerB = optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)
        torch.save({
            'modelA_state_dict': modelA.state_dict(),
            'modelB_state_dict': modelB.state_dict(),
            'optimizerA_state_dict': optimizerA.state_dict(),
            'optimizerB_state_dict': optimizerB.state_dict(),
        }, PATH)
        checkpoint = torch.load(PATH, weights_only=True)
        modelA.load_state_dict(checkpoint['modelA_state_dict'])
        modelB.load_state_dict(checkpoint['modelB_state_dict'])
        optimizerA.load_state_dict(checkpoint['optimizerA_state_dict'])
        optimizerB.load_state_dict(checkpoint['optimizerB_state_dict'])
        modelA.eval()
        modelB.eval()
        torch.save(modelA.state_dict(), PATH)
        print(modelB.load_state_dict(torch.load(PATH, weights_only=True), strict=False))
        torch.save(model.state_dict(), PATH)
        device = torch.device('cpu')
        model = TheModelClass()
        model.load_state_dict(torch.load(PATH, map_location=device, weights_only=True))
        model.to(device)
        print(next(model.parameters()).device)
        # recipes_source/recipes/saving_and_loading_models_for_inference.py
        net = TheModelClass()
        print(net)
        PATH = "state_dict_model.pt"
        torch.save(net.state_dict(), PATH)
        model = TheModelClass()
        model.load_state_dict(torch.load(PATH, weights_only=True))
        model.eval()
        PATH = "entire_model.pt"
        torch.save(net, PATH)
        model = torch.load(PATH, weights_only=False)
        model.eval()
        print(model(inputs).sum(), net(inputs).sum())
        # recipes_source/recipes/save_load_across_devices.py
        PATH = "model.pt"
        torch.save(net.state_dict(), PATH)
        device = torch.device('cpu')
        model = TheModelClass()
        model.load_state_dict(torch.load(PATH, map_location=device, weights_only=True))
        if torch.cuda.is_available():
            model.to(torch.device("cuda"))
        print(model.fc3.bias)
    return {"fc3.weight": model.fc3.weight, "modelB.fc1": modelB.fc1.weight}


def module_load_state_dict_tips(torch):
    """pytorch/tutorials recipes_source/recipes/
    module_load_state_dict_tips.py: a checkpoint of ten Linears loaded plainly, then with
    ``mmap=True, weights_only=True`` into a module built under ``torch.device('meta')``
    (its meta parameter printed) with ``load_state_dict(assign=True)``, which makes the
    loaded tensors the module's parameters; Linears of 40 where the recipe has 1,000."""
    nn = torch.nn

    class SomeModule(torch.nn.Module):
        def __init__(self, size):
            super().__init__()
            self.linears = nn.Sequential(*(nn.Linear(size, size) for i in range(10)))

        def forward(self, x):
            return self.linears(x)

    m = SomeModule(40)
    with in_temporary_directory():
        torch.save(m.state_dict(), 'checkpoint.pth')
        state_dict = torch.load('checkpoint.pth')
        m = SomeModule(40)
        m.load_state_dict(state_dict)
        state_dict = torch.load('checkpoint.pth', mmap=True, weights_only=True)
        with torch.device('meta'):
            meta_m = SomeModule(40)
        print(meta_m.linears[0].weight)
        meta_m.load_state_dict(state_dict, assign=True)
        print(meta_m.linears[0].weight.device, meta_m.linears[0].weight.requires_grad,
              type(meta_m.linears[0].weight).__name__)
        print(meta_m(torch.ones(2, 40)).sum(), m(torch.ones(2, 40)).sum())
    return {"w": meta_m.linears[9].weight}


# ---- pytorch/examples ----------------------------------------------------------------------

def normalized_mnist(torch, n, seed, mean=0.1307, std=0.3081):
    data = image_dataset(torch, n, seed=seed)

    class Normalized(torch.utils.data.Dataset):
        def __len__(self):
            return len(data)

        def __getitem__(self, i):
            image, label = data[i]
            return (image - mean) / std, label
    return Normalized()


def examples_mnist(torch):
    """pytorch/examples mnist/main.py: the CNN (two Conv2d, max_pool2d, two
    Dropouts, torch.flatten, log_softmax) trained with Adadelta(lr=1.0) and StepLR(gamma=0.7),
    its train/test loops and prints (nll_loss with reduction='sum', argmax(keepdim=True),
    eq(view_as)), the device chosen through cuda/mps availability, save_model's
    state_dict. The args are the parser's with smaller batches and two epochs; 32 + 16
    random normalised images stand for MNIST."""
    nn, F, optim = torch.nn, torch.nn.functional, torch.optim
    StepLR = torch.optim.lr_scheduler.StepLR

    class Net(nn.Module):
        def __init__(self):
            super(Net, self).__init__()
            self.conv1 = nn.Conv2d(1, 32, 3, 1)
            self.conv2 = nn.Conv2d(32, 64, 3, 1)
            self.dropout1 = nn.Dropout(0.25)
            self.dropout2 = nn.Dropout(0.5)
            self.fc1 = nn.Linear(9216, 128)
            self.fc2 = nn.Linear(128, 10)

        def forward(self, x):
            x = self.conv1(x)
            x = F.relu(x)
            x = self.conv2(x)
            x = F.relu(x)
            x = F.max_pool2d(x, 2)
            x = self.dropout1(x)
            x = torch.flatten(x, 1)
            x = self.fc1(x)
            x = F.relu(x)
            x = self.dropout2(x)
            x = self.fc2(x)
            output = F.log_softmax(x, dim=1)
            return output

    def train(args, model, device, train_loader, optimizer, epoch):
        model.train()
        for batch_idx, (data, target) in enumerate(train_loader):
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            output = model(data)
            loss = F.nll_loss(output, target)
            loss.backward()
            optimizer.step()
            if batch_idx % args.log_interval == 0:
                print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                    epoch, batch_idx * len(data), len(train_loader.dataset),
                    100. * batch_idx / len(train_loader), loss.item()))
                if args.dry_run:
                    break

    def test(model, device, test_loader):
        model.eval()
        test_loss = 0
        correct = 0
        with torch.no_grad():
            for data, target in test_loader:
                data, target = data.to(device), target.to(device)
                output = model(data)
                test_loss += F.nll_loss(output, target, reduction='sum').item()
                pred = output.argmax(dim=1, keepdim=True)
                correct += pred.eq(target.view_as(pred)).sum().item()
        test_loss /= len(test_loader.dataset)
        print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
            test_loss, correct, len(test_loader.dataset),
            100. * correct / len(test_loader.dataset)))

    args = SimpleNamespace(batch_size=8, test_batch_size=16, epochs=2, lr=1.0, gamma=0.7,
                           no_cuda=False, no_mps=False, dry_run=False, seed=1, log_interval=2,
                           save_model=True)
    use_cuda = not args.no_cuda and torch.cuda.is_available()
    use_mps = not args.no_mps and torch.backends.mps.is_available()
    torch.manual_seed(args.seed)
    if use_cuda:
        device = torch.device("cuda")
    elif use_mps:
        device = torch.device("mps")
    else:
        device = torch.device("cpu")
    print("Using Device: {}\n".format(device))
    train_kwargs = {'batch_size': args.batch_size}
    test_kwargs = {'batch_size': args.test_batch_size}
    dataset1, dataset2 = normalized_mnist(torch, 32, 1), normalized_mnist(torch, 16, 2)
    train_loader = torch.utils.data.DataLoader(dataset1, **train_kwargs)
    test_loader = torch.utils.data.DataLoader(dataset2, **test_kwargs)
    model = Net().to(device)
    optimizer = optim.Adadelta(model.parameters(), lr=args.lr)
    scheduler = StepLR(optimizer, step_size=1, gamma=args.gamma)
    for epoch in range(1, args.epochs + 1):
        train(args, model, device, train_loader, optimizer, epoch)
        test(model, device, test_loader)
        scheduler.step()
    with in_temporary_directory():
        if args.save_model:
            torch.save(model.state_dict(), "mnist_cnn.pt")
        print(sorted(torch.load("mnist_cnn.pt")), scheduler.get_last_lr())
    return {"fc2.weight": model.fc2.weight, "conv1.grad": model.conv1.weight.grad}


def examples_mnist_rnn(torch):
    """pytorch/examples mnist_rnn/main.py: an LSTM(28, 64,
    batch_first=True) over an image's rows, the last step through BatchNorm1d, Dropout2d
    on 2-d input, two Linears and log_softmax; Adadelta and StepLR, shuffled loaders, its
    train/test prints. Two epochs on 32 + 16 random normalised images."""
    nn, F, optim = torch.nn, torch.nn.functional, torch.optim
    StepLR = torch.optim.lr_scheduler.StepLR

    class Net(nn.Module):
        def __init__(self):
            super(Net, self).__init__()
            self.rnn = nn.LSTM(input_size=28, hidden_size=64, batch_first=True)
            self.batchnorm = nn.BatchNorm1d(64)
            self.dropout1 = nn.Dropout2d(0.25)
            self.dropout2 = nn.Dropout2d(0.5)
            self.fc1 = nn.Linear(64, 32)
            self.fc2 = nn.Linear(32, 10)

        def forward(self, input):
            input = input.reshape(-1, 28, 28)
            output, hidden = self.rnn(input)
            output = output[:, -1, :]
            output = self.batchnorm(output)
            output = self.dropout1(output)
            output = self.fc1(output)
            output = F.relu(output)
            output = self.dropout2(output)
            output = self.fc2(output)
            output = F.log_softmax(output, dim=1)
            return output

    def train(args, model, device, train_loader, optimizer, epoch):
        model.train()
        for batch_idx, (data, target) in enumerate(train_loader):
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            output = model(data)
            loss = F.nll_loss(output, target)
            loss.backward()
            optimizer.step()
            if batch_idx % args.log_interval == 0:
                print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                    epoch, batch_idx * len(data), len(train_loader.dataset),
                    100. * batch_idx / len(train_loader), loss.item()))
                if args.dry_run:
                    break

    def test(args, model, device, test_loader):
        model.eval()
        test_loss = 0
        correct = 0
        with torch.no_grad():
            for data, target in test_loader:
                data, target = data.to(device), target.to(device)
                output = model(data)
                test_loss += F.nll_loss(output, target, reduction='sum').item()
                pred = output.argmax(dim=1, keepdim=True)
                correct += pred.eq(target.view_as(pred)).sum().item()
                if args.dry_run:
                    break
        test_loss /= len(test_loader.dataset)
        print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
            test_loss, correct, len(test_loader.dataset),
            100. * correct / len(test_loader.dataset)))

    args = SimpleNamespace(batch_size=8, test_batch_size=16, epochs=2, lr=0.1, gamma=0.7,
                           cuda=False, mps=False, xpu=False, dry_run=False, seed=1,
                           log_interval=2, save_model=False)
    if args.cuda and not args.mps:
        device = "cuda"
    elif args.mps and not args.cuda:
        device = "mps"
    elif args.xpu:
        device = "xpu"
    else:
        device = "cpu"
    device = torch.device(device)
    torch.manual_seed(args.seed)
    kwargs = {'num_workers': 1, 'pin_memory': True} if args.cuda else {}
    train_loader = torch.utils.data.DataLoader(normalized_mnist(torch, 32, 1),
                                               batch_size=args.batch_size, shuffle=True, **kwargs)
    test_loader = torch.utils.data.DataLoader(normalized_mnist(torch, 16, 2),
                                              batch_size=args.test_batch_size, shuffle=True,
                                              **kwargs)
    model = Net().to(device)
    optimizer = optim.Adadelta(model.parameters(), lr=args.lr)
    scheduler = StepLR(optimizer, step_size=1, gamma=args.gamma)
    for epoch in range(1, args.epochs + 1):
        train(args, model, device, train_loader, optimizer, epoch)
        test(args, model, device, test_loader)
        scheduler.step()
    return {"fc2.weight": model.fc2.weight, "rnn.weight_hh_l0.grad": model.rnn.weight_hh_l0.grad,
            "running_var": model.batchnorm.running_var}


def examples_vae(torch):
    """pytorch/examples vae/main.py: the VAE (fc1, fc21/fc22, the
    reparameterisation with randn_like, a decoder clamped to [1e-4, 1 - 1e-4]) and its
    loss: binary_cross_entropy(reduction='sum'), the continuous Bernoulli's log
    normalising constant (torch.where over torch.max of le/gt masks, atanh written with
    logs, torch.pow) and the KL term; Adam, its train/test prints, the reconstruction
    torch.cat and the decoded samples (save_image left out: their shapes and sums are
    printed). One epoch on 32 + 16 random images: the loss is a difference of sums of
    6,272 logs, so float32 log's last bits (README: 13-32 % of values differ by an ulp)
    show in the 6th digit once Adam has amplified them (a second epoch prints
    -1.161603 where PyTorch prints -1.161542)."""
    nn, optim, F = torch.nn, torch.optim, torch.nn.functional
    args = SimpleNamespace(batch_size=8, epochs=1, no_cuda=False, seed=1, log_interval=2)
    args.cuda = not args.no_cuda and torch.cuda.is_available()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if args.cuda else "cpu")
    kwargs = {'num_workers': 1, 'pin_memory': True} if args.cuda else {}
    train_loader = torch.utils.data.DataLoader(image_dataset(torch, 32, seed=1),
                                               batch_size=args.batch_size, shuffle=True, **kwargs)
    test_loader = torch.utils.data.DataLoader(image_dataset(torch, 16, seed=2),
                                              batch_size=args.batch_size, shuffle=True, **kwargs)

    class VAE(nn.Module):
        def __init__(self):
            super(VAE, self).__init__()
            self.fc1 = nn.Linear(784, 400)
            self.fc21 = nn.Linear(400, 20)
            self.fc22 = nn.Linear(400, 20)
            self.fc3 = nn.Linear(20, 400)
            self.fc4 = nn.Linear(400, 784)

        def encode(self, x):
            h1 = F.relu(self.fc1(x))
            return self.fc21(h1), self.fc22(h1)

        def reparameterize(self, mu, logvar):
            std = torch.exp(0.5*logvar)
            eps = torch.randn_like(std)
            return mu + eps*std

        def decode(self, z):
            h3 = F.relu(self.fc3(z))
            return torch.clamp(torch.sigmoid(self.fc4(h3)), min=1e-4, max=1.0 - 1e-4)

        def forward(self, x):
            mu, logvar = self.encode(x.view(-1, 784))
            z = self.reparameterize(mu, logvar)
            return self.decode(z), mu, logvar

    model = VAE().to(device)
    optimizer = optim.Adam(model.parameters(), lr=1e-3)

    def atanh(x):
        return 0.5 * (torch.log(1.0 + x) - torch.log(1.0 - x))

    def cont_bern_log_norm(lam, l_lim=0.49, u_lim=0.51):
        cut_lam = torch.where(torch.max(torch.le(lam, l_lim), torch.gt(lam, u_lim)), lam, l_lim * torch.ones_like(lam))
        log_norm = torch.log(torch.abs(2.0 * atanh(1 - 2.0 * cut_lam))) - torch.log(torch.abs(1 - 2.0 * cut_lam))
        taylor = torch.log(torch.tensor(2.0)) + 4.0 / 3.0 * torch.pow(lam - 0.5, 2) + 104.0 / 45.0 * torch.pow(lam - 0.5, 4)
        return torch.where(torch.max(torch.le(lam, l_lim), torch.gt(lam, u_lim)), log_norm, taylor)

    def loss_function(recon_x, x, mu, logvar):
        BCE = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction='sum')
        NLNC = -torch.sum(cont_bern_log_norm(recon_x))
        KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
        return BCE + NLNC + KLD

    def train(epoch):
        model.train()
        train_loss = 0
        for batch_idx, (data, _) in enumerate(train_loader):
            data = data.to(device)
            optimizer.zero_grad()
            recon_batch, mu, logvar = model(data)
            loss = loss_function(recon_batch, data, mu, logvar)
            loss.backward()
            train_loss += loss.item()
            optimizer.step()
            if batch_idx % args.log_interval == 0:
                print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                    epoch, batch_idx * len(data), len(train_loader.dataset),
                    100. * batch_idx / len(train_loader),
                    loss.item() / len(data)))
        print('====> Epoch: {} Average loss: {:.4f}'.format(
              epoch, train_loss / len(train_loader.dataset)))

    def test(epoch):
        model.eval()
        test_loss = 0
        with torch.no_grad():
            for i, (data, _) in enumerate(test_loader):
                data = data.to(device)
                recon_batch, mu, logvar = model(data)
                test_loss += loss_function(recon_batch, data, mu, logvar).item()
                if i == 0:
                    n = min(data.size(0), 8)
                    comparison = torch.cat([data[:n],
                                            recon_batch.view(args.batch_size, 1, 28, 28)[:n]])
                    print(comparison.shape, comparison.mean())
        test_loss /= len(test_loader.dataset)
        print('====> Test set loss: {:.4f}'.format(test_loss))

    for epoch in range(1, args.epochs + 1):
        train(epoch)
        test(epoch)
        with torch.no_grad():
            sample = torch.randn(64, 20).to(device)
            sample = model.decode(sample).cpu()
            print(sample.view(64, 1, 28, 28).shape, sample.sum())
    return {"fc4.bias": model.fc4.bias, "sample": sample}


def examples_regression(torch):
    """pytorch/examples regression/main.py: a polynomial fitted by
    a Linear(4, 1) with smooth_l1_loss and a hand-written update (``param.data.add_``, as
    the example has had it since Variables went; its first version's ``output.data[0]``
    on a 0-dim loss gives PyTorch's IndexError, printed here), poly_desc's '{:+.2f}'
    formatting of 0-dim tensors, stopped after 300 batches at most."""
    F = torch.nn.functional
    POLY_DEGREE = 4
    W_target = torch.randn(POLY_DEGREE, 1) * 5
    b_target = torch.randn(1) * 5

    def make_features(x):
        x = x.unsqueeze(1)
        return torch.cat([x ** i for i in range(1, POLY_DEGREE+1)], 1)

    def f(x):
        return x.mm(W_target) + b_target.item()

    def poly_desc(W, b):
        result = 'y = '
        for i, w in enumerate(W):
            result += '{:+.2f} x^{} '.format(w, i + 1)
        result += '{:+.2f}'.format(b[0])
        return result

    def get_batch(batch_size=32):
        random = torch.randn(batch_size)
        x = make_features(random)
        y = f(x)
        return x, y

    fc = torch.nn.Linear(W_target.size(0), 1)
    for batch_idx in itertools.count(1):
        batch_x, batch_y = get_batch()
        fc.zero_grad()
        output = F.smooth_l1_loss(fc(batch_x), batch_y)
        if batch_idx == 1:
            try:
                loss = output.data[0]
            except IndexError as error:
                print(error)
        loss = output.item()
        output.backward()
        for param in fc.parameters():
            param.data.add_(-0.1 * param.grad)
        if loss < 1e-3 or batch_idx == 300:
            break
    print('Loss: {:.6f} after {} batches'.format(loss, batch_idx))
    print('==> Learned function:\t' + poly_desc(fc.weight.view(-1), fc.bias))
    print('==> Actual function:\t' + poly_desc(W_target.view(-1), b_target))
    return {"weight": fc.weight, "grad": fc.bias.grad}


def examples_time_sequence_prediction(torch):
    """pytorch/examples time_sequence_prediction/train.py
    (with generate_sine_wave.py's data, kept in memory: torch.load of a NumPy array is
    refused by PyTorch 2.13's default weights_only=True): two LSTMCells and a Linear in
    float64 (``.double()``), input.split(1, dim=1), a dummy Parameter(torch.empty(0)) for
    the device, LBFGS(lr=0.8) with a closure printing each loss, and predictions of the
    future under no_grad, to numpy (the plot left out). Two steps of 4 iterations on 8
    shorter waves."""
    nn, optim = torch.nn, torch.optim
    np.random.seed(2)
    T, L, N = 20, 60, 8
    x = np.empty((N, L), 'int64')
    x[:] = np.array(range(L)) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
    data = np.sin(x / 1.0 / T).astype('float64')
    if True:
        class Sequence(nn.Module):
            def __init__(self):
                super(Sequence, self).__init__()
                self.lstm1 = nn.LSTMCell(1, 51)
                self.lstm2 = nn.LSTMCell(51, 51)
                self.linear = nn.Linear(51, 1)
                self.dummy_param = nn.Parameter(torch.empty(0))

            def forward(self, input, future = 0):
                outputs = []
                device = self.dummy_param.device
                h_t = torch.zeros(input.size(0), 51, dtype=torch.double).to(device)
                c_t = torch.zeros(input.size(0), 51, dtype=torch.double).to(device)
                h_t2 = torch.zeros(input.size(0), 51, dtype=torch.double).to(device)
                c_t2 = torch.zeros(input.size(0), 51, dtype=torch.double).to(device)
                for input_t in input.split(1, dim=1):
                    h_t, c_t = self.lstm1(input_t, (h_t, c_t))
                    h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
                    output = self.linear(h_t2)
                    outputs += [output]
                for i in range(future):
                    h_t, c_t = self.lstm1(output, (h_t, c_t))
                    h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
                    output = self.linear(h_t2)
                    outputs += [output]
                outputs = torch.cat(outputs, dim=1)
                return outputs

        device = torch.device('cpu')
        np.random.seed(0)
        torch.manual_seed(0)
        data = torch.from_numpy(data).to(device)
        input = data[3:, :-1]
        target = data[3:, 1:]
        test_input = data[:3, :-1]
        test_target = data[:3, 1:]
        seq = Sequence().to(device).double()
        criterion = nn.MSELoss().to(device)
        optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=4)
        for i in range(2):
            print('STEP: ', i)
            def closure():
                optimizer.zero_grad()
                out = seq(input)
                loss = criterion(out, target)
                print('loss:', loss.item())
                loss.backward()
                return loss
            optimizer.step(closure)
            with torch.no_grad():
                future = 20
                pred = seq(test_input, future=future)
                loss = criterion(pred[:, :-future], test_target)
                print('test loss:', loss.item())
                y = pred.cpu().detach().numpy()
            print(y.shape, y.dtype, y[0, -3:])
    return {"linear.weight": seq.linear.weight, "lstm1.grad": seq.lstm1.weight_hh.grad}


def module_level(torch, *classes):
    """The tutorial's classes as it has them, at module level, where pickle finds them
    (torch.save(model) names the class): each registered here under its library's name."""
    for cls in classes:
        cls.__qualname__ = f"{torch.__name__}_{cls.__name__}"
        cls.__module__ = __name__
        globals()[cls.__qualname__] = cls


CORPUS = """the cat sat on the mat
the dog sat on the log
a cat and a dog met on the mat
the log was by the mat and the cat
""".splitlines()


def examples_word_language_model(torch):
    """pytorch/examples word_language_model (data.py,
    model.py, main.py and generate.py): the Dictionary and Corpus tokenising three files,
    batchify (narrow, view, t, contiguous), RNNModel (Embedding, LSTM/GRU/RNN with dropout
    between layers, tied weights, init.uniform_/zeros_, new_zeros hidden states) and
    TransformerModel (a subclass of nn.Transformer with a PositionalEncoding buffer and a
    log(tril(ones)) mask), NLLLoss, repackage_hidden, clip_grad_norm_ and the
    ``p.data.add_(p.grad, alpha=-lr)`` update, evaluate under no_grad, the annealed lr,
    the best model saved whole (``torch.save(model, f)``) and loaded back (PyTorch 2.13's
    default weights_only=True refuses it with pickle's UnpicklingError, as main.py meets
    it; then weights_only=False), and generate.py's multinomial sampling of words, for
    LSTM (tied), GRU, RNN_TANH and Transformer on a made-up corpus, lr 5 (at lr 20
    the RNN_TANH model diverges, and float32 rounding shows in the 5th digit)."""
    nn, F = torch.nn, torch.nn.functional

    class Dictionary(object):
        def __init__(self):
            self.word2idx = {}
            self.idx2word = []

        def add_word(self, word):
            if word not in self.word2idx:
                self.idx2word.append(word)
                self.word2idx[word] = len(self.idx2word) - 1
            return self.word2idx[word]

        def __len__(self):
            return len(self.idx2word)

    class Corpus(object):
        def __init__(self, path):
            self.dictionary = Dictionary()
            self.train = self.tokenize(os.path.join(path, 'train.txt'))
            self.valid = self.tokenize(os.path.join(path, 'valid.txt'))
            self.test = self.tokenize(os.path.join(path, 'test.txt'))

        def tokenize(self, path):
            assert os.path.exists(path)
            with open(path, 'r', encoding="utf8") as f:
                for line in f:
                    words = line.split() + ['<eos>']
                    for word in words:
                        self.dictionary.add_word(word)
            with open(path, 'r', encoding="utf8") as f:
                idss = []
                for line in f:
                    words = line.split() + ['<eos>']
                    ids = []
                    for word in words:
                        ids.append(self.dictionary.word2idx[word])
                    idss.append(torch.tensor(ids).type(torch.int64))
                ids = torch.cat(idss)
            return ids

    class RNNModel(nn.Module):
        def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
            super(RNNModel, self).__init__()
            self.ntoken = ntoken
            self.drop = nn.Dropout(dropout)
            self.encoder = nn.Embedding(ntoken, ninp)
            if rnn_type in ['LSTM', 'GRU']:
                self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
            else:
                nonlinearity = {'RNN_TANH': 'tanh', 'RNN_RELU': 'relu'}[rnn_type]
                self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)
            self.decoder = nn.Linear(nhid, ntoken)
            if tie_weights:
                if nhid != ninp:
                    raise ValueError('When using the tied flag, nhid must be equal to emsize')
                self.decoder.weight = self.encoder.weight
            self.init_weights()
            self.rnn_type = rnn_type
            self.nhid = nhid
            self.nlayers = nlayers

        def init_weights(self):
            initrange = 0.1
            nn.init.uniform_(self.encoder.weight, -initrange, initrange)
            nn.init.zeros_(self.decoder.bias)
            nn.init.uniform_(self.decoder.weight, -initrange, initrange)

        def forward(self, input, hidden):
            emb = self.drop(self.encoder(input))
            output, hidden = self.rnn(emb, hidden)
            output = self.drop(output)
            decoded = self.decoder(output)
            decoded = decoded.view(-1, self.ntoken)
            return F.log_softmax(decoded, dim=1), hidden

        def init_hidden(self, bsz):
            weight = next(self.parameters())
            if self.rnn_type == 'LSTM':
                return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                        weight.new_zeros(self.nlayers, bsz, self.nhid))
            else:
                return weight.new_zeros(self.nlayers, bsz, self.nhid)

    class PositionalEncoding(nn.Module):
        def __init__(self, d_model, dropout=0.1, max_len=5000):
            super(PositionalEncoding, self).__init__()
            self.dropout = nn.Dropout(p=dropout)
            pe = torch.zeros(max_len, d_model)
            position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
            div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
            pe[:, 0::2] = torch.sin(position * div_term)
            pe[:, 1::2] = torch.cos(position * div_term)
            pe = pe.unsqueeze(0).transpose(0, 1)
            self.register_buffer('pe', pe)

        def forward(self, x):
            x = x + self.pe[:x.size(0), :]
            return self.dropout(x)

    class TransformerModel(nn.Transformer):
        def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
            super(TransformerModel, self).__init__(d_model=ninp, nhead=nhead, dim_feedforward=nhid, num_encoder_layers=nlayers)
            self.model_type = 'Transformer'
            self.src_mask = None
            self.pos_encoder = PositionalEncoding(ninp, dropout)
            self.input_emb = nn.Embedding(ntoken, ninp)
            self.ninp = ninp
            self.decoder = nn.Linear(ninp, ntoken)
            self.init_weights()

        def _generate_square_subsequent_mask(self, sz):
            return torch.log(torch.tril(torch.ones(sz, sz)))

        def init_weights(self):
            initrange = 0.1
            nn.init.uniform_(self.input_emb.weight, -initrange, initrange)
            nn.init.zeros_(self.decoder.bias)
            nn.init.uniform_(self.decoder.weight, -initrange, initrange)

        def forward(self, src, has_mask=True):
            if has_mask:
                device = src.device
                if self.src_mask is None or self.src_mask.size(0) != len(src):
                    mask = self._generate_square_subsequent_mask(len(src)).to(device)
                    self.src_mask = mask
            else:
                self.src_mask = None
            src = self.input_emb(src) * math.sqrt(self.ninp)
            src = self.pos_encoder(src)
            output = self.encoder(src, mask=self.src_mask)
            output = self.decoder(output)
            return F.log_softmax(output, dim=-1)

    module_level(torch, RNNModel, PositionalEncoding, TransformerModel)
    results = {}
    for kind in ["LSTM", "GRU", "RNN_TANH", "Transformer"]:
        args = SimpleNamespace(data='./data', model=kind, emsize=8, nhid=8, nlayers=2, lr=5,
                               clip=0.25, epochs=2, batch_size=4, bptt=5, dropout=0.2,
                               tied=kind == "LSTM", seed=1111, log_interval=2, save='model.pt',
                               dry_run=False, nhead=2)
        torch.manual_seed(args.seed)
        device = torch.device("cpu")
        with in_temporary_directory():
            os.mkdir('data')
            for name, lines in [('train', CORPUS * 3), ('valid', CORPUS[:2]), ('test', CORPUS[2:])]:
                with open(f'data/{name}.txt', 'w') as f:
                    f.write("\n".join(lines) + "\n")
            corpus = Corpus(args.data)

            def batchify(data, bsz):
                nbatch = data.size(0) // bsz
                data = data.narrow(0, 0, nbatch * bsz)
                data = data.view(bsz, -1).t().contiguous()
                return data.to(device)

            eval_batch_size = 2
            train_data = batchify(corpus.train, args.batch_size)
            val_data = batchify(corpus.valid, eval_batch_size)
            test_data = batchify(corpus.test, eval_batch_size)
            ntokens = len(corpus.dictionary)
            if args.model == 'Transformer':
                model = TransformerModel(ntokens, args.emsize, args.nhead, args.nhid, args.nlayers, args.dropout).to(device)
            else:
                model = RNNModel(args.model, ntokens, args.emsize, args.nhid, args.nlayers, args.dropout, args.tied).to(device)
            criterion = nn.NLLLoss()

            def repackage_hidden(h):
                if isinstance(h, torch.Tensor):
                    return h.detach()
                else:
                    return tuple(repackage_hidden(v) for v in h)

            def get_batch(source, i):
                seq_len = min(args.bptt, len(source) - 1 - i)
                data = source[i:i+seq_len]
                target = source[i+1:i+1+seq_len].view(-1)
                return data, target

            def evaluate(data_source):
                model.eval()
                total_loss = 0.
                ntokens = len(corpus.dictionary)
                if args.model != 'Transformer':
                    hidden = model.init_hidden(eval_batch_size)
                with torch.no_grad():
                    for i in range(0, data_source.size(0) - 1, args.bptt):
                        data, targets = get_batch(data_source, i)
                        if args.model == 'Transformer':
                            output = model(data)
                            output = output.view(-1, ntokens)
                        else:
                            output, hidden = model(data, hidden)
                            hidden = repackage_hidden(hidden)
                        total_loss += len(data) * criterion(output, targets).item()
                return total_loss / (len(data_source) - 1)

            def train():
                model.train()
                total_loss = 0.
                ntokens = len(corpus.dictionary)
                if args.model != 'Transformer':
                    hidden = model.init_hidden(args.batch_size)
                for batch, i in enumerate(range(0, train_data.size(0) - 1, args.bptt)):
                    data, targets = get_batch(train_data, i)
                    model.zero_grad()
                    if args.model == 'Transformer':
                        output = model(data)
                        output = output.view(-1, ntokens)
                    else:
                        hidden = repackage_hidden(hidden)
                        output, hidden = model(data, hidden)
                    loss = criterion(output, targets)
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
                    for p in model.parameters():
                        p.data.add_(p.grad, alpha=-lr)
                    total_loss += loss.item()
                    if batch % args.log_interval == 0 and batch > 0:
                        cur_loss = total_loss / args.log_interval
                        print('| epoch {:3d} | {:5d}/{:5d} batches | lr {:02.2f} | '
                              'loss {:5.2f} | ppl {:8.2f}'.format(
                                epoch, batch, len(train_data) // args.bptt, lr,
                                cur_loss, math.exp(cur_loss)))
                        total_loss = 0
                    if args.dry_run:
                        break
                return total_loss / (len(train_data) // args.bptt)

            lr = args.lr
            best_val_loss = None
            for epoch in range(1, args.epochs+1):
                train_loss = train()
                val_loss = evaluate(val_data)
                test_loss = evaluate(test_data)
                print('-' * 89)
                print('| end of epoch {:3d} | train loss {:5.2f} | '
                      'valid loss {:5.2f} | test loss {:5.2f} | '
                      'valid ppl {:8.2f} | test ppl {:8.2f}'.format(
                        epoch, train_loss, val_loss, test_loss,
                        math.exp(val_loss), math.exp(test_loss)))
                print('-' * 89)
                if not best_val_loss or val_loss < best_val_loss:
                    with open(args.save, 'wb') as f:
                        torch.save(model, f)
                    best_val_loss = val_loss
                else:
                    lr /= 4.0
            with open(args.save, 'rb') as f:
                try:
                    model = torch.load(f)
                except pickle.UnpicklingError as error:
                    print(type(error).__name__, "weights_only" in str(error))
                    f.seek(0)
                    model = torch.load(f, weights_only=False)
                if args.model in ['RNN_TANH', 'RNN_RELU', 'LSTM', 'GRU']:
                    model.rnn.flatten_parameters()
            test_loss = evaluate(test_data)
            print('=' * 89)
            print('| End of training | test loss {:5.2f} | test ppl {:8.2f}'.format(
                test_loss, math.exp(test_loss)))
            print('=' * 89)
            results[kind] = model.decoder.weight
            # generate.py
            model.eval()
            input = torch.randint(ntokens, (1, 1), dtype=torch.long).to(device)
            if args.model != 'Transformer':
                hidden = model.init_hidden(1)
            words = []
            with torch.no_grad():
                for i in range(6):
                    if args.model == 'Transformer':
                        output = model(input, False)
                        word_weights = output[-1].squeeze().div(1.0).exp().cpu()
                        word_idx = torch.multinomial(word_weights, 1)[0]
                        word_tensor = torch.Tensor([[word_idx]]).long().to(device)
                        input = torch.cat([input, word_tensor], 0)
                    else:
                        output, hidden = model(input, hidden)
                        word_weights = output.squeeze().div(1.0).exp().cpu()
                        word_idx = torch.multinomial(word_weights, 1)[0]
                        input.fill_(word_idx)
                    words.append(corpus.dictionary.idx2word[word_idx])
            print(' '.join(words))
    return results


def examples_mnist_forward_forward(torch):
    """pytorch/examples mnist_forward_forward/main.py:
    Hinton's forward-forward training: labels overlaid on the first pixels (x_[range(n),
    y] = x.max()), negative labels drawn with torch.randint, Layer subclassing nn.Linear
    with its own Adam and a normalised input (x.norm(2, 1, keepdim=True)), the goodness
    loss log1p(exp(cat(...))).mean(), layers trained one after the other (Net.train
    overriding Module.train), predict's argmax over summed goodness. 32 + 16 flattened
    random images, layers of 50, 12 epochs."""
    nn = torch.nn
    Adam = torch.optim.Adam
    args = SimpleNamespace(epochs=12, lr=0.03, no_cuda=False, no_xpu=False, no_mps=False, seed=1,
                           save_model=False, train_size=32, threshold=2, test_size=16,
                           log_interval=4)
    device = torch.device("cpu")

    def get_y_neg(y):
        y_neg = y.clone()
        for idx, y_samp in enumerate(y):
            allowed_indices = list(range(10))
            allowed_indices.remove(y_samp.item())
            y_neg[idx] = torch.tensor(allowed_indices)[
                torch.randint(len(allowed_indices), size=(1,))
            ].item()
        return y_neg.to(device)

    def overlay_y_on_x(x, y, classes=10):
        x_ = x.clone()
        x_[:, :classes] *= 0.0
        x_[range(x.shape[0]), y] = x.max()
        return x_

    class Net(torch.nn.Module):
        def __init__(self, dims):
            super().__init__()
            self.layers = []
            for d in range(len(dims) - 1):
                self.layers = self.layers + [Layer(dims[d], dims[d + 1]).to(device)]

        def predict(self, x):
            goodness_per_label = []
            for label in range(10):
                h = overlay_y_on_x(x, label)
                goodness = []
                for layer in self.layers:
                    h = layer(h)
                    goodness = goodness + [h.pow(2).mean(1)]
                goodness_per_label += [sum(goodness).unsqueeze(1)]
            goodness_per_label = torch.cat(goodness_per_label, 1)
            return goodness_per_label.argmax(1)

        def train(self, x_pos, x_neg):
            h_pos, h_neg = x_pos, x_neg
            for i, layer in enumerate(self.layers):
                print("training layer: ", i)
                h_pos, h_neg = layer.train(h_pos, h_neg)

    class Layer(nn.Linear):
        def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
            super().__init__(in_features, out_features, bias, device, dtype)
            self.relu = torch.nn.ReLU()
            self.opt = Adam(self.parameters(), lr=args.lr)
            self.threshold = args.threshold
            self.num_epochs = args.epochs

        def forward(self, x):
            x_direction = x / (x.norm(2, 1, keepdim=True) + 1e-4)
            return self.relu(torch.mm(x_direction, self.weight.T) + self.bias.unsqueeze(0))

        def train(self, x_pos, x_neg):
            for i in range(self.num_epochs):
                g_pos = self.forward(x_pos).pow(2).mean(1)
                g_neg = self.forward(x_neg).pow(2).mean(1)
                loss = torch.log1p(
                    torch.exp(
                        torch.cat([-g_pos + self.threshold, g_neg - self.threshold])
                    )
                ).mean()
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                if i % args.log_interval == 0:
                    print("Loss: ", loss.item())
            return self.forward(x_pos).detach(), self.forward(x_neg).detach()

    def flattened(n, seed):
        data = image_dataset(torch, n, seed=seed)

        class Flat(torch.utils.data.Dataset):
            def __len__(self):
                return len(data)

            def __getitem__(self, i):
                image, label = data[i]
                return torch.flatten((image - 0.1307) / 0.3081), label
        return Flat()
    train_loader = torch.utils.data.DataLoader(flattened(32, 1), batch_size=args.train_size)
    test_loader = torch.utils.data.DataLoader(flattened(16, 2), batch_size=args.test_size)
    net = Net([784, 50, 50])
    x, y = next(iter(train_loader))
    x, y = x.to(device), y.to(device)
    x_pos = overlay_y_on_x(x, y)
    y_neg = get_y_neg(y)
    x_neg = overlay_y_on_x(x, y_neg)
    net.train(x_pos, x_neg)
    print("train error:", 1.0 - net.predict(x).eq(y).float().mean().item())
    x_te, y_te = next(iter(test_loader))
    x_te, y_te = x_te.to(device), y_te.to(device)
    print("test error:", 1.0 - net.predict(x_te).eq(y_te).float().mean().item())
    return {"b0": net.layers[0].bias, "g1": net.layers[1].weight.grad}


def mnist_stand_in(torch, n, seed):
    """torchvision's MNIST without a transform: .data (n x 28 x 28 uint8), .targets (each
    class n / 10 times)."""
    images = image_dataset(torch, n, seed=seed)

    class MNIST(torch.utils.data.Dataset):
        def __init__(self, root, train=True, download=False, transform=None):
            self.data, self.targets = images.data[:, 0], torch.arange(n) % 10

        def __len__(self):
            return len(self.data)
    return MNIST


def resnet_stand_in(torch):
    """torchvision.models.resnet18's shape in small (one BasicBlock per stage, widths 8 to
    64; PyTorch's initialisation: kaiming_normal_ fan_out for convolutions)."""
    nn = torch.nn

    class BasicBlock(nn.Module):
        def __init__(self, inplanes, planes, stride=1):
            super().__init__()
            self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(planes)
            self.relu = nn.ReLU(inplace=True)
            self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(planes)
            self.downsample = None
            if stride != 1 or inplanes != planes:
                self.downsample = nn.Sequential(nn.Conv2d(inplanes, planes, 1, stride, bias=False),
                                                nn.BatchNorm2d(planes))

        def forward(self, x):
            identity = x
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            if self.downsample is not None:
                identity = self.downsample(x)
            out += identity
            return self.relu(out)

    class ResNet(nn.Module):
        def __init__(self, num_classes=1000):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 8, kernel_size=7, stride=2, padding=3, bias=False)
            self.bn1 = nn.BatchNorm2d(8)
            self.relu = nn.ReLU(inplace=True)
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
            self.layer1 = nn.Sequential(BasicBlock(8, 8))
            self.layer2 = nn.Sequential(BasicBlock(8, 16, 2))
            self.layer3 = nn.Sequential(BasicBlock(16, 32, 2))
            self.layer4 = nn.Sequential(BasicBlock(32, 64, 2))
            self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
            self.fc = nn.Linear(64, num_classes)
            for m in self.modules():
                if isinstance(m, nn.Conv2d):
                    nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
                elif isinstance(m, nn.BatchNorm2d):
                    nn.init.constant_(m.weight, 1)
                    nn.init.constant_(m.bias, 0)

        def forward(self, x):
            x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
            x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
            return self.fc(torch.flatten(self.avgpool(x), 1))
    return ResNet


def examples_siamese_network(torch):
    """pytorch/examples siamese_network/main.py: APP_MATCHER (a
    Dataset pairing images of one class or two, with Python's random and np.where over
    ``np.array(targets.clone())``, which gives NumPy 2's DeprecationWarning under both),
    SiameseNetwork (a resnet whose conv1 is replaced, its children but the last in a
    Sequential, ``nn.init.xavier_uniform`` with PyTorch's FutureWarning, bias.data.fill_),
    BCELoss, torch.where(outputs > 0.5, 1, 0), Adadelta and StepLR. torchvision's resnet18
    is a small ResNet of its shape (resnet_stand_in), MNIST 40 + 20 random images of each
    class in turn; two epochs."""
    nn, F, optim = torch.nn, torch.nn.functional, torch.optim
    Dataset = torch.utils.data.Dataset
    StepLR = torch.optim.lr_scheduler.StepLR
    resnet18 = resnet_stand_in(torch)
    datasets = SimpleNamespace(MNIST=None)

    class SiameseNetwork(nn.Module):
        def __init__(self):
            super(SiameseNetwork, self).__init__()
            self.resnet = resnet18()
            self.resnet.conv1 = nn.Conv2d(1, 8, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), bias=False)
            self.fc_in_features = self.resnet.fc.in_features
            self.resnet = torch.nn.Sequential(*(list(self.resnet.children())[:-1]))
            self.fc = nn.Sequential(
                nn.Linear(self.fc_in_features * 2, 256),
                nn.ReLU(inplace=True),
                nn.Linear(256, 1),
            )
            self.sigmoid = nn.Sigmoid()
            self.resnet.apply(self.init_weights)
            self.fc.apply(self.init_weights)

        def init_weights(self, m):
            if isinstance(m, nn.Linear):
                torch.nn.init.xavier_uniform(m.weight)
                m.bias.data.fill_(0.01)

        def forward_once(self, x):
            output = self.resnet(x)
            output = output.view(output.size()[0], -1)
            return output

        def forward(self, input1, input2):
            output1 = self.forward_once(input1)
            output2 = self.forward_once(input2)
            output = torch.cat((output1, output2), 1)
            output = self.fc(output)
            output = self.sigmoid(output)
            return output

    class APP_MATCHER(Dataset):
        def __init__(self, root, train, download=False):
            super(APP_MATCHER, self).__init__()
            self.dataset = datasets.MNIST(root, train=train, download=download)
            self.data = self.dataset.data.unsqueeze(1).clone()
            self.group_examples()

        def group_examples(self):
            np_arr = np.array(self.dataset.targets.clone())
            self.grouped_examples = {}
            for i in range(0,10):
                self.grouped_examples[i] = np.where((np_arr==i))[0]

        def __len__(self):
            return self.data.shape[0]

        def __getitem__(self, index):
            selected_class = random.randint(0, 9)
            random_index_1 = random.randint(0, self.grouped_examples[selected_class].shape[0]-1)
            index_1 = self.grouped_examples[selected_class][random_index_1]
            image_1 = self.data[index_1].clone().float()
            if index % 2 == 0:
                random_index_2 = random.randint(0, self.grouped_examples[selected_class].shape[0]-1)
                while random_index_2 == random_index_1:
                    random_index_2 = random.randint(0, self.grouped_examples[selected_class].shape[0]-1)
                index_2 = self.grouped_examples[selected_class][random_index_2]
                image_2 = self.data[index_2].clone().float()
                target = torch.tensor(1, dtype=torch.float)
            else:
                other_selected_class = random.randint(0, 9)
                while other_selected_class == selected_class:
                    other_selected_class = random.randint(0, 9)
                random_index_2 = random.randint(0, self.grouped_examples[other_selected_class].shape[0]-1)
                index_2 = self.grouped_examples[other_selected_class][random_index_2]
                image_2 = self.data[index_2].clone().float()
                target = torch.tensor(0, dtype=torch.float)
            return image_1, image_2, target

    def train(args, model, device, train_loader, optimizer, epoch):
        model.train()
        criterion = nn.BCELoss()
        for batch_idx, (images_1, images_2, targets) in enumerate(train_loader):
            images_1, images_2, targets = images_1.to(device), images_2.to(device), targets.to(device)
            optimizer.zero_grad()
            outputs = model(images_1, images_2).squeeze()
            loss = criterion(outputs, targets)
            loss.backward()
            optimizer.step()
            if batch_idx % args.log_interval == 0:
                print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                    epoch, batch_idx * len(images_1), len(train_loader.dataset),
                    100. * batch_idx / len(train_loader), loss.item()))
                if args.dry_run:
                    break

    def test(model, device, test_loader):
        model.eval()
        test_loss = 0
        correct = 0
        criterion = nn.BCELoss()
        with torch.no_grad():
            for (images_1, images_2, targets) in test_loader:
                images_1, images_2, targets = images_1.to(device), images_2.to(device), targets.to(device)
                outputs = model(images_1, images_2).squeeze()
                test_loss += criterion(outputs, targets).sum().item()
                pred = torch.where(outputs > 0.5, 1, 0)
                correct += pred.eq(targets.view_as(pred)).sum().item()
        test_loss /= len(test_loader.dataset)
        print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
            test_loss, correct, len(test_loader.dataset),
            100. * correct / len(test_loader.dataset)))

    args = SimpleNamespace(batch_size=8, test_batch_size=16, epochs=2, lr=1.0, gamma=0.7,
                           no_cuda=False, dry_run=False, seed=1, log_interval=2, save_model=True)
    use_cuda = not args.no_cuda and torch.cuda.is_available()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if use_cuda else "cpu")
    train_kwargs = {'batch_size': args.batch_size}
    test_kwargs = {'batch_size': args.test_batch_size}
    datasets.MNIST = mnist_stand_in(torch, 40, 1)
    train_dataset = APP_MATCHER('../data', train=True, download=True)
    datasets.MNIST = mnist_stand_in(torch, 20, 2)
    test_dataset = APP_MATCHER('../data', train=False)
    train_loader = torch.utils.data.DataLoader(train_dataset,**train_kwargs)
    test_loader = torch.utils.data.DataLoader(test_dataset, **test_kwargs)
    model = SiameseNetwork().to(device)
    optimizer = optim.Adadelta(model.parameters(), lr=args.lr)
    scheduler = StepLR(optimizer, step_size=1, gamma=args.gamma)
    for epoch in range(1, args.epochs + 1):
        train(args, model, device, train_loader, optimizer, epoch)
        test(model, device, test_loader)
        scheduler.step()
    with in_temporary_directory():
        if args.save_model:
            torch.save(model.state_dict(), "siamese_network.pt")
    return {"fc.0.weight": model.fc[0].weight, "fc.2.bias": model.fc[2].bias}


def examples_super_resolution(torch):
    """pytorch/examples super_resolution/model.py, main.py and
    super_resolve.py: the sub-pixel CNN (init.orthogonal_ with calculate_gain('relu'),
    PixelShuffle(3)), MSELoss and Adam, the epoch prints, PSNR from math.log10, each
    epoch's model saved whole (``torch.save(model, path)``) and loaded back
    (weights_only=False) to upscale an image, to numpy, scaled and clipped. BSDS300 is 8 +
    4 random 12 x 12 images and their 4 x 4 average-pooled inputs; two epochs."""
    nn, optim, init = torch.nn, torch.optim, torch.nn.init

    class Net(nn.Module):
        def __init__(self, upscale_factor):
            super(Net, self).__init__()
            self.relu = nn.ReLU()
            self.conv1 = nn.Conv2d(1, 64, (5, 5), (1, 1), (2, 2))
            self.conv2 = nn.Conv2d(64, 64, (3, 3), (1, 1), (1, 1))
            self.conv3 = nn.Conv2d(64, 32, (3, 3), (1, 1), (1, 1))
            self.conv4 = nn.Conv2d(32, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
            self.pixel_shuffle = nn.PixelShuffle(upscale_factor)
            self._initialize_weights()

        def forward(self, x):
            x = self.relu(self.conv1(x))
            x = self.relu(self.conv2(x))
            x = self.relu(self.conv3(x))
            x = self.pixel_shuffle(self.conv4(x))
            return x

        def _initialize_weights(self):
            init.orthogonal_(self.conv1.weight, init.calculate_gain('relu'))
            init.orthogonal_(self.conv2.weight, init.calculate_gain('relu'))
            init.orthogonal_(self.conv3.weight, init.calculate_gain('relu'))
            init.orthogonal_(self.conv4.weight)

    module_level(torch, Net)
    opt = SimpleNamespace(upscale_factor=3, batchSize=4, testBatchSize=4, nEpochs=2, lr=0.01,
                          cuda=False, mps=False, threads=4, seed=123)
    print(opt)
    torch.manual_seed(opt.seed)
    device = torch.device("cpu")
    print('===> Loading datasets')

    def bsds(n, seed):
        g = torch.Generator().manual_seed(seed)
        target = torch.rand(n, 1, 12, 12, generator=g)
        return torch.utils.data.TensorDataset(
            torch.nn.functional.avg_pool2d(target, opt.upscale_factor), target)
    training_data_loader = torch.utils.data.DataLoader(dataset=bsds(8, 1), num_workers=opt.threads,
                                                       batch_size=opt.batchSize, shuffle=True)
    testing_data_loader = torch.utils.data.DataLoader(dataset=bsds(4, 2), num_workers=opt.threads,
                                                      batch_size=opt.testBatchSize, shuffle=False)
    print('===> Building model')
    model = Net(upscale_factor=opt.upscale_factor).to(device)
    criterion = nn.MSELoss()
    optimizer = optim.Adam(model.parameters(), lr=opt.lr)

    def train(epoch):
        epoch_loss = 0
        for iteration, batch in enumerate(training_data_loader, 1):
            input, target = batch[0].to(device), batch[1].to(device)
            optimizer.zero_grad()
            loss = criterion(model(input), target)
            epoch_loss += loss.item()
            loss.backward()
            optimizer.step()
            print("===> Epoch[{}]({}/{}): Loss: {:.4f}".format(epoch, iteration, len(training_data_loader), loss.item()))
        print("===> Epoch {} Complete: Avg. Loss: {:.4f}".format(epoch, epoch_loss / len(training_data_loader)))

    def test():
        avg_psnr = 0
        with torch.no_grad():
            for batch in testing_data_loader:
                input, target = batch[0].to(device), batch[1].to(device)
                prediction = model(input)
                mse = criterion(prediction, target)
                psnr = 10 * math.log10(1 / mse.item())
                avg_psnr += psnr
        print("===> Avg. PSNR: {:.4f} dB".format(avg_psnr / len(testing_data_loader)))

    def checkpoint(epoch):
        model_out_path = "model_epoch_{}.pth".format(epoch)
        torch.save(model, model_out_path)
        print("Checkpoint saved to {}".format(model_out_path))

    with in_temporary_directory():
        for epoch in range(1, opt.nEpochs + 1):
            train(epoch)
            test()
            checkpoint(epoch)
        # super_resolve.py
        model = torch.load("model_epoch_2.pth", weights_only=False)
        input = testing_data_loader.dataset[0][0].view(1, -1, 4, 4)
        out = model(input)
        out_img_y = out[0].detach().numpy()
        out_img_y *= 255.0
        out_img_y = out_img_y.clip(0, 255)
        print(out_img_y.shape, out_img_y.dtype, out_img_y.round().astype(np.uint8)[0, :2])
    return {"conv4.weight": model.conv4.weight, "out": out}


def examples_dcgan(torch):
    """pytorch/examples dcgan/main.py: the opt namespace printed, a seed
    from Python's random, weights_init by class name (init.normal_ for Conv and BatchNorm,
    zeros_), the Generator (ConvTranspose2d, BatchNorm2d, ReLU(True), Tanh) and the
    Discriminator (Conv2d, LeakyReLU(0.2, inplace=True), Sigmoid, view(-1, 1).squeeze(1))
    printed, BCELoss with torch.full labels and fill_, the two Adam optimizers and the
    D/G steps with fake.detach(), the '[%d/%d][%d/%d] Loss_D: %.4f ...' line.
    datasets.FakeData is 12 random 64 x 64 images, ngf = ndf = 4, nz = 8; one epoch."""
    nn, optim = torch.nn, torch.optim
    opt = SimpleNamespace(dataset='fake', dataroot=None, workers=2, batchSize=4, imageSize=64,
                          nz=8, ngf=4, ndf=4, niter=1, lr=0.0002, beta1=0.5, dry_run=False,
                          netG='', netD='', manualSeed=None, classes='bedroom', outf='.')
    print(opt)
    if opt.manualSeed is None:
        opt.manualSeed = random.randint(1, 10000)
    print("Random Seed: ", opt.manualSeed)
    random.seed(opt.manualSeed)
    torch.manual_seed(opt.manualSeed)
    # datasets.FakeData(image_size=(3, opt.imageSize, opt.imageSize), transform=ToTensor()) in small
    g = torch.Generator().manual_seed(3)
    dataset = torch.utils.data.TensorDataset(torch.rand(12, 3, 64, 64, generator=g) * 2 - 1,
                                             torch.randint(0, 10, (12,), generator=g))
    nc = 3
    dataloader = torch.utils.data.DataLoader(dataset, batch_size=opt.batchSize,
                                             shuffle=True, num_workers=int(opt.workers))
    device = torch.device("cpu")
    ngpu = 1
    nz = int(opt.nz)
    ngf = int(opt.ngf)
    ndf = int(opt.ndf)

    def weights_init(m):
        classname = m.__class__.__name__
        if classname.find('Conv') != -1:
            torch.nn.init.normal_(m.weight, 0.0, 0.02)
        elif classname.find('BatchNorm') != -1:
            torch.nn.init.normal_(m.weight, 1.0, 0.02)
            torch.nn.init.zeros_(m.bias)

    class Generator(nn.Module):
        def __init__(self, ngpu):
            super(Generator, self).__init__()
            self.ngpu = ngpu
            self.main = nn.Sequential(
                nn.ConvTranspose2d(     nz, ngf * 8, 4, 1, 0, bias=False),
                nn.BatchNorm2d(ngf * 8),
                nn.ReLU(True),
                nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ngf * 4),
                nn.ReLU(True),
                nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ngf * 2),
                nn.ReLU(True),
                nn.ConvTranspose2d(ngf * 2,     ngf, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ngf),
                nn.ReLU(True),
                nn.ConvTranspose2d(    ngf,      nc, 4, 2, 1, bias=False),
                nn.Tanh()
            )

        def forward(self, input):
            if input.is_cuda and self.ngpu > 1:
                output = nn.parallel.data_parallel(self.main, input, range(self.ngpu))
            else:
                output = self.main(input)
            return output

    netG = Generator(ngpu).to(device)
    netG.apply(weights_init)
    if opt.netG != '':
        netG.load_state_dict(torch.load(opt.netG))
    print(netG)

    class Discriminator(nn.Module):
        def __init__(self, ngpu):
            super(Discriminator, self).__init__()
            self.ngpu = ngpu
            self.main = nn.Sequential(
                nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ndf * 2),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf * 2, ndf * 4, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ndf * 4),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf * 4, ndf * 8, 4, 2, 1, bias=False),
                nn.BatchNorm2d(ndf * 8),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Conv2d(ndf * 8, 1, 4, 1, 0, bias=False),
                nn.Sigmoid()
            )

        def forward(self, input):
            if input.is_cuda and self.ngpu > 1:
                output = nn.parallel.data_parallel(self.main, input, range(self.ngpu))
            else:
                output = self.main(input)
            return output.view(-1, 1).squeeze(1)

    netD = Discriminator(ngpu).to(device)
    netD.apply(weights_init)
    if opt.netD != '':
        netD.load_state_dict(torch.load(opt.netD))
    print(netD)
    criterion = nn.BCELoss()
    fixed_noise = torch.randn(opt.batchSize, nz, 1, 1, device=device)
    real_label = 1
    fake_label = 0
    optimizerD = optim.Adam(netD.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
    optimizerG = optim.Adam(netG.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
    for epoch in range(opt.niter):
        for i, data in enumerate(dataloader, 0):
            netD.zero_grad()
            real_cpu = data[0].to(device)
            batch_size = real_cpu.size(0)
            label = torch.full((batch_size,), real_label,
                               dtype=real_cpu.dtype, device=device)
            output = netD(real_cpu)
            errD_real = criterion(output, label)
            errD_real.backward()
            D_x = output.mean().item()
            noise = torch.randn(batch_size, nz, 1, 1, device=device)
            fake = netG(noise)
            label.fill_(fake_label)
            output = netD(fake.detach())
            errD_fake = criterion(output, label)
            errD_fake.backward()
            D_G_z1 = output.mean().item()
            errD = errD_real + errD_fake
            optimizerD.step()
            netG.zero_grad()
            label.fill_(real_label)
            output = netD(fake)
            errG = criterion(output, label)
            errG.backward()
            D_G_z2 = output.mean().item()
            optimizerG.step()
            print('[%d/%d][%d/%d] Loss_D: %.4f Loss_G: %.4f D(x): %.4f D(G(z)): %.4f / %.4f'
                  % (epoch, opt.niter, i, len(dataloader),
                     errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))
            if i % 100 == 0:
                fake = netG(fixed_noise)
                print(real_cpu.shape, fake.detach().shape)
            if opt.dry_run:
                break
    return {"G.main.0": netG.main[0].weight, "D.main.0.grad": netD.main[0].weight.grad,
            "D.bn": netD.main[3].running_var}


def examples_gat(torch):
    """pytorch/examples gat/main.py: GraphAttentionLayer (xavier_normal_ on a
    3-d parameter, torch.mm, F.dropout with training=self.training, view and permute to
    heads, matmul against slices of ``a``, ``.mT``, LeakyReLU, a -9e16 mask through
    torch.where(adj_mat > 0, ...), softmax, the heads averaged), the two-layer GAT with
    ELU and log_softmax, load_cora's processing (torch.FloatTensor of a string array
    converted, row scaling with inf set to 0, torch.diag, np.unique's labels as a
    LongTensor, the adjacency from the citation pairs plus torch.eye), the
    torch.accelerator check, randperm splits, Adam with weight_decay, NLLLoss on masked
    rows, train/test prints. Cora is 60 seeded papers of 30 word features and 150
    citations; its two sparse steps (``to_sparse()``, ``torch.sparse_coo_tensor``) are dense
    here (zeros and index_put_ with accumulate=True): minigrad has no sparse tensors."""
    nn, F = torch.nn, torch.nn.functional
    Adam = torch.optim.Adam

    class GraphAttentionLayer(nn.Module):
        def __init__(self, in_features: int, out_features: int, n_heads: int, concat: bool = False, dropout: float = 0.4, leaky_relu_slope: float = 0.2):
            super(GraphAttentionLayer, self).__init__()
            self.n_heads = n_heads
            self.concat = concat
            self.dropout = dropout
            if concat:
                self.out_features = out_features
                assert out_features % n_heads == 0
                self.n_hidden = out_features // n_heads
            else:
                self.n_hidden = out_features
            self.W = nn.Parameter(torch.empty(size=(in_features, self.n_hidden * n_heads)))
            self.a = nn.Parameter(torch.empty(size=(n_heads, 2 * self.n_hidden, 1)))
            self.leakyrelu = nn.LeakyReLU(leaky_relu_slope)
            self.softmax = nn.Softmax(dim=1)
            self.reset_parameters()

        def reset_parameters(self):
            nn.init.xavier_normal_(self.W)
            nn.init.xavier_normal_(self.a)

        def _get_attention_scores(self, h_transformed):
            source_scores = torch.matmul(h_transformed, self.a[:, :self.n_hidden, :])
            target_scores = torch.matmul(h_transformed, self.a[:, self.n_hidden:, :])
            e = source_scores + target_scores.mT
            return self.leakyrelu(e)

        def forward(self, h, adj_mat):
            n_nodes = h.shape[0]
            h_transformed = torch.mm(h, self.W)
            h_transformed = F.dropout(h_transformed, self.dropout, training=self.training)
            h_transformed = h_transformed.view(n_nodes, self.n_heads, self.n_hidden).permute(1, 0, 2)
            e = self._get_attention_scores(h_transformed)
            connectivity_mask = -9e16 * torch.ones_like(e)
            e = torch.where(adj_mat > 0, e, connectivity_mask)
            attention = F.softmax(e, dim=-1)
            attention = F.dropout(attention, self.dropout, training=self.training)
            h_prime = torch.matmul(attention, h_transformed)
            if self.concat:
                h_prime = h_prime.permute(1, 0, 2).contiguous().view(n_nodes, self.out_features)
            else:
                h_prime = h_prime.mean(dim=0)
            return h_prime

    class GAT(nn.Module):
        def __init__(self, in_features, n_hidden, n_heads, num_classes, concat=False,
                     dropout=0.4, leaky_relu_slope=0.2):
            super(GAT, self).__init__()
            self.gat1 = GraphAttentionLayer(
                in_features=in_features, out_features=n_hidden, n_heads=n_heads,
                concat=concat, dropout=dropout, leaky_relu_slope=leaky_relu_slope)
            self.gat2 = GraphAttentionLayer(
                in_features=n_hidden, out_features=num_classes, n_heads=1,
                concat=False, dropout=dropout, leaky_relu_slope=leaky_relu_slope)

        def forward(self, input_tensor, adj_mat):
            x = self.gat1(input_tensor, adj_mat)
            x = F.elu(x)
            x = self.gat2(x, adj_mat)
            return F.log_softmax(x, dim=1)

    def load_cora(device='cpu'):
        # the Cora files: 60 papers of 30 binary word features in 4 classes, 150 citations
        rng = np.random.RandomState(0)
        content_tensor = np.concatenate(
            [np.arange(1000, 1060).astype(str)[:, None],
             rng.randint(0, 2, (60, 30)).astype(str),
             np.array(["Theory", "Neural_Networks", "Rule_Learning", "Genetic"])[rng.randint(0, 4, (60, 1))]], axis=1)
        cites_tensor = rng.randint(1000, 1060, (150, 2)).astype(np.int32)
        features = torch.FloatTensor(content_tensor[:, 1:-1].astype(np.int32))
        scale_vector = torch.sum(features, dim=1)
        scale_vector = 1 / scale_vector
        scale_vector[scale_vector == float('inf')] = 0
        scale_vector = torch.diag(scale_vector)  # (.to_sparse(): minigrad has dense tensors only)
        features = scale_vector @ features
        classes, labels = np.unique(content_tensor[:, -1], return_inverse=True)
        labels = torch.LongTensor(labels)
        idx = content_tensor[:, 0].astype(np.int32)
        idx_map = {id: pos for pos, id in enumerate(idx)}
        edges = np.array(
            list(map(lambda edge: [idx_map[edge[0]], idx_map[edge[1]]],
                     cites_tensor)), dtype=np.int32)
        V = len(idx)
        E = edges.shape[0]
        adj_mat = torch.zeros(V, V, dtype=torch.int64)  # (torch.sparse_coo_tensor(edges.T, ...))
        adj_mat.index_put_((torch.from_numpy(edges[:, 0]).long(), torch.from_numpy(edges[:, 1]).long()),
                           torch.ones(E, dtype=torch.int64), accumulate=True)
        adj_mat = torch.eye(V) + adj_mat
        return features.to(device), labels.to(device), adj_mat.to(device)

    def train_iter(epoch, model, optimizer, criterion, input, target, mask_train, mask_val, print_every=10):
        model.train()
        optimizer.zero_grad()
        output = model(*input)
        loss = criterion(output[mask_train], target[mask_train])
        loss.backward()
        optimizer.step()
        loss_train, acc_train = test(model, criterion, input, target, mask_train)
        loss_val, acc_val = test(model, criterion, input, target, mask_val)
        if epoch % print_every == 0:
            print(f'Epoch: {epoch:04d} loss_train: {loss_train:.4f} acc_train: {acc_train:.4f} loss_val: {loss_val:.4f} acc_val: {acc_val:.4f}')

    def test(model, criterion, input, target, mask):
        model.eval()
        with torch.no_grad():
            output = model(*input)
            output, target = output[mask], target[mask]
            loss = criterion(output, target)
            acc = (output.argmax(dim=1) == target).float().sum() / len(target)
        return loss.item(), acc.item()

    args = SimpleNamespace(epochs=30, lr=0.005, l2=5e-4, dropout_p=0.6, hidden_dim=16,
                           num_heads=4, concat_heads=False, val_every=5, no_accel=False,
                           dry_run=False, seed=13)
    torch.manual_seed(args.seed)
    use_accel = not args.no_accel and torch.accelerator.is_available()
    if use_accel:
        device = torch.accelerator.current_accelerator()
    else:
        device = torch.device('cpu')
    print(f'Using {device} device')
    print('Loading dataset...')
    features, labels, adj_mat = load_cora(device=device)
    idx = torch.randperm(len(labels)).to(device)
    idx_test, idx_val, idx_train = idx[:15], idx[15:25], idx[25:]
    gat_net = GAT(
        in_features=features.shape[1],
        n_hidden=args.hidden_dim,
        n_heads=args.num_heads,
        num_classes=labels.max().item() + 1,
        concat=args.concat_heads,
        dropout=args.dropout_p,
        leaky_relu_slope=0.2
    ).to(device)
    optimizer = Adam(gat_net.parameters(), lr=args.lr, weight_decay=args.l2)
    criterion = nn.NLLLoss()
    for epoch in range(args.epochs):
        train_iter(epoch + 1, gat_net, optimizer, criterion, (features, adj_mat), labels, idx_train, idx_val, args.val_every)
        if args.dry_run:
            break
    loss_test, acc_test = test(gat_net, criterion, (features, adj_mat), labels, idx_test)
    print(f'Test set results: loss {loss_test:.4f} accuracy {acc_test:.4f}')
    return {"gat2.W": gat_net.gat2.W, "gat1.a.grad": gat_net.gat1.a.grad}


# ---- yunjey/pytorch-tutorial: 02-intermediate, 03-advanced --------------------------------

def yunjey_intermediate(torch):
    """yunjey/pytorch-tutorial tutorials/02-intermediate:
    convolutional_neural_network/main.py (ConvNet of two Conv2d-BatchNorm2d-ReLU-MaxPool2d
    Sequentials, Adam, the step prints, eval() and accuracy with torch.max(outputs.data, 1),
    the state dict saved), recurrent_neural_network/main.py and
    bidirectional_recurrent_neural_network/main.py (an LSTM of two layers, batch_first,
    bidirectional, over an image's rows, zero initial states, the last step's output to a
    Linear), deep_residual_network/main.py (conv3x3, ResidualBlock with ``out += residual``
    and a downsample Sequential, ResNet's make_layer, AvgPool2d(8), update_lr through
    param_groups; Pad(4), RandomHorizontalFlip and RandomCrop(32) done with F.pad, flip and
    torch.randint) and language_model (data_utils.py's Corpus filling a
    torch.LongTensor(tokens) element by element, RNNLM with an Embedding, an LSTM and a
    Linear, detach of the states, clip_grad_norm_, sampling with torch.multinomial and
    input.fill_). MNIST and CIFAR10 are random images, the Penn Treebank a made-up corpus;
    smaller layers and two epochs."""
    nn = torch.nn
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    finals = {}
    # convolutional_neural_network/main.py
    num_epochs = 2
    num_classes = 10
    batch_size = 10
    learning_rate = 0.001
    train_dataset, test_dataset = image_dataset(torch, 30, seed=1), image_dataset(torch, 10, seed=2)
    train_loader = torch.utils.data.DataLoader(dataset=train_dataset, batch_size=batch_size,
                                               shuffle=True)
    test_loader = torch.utils.data.DataLoader(dataset=test_dataset, batch_size=batch_size,
                                              shuffle=False)

    class ConvNet(nn.Module):
        def __init__(self, num_classes=10):
            super(ConvNet, self).__init__()
            self.layer1 = nn.Sequential(
                nn.Conv2d(1, 16, kernel_size=5, stride=1, padding=2),
                nn.BatchNorm2d(16),
                nn.ReLU(),
                nn.MaxPool2d(kernel_size=2, stride=2))
            self.layer2 = nn.Sequential(
                nn.Conv2d(16, 32, kernel_size=5, stride=1, padding=2),
                nn.BatchNorm2d(32),
                nn.ReLU(),
                nn.MaxPool2d(kernel_size=2, stride=2))
            self.fc = nn.Linear(7*7*32, num_classes)

        def forward(self, x):
            out = self.layer1(x)
            out = self.layer2(out)
            out = out.reshape(out.size(0), -1)
            out = self.fc(out)
            return out

    model = ConvNet(num_classes).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    total_step = len(train_loader)
    for epoch in range(num_epochs):
        for i, (images, labels) in enumerate(train_loader):
            images = images.to(device)
            labels = labels.to(device)
            outputs = model(images)
            loss = criterion(outputs, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if (i+1) % 2 == 0:
                print ('Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}'
                       .format(epoch+1, num_epochs, i+1, total_step, loss.item()))
    model.eval()
    with torch.no_grad():
        correct = 0
        total = 0
        for images, labels in test_loader:
            images = images.to(device)
            labels = labels.to(device)
            outputs = model(images)
            _, predicted = torch.max(outputs.data, 1)
            total += labels.size(0)
            correct += (predicted == labels).sum().item()
        print('Test Accuracy of the model on the 10000 test images: {} %'.format(100 * correct / total))
    with in_temporary_directory():
        torch.save(model.state_dict(), 'model.ckpt')
    finals["cnn.fc"] = model.fc.bias
    finals["cnn.running_var"] = model.layer2[1].running_var

    # recurrent_neural_network/main.py and bidirectional_recurrent_neural_network/main.py
    sequence_length = 28
    input_size = 28
    hidden_size = 16
    num_layers = 2

    class RNN(nn.Module):
        def __init__(self, input_size, hidden_size, num_layers, num_classes):
            super(RNN, self).__init__()
            self.hidden_size = hidden_size
            self.num_layers = num_layers
            self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
            self.fc = nn.Linear(hidden_size, num_classes)

        def forward(self, x):
            h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
            c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
            out, _ = self.lstm(x, (h0, c0))
            out = self.fc(out[:, -1, :])
            return out

    class BiRNN(nn.Module):
        def __init__(self, input_size, hidden_size, num_layers, num_classes):
            super(BiRNN, self).__init__()
            self.hidden_size = hidden_size
            self.num_layers = num_layers
            self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True, bidirectional=True)
            self.fc = nn.Linear(hidden_size*2, num_classes)

        def forward(self, x):
            h0 = torch.zeros(self.num_layers*2, x.size(0), self.hidden_size).to(device)
            c0 = torch.zeros(self.num_layers*2, x.size(0), self.hidden_size).to(device)
            out, _ = self.lstm(x, (h0, c0))
            out = self.fc(out[:, -1, :])
            return out

    for Model, learning_rate in [(RNN, 0.01), (BiRNN, 0.003)]:
        model = Model(input_size, hidden_size, num_layers, num_classes).to(device)
        criterion = nn.CrossEntropyLoss()
        optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
        total_step = len(train_loader)
        for epoch in range(num_epochs):
            for i, (images, labels) in enumerate(train_loader):
                images = images.reshape(-1, sequence_length, input_size).to(device)
                labels = labels.to(device)
                outputs = model(images)
                loss = criterion(outputs, labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                if (i+1) % 2 == 0:
                    print ('Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}'
                           .format(epoch+1, num_epochs, i+1, total_step, loss.item()))
        with torch.no_grad():
            correct = 0
            total = 0
            for images, labels in test_loader:
                images = images.reshape(-1, sequence_length, input_size).to(device)
                labels = labels.to(device)
                outputs = model(images)
                _, predicted = torch.max(outputs.data, 1)
                total += labels.size(0)
                correct += (predicted == labels).sum().item()
            print('Test Accuracy of the model on the 10000 test images: {} %'.format(100 * correct / total))
        finals[Model.__name__] = model.fc.weight

    # deep_residual_network/main.py
    def padded_flipped_cropped(n, seed):
        data = image_dataset(torch, n, shape=(3, 32, 32), seed=seed)

        class Augmented(torch.utils.data.Dataset):
            def __len__(self):
                return len(data)

            def __getitem__(self, i):  # transforms.Pad(4), RandomHorizontalFlip, RandomCrop(32)
                image, label = data[i]
                image = torch.nn.functional.pad(image, (4, 4, 4, 4))
                if torch.rand(1) < 0.5:
                    image = image.flip(-1)
                top, left = torch.randint(0, 9, size=(1,)).item(), torch.randint(0, 9, size=(1,)).item()
                return image[:, top:top + 32, left:left + 32], label
        return Augmented()
    train_dataset = padded_flipped_cropped(10, 3)
    test_dataset = image_dataset(torch, 5, shape=(3, 32, 32), seed=4)
    train_loader = torch.utils.data.DataLoader(dataset=train_dataset, batch_size=5, shuffle=True)
    test_loader = torch.utils.data.DataLoader(dataset=test_dataset, batch_size=5, shuffle=False)

    def conv3x3(in_channels, out_channels, stride=1):
        return nn.Conv2d(in_channels, out_channels, kernel_size=3,
                         stride=stride, padding=1, bias=False)

    class ResidualBlock(nn.Module):
        def __init__(self, in_channels, out_channels, stride=1, downsample=None):
            super(ResidualBlock, self).__init__()
            self.conv1 = conv3x3(in_channels, out_channels, stride)
            self.bn1 = nn.BatchNorm2d(out_channels)
            self.relu = nn.ReLU(inplace=True)
            self.conv2 = conv3x3(out_channels, out_channels)
            self.bn2 = nn.BatchNorm2d(out_channels)
            self.downsample = downsample

        def forward(self, x):
            residual = x
            out = self.conv1(x)
            out = self.bn1(out)
            out = self.relu(out)
            out = self.conv2(out)
            out = self.bn2(out)
            if self.downsample:
                residual = self.downsample(x)
            out += residual
            out = self.relu(out)
            return out

    class ResNet(nn.Module):
        def __init__(self, block, layers, num_classes=10):
            super(ResNet, self).__init__()
            self.in_channels = 16
            self.conv = conv3x3(3, 16)
            self.bn = nn.BatchNorm2d(16)
            self.relu = nn.ReLU(inplace=True)
            self.layer1 = self.make_layer(block, 16, layers[0])
            self.layer2 = self.make_layer(block, 32, layers[1], 2)
            self.layer3 = self.make_layer(block, 64, layers[2], 2)
            self.avg_pool = nn.AvgPool2d(8)
            self.fc = nn.Linear(64, num_classes)

        def make_layer(self, block, out_channels, blocks, stride=1):
            downsample = None
            if (stride != 1) or (self.in_channels != out_channels):
                downsample = nn.Sequential(
                    conv3x3(self.in_channels, out_channels, stride=stride),
                    nn.BatchNorm2d(out_channels))
            layers = []
            layers.append(block(self.in_channels, out_channels, stride, downsample))
            self.in_channels = out_channels
            for i in range(1, blocks):
                layers.append(block(out_channels, out_channels))
            return nn.Sequential(*layers)

        def forward(self, x):
            out = self.conv(x)
            out = self.bn(out)
            out = self.relu(out)
            out = self.layer1(out)
            out = self.layer2(out)
            out = self.layer3(out)
            out = self.avg_pool(out)
            out = out.view(out.size(0), -1)
            out = self.fc(out)
            return out

    model = ResNet(ResidualBlock, [1, 1, 1]).to(device)
    criterion = nn.CrossEntropyLoss()
    curr_lr = learning_rate = 0.001
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

    def update_lr(optimizer, lr):
        for param_group in optimizer.param_groups:
            param_group['lr'] = lr

    total_step = len(train_loader)
    for epoch in range(2):
        for i, (images, labels) in enumerate(train_loader):
            images = images.to(device)
            labels = labels.to(device)
            outputs = model(images)
            loss = criterion(outputs, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print ("Epoch [{}/{}], Step [{}/{}] Loss: {:.4f}"
                   .format(epoch+1, 2, i+1, total_step, loss.item()))
        if (epoch+1) % 1 == 0:
            curr_lr /= 3
            update_lr(optimizer, curr_lr)
    model.eval()
    with torch.no_grad():
        correct = 0
        total = 0
        for images, labels in test_loader:
            images = images.to(device)
            labels = labels.to(device)
            outputs = model(images)
            _, predicted = torch.max(outputs.data, 1)
            total += labels.size(0)
            correct += (predicted == labels).sum().item()
        print('Accuracy of the model on the test images: {} %'.format(100 * correct / total))
    finals["resnet.fc.bias"] = model.fc.bias
    finals["resnet.bn"] = model.bn.running_mean

    # language_model/data_utils.py and main.py
    class Dictionary(object):
        def __init__(self):
            self.word2idx = {}
            self.idx2word = {}
            self.idx = 0

        def add_word(self, word):
            if not word in self.word2idx:
                self.word2idx[word] = self.idx
                self.idx2word[self.idx] = word
                self.idx += 1

        def __len__(self):
            return len(self.word2idx)

    class Corpus(object):
        def __init__(self):
            self.dictionary = Dictionary()

        def get_data(self, path, batch_size=20):
            with open(path, 'r') as f:
                tokens = 0
                for line in f:
                    words = line.split() + ['<eos>']
                    tokens += len(words)
                    for word in words:
                        self.dictionary.add_word(word)
            ids = torch.LongTensor(tokens)
            token = 0
            with open(path, 'r') as f:
                for line in f:
                    words = line.split() + ['<eos>']
                    for word in words:
                        ids[token] = self.dictionary.word2idx[word]
                        token += 1
            num_batches = ids.size(0) // batch_size
            ids = ids[:num_batches*batch_size]
            return ids.view(batch_size, -1)

    from_nn_utils = torch.nn.utils.clip_grad_norm_
    embed_size, hidden_size, num_layers, num_epochs = 8, 16, 1, 3
    num_samples, batch_size, seq_length, learning_rate = 30, 4, 5, 0.002
    with in_temporary_directory():
        with open('train.txt', 'w') as f:
            f.write("\n".join(CORPUS * 3) + "\n")
        corpus = Corpus()
        ids = corpus.get_data('train.txt', batch_size)
    vocab_size = len(corpus.dictionary)
    num_batches = ids.size(1) // seq_length

    class RNNLM(nn.Module):
        def __init__(self, vocab_size, embed_size, hidden_size, num_layers):
            super(RNNLM, self).__init__()
            self.embed = nn.Embedding(vocab_size, embed_size)
            self.lstm = nn.LSTM(embed_size, hidden_size, num_layers, batch_first=True)
            self.linear = nn.Linear(hidden_size, vocab_size)

        def forward(self, x, h):
            x = self.embed(x)
            out, (h, c) = self.lstm(x, h)
            out = out.reshape(out.size(0)*out.size(1), out.size(2))
            out = self.linear(out)
            return out, (h, c)

    model = RNNLM(vocab_size, embed_size, hidden_size, num_layers).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

    def detach(states):
        return [state.detach() for state in states]

    for epoch in range(num_epochs):
        states = (torch.zeros(num_layers, batch_size, hidden_size).to(device),
                  torch.zeros(num_layers, batch_size, hidden_size).to(device))
        for i in range(0, ids.size(1) - seq_length, seq_length):
            inputs = ids[:, i:i+seq_length].to(device)
            targets = ids[:, (i+1):(i+1)+seq_length].to(device)
            states = detach(states)
            outputs, states = model(inputs, states)
            loss = criterion(outputs, targets.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            from_nn_utils(model.parameters(), 0.5)
            optimizer.step()
            step = (i+1) // seq_length
            if step % 2 == 0:
                print ('Epoch [{}/{}], Step[{}/{}], Loss: {:.4f}, Perplexity: {:5.2f}'
                       .format(epoch+1, num_epochs, step, num_batches, loss.item(), np.exp(loss.item())))
    with torch.no_grad():
        words = []
        state = (torch.zeros(num_layers, 1, hidden_size).to(device),
                 torch.zeros(num_layers, 1, hidden_size).to(device))
        prob = torch.ones(vocab_size)
        input = torch.multinomial(prob, num_samples=1).unsqueeze(1).to(device)
        for i in range(num_samples):
            output, state = model(input, state)
            prob = output.exp()
            word_id = torch.multinomial(prob, num_samples=1).item()
            input.fill_(word_id)
            word = corpus.dictionary.idx2word[word_id]
            word = '\n' if word == '<eos>' else word + ' '
            words.append(word)
            if (i+1) % 10 == 0:
                print('Sampled [{}/{}] words and save to {}'.format(i+1, num_samples, 'sample.txt'))
        print(''.join(words))
    finals["rnnlm.linear"] = model.linear.weight
    return finals


def yunjey_advanced(torch):
    """yunjey/pytorch-tutorial tutorials/03-advanced:
    generative_adversarial_network/main.py (D and G as Sequentials of Linear, LeakyReLU(0.2),
    ReLU, Tanh, Sigmoid; BCELoss against torch.ones/zeros labels, two Adam optimizers,
    reset_grad, the step print with D(x) and D(G(z)), denorm's clamp) and
    variational_autoencoder/main.py (encode, reparameterize with randn_like, F.sigmoid,
    binary_cross_entropy with the legacy ``size_average=False`` and PyTorch's warning,
    the KL term, decoded samples and the reconstruction torch.cat(dim=3)); random MNIST
    images, smaller layers, two epochs (save_image left out: shapes and means printed)."""
    nn, F = torch.nn, torch.nn.functional
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    finals = {}
    # generative_adversarial_network/main.py
    latent_size = 16
    hidden_size = 32
    image_size = 784
    num_epochs = 2
    batch_size = 10

    def normalized(n, seed):
        data = image_dataset(torch, n, seed=seed)

        class Normalized(torch.utils.data.Dataset):
            def __len__(self):
                return len(data)

            def __getitem__(self, i):
                image, label = data[i]
                return (image - 0.5) / 0.5, label
        return Normalized()
    mnist = normalized(30, 1)
    data_loader = torch.utils.data.DataLoader(dataset=mnist, batch_size=batch_size, shuffle=True)
    D = nn.Sequential(
        nn.Linear(image_size, hidden_size),
        nn.LeakyReLU(0.2),
        nn.Linear(hidden_size, hidden_size),
        nn.LeakyReLU(0.2),
        nn.Linear(hidden_size, 1),
        nn.Sigmoid())
    G = nn.Sequential(
        nn.Linear(latent_size, hidden_size),
        nn.ReLU(),
        nn.Linear(hidden_size, hidden_size),
        nn.ReLU(),
        nn.Linear(hidden_size, image_size),
        nn.Tanh())
    D = D.to(device)
    G = G.to(device)
    criterion = nn.BCELoss()
    d_optimizer = torch.optim.Adam(D.parameters(), lr=0.0002)
    g_optimizer = torch.optim.Adam(G.parameters(), lr=0.0002)

    def denorm(x):
        out = (x + 1) / 2
        return out.clamp(0, 1)

    def reset_grad():
        d_optimizer.zero_grad()
        g_optimizer.zero_grad()

    total_step = len(data_loader)
    for epoch in range(num_epochs):
        for i, (images, _) in enumerate(data_loader):
            images = images.reshape(batch_size, -1).to(device)
            real_labels = torch.ones(batch_size, 1).to(device)
            fake_labels = torch.zeros(batch_size, 1).to(device)
            outputs = D(images)
            d_loss_real = criterion(outputs, real_labels)
            real_score = outputs
            z = torch.randn(batch_size, latent_size).to(device)
            fake_images = G(z)
            outputs = D(fake_images)
            d_loss_fake = criterion(outputs, fake_labels)
            fake_score = outputs
            d_loss = d_loss_real + d_loss_fake
            reset_grad()
            d_loss.backward()
            d_optimizer.step()
            z = torch.randn(batch_size, latent_size).to(device)
            fake_images = G(z)
            outputs = D(fake_images)
            g_loss = criterion(outputs, real_labels)
            reset_grad()
            g_loss.backward()
            g_optimizer.step()
            if (i+1) % 1 == 0:
                print('Epoch [{}/{}], Step [{}/{}], d_loss: {:.4f}, g_loss: {:.4f}, D(x): {:.2f}, D(G(z)): {:.2f}'
                      .format(epoch, num_epochs, i+1, total_step, d_loss.item(), g_loss.item(),
                              real_score.mean().item(), fake_score.mean().item()))
        if (epoch+1) == 1:
            images = images.reshape(images.size(0), 1, 28, 28)
            print(denorm(images).shape)
        fake_images = fake_images.reshape(fake_images.size(0), 1, 28, 28)
        print(denorm(fake_images).mean())
    finals["G.4.bias"] = G[4].bias
    finals["D.0.grad"] = D[4].weight.grad

    # variational_autoencoder/main.py
    h_dim = 40
    z_dim = 8
    num_epochs = 2
    batch_size = 10
    learning_rate = 1e-3
    dataset = image_dataset(torch, 30, seed=2)
    data_loader = torch.utils.data.DataLoader(dataset=dataset, batch_size=batch_size, shuffle=True)

    class VAE(nn.Module):
        def __init__(self, image_size=784, h_dim=400, z_dim=20):
            super(VAE, self).__init__()
            self.fc1 = nn.Linear(image_size, h_dim)
            self.fc2 = nn.Linear(h_dim, z_dim)
            self.fc3 = nn.Linear(h_dim, z_dim)
            self.fc4 = nn.Linear(z_dim, h_dim)
            self.fc5 = nn.Linear(h_dim, image_size)

        def encode(self, x):
            h = F.relu(self.fc1(x))
            return self.fc2(h), self.fc3(h)

        def reparameterize(self, mu, log_var):
            std = torch.exp(log_var/2)
            eps = torch.randn_like(std)
            return mu + eps * std

        def decode(self, z):
            h = F.relu(self.fc4(z))
            return F.sigmoid(self.fc5(h))

        def forward(self, x):
            mu, log_var = self.encode(x)
            z = self.reparameterize(mu, log_var)
            x_reconst = self.decode(z)
            return x_reconst, mu, log_var

    model = VAE(image_size, h_dim, z_dim).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    for epoch in range(num_epochs):
        for i, (x, _) in enumerate(data_loader):
            x = x.to(device).view(-1, image_size)
            x_reconst, mu, log_var = model(x)
            reconst_loss = F.binary_cross_entropy(x_reconst, x, size_average=False)
            kl_div = - 0.5 * torch.sum(1 + log_var - mu.pow(2) - log_var.exp())
            loss = reconst_loss + kl_div
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if (i+1) % 1 == 0:
                print ("Epoch[{}/{}], Step [{}/{}], Reconst Loss: {:.4f}, KL Div: {:.4f}"
                       .format(epoch+1, num_epochs, i+1, len(data_loader), reconst_loss.item(), kl_div.item()))
        with torch.no_grad():
            z = torch.randn(batch_size, z_dim).to(device)
            out = model.decode(z).view(-1, 1, 28, 28)
            out, _, _ = model(x)
            x_concat = torch.cat([x.view(-1, 1, 28, 28), out.view(-1, 1, 28, 28)], dim=3)
            print(x_concat.shape, x_concat.mean())
    finals["vae.fc5.bias"] = model.fc5.bias
    return finals


# ---- "PyTorch basics" repositories: jcjohnson, MorvanZhou -------------------------------

def jcjohnson_pytorch_examples(torch):
    """jcjohnson/pytorch-examples tensor/two_layer_net_tensor.py (hand-written backward
    with clamp(min=0), clone and grad_h[h < 0] = 0), autograd/two_layer_net_autograd.py,
    autograd/two_layer_net_custom_function.py (MyReLU with ``x, = ctx.saved_tensors``),
    nn/two_layer_net_nn.py (MSELoss(reduction='sum'), ``param.data -=``),
    nn/two_layer_net_optim.py (Adam), nn/two_layer_net_module.py and nn/dynamic_net.py
    (random.randint picks the depth; SGD with momentum): the repository's sizes, 40
    steps each where it takes 500 (past about 150 the loss is near its floor and the
    last digits are the matrix products' rounding, see README)."""
    device = torch.device('cpu')
    N, D_in, H, D_out = 64, 1000, 100, 10
    steps = 40
    x = torch.randn(N, D_in, device=device)
    y = torch.randn(N, D_out, device=device)
    w1 = torch.randn(D_in, H, device=device)
    w2 = torch.randn(H, D_out, device=device)
    learning_rate = 1e-6
    for t in range(steps):
        h = x.mm(w1)
        h_relu = h.clamp(min=0)
        y_pred = h_relu.mm(w2)
        loss = (y_pred - y).pow(2).sum()
        if t % 10 == 9:
            print(t, loss.item())
        grad_y_pred = 2.0 * (y_pred - y)
        grad_w2 = h_relu.t().mm(grad_y_pred)
        grad_h_relu = grad_y_pred.mm(w2.t())
        grad_h = grad_h_relu.clone()
        grad_h[h < 0] = 0
        grad_w1 = x.t().mm(grad_h)
        w1 -= learning_rate * grad_w1
        w2 -= learning_rate * grad_w2

    class MyReLU(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.clamp(min=0)

        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            grad_x = grad_output.clone()
            grad_x[x < 0] = 0
            return grad_x

    # (the first layers' weights, 1000 x 100 values near 1 changed by steps of 1e-6 times
    # products of 1000 terms, end within float32 rounding of PyTorch's, not within rtol
    # of each tiny element: the second layers' are compared)
    finals = {"tensor_w2": w2}
    for name, relu in (("autograd", lambda v: v.clamp(min=0)), ("custom", MyReLU.apply)):
        x = torch.randn(N, D_in, device=device)
        y = torch.randn(N, D_out, device=device)
        w1 = torch.randn(D_in, H, device=device, requires_grad=True)
        w2 = torch.randn(H, D_out, device=device, requires_grad=True)
        for t in range(steps):
            y_pred = relu(x.mm(w1)).mm(w2)
            loss = (y_pred - y).pow(2).sum()
            if t % 10 == 9:
                print(t, loss.item())
            loss.backward()
            with torch.no_grad():
                w1 -= learning_rate * w1.grad
                w2 -= learning_rate * w2.grad
                w1.grad.zero_()
                w2.grad.zero_()
        print(y_pred.grad_fn, w1.grad.sum())
        finals[f"{name}_w2"] = w2

    x = torch.randn(N, D_in, device=device)
    y = torch.randn(N, D_out, device=device)
    model = torch.nn.Sequential(
        torch.nn.Linear(D_in, H),
        torch.nn.ReLU(),
        torch.nn.Linear(H, D_out),
    ).to(device)
    loss_fn = torch.nn.MSELoss(reduction='sum')
    for t in range(steps):
        y_pred = model(x)
        loss = loss_fn(y_pred, y)
        if t % 10 == 9:
            print(t, loss.item())
        model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for param in model.parameters():
                param.data -= 1e-4 * param.grad
    print(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for t in range(steps):
        loss = loss_fn(model(x), y)
        if t % 10 == 9:
            print(t, loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    finals.update({f"nn_{k}": v for k, v in model.state_dict().items() if v.numel() < 10000})

    class TwoLayerNet(torch.nn.Module):
        def __init__(self, D_in, H, D_out):
            super(TwoLayerNet, self).__init__()
            self.linear1 = torch.nn.Linear(D_in, H)
            self.linear2 = torch.nn.Linear(H, D_out)

        def forward(self, x):
            h_relu = self.linear1(x).clamp(min=0)
            y_pred = self.linear2(h_relu)
            return y_pred

    class DynamicNet(torch.nn.Module):
        def __init__(self, D_in, H, D_out):
            super(DynamicNet, self).__init__()
            self.input_linear = torch.nn.Linear(D_in, H)
            self.middle_linear = torch.nn.Linear(H, H)
            self.output_linear = torch.nn.Linear(H, D_out)

        def forward(self, x):
            h_relu = self.input_linear(x).clamp(min=0)
            for _ in range(random.randint(0, 3)):
                h_relu = self.middle_linear(h_relu).clamp(min=0)
            y_pred = self.output_linear(h_relu)
            return y_pred

    for Net, momentum in ((TwoLayerNet, 0), (DynamicNet, 0.9)):
        x = torch.randn(N, D_in)
        y = torch.randn(N, D_out)
        model = Net(D_in, H, D_out)
        criterion = torch.nn.MSELoss(reduction='sum')
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=momentum)
        for t in range(steps):
            y_pred = model(x)
            loss = criterion(y_pred, y)
            if t % 10 == 9:
                print(t, loss.item())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(model)
        finals.update({f"{Net.__name__}_{k}": v for k, v in model.state_dict().items()
                       if v.numel() < 10000})
    return finals


def morvan_basics(torch):
    """MorvanZhou/PyTorch-Tutorial tutorial-contents/201_torch_numpy.py (from_numpy,
    FloatTensor, abs, sin, mean, mm, and ``tensor.dot`` of matrices, which raises),
    202_variable.py (Variable, mean of x*x, backward, .data), 203_activation.py (relu,
    sigmoid, tanh, softplus of a linspace; the plots are printed points),
    301_regression.py, 302_classification.py (torch.normal of a tensor mean,
    ``.type(torch.FloatTensor)``/``.type(torch.LongTensor)``, CrossEntropyLoss, the plotted
    "Loss=%.4f"/"Accuracy=%.2f" texts printed), 303_build_nn_quickly.py, 304_save_reload.py
    (a whole pickled net, loaded with weights_only=False as PyTorch 2.6 on requires, and
    a state_dict), 305_batch_train.py (TensorDataset, DataLoader shuffle, num_workers=2)
    and 306_optimizer.py (SGD, momentum, RMSprop(alpha=0.9), Adam(betas=(0.9, 0.99)) side
    by side, losses recorded as ``loss.data.numpy()``; 2 epochs of 12)."""
    F = torch.nn.functional
    Variable = torch.autograd.Variable
    Data = torch.utils.data
    np_data = np.arange(6).reshape((2, 3))
    torch_data = torch.from_numpy(np_data)
    tensor2array = torch_data.numpy()
    print('\nnumpy array:', np_data, '\ntorch tensor:', torch_data,
          '\ntensor to array:', tensor2array,)
    data = [-1, -2, 1, 2]
    tensor = torch.FloatTensor(data)
    print('\nabs', '\nnumpy: ', np.abs(data), '\ntorch: ', torch.abs(tensor))
    print('\nsin', '\nnumpy: ', np.sin(data), '\ntorch: ', torch.sin(tensor))
    print('\nmean', '\nnumpy: ', np.mean(data), '\ntorch: ', torch.mean(tensor))
    data = [[1, 2], [3, 4]]
    tensor = torch.FloatTensor(data)
    print('\nmatrix multiplication (matmul)', '\nnumpy: ', np.matmul(data, data),
          '\ntorch: ', torch.mm(tensor, tensor))
    data = np.array(data)
    try:
        print('\nmatrix multiplication (dot)', '\nnumpy: ', data.dot(data),
              '\ntorch: ', tensor.dot(tensor))
    except RuntimeError as e:
        print(type(e).__name__, e)

    tensor = torch.FloatTensor([[1, 2], [3, 4]])
    variable = Variable(tensor, requires_grad=True)
    print(tensor)
    print(variable)
    t_out = torch.mean(tensor * tensor)
    v_out = torch.mean(variable * variable)
    print(t_out)
    print(v_out)
    v_out.backward()
    print(variable.grad)
    print(variable)
    print(variable.data)
    print(variable.data.numpy())

    x = torch.linspace(-5, 5, 200)
    x = Variable(x)
    x_np = x.data.numpy()
    y_relu = torch.relu(x).data.numpy()
    y_sigmoid = torch.sigmoid(x).data.numpy()
    y_tanh = torch.tanh(x).data.numpy()
    y_softplus = F.softplus(x).data.numpy()
    for curve in (x_np, y_relu, y_sigmoid, y_tanh, y_softplus):
        print([round(float(v), 4) for v in curve[::25]])

    class Net(torch.nn.Module):
        def __init__(self, n_feature, n_hidden, n_output):
            super(Net, self).__init__()
            self.hidden = torch.nn.Linear(n_feature, n_hidden)
            self.predict = torch.nn.Linear(n_hidden, n_output)

        def forward(self, x):
            x = F.relu(self.hidden(x))
            x = self.predict(x)
            return x

    x = torch.unsqueeze(torch.linspace(-1, 1, 100), dim=1)
    y = x.pow(2) + 0.2 * torch.rand(x.size())
    net = Net(n_feature=1, n_hidden=10, n_output=1)
    print(net)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.2)
    loss_func = torch.nn.MSELoss()
    for t in range(200):
        prediction = net(x)
        loss = loss_func(prediction, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if t % 20 == 0:
            print('Loss=%.4f' % loss.data.numpy(), prediction.data.numpy()[::33, 0].tolist())
    finals = {f"regression_{k}": v for k, v in net.state_dict().items()}

    class Classifier(torch.nn.Module):
        def __init__(self, n_feature, n_hidden, n_output):
            super(Classifier, self).__init__()
            self.hidden = torch.nn.Linear(n_feature, n_hidden)
            self.out = torch.nn.Linear(n_hidden, n_output)

        def forward(self, x):
            x = F.relu(self.hidden(x))
            x = self.out(x)
            return x

    n_data = torch.ones(100, 2)
    x0 = torch.normal(2 * n_data, 1)
    y0 = torch.zeros(100)
    x1 = torch.normal(-2 * n_data, 1)
    y1 = torch.ones(100)
    x = torch.cat((x0, x1), 0).type(torch.FloatTensor)
    y = torch.cat((y0, y1), ).type(torch.LongTensor)
    print(x.dtype, y.dtype, isinstance(x, torch.FloatTensor), isinstance(y, torch.FloatTensor))
    net = Classifier(n_feature=2, n_hidden=10, n_output=2)
    print(net)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.02)
    loss_func = torch.nn.CrossEntropyLoss()
    for t in range(100):
        out = net(x)
        loss = loss_func(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if t % 10 == 0:
            prediction = torch.max(out, 1)[1]
            pred_y = prediction.data.numpy()
            target_y = y.data.numpy()
            accuracy = float((pred_y == target_y).astype(int).sum()) / float(target_y.size)
            print('Accuracy=%.2f' % accuracy, loss)
    finals.update({f"classification_{k}": v for k, v in net.state_dict().items()})

    net1 = Net(1, 10, 1)
    net2 = torch.nn.Sequential(
        torch.nn.Linear(1, 10),
        torch.nn.ReLU(),
        torch.nn.Linear(10, 1)
    )
    print(net1)
    print(net2)

    x = torch.unsqueeze(torch.linspace(-1, 1, 100), dim=1)
    y = x.pow(2) + 0.2 * torch.rand(x.size())
    with in_temporary_directory():
        net1 = torch.nn.Sequential(torch.nn.Linear(1, 10), torch.nn.ReLU(), torch.nn.Linear(10, 1))
        optimizer = torch.optim.SGD(net1.parameters(), lr=0.5)
        loss_func = torch.nn.MSELoss()
        for t in range(100):
            prediction = net1(x)
            loss = loss_func(prediction, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        torch.save(net1, 'net.pkl')
        torch.save(net1.state_dict(), 'net_params.pkl')
        net2 = torch.load('net.pkl', weights_only=False)
        net3 = torch.nn.Sequential(torch.nn.Linear(1, 10), torch.nn.ReLU(), torch.nn.Linear(10, 1))
        print(net3.load_state_dict(torch.load('net_params.pkl')))
        for net in (net1, net2, net3):
            print(net(x)[::25].T)

    torch.manual_seed(1)
    BATCH_SIZE = 5
    x = torch.linspace(1, 10, 10)
    y = torch.linspace(10, 1, 10)
    torch_dataset = Data.TensorDataset(x, y)
    loader = Data.DataLoader(dataset=torch_dataset, batch_size=BATCH_SIZE, shuffle=True,
                             num_workers=2,)
    for epoch in range(3):
        for step, (batch_x, batch_y) in enumerate(loader):
            print('Epoch: ', epoch, '| Step: ', step, '| batch x: ',
                  batch_x.numpy(), '| batch y: ', batch_y.numpy())

    LR, BATCH_SIZE, EPOCH = 0.01, 32, 2
    x = torch.unsqueeze(torch.linspace(-1, 1, 1000), dim=1)
    y = x.pow(2) + 0.1 * torch.normal(torch.zeros(*x.size()))
    torch_dataset = Data.TensorDataset(x, y)
    loader = Data.DataLoader(dataset=torch_dataset, batch_size=BATCH_SIZE, shuffle=True,
                             num_workers=2,)

    class OptNet(torch.nn.Module):
        def __init__(self):
            super(OptNet, self).__init__()
            self.hidden = torch.nn.Linear(1, 20)
            self.predict = torch.nn.Linear(20, 1)

        def forward(self, x):
            x = F.relu(self.hidden(x))
            x = self.predict(x)
            return x

    net_SGD, net_Momentum, net_RMSprop, net_Adam = OptNet(), OptNet(), OptNet(), OptNet()
    nets = [net_SGD, net_Momentum, net_RMSprop, net_Adam]
    opt_SGD = torch.optim.SGD(net_SGD.parameters(), lr=LR)
    opt_Momentum = torch.optim.SGD(net_Momentum.parameters(), lr=LR, momentum=0.8)
    opt_RMSprop = torch.optim.RMSprop(net_RMSprop.parameters(), lr=LR, alpha=0.9)
    opt_Adam = torch.optim.Adam(net_Adam.parameters(), lr=LR, betas=(0.9, 0.99))
    optimizers = [opt_SGD, opt_Momentum, opt_RMSprop, opt_Adam]
    loss_func = torch.nn.MSELoss()
    losses_his = [[], [], [], []]
    for epoch in range(EPOCH):
        print('Epoch: ', epoch)
        for step, (b_x, b_y) in enumerate(loader):
            for net, opt, l_his in zip(nets, optimizers, losses_his):
                output = net(b_x)
                loss = loss_func(output, b_y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                l_his.append(loss.data.numpy())
    labels = ['SGD', 'Momentum', 'RMSprop', 'Adam']
    for i, l_his in enumerate(losses_his):
        print(labels[i], [float(v) for v in l_his[::8]])
    for label, net in zip(labels, nets):
        finals.update({f"{label}_{k}": v for k, v in net.state_dict().items()})
    return finals


class MorvanMNIST:
    """torchvision.datasets.MNIST as MorvanZhou's tutorials read it offline: seeded uint8
    images in ``train_data``/``test_data`` and labels in ``train_labels``/``test_labels``
    (the old names), items through ToTensor (float32 (1, 28, 28) in [0, 1], int label)."""

    def __init__(self, torch, train=True, n=200):
        g = torch.Generator().manual_seed(1 if train else 2)
        self.data = (torch.rand(n, 28, 28, generator=g) * 255).to(torch.uint8)
        self.targets = torch.randint(0, 10, (n,), generator=g)
        self.train_data = self.test_data = self.data
        self.train_labels = self.test_labels = self.targets

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        return self.data[i].float().div(255).unsqueeze(0), int(self.targets[i])


def morvan_networks(torch):
    """MorvanZhou/PyTorch-Tutorial tutorial-contents/401_CNN.py (two Conv2d-ReLU-MaxPool
    blocks, ``test_data.test_data`` unsqueezed, ``.type(torch.FloatTensor)``/255.,
    accuracy from ``torch.max(out, 1)[1]``), 402_RNN_classifier.py (an LSTM with
    batch_first and a None state, the last step's output), 403_RNN_regressor.py (an RNN
    whose state is carried as ``h_state.data``, torch.stack of per-step Linear outputs),
    404_autoencoder.py (Tanh encoder and Sigmoid decoder), 406_GAN.py (log-loss GAN,
    ``D_loss.backward(retain_graph=True)``) and 406_conditional_GAN.py, whose second
    backward after ``opt_D.step()`` changed D's weights raises PyTorch's in-place error
    (in PyTorch since 1.5; printed here). MNIST is seeded random images (MorvanMNIST), a
    few batches of one epoch; the plots are printed numbers."""
    nn = torch.nn
    Data = torch.utils.data
    train_data = MorvanMNIST(torch, train=True)
    print(train_data.train_data.size())
    print(train_data.train_labels.size())
    print('%i' % train_data.train_labels[0])
    train_loader = Data.DataLoader(dataset=train_data, batch_size=50, shuffle=True)
    test_data = MorvanMNIST(torch, train=False, n=100)
    test_x = torch.unsqueeze(test_data.test_data, dim=1).type(torch.FloatTensor)[:2000] / 255.
    test_y = test_data.test_labels[:2000]

    class CNN(nn.Module):
        def __init__(self):
            super(CNN, self).__init__()
            self.conv1 = nn.Sequential(
                nn.Conv2d(in_channels=1, out_channels=16, kernel_size=5, stride=1, padding=2,),
                nn.ReLU(),
                nn.MaxPool2d(kernel_size=2),
            )
            self.conv2 = nn.Sequential(
                nn.Conv2d(16, 32, 5, 1, 2),
                nn.ReLU(),
                nn.MaxPool2d(2),
            )
            self.out = nn.Linear(32 * 7 * 7, 10)

        def forward(self, x):
            x = self.conv1(x)
            x = self.conv2(x)
            x = x.view(x.size(0), -1)
            output = self.out(x)
            return output, x

    cnn = CNN()
    print(cnn)
    optimizer = torch.optim.Adam(cnn.parameters(), lr=0.001)
    loss_func = nn.CrossEntropyLoss()
    for epoch in range(1):
        for step, (b_x, b_y) in enumerate(train_loader):
            output = cnn(b_x)[0]
            loss = loss_func(output, b_y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 2 == 0:
                test_output, last_layer = cnn(test_x)
                pred_y = torch.max(test_output, 1)[1].data.numpy()
                accuracy = float((pred_y == test_y.data.numpy()).astype(int).sum()) / float(test_y.size(0))
                print('Epoch: ', epoch, '| train loss: %.4f' % loss.data.numpy(),
                      '| test accuracy: %.2f' % accuracy, last_layer.shape)
    test_output, _ = cnn(test_x[:10])
    pred_y = torch.max(test_output, 1)[1].data.numpy()
    print(pred_y, 'prediction number')
    print(test_y[:10].numpy(), 'real number')
    # (Adam moves each weight by about lr whatever its gradient's size, so a convolution's
    # weight whose gradient is near 0, where minigrad's and oneDNN's sums round otherwise,
    # ends an lr apart: the printed losses and the last layer's bias are compared)
    finals = {"cnn_out.bias": cnn.out.bias}

    train_loader = torch.utils.data.DataLoader(dataset=train_data, batch_size=64, shuffle=True)
    test_x = test_data.test_data.type(torch.FloatTensor)[:2000] / 255.
    test_y = test_data.test_labels.numpy().squeeze()[:2000]

    class RNN(nn.Module):
        def __init__(self):
            super(RNN, self).__init__()
            self.rnn = nn.LSTM(input_size=28, hidden_size=64, num_layers=1, batch_first=True,)
            self.out = nn.Linear(64, 10)

        def forward(self, x):
            r_out, (h_n, h_c) = self.rnn(x, None)
            out = self.out(r_out[:, -1, :])
            return out

    rnn = RNN()
    print(rnn)
    optimizer = torch.optim.Adam(rnn.parameters(), lr=0.01)
    for step, (b_x, b_y) in enumerate(train_loader):
        b_x = b_x.view(-1, 28, 28)
        output = rnn(b_x)
        loss = loss_func(output, b_y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 2 == 0:
            test_output = rnn(test_x)
            pred_y = torch.max(test_output, 1)[1].data.numpy().squeeze()
            accuracy = float((pred_y == test_y).astype(int).sum()) / float(test_y.size)
            print('Epoch: ', 0, '| train loss: %.4f' % loss.data.numpy(),
                  '| test accuracy: %.2f' % accuracy)
    test_output = rnn(test_x[:10].view(-1, 28, 28))
    pred_y = torch.max(test_output, 1)[1].data.numpy().squeeze()
    print(pred_y, 'prediction number')
    print(test_y[:10], 'real number')
    finals.update({f"lstm_{k}": v for k, v in rnn.state_dict().items()})

    class Regressor(nn.Module):
        def __init__(self):
            super(Regressor, self).__init__()
            self.rnn = nn.RNN(input_size=1, hidden_size=32, num_layers=1, batch_first=True,)
            self.out = nn.Linear(32, 1)

        def forward(self, x, h_state):
            r_out, h_state = self.rnn(x, h_state)
            outs = []
            for time_step in range(r_out.size(1)):
                outs.append(self.out(r_out[:, time_step, :]))
            return torch.stack(outs, dim=1), h_state

    rnn = Regressor()
    print(rnn)
    optimizer = torch.optim.Adam(rnn.parameters(), lr=0.02)
    loss_func = nn.MSELoss()
    h_state = None
    for step in range(24):  # (of 100: float32 tanh's last bits, README, grow past ~25)
        start, end = step * np.pi, (step + 1) * np.pi
        steps = np.linspace(start, end, 10, dtype=np.float32)
        x_np = np.sin(steps)
        y_np = np.cos(steps)
        x = torch.from_numpy(x_np[np.newaxis, :, np.newaxis])
        y = torch.from_numpy(y_np[np.newaxis, :, np.newaxis])
        prediction, h_state = rnn(x, h_state)
        h_state = h_state.data
        loss = loss_func(prediction, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 8 == 0:
            print(step, loss.item(), prediction.grad_fn, prediction.data.numpy().flatten()[::3].tolist())
    finals.update({f"rnn_{k}": v for k, v in rnn.state_dict().items()})

    class AutoEncoder(nn.Module):
        def __init__(self):
            super(AutoEncoder, self).__init__()
            self.encoder = nn.Sequential(
                nn.Linear(28 * 28, 128), nn.Tanh(), nn.Linear(128, 64), nn.Tanh(),
                nn.Linear(64, 12), nn.Tanh(), nn.Linear(12, 3),
            )
            self.decoder = nn.Sequential(
                nn.Linear(3, 12), nn.Tanh(), nn.Linear(12, 64), nn.Tanh(),
                nn.Linear(64, 128), nn.Tanh(), nn.Linear(128, 28 * 28), nn.Sigmoid(),
            )

        def forward(self, x):
            encoded = self.encoder(x)
            decoded = self.decoder(encoded)
            return encoded, decoded

    autoencoder = AutoEncoder()
    optimizer = torch.optim.Adam(autoencoder.parameters(), lr=0.005)
    view_data = train_data.train_data[:5].view(-1, 28 * 28).type(torch.FloatTensor) / 255.
    for epoch in range(2):
        for step, (x, b_label) in enumerate(train_loader):
            b_x = x.view(-1, 28 * 28)
            b_y = x.view(-1, 28 * 28)
            encoded, decoded = autoencoder(b_x)
            loss = loss_func(decoded, b_y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 2 == 0:
                print('Epoch: ', epoch, '| train loss: %.4f' % loss.data.numpy())
                _, decoded_data = autoencoder(view_data)
    view_data = train_data.train_data[:200].view(-1, 28 * 28).type(torch.FloatTensor) / 255.
    encoded_data, _ = autoencoder(view_data)
    X, Y, Z = (encoded_data.data[:, 0].numpy(), encoded_data.data[:, 1].numpy(),
               encoded_data.data[:, 2].numpy())
    print(X[:3].tolist(), Y[:3].tolist(), Z[:3].tolist(), train_data.train_labels[:200].numpy()[:3])
    finals.update({f"autoencoder_{k}": v for k, v in autoencoder.state_dict().items()})

    BATCH_SIZE, N_IDEAS, ART_COMPONENTS = 64, 5, 15
    PAINT_POINTS = np.vstack([np.linspace(-1, 1, ART_COMPONENTS) for _ in range(BATCH_SIZE)])
    artist = np.random.RandomState(0)

    def artist_works_with_labels():
        a = artist.uniform(1, 2, size=BATCH_SIZE)[:, np.newaxis]
        paintings = a * np.power(PAINT_POINTS, 2) + (a - 1)
        labels = (a - 1) > 0.5
        paintings = torch.from_numpy(paintings).float()
        labels = torch.from_numpy(labels.astype(np.float32))
        return paintings, labels

    for conditional in (False, True):
        extra = int(conditional)
        G = nn.Sequential(nn.Linear(N_IDEAS + extra, 128), nn.ReLU(),
                          nn.Linear(128, ART_COMPONENTS),)
        D = nn.Sequential(nn.Linear(ART_COMPONENTS + extra, 128), nn.ReLU(), nn.Linear(128, 1),
                          nn.Sigmoid(),)
        opt_D = torch.optim.Adam(D.parameters(), lr=0.0001)
        opt_G = torch.optim.Adam(G.parameters(), lr=0.0001)
        for step in range(100 if not conditional else 2):
            artist_paintings, labels = artist_works_with_labels()
            if not conditional:
                G_ideas = torch.randn(BATCH_SIZE, N_IDEAS, requires_grad=True)
                G_paintings = G(G_ideas)
                prob_artist1 = D(G_paintings)
                G_loss = torch.mean(torch.log(1. - prob_artist1))
                opt_G.zero_grad()
                G_loss.backward()
                opt_G.step()
                prob_artist0 = D(artist_paintings)
                prob_artist1 = D(G_paintings.detach())
                D_loss = - torch.mean(torch.log(prob_artist0) + torch.log(1. - prob_artist1))
                opt_D.zero_grad()
                D_loss.backward(retain_graph=True)
                opt_D.step()
                if step % 25 == 0:
                    print('D accuracy=%.2f (0.5 for D to converge)' % prob_artist0.data.numpy().mean(),
                          'D score= %.2f (-1.38 for G to converge)' % -D_loss.data.numpy(),
                          G_paintings.data.numpy()[0][::4].tolist())
                continue
            G_ideas = torch.randn(BATCH_SIZE, N_IDEAS)
            G_inputs = torch.cat((G_ideas, labels), 1)
            G_paintings = G(G_inputs)
            D_inputs0 = torch.cat((artist_paintings, labels), 1)
            D_inputs1 = torch.cat((G_paintings, labels), 1)
            prob_artist0 = D(D_inputs0)
            prob_artist1 = D(D_inputs1)
            D_score0 = torch.log(prob_artist0)
            D_score1 = torch.log(1. - prob_artist1)
            D_loss = - torch.mean(D_score0 + D_score1)
            G_loss = torch.mean(D_score1)
            opt_D.zero_grad()
            D_loss.backward(retain_graph=True)
            opt_D.step()
            opt_G.zero_grad()
            try:
                G_loss.backward()
            except RuntimeError as e:
                print(type(e).__name__, e)
            opt_G.step()
            print('D accuracy=%.2f (0.5 for D to converge)' % prob_artist0.data.numpy().mean(),
                  'Class = %i' % int(labels.data[0, 0]))
        finals.update({f"gan{extra}_G_{k}": v for k, v in G.state_dict().items()})
        finals.update({f"gan{extra}_D_{k}": v for k, v in D.state_dict().items()})
    return finals


# ---- pytorch/tutorials: beginner_source/nlp ---------------------------------------------

def nlp_pytorch_and_deep_learning(torch):
    """pytorch/tutorials beginner_source/nlp/pytorch_tutorial.py (torch.Tensor of lists,
    indexing, randn, cat along both dims, view, autograd.Variable, grad_fn of a sum, the
    chain broken by ``.data``) and deep_learning_tutorial.py (Linear of a Variable, relu,
    softmax/log_softmax along dim 0, the BoW logistic-regression classifier trained 100
    epochs with NLLLoss and SGD, the "creo" column before and after)."""
    autograd, nn, F, optim = torch.autograd, torch.nn, torch.nn.functional, torch.optim
    torch.manual_seed(1)
    V_data = [1., 2., 3.]
    V = torch.Tensor(V_data)
    print(V)
    M_data = [[1., 2., 3.], [4., 5., 6]]
    M = torch.Tensor(M_data)
    print(M)
    T_data = [[[1., 2.], [3., 4.]],
              [[5., 6.], [7., 8.]]]
    T = torch.Tensor(T_data)
    print(T)
    print(V[0])
    print(M[0])
    print(T[0])
    x = torch.randn((3, 4, 5))
    print(x)
    x = torch.Tensor([1., 2., 3.])
    y = torch.Tensor([4., 5., 6.])
    z = x + y
    print(z)
    x_1 = torch.randn(2, 5)
    y_1 = torch.randn(3, 5)
    z_1 = torch.cat([x_1, y_1])
    print(z_1)
    x_2 = torch.randn(2, 3)
    y_2 = torch.randn(2, 5)
    z_2 = torch.cat([x_2, y_2], 1)
    print(z_2)
    try:
        torch.cat([x_1, x_2])
    except RuntimeError as e:
        print(e)
    x = torch.randn(2, 3, 4)
    print(x)
    print(x.view(2, 12))
    print(x.view(2, -1))
    x = autograd.Variable(torch.Tensor([1., 2., 3]), requires_grad=True)
    print(x.data)
    y = autograd.Variable(torch.Tensor([4., 5., 6]), requires_grad=True)
    z = x + y
    print(z.data)
    print(z.grad_fn)
    s = z.sum()
    print(s)
    print(s.grad_fn)
    s.backward()
    print(x.grad)
    x = torch.randn((2, 2))
    y = torch.randn((2, 2))
    z = x + y
    var_x = autograd.Variable(x, requires_grad=True)
    var_y = autograd.Variable(y, requires_grad=True)
    var_z = var_x + var_y
    print(var_z.grad_fn)
    var_z_data = var_z.data
    new_var_z = autograd.Variable(var_z_data)
    print(new_var_z.grad_fn)

    torch.manual_seed(1)
    lin = nn.Linear(5, 3)
    data = autograd.Variable(torch.randn(2, 5))
    print(lin(data))
    data = autograd.Variable(torch.randn(2, 2))
    print(data)
    print(F.relu(data))
    data = autograd.Variable(torch.randn(5))
    print(data)
    print(F.softmax(data, dim=0))
    print(F.softmax(data, dim=0).sum())
    print(F.log_softmax(data, dim=0))
    data = [("me gusta comer en la cafeteria".split(), "SPANISH"),
            ("Give it to me".split(), "ENGLISH"),
            ("No creo que sea una buena idea".split(), "SPANISH"),
            ("No it is not a good idea to get lost at sea".split(), "ENGLISH")]
    test_data = [("Yo creo que si".split(), "SPANISH"),
                 ("it is lost on me".split(), "ENGLISH")]
    word_to_ix = {}
    for sent, _ in data + test_data:
        for word in sent:
            if word not in word_to_ix:
                word_to_ix[word] = len(word_to_ix)
    print(word_to_ix)
    VOCAB_SIZE = len(word_to_ix)
    NUM_LABELS = 2

    class BoWClassifier(nn.Module):
        def __init__(self, num_labels, vocab_size):
            super(BoWClassifier, self).__init__()
            self.linear = nn.Linear(vocab_size, num_labels)

        def forward(self, bow_vec):
            return F.log_softmax(self.linear(bow_vec), dim=1)

    def make_bow_vector(sentence, word_to_ix):
        vec = torch.zeros(len(word_to_ix))
        for word in sentence:
            vec[word_to_ix[word]] += 1
        return vec.view(1, -1)

    def make_target(label, label_to_ix):
        return torch.LongTensor([label_to_ix[label]])

    model = BoWClassifier(NUM_LABELS, VOCAB_SIZE)
    for param in model.parameters():
        print(param)
    sample = data[0]
    bow_vector = make_bow_vector(sample[0], word_to_ix)
    log_probs = model(autograd.Variable(bow_vector))
    print(log_probs)
    label_to_ix = {"SPANISH": 0, "ENGLISH": 1}
    with torch.no_grad():
        for instance, label in test_data:
            bow_vec = make_bow_vector(instance, word_to_ix)
            log_probs = model(bow_vec)
            print(log_probs)
    print(next(model.parameters())[:, word_to_ix["creo"]])
    loss_function = nn.NLLLoss()
    optimizer = optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(100):
        for instance, label in data:
            model.zero_grad()
            bow_vec = autograd.Variable(make_bow_vector(instance, word_to_ix))
            target = autograd.Variable(make_target(label, label_to_ix))
            log_probs = model(bow_vec)
            loss = loss_function(log_probs, target)
            loss.backward()
            optimizer.step()
    with torch.no_grad():
        for instance, label in test_data:
            bow_vec = make_bow_vector(instance, word_to_ix)
            log_probs = model(bow_vec)
            print(log_probs)
    print(next(model.parameters())[:, word_to_ix["creo"]])
    return dict(model.state_dict())


def nlp_embeddings_and_sequence_models(torch):
    """pytorch/tutorials beginner_source/nlp/word_embeddings_tutorial.py (an Embedding
    looked up with a LongTensor, the N-gram language model on Shakespeare's sonnet 2 with
    ``total_loss += loss.item()`` over 10 epochs, the CBOW data) and
    sequence_models_tutorial.py (an LSTM stepped one element at a time and run on the
    whole sequence, the LSTMTagger trained 300 epochs with ``F.log_softmax(tag_space)``
    as the older text has it: PyTorch's implicit-dim warning each call). The sonnet's
    vocabulary is sorted (the tutorial's ``set`` order differs between runs). The LSTM's
    printed output names PyTorch's oneDNN node, ``MkldnnRnnLayerBackward0``."""
    autograd, nn, F, optim = torch.autograd, torch.nn, torch.nn.functional, torch.optim
    torch.manual_seed(1)
    word_to_ix = {"hello": 0, "world": 1}
    embeds = nn.Embedding(2, 5)
    lookup_tensor = torch.tensor([word_to_ix["hello"]], dtype=torch.long)
    hello_embed = embeds(lookup_tensor)
    print(hello_embed)
    CONTEXT_SIZE = 2
    EMBEDDING_DIM = 10
    test_sentence = """When forty winters shall besiege thy brow,
And dig deep trenches in thy beauty's field,
Thy youth's proud livery so gazed on now,
Will be a totter'd weed of small worth held:
Then being asked, where all thy beauty lies,
Where all the treasure of thy lusty days;
To say, within thine own deep sunken eyes,
Were an all-eating shame, and thriftless praise.
How much more praise deserv'd thy beauty's use,
If thou couldst answer 'This fair child of mine
Shall sum my count, and make my old excuse,'
Proving his beauty by succession thine!
This were to be new made when thou art old,
And see thy blood warm when thou feel'st it cold.""".split()
    ngrams = [
        ([test_sentence[i - j - 1] for j in range(CONTEXT_SIZE)], test_sentence[i])
        for i in range(CONTEXT_SIZE, len(test_sentence))
    ]
    print(ngrams[:3])
    vocab = sorted(set(test_sentence))
    word_to_ix = {word: i for i, word in enumerate(vocab)}

    class NGramLanguageModeler(nn.Module):
        def __init__(self, vocab_size, embedding_dim, context_size):
            super(NGramLanguageModeler, self).__init__()
            self.embeddings = nn.Embedding(vocab_size, embedding_dim)
            self.linear1 = nn.Linear(context_size * embedding_dim, 128)
            self.linear2 = nn.Linear(128, vocab_size)

        def forward(self, inputs):
            embeds = self.embeddings(inputs).view((1, -1))
            out = F.relu(self.linear1(embeds))
            out = self.linear2(out)
            log_probs = F.log_softmax(out, dim=1)
            return log_probs

    losses = []
    loss_function = nn.NLLLoss()
    model = NGramLanguageModeler(len(vocab), EMBEDDING_DIM, CONTEXT_SIZE)
    optimizer = optim.SGD(model.parameters(), lr=0.001)
    for epoch in range(10):
        total_loss = 0
        for context, target in ngrams:
            context_idxs = torch.tensor([word_to_ix[w] for w in context], dtype=torch.long)
            model.zero_grad()
            log_probs = model(context_idxs)
            loss = loss_function(log_probs, torch.tensor([word_to_ix[target]], dtype=torch.long))
            loss.backward()
            optimizer.step()
            total_loss += loss.item()
        losses.append(total_loss)
    print(losses)
    print(model.embeddings.weight[word_to_ix["beauty"]])
    finals = {f"ngram_{k}": v for k, v in model.state_dict().items()}
    raw_text = """We are about to study the idea of a computational process.
Computational processes are abstract beings that inhabit computers.
As they evolve, processes manipulate other abstract things called data.
The evolution of a process is directed by a pattern of rules
called a program. People create programs to direct processes. In effect,
we conjure the spirits of the computer with our spells.""".split()
    vocab = sorted(set(raw_text))
    word_to_ix = {word: i for i, word in enumerate(vocab)}
    data = []
    for i in range(CONTEXT_SIZE, len(raw_text) - CONTEXT_SIZE):
        context = (
            [raw_text[i - j - 1] for j in range(CONTEXT_SIZE)]
            + [raw_text[i + j + 1] for j in range(CONTEXT_SIZE)]
        )
        target = raw_text[i]
        data.append((context, target))
    print(data[:5])

    def make_context_vector(context, word_to_ix):
        idxs = [word_to_ix[w] for w in context]
        return torch.tensor(idxs, dtype=torch.long)

    print(make_context_vector(data[0][0], word_to_ix))

    torch.manual_seed(1)
    lstm = nn.LSTM(3, 3)
    inputs = [torch.randn(1, 3) for _ in range(5)]
    hidden = (torch.randn(1, 1, 3),
              torch.randn(1, 1, 3))
    for i in inputs:
        out, hidden = lstm(i.view(1, 1, -1), hidden)
    inputs = torch.cat(inputs).view(len(inputs), 1, -1)
    hidden = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))
    out, hidden = lstm(inputs, hidden)
    print(out)
    print(hidden)

    def prepare_sequence(seq, to_ix):
        idxs = [to_ix[w] for w in seq]
        tensor = torch.LongTensor(idxs)
        return autograd.Variable(tensor)

    training_data = [
        ("The dog ate the apple".split(), ["DET", "NN", "V", "DET", "NN"]),
        ("Everybody read that book".split(), ["NN", "V", "DET", "NN"])
    ]
    word_to_ix = {}
    for sent, tags in training_data:
        for word in sent:
            if word not in word_to_ix:
                word_to_ix[word] = len(word_to_ix)
    print(word_to_ix)
    tag_to_ix = {"DET": 0, "NN": 1, "V": 2}
    EMBEDDING_DIM = 6
    HIDDEN_DIM = 6

    class LSTMTagger(nn.Module):
        def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
            super(LSTMTagger, self).__init__()
            self.hidden_dim = hidden_dim
            self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
            self.lstm = nn.LSTM(embedding_dim, hidden_dim)
            self.hidden2tag = nn.Linear(hidden_dim, tagset_size)
            self.hidden = self.init_hidden()

        def init_hidden(self):
            return (autograd.Variable(torch.zeros(1, 1, self.hidden_dim)),
                    autograd.Variable(torch.zeros(1, 1, self.hidden_dim)))

        def forward(self, sentence):
            embeds = self.word_embeddings(sentence)
            lstm_out, self.hidden = self.lstm(
                embeds.view(len(sentence), 1, -1), self.hidden)
            tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
            tag_scores = F.log_softmax(tag_space)
            return tag_scores

    model = LSTMTagger(EMBEDDING_DIM, HIDDEN_DIM, len(word_to_ix), len(tag_to_ix))
    loss_function = nn.NLLLoss()
    optimizer = optim.SGD(model.parameters(), lr=0.1)
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    print(tag_scores)
    for epoch in range(300):
        for sentence, tags in training_data:
            model.zero_grad()
            model.hidden = model.init_hidden()
            sentence_in = prepare_sequence(sentence, word_to_ix)
            targets = prepare_sequence(tags, tag_to_ix)
            tag_scores = model(sentence_in)
            loss = loss_function(tag_scores, targets)
            loss.backward()
            optimizer.step()
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    print(tag_scores)
    finals.update({f"tagger_{k}": v for k, v in model.state_dict().items()})
    return finals


def nlp_bilstm_crf(torch):
    """pytorch/tutorials beginner_source/nlp/advanced_tutorial.py: the Bi-LSTM CRF (a
    bidirectional LSTM's features, the forward algorithm with a hand-written log-sum-exp
    over ``vec[0, argmax(vec)]``, Viterbi decoding with back pointers, transitions set
    through ``.data``), predictions before and after training with SGD(weight_decay=1e-4):
    40 epochs of its 300."""
    autograd, nn, optim = torch.autograd, torch.nn, torch.optim
    torch.manual_seed(1)

    def argmax(vec):
        _, idx = torch.max(vec, 1)
        return idx.item()

    def prepare_sequence(seq, to_ix):
        idxs = [to_ix[w] for w in seq]
        return torch.tensor(idxs, dtype=torch.long)

    def log_sum_exp(vec):
        max_score = vec[0, argmax(vec)]
        max_score_broadcast = max_score.view(1, -1).expand(1, vec.size()[1])
        return max_score + \
            torch.log(torch.sum(torch.exp(vec - max_score_broadcast)))

    START_TAG = "<START>"
    STOP_TAG = "<STOP>"

    class BiLSTM_CRF(nn.Module):
        def __init__(self, vocab_size, tag_to_ix, embedding_dim, hidden_dim):
            super(BiLSTM_CRF, self).__init__()
            self.embedding_dim = embedding_dim
            self.hidden_dim = hidden_dim
            self.vocab_size = vocab_size
            self.tag_to_ix = tag_to_ix
            self.tagset_size = len(tag_to_ix)
            self.word_embeds = nn.Embedding(vocab_size, embedding_dim)
            self.lstm = nn.LSTM(embedding_dim, hidden_dim // 2,
                                num_layers=1, bidirectional=True)
            self.hidden2tag = nn.Linear(hidden_dim, self.tagset_size)
            self.transitions = nn.Parameter(
                torch.randn(self.tagset_size, self.tagset_size))
            self.transitions.data[tag_to_ix[START_TAG], :] = -10000
            self.transitions.data[:, tag_to_ix[STOP_TAG]] = -10000
            self.hidden = self.init_hidden()

        def init_hidden(self):
            return (torch.randn(2, 1, self.hidden_dim // 2),
                    torch.randn(2, 1, self.hidden_dim // 2))

        def _forward_alg(self, feats):
            init_alphas = torch.full((1, self.tagset_size), -10000.)
            init_alphas[0][self.tag_to_ix[START_TAG]] = 0.
            forward_var = init_alphas
            for feat in feats:
                alphas_t = []
                for next_tag in range(self.tagset_size):
                    emit_score = feat[next_tag].view(
                        1, -1).expand(1, self.tagset_size)
                    trans_score = self.transitions[next_tag].view(1, -1)
                    next_tag_var = forward_var + trans_score + emit_score
                    alphas_t.append(log_sum_exp(next_tag_var).view(1))
                forward_var = torch.cat(alphas_t).view(1, -1)
            terminal_var = forward_var + self.transitions[self.tag_to_ix[STOP_TAG]]
            alpha = log_sum_exp(terminal_var)
            return alpha

        def _get_lstm_features(self, sentence):
            self.hidden = self.init_hidden()
            embeds = self.word_embeds(sentence).view(len(sentence), 1, -1)
            lstm_out, self.hidden = self.lstm(embeds, self.hidden)
            lstm_out = lstm_out.view(len(sentence), self.hidden_dim)
            lstm_feats = self.hidden2tag(lstm_out)
            return lstm_feats

        def _score_sentence(self, feats, tags):
            score = torch.zeros(1)
            tags = torch.cat([torch.tensor([self.tag_to_ix[START_TAG]], dtype=torch.long), tags])
            for i, feat in enumerate(feats):
                score = score + \
                    self.transitions[tags[i + 1], tags[i]] + feat[tags[i + 1]]
            score = score + self.transitions[self.tag_to_ix[STOP_TAG], tags[-1]]
            return score

        def _viterbi_decode(self, feats):
            backpointers = []
            init_vvars = torch.full((1, self.tagset_size), -10000.)
            init_vvars[0][self.tag_to_ix[START_TAG]] = 0
            forward_var = init_vvars
            for feat in feats:
                bptrs_t = []
                viterbivars_t = []
                for next_tag in range(self.tagset_size):
                    next_tag_var = forward_var + self.transitions[next_tag]
                    best_tag_id = argmax(next_tag_var)
                    bptrs_t.append(best_tag_id)
                    viterbivars_t.append(next_tag_var[0][best_tag_id].view(1))
                forward_var = (torch.cat(viterbivars_t) + feat).view(1, -1)
                backpointers.append(bptrs_t)
            terminal_var = forward_var + self.transitions[self.tag_to_ix[STOP_TAG]]
            best_tag_id = argmax(terminal_var)
            path_score = terminal_var[0][best_tag_id]
            best_path = [best_tag_id]
            for bptrs_t in reversed(backpointers):
                best_tag_id = bptrs_t[best_tag_id]
                best_path.append(best_tag_id)
            start = best_path.pop()
            assert start == self.tag_to_ix[START_TAG]
            best_path.reverse()
            return path_score, best_path

        def neg_log_likelihood(self, sentence, tags):
            feats = self._get_lstm_features(sentence)
            forward_score = self._forward_alg(feats)
            gold_score = self._score_sentence(feats, tags)
            return forward_score - gold_score

        def forward(self, sentence):
            lstm_feats = self._get_lstm_features(sentence)
            score, tag_seq = self._viterbi_decode(lstm_feats)
            return score, tag_seq

    EMBEDDING_DIM = 5
    HIDDEN_DIM = 4
    training_data = [(
        "the wall street journal reported today that apple corporation made money".split(),
        "B I I I O O O B I O O".split()
    ), (
        "georgia tech is a university in georgia".split(),
        "B I O O O O B".split()
    )]
    word_to_ix = {}
    for sentence, tags in training_data:
        for word in sentence:
            if word not in word_to_ix:
                word_to_ix[word] = len(word_to_ix)
    tag_to_ix = {"B": 0, "I": 1, "O": 2, START_TAG: 3, STOP_TAG: 4}
    model = BiLSTM_CRF(len(word_to_ix), tag_to_ix, EMBEDDING_DIM, HIDDEN_DIM)
    optimizer = optim.SGD(model.parameters(), lr=0.01, weight_decay=1e-4)
    with torch.no_grad():
        precheck_sent = prepare_sequence(training_data[0][0], word_to_ix)
        precheck_tags = torch.tensor([tag_to_ix[t] for t in training_data[0][1]], dtype=torch.long)
        print(model(precheck_sent))
    for epoch in range(40):
        for sentence, tags in training_data:
            model.zero_grad()
            sentence_in = prepare_sequence(sentence, word_to_ix)
            targets = torch.tensor([tag_to_ix[t] for t in tags], dtype=torch.long)
            loss = model.neg_log_likelihood(sentence_in, targets)
            loss.backward()
            optimizer.step()
        if epoch % 10 == 0:
            print(epoch, loss)
    with torch.no_grad():
        precheck_sent = prepare_sequence(training_data[0][0], word_to_ix)
        print(model(precheck_sent))
    print(model.neg_log_likelihood(precheck_sent, precheck_tags))
    return dict(model.state_dict())


# ---- udacity/deep-learning-v2-pytorch: intro-to-pytorch ---------------------------------

def normalized_images(torch, n, seed):
    """MNIST/FashionMNIST through ``transforms.Compose([ToTensor(), Normalize((0.5,),
    (0.5,))])``, offline: image_dataset's images mapped to [-1, 1]."""
    images = image_dataset(torch, n, seed=seed)

    class Normalized(torch.utils.data.Dataset):
        def __len__(self):
            return len(images)

        def __getitem__(self, i):
            x, label = images[i]
            return (x - 0.5) / 0.5, label
    return Normalized()


def udacity_intro_to_pytorch(torch):
    """udacity/deep-learning-v2-pytorch intro-to-pytorch, Parts 1-6 as their solution
    notebooks' cells: Part 1 (a sigmoid written with torch.exp, mm with the wrong shapes
    and its error, view/reshape/resize_, from_numpy sharing memory with mul_), Part 2
    (images.view, a hand-written softmax, Network classes with nn.Sigmoid/nn.Softmax and
    F.relu, ``fc1.bias.data.fill_(0)``, ``weight.data.normal_(std=0.01)``,
    ``images.resize_(64, 1, 784)``, Sequential from an OrderedDict), Part 3
    (CrossEntropyLoss, LogSoftmax with NLLLoss, autograd of x**2, weights and gradients
    around one SGD step, a for/else training loop), Part 4-5 (topk, ``equals.type(
    torch.FloatTensor)``, a dropout Classifier with model.eval()/train() and validation)
    and Part 6 with fc_model.py (a ModuleList network, ``images.resize_`` in its train
    and validation, ``equality.type_as(torch.FloatTensor())``, state_dict save/load, the
    size-mismatch error, a checkpoint dict). (F)MNIST are seeded random images of 256
    and 128 (normalized_images); 2 epochs where the notebooks train 3-5."""
    nn, optim, F = torch.nn, torch.optim, torch.nn.functional

    def activation(x):
        return 1 / (1 + torch.exp(-x))

    torch.manual_seed(7)
    features = torch.randn((1, 5))
    weights = torch.randn_like(features)
    bias = torch.randn((1, 1))
    y = activation(torch.sum(features * weights) + bias)
    y = activation((features * weights).sum() + bias)
    print(y)
    try:
        torch.mm(features, weights)
    except RuntimeError as e:
        print(e)
    y = activation(torch.mm(features, weights.view(5, 1)) + bias)
    print(y, weights.reshape(5, 1).shape, weights.clone().resize_(5, 1))
    torch.manual_seed(7)
    features = torch.randn((1, 3))
    n_input = features.shape[1]
    n_hidden = 2
    n_output = 1
    W1 = torch.randn(n_input, n_hidden)
    W2 = torch.randn(n_hidden, n_output)
    B1 = torch.randn((1, n_hidden))
    B2 = torch.randn((1, n_output))
    h = activation(torch.mm(features, W1) + B1)
    output = activation(torch.mm(h, W2) + B2)
    print(output)
    a = np.random.RandomState(0).rand(4, 3)
    b = torch.from_numpy(a)
    print(b)
    print(b.numpy())
    print(b.mul_(2))
    print(a)

    trainset = normalized_images(torch, 256, seed=1)
    trainloader = torch.utils.data.DataLoader(trainset, batch_size=64, shuffle=True)
    dataiter = iter(trainloader)
    images, labels = next(dataiter)
    print(type(images))
    print(images.shape)
    print(labels.shape)
    inputs = images.view(images.shape[0], -1)
    w1 = torch.randn(784, 256)
    b1 = torch.randn(256)
    w2 = torch.randn(256, 10)
    b2 = torch.randn(10)
    h = activation(torch.mm(inputs, w1) + b1)
    out = torch.mm(h, w2) + b2

    def softmax(x):
        return torch.exp(x) / torch.sum(torch.exp(x), dim=1).view(-1, 1)

    probabilities = softmax(out)
    print(probabilities.shape)
    print(probabilities.sum(dim=1))

    class Network(nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden = nn.Linear(784, 256)
            self.output = nn.Linear(256, 10)
            self.sigmoid = nn.Sigmoid()
            self.softmax = nn.Softmax(dim=1)

        def forward(self, x):
            x = self.hidden(x)
            x = self.sigmoid(x)
            x = self.output(x)
            x = self.softmax(x)
            return x

    model = Network()
    print(model)

    class Network2(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(784, 128)
            self.fc2 = nn.Linear(128, 64)
            self.fc3 = nn.Linear(64, 10)

        def forward(self, x):
            x = self.fc1(x)
            x = F.relu(x)
            x = self.fc2(x)
            x = F.relu(x)
            x = self.fc3(x)
            x = F.softmax(x, dim=1)
            return x

    model = Network2()
    print(model)
    print(model.fc1.weight)
    print(model.fc1.bias)
    model.fc1.bias.data.fill_(0)
    model.fc1.weight.data.normal_(std=0.01)
    images, labels = next(iter(trainloader))
    images.resize_(64, 1, 784)
    img_idx = 0
    ps = model.forward(images[img_idx, :])
    print(ps)
    input_size = 784
    hidden_sizes = [128, 64]
    output_size = 10
    model = nn.Sequential(collections.OrderedDict([
        ('fc1', nn.Linear(input_size, hidden_sizes[0])),
        ('relu1', nn.ReLU()),
        ('fc2', nn.Linear(hidden_sizes[0], hidden_sizes[1])),
        ('relu2', nn.ReLU()),
        ('output', nn.Linear(hidden_sizes[1], output_size)),
        ('softmax', nn.Softmax(dim=1))]))
    print(model)
    print(model[0])
    print(model.fc1)

    model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(),
                          nn.Linear(64, 10))
    criterion = nn.CrossEntropyLoss()
    images, labels = next(iter(trainloader))
    images = images.view(images.shape[0], -1)
    logits = model(images)
    loss = criterion(logits, labels)
    print(loss)
    model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(),
                          nn.Linear(64, 10), nn.LogSoftmax(dim=1))
    criterion = nn.NLLLoss()
    logps = model(images)
    loss = criterion(logps, labels)
    print(loss)
    x = torch.randn(2, 2, requires_grad=True)
    print(x)
    y = x ** 2
    print(y)
    print(y.grad_fn)
    z = y.mean()
    print(z)
    print(x.grad)
    z.backward()
    print(x.grad)
    print(x / 2)
    print('Before backward pass: \n', model[0].weight.grad)
    loss.backward()
    print('After backward pass: \n', model[0].weight.grad[:2, 300:304])
    optimizer = optim.SGD(model.parameters(), lr=0.01)
    print('Initial weights - ', model[0].weight[:2, 300:304])
    images, labels = next(iter(trainloader))
    images.resize_(64, 784)
    optimizer.zero_grad()
    output = model(images)
    loss = criterion(output, labels)
    loss.backward()
    print('Gradient -', model[0].weight.grad[:2, 300:304])
    optimizer.step()
    print('Updated weights - ', model[0].weight[:2, 300:304])
    optimizer = optim.SGD(model.parameters(), lr=0.003)
    for e in range(2):
        running_loss = 0
        for images, labels in trainloader:
            images = images.view(images.shape[0], -1)
            optimizer.zero_grad()
            output = model(images)
            loss = criterion(output, labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        else:
            print(f"Training loss: {running_loss/len(trainloader)}")
    img = images[0].view(1, 784)
    with torch.no_grad():
        logps = model(img)
    ps = torch.exp(logps)
    print(ps)
    finals = {f"part3_{k}": v for k, v in model.state_dict().items()}
    # (below, Adam's hidden layers, where a gradient near 0 rounds otherwise and Adam
    # moves the weight by about lr either way, are left out: the printed losses and the
    # output layers are compared)

    testset = normalized_images(torch, 128, seed=2)
    testloader = torch.utils.data.DataLoader(testset, batch_size=64, shuffle=True)

    class Classifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(784, 256)
            self.fc2 = nn.Linear(256, 128)
            self.fc3 = nn.Linear(128, 64)
            self.fc4 = nn.Linear(64, 10)
            self.dropout = nn.Dropout(p=0.2)

        def forward(self, x):
            x = x.view(x.shape[0], -1)
            x = self.dropout(F.relu(self.fc1(x)))
            x = self.dropout(F.relu(self.fc2(x)))
            x = self.dropout(F.relu(self.fc3(x)))
            x = F.log_softmax(self.fc4(x), dim=1)
            return x

    model = Classifier()
    images, labels = next(iter(testloader))
    ps = torch.exp(model(images))
    print(ps.shape)
    top_p, top_class = ps.topk(1, dim=1)
    print(top_class[:10, :])
    equals = top_class == labels.view(*top_class.shape)
    accuracy = torch.mean(equals.type(torch.FloatTensor))
    print(f'Accuracy: {accuracy.item()*100}%')
    criterion = nn.NLLLoss()
    optimizer = optim.Adam(model.parameters(), lr=0.003)
    epochs = 2
    train_losses, test_losses = [], []
    for e in range(epochs):
        running_loss = 0
        for images, labels in trainloader:
            optimizer.zero_grad()
            log_ps = model(images)
            loss = criterion(log_ps, labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        else:
            test_loss = 0
            accuracy = 0
            with torch.no_grad():
                model.eval()
                for images, labels in testloader:
                    log_ps = model(images)
                    test_loss += criterion(log_ps, labels)
                    ps = torch.exp(log_ps)
                    top_p, top_class = ps.topk(1, dim=1)
                    equals = top_class == labels.view(*top_class.shape)
                    accuracy += torch.mean(equals.type(torch.FloatTensor))
            model.train()
            train_losses.append(running_loss / len(trainloader))
            test_losses.append(test_loss / len(testloader))
            print("Epoch: {}/{}.. ".format(e + 1, epochs),
                  "Training Loss: {:.3f}.. ".format(train_losses[-1]),
                  "Test Loss: {:.3f}.. ".format(test_losses[-1]),
                  "Test Accuracy: {:.3f}".format(accuracy / len(testloader)))
    print(test_losses)
    finals.update({f"part5_{k}": v for k, v in model.state_dict().items() if k.startswith("fc4")})

    class FcNetwork(nn.Module):
        def __init__(self, input_size, output_size, hidden_layers, drop_p=0.5):
            super().__init__()
            self.hidden_layers = nn.ModuleList([nn.Linear(input_size, hidden_layers[0])])
            layer_sizes = zip(hidden_layers[:-1], hidden_layers[1:])
            self.hidden_layers.extend([nn.Linear(h1, h2) for h1, h2 in layer_sizes])
            self.output = nn.Linear(hidden_layers[-1], output_size)
            self.dropout = nn.Dropout(p=drop_p)

        def forward(self, x):
            for each in self.hidden_layers:
                x = F.relu(each(x))
                x = self.dropout(x)
            x = self.output(x)
            return F.log_softmax(x, dim=1)

    def validation(model, testloader, criterion):
        accuracy = 0
        test_loss = 0
        for images, labels in testloader:
            images = images.resize_(images.size()[0], 784)
            output = model.forward(images)
            test_loss += criterion(output, labels).item()
            ps = torch.exp(output)
            equality = (labels.data == ps.max(1)[1])
            accuracy += equality.type_as(torch.FloatTensor()).mean()
        return test_loss, accuracy

    def train(model, trainloader, testloader, criterion, optimizer, epochs=5, print_every=40):
        steps = 0
        running_loss = 0
        for e in range(epochs):
            model.train()
            for images, labels in trainloader:
                steps += 1
                images.resize_(images.size()[0], 784)
                optimizer.zero_grad()
                output = model.forward(images)
                loss = criterion(output, labels)
                loss.backward()
                optimizer.step()
                running_loss += loss.item()
                if steps % print_every == 0:
                    model.eval()
                    with torch.no_grad():
                        test_loss, accuracy = validation(model, testloader, criterion)
                    print("Epoch: {}/{}.. ".format(e + 1, epochs),
                          "Training Loss: {:.3f}.. ".format(running_loss / print_every),
                          "Test Loss: {:.3f}.. ".format(test_loss / len(testloader)),
                          "Test Accuracy: {:.3f}".format(accuracy / len(testloader)))
                    running_loss = 0
                    model.train()

    fc_model = SimpleNamespace(Network=FcNetwork, validation=validation, train=train)
    model = fc_model.Network(784, 10, [512, 256, 128])
    criterion = nn.NLLLoss()
    optimizer = optim.Adam(model.parameters(), lr=0.001)
    fc_model.train(model, trainloader, testloader, criterion, optimizer, epochs=2, print_every=2)
    print("Our model: \n\n", model, '\n')
    print("The state dict keys: \n\n", model.state_dict().keys())
    finals.update({f"part6_{k}": v for k, v in model.state_dict().items() if k.startswith("output")})
    with in_temporary_directory():
        torch.save(model.state_dict(), 'checkpoint.pth')
        state_dict = torch.load('checkpoint.pth')
        print(state_dict.keys())
        print(model.load_state_dict(state_dict))
        model = fc_model.Network(784, 10, [400, 200, 100])
        try:
            model.load_state_dict(state_dict)
        except RuntimeError as e:
            print(e)
        checkpoint = {'input_size': 784,
                      'output_size': 10,
                      'hidden_layers': [each.out_features for each in model.hidden_layers],
                      'state_dict': model.state_dict()}
        torch.save(checkpoint, 'checkpoint.pth')

        def load_checkpoint(filepath):
            checkpoint = torch.load(filepath)
            model = fc_model.Network(checkpoint['input_size'],
                                     checkpoint['output_size'],
                                     checkpoint['hidden_layers'])
            model.load_state_dict(checkpoint['state_dict'])
            return model

        model = load_checkpoint('checkpoint.pth')
        print(model)
    return finals


# ---- bentrevett/pytorch-sentiment-analysis ----------------------------------------------

SENTIMENT_WORDS = {1: "good great fine lovely superb fun moving best".split(),
                   0: "bad awful dull boring worst weak poor messy".split()}
SENTIMENT_FILLER = "the a film movie plot was is and it this acting story".split()


def sentiment_data(torch, n, seed):
    """IMDB offline: ``n`` made-up reviews (filler words and words of their label's
    sentiment, 3 to 14 tokens), tokenized with str.split, as the notebooks' mapped
    ``datasets`` rows: dicts of ``tokens``, ``label`` (a 0-dim int64 tensor)."""
    r = random.Random(seed)
    rows = []
    for _ in range(n):
        label = r.randint(0, 1)
        words = [r.choice(SENTIMENT_WORDS[label] if r.random() < 0.4 else SENTIMENT_FILLER)
                 for _ in range(r.randint(3, 14))]
        rows.append({"tokens": words, "label": torch.tensor(label)})
    return rows


def bentrevett_sentiment_analysis(torch):
    """bentrevett/pytorch-sentiment-analysis 1 - Neural Bag of Words.ipynb (an Embedding
    with padding_idx averaged over the sequence, a vocabulary with <unk> and <pad>,
    pad_sequence(batch_first=True) in a collate_fn, get_accuracy from argmax and eq,
    train/evaluate with np.mean of the epoch's losses, the best state_dict saved and
    loaded, predict_sentiment with softmax), 2 - Recurrent Neural Networks.ipynb (a
    2-layer bidirectional LSTM over pack_padded_sequence(enforce_sorted=False),
    pad_packed_sequence, the last layer's two directions' hidden states concatenated,
    initialize_weights with xavier_normal_, orthogonal_ and zeros_ through model.apply)
    and 3 - Convolutional Neural Networks.ipynb (Conv1d of 3 filter sizes over the
    permuted embeddings, max over time, kaiming_normal_). IMDB and GloVe are a made-up
    corpus of 96 + 32 reviews (sentiment_data) and the Embedding's own start; tqdm is
    left out; 3 epochs each."""
    nn, optim = torch.nn, torch.optim
    torch.manual_seed(1234)
    train_data = sentiment_data(torch, 96, seed=1)
    test_data = sentiment_data(torch, 32, seed=2)
    min_freq = 2
    special_tokens = ["<unk>", "<pad>"]
    counts = collections.Counter(t for row in train_data for t in row["tokens"])
    itos = special_tokens + sorted(w for w, c in counts.items() if c >= min_freq)
    stoi = {w: i for i, w in enumerate(itos)}
    unk_index, pad_index = stoi["<unk>"], stoi["<pad>"]
    print(len(itos), itos[:10], unk_index, pad_index)

    def numericalize_example(example):
        ids = [stoi.get(token, unk_index) for token in example["tokens"]]
        return {"ids": torch.tensor(ids), "length": torch.tensor(len(ids)),
                "label": example["label"]}

    train_data = [numericalize_example(e) for e in train_data]
    test_data = [numericalize_example(e) for e in test_data]
    print(train_data[0])

    def get_collate_fn(pad_index, min_length=None):
        def collate_fn(batch):
            batch_ids = [i["ids"] for i in batch]
            if min_length is not None:
                batch_ids = [torch.cat([ids, torch.full((max(0, min_length - len(ids)),),
                                                        pad_index)]) for ids in batch_ids]
            batch_ids = nn.utils.rnn.pad_sequence(batch_ids, padding_value=pad_index,
                                                  batch_first=True)
            batch_length = torch.stack([i["length"] for i in batch])
            batch_label = torch.stack([i["label"] for i in batch])
            batch = {"ids": batch_ids, "length": batch_length, "label": batch_label}
            return batch
        return collate_fn

    def get_data_loader(dataset, batch_size, pad_index, shuffle=False, min_length=None):
        collate_fn = get_collate_fn(pad_index, min_length)
        data_loader = torch.utils.data.DataLoader(
            dataset=dataset, batch_size=batch_size, collate_fn=collate_fn, shuffle=shuffle)
        return data_loader

    def count_parameters(model):
        return sum(p.numel() for p in model.parameters() if p.requires_grad)

    def get_accuracy(prediction, label):
        batch_size, _ = prediction.shape
        predicted_classes = prediction.argmax(dim=-1)
        correct_predictions = predicted_classes.eq(label).sum()
        accuracy = correct_predictions / batch_size
        return accuracy

    def train(data_loader, model, criterion, optimizer, device, uses_length):
        model.train()
        epoch_losses = []
        epoch_accs = []
        for batch in data_loader:
            ids = batch["ids"].to(device)
            label = batch["label"].to(device)
            prediction = model(ids, batch["length"]) if uses_length else model(ids)
            loss = criterion(prediction, label)
            accuracy = get_accuracy(prediction, label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_losses.append(loss.item())
            epoch_accs.append(accuracy.item())
        return np.mean(epoch_losses), np.mean(epoch_accs)

    def evaluate(data_loader, model, criterion, device, uses_length):
        model.eval()
        epoch_losses = []
        epoch_accs = []
        with torch.no_grad():
            for batch in data_loader:
                ids = batch["ids"].to(device)
                label = batch["label"].to(device)
                prediction = model(ids, batch["length"]) if uses_length else model(ids)
                loss = criterion(prediction, label)
                accuracy = get_accuracy(prediction, label)
                epoch_losses.append(loss.item())
                epoch_accs.append(accuracy.item())
        return np.mean(epoch_losses), np.mean(epoch_accs)

    class NBoW(nn.Module):
        def __init__(self, vocab_size, embedding_dim, output_dim, pad_index):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=pad_index)
            self.fc = nn.Linear(embedding_dim, output_dim)

        def forward(self, ids):
            embedded = self.embedding(ids)
            pooled = embedded.mean(dim=1)
            prediction = self.fc(pooled)
            return prediction

    class LSTM(nn.Module):
        def __init__(self, vocab_size, embedding_dim, hidden_dim, output_dim, n_layers,
                     bidirectional, dropout_rate, pad_index):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=pad_index)
            self.lstm = nn.LSTM(embedding_dim, hidden_dim, n_layers, bidirectional=bidirectional,
                                dropout=dropout_rate, batch_first=True)
            self.fc = nn.Linear(hidden_dim * 2 if bidirectional else hidden_dim, output_dim)
            self.dropout = nn.Dropout(dropout_rate)

        def forward(self, ids, length):
            embedded = self.dropout(self.embedding(ids))
            packed_embedded = nn.utils.rnn.pack_padded_sequence(
                embedded, length, batch_first=True, enforce_sorted=False)
            packed_output, (hidden, cell) = self.lstm(packed_embedded)
            output, output_length = nn.utils.rnn.pad_packed_sequence(packed_output)
            if self.lstm.bidirectional:
                hidden = self.dropout(torch.cat([hidden[-1], hidden[-2]], dim=-1))
            else:
                hidden = self.dropout(hidden[-1])
            prediction = self.fc(hidden)
            return prediction

    class CNN(nn.Module):
        def __init__(self, vocab_size, embedding_dim, n_filters, filter_sizes, output_dim,
                     dropout_rate, pad_index):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=pad_index)
            self.convs = nn.ModuleList(
                [nn.Conv1d(embedding_dim, n_filters, filter_size) for filter_size in filter_sizes])
            self.fc = nn.Linear(len(filter_sizes) * n_filters, output_dim)
            self.dropout = nn.Dropout(dropout_rate)

        def forward(self, ids):
            embedded = self.dropout(self.embedding(ids))
            embedded = embedded.permute(0, 2, 1)
            conved = [torch.relu(conv(embedded)) for conv in self.convs]
            pooled = [conv.max(dim=-1).values for conv in conved]
            cat = self.dropout(torch.cat(pooled, dim=-1))
            prediction = self.fc(cat)
            return prediction

    def lstm_weights(m):
        if isinstance(m, nn.Linear):
            nn.init.xavier_normal_(m.weight)
            nn.init.zeros_(m.bias)
        elif isinstance(m, nn.LSTM):
            for name, param in m.named_parameters():
                if "bias" in name:
                    nn.init.zeros_(param)
                elif "weight" in name:
                    nn.init.orthogonal_(param)

    def cnn_weights(m):
        if isinstance(m, nn.Conv1d):
            nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
            nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Linear):
            nn.init.xavier_normal_(m.weight)
            nn.init.zeros_(m.bias)

    vocab_size, output_dim = len(itos), 2
    device = torch.device("cpu")
    finals = {}
    with in_temporary_directory():
        for name, model, init, uses_length, min_length in (
                ("nbow", NBoW(vocab_size, 16, output_dim, pad_index), None, False, None),
                ("lstm", LSTM(vocab_size, 16, 12, output_dim, 2, True, 0.5, pad_index),
                 lstm_weights, True, None),
                ("cnn", CNN(vocab_size, 16, 10, [3, 4, 5], output_dim, 0.25, pad_index),
                 cnn_weights, False, 5)):
            if init is not None:
                model.apply(init)
            print(model)
            print(f"The model has {count_parameters(model):,} trainable parameters")
            train_data_loader = get_data_loader(train_data, 16, pad_index, shuffle=True,
                                                min_length=min_length)
            test_data_loader = get_data_loader(test_data, 16, pad_index, min_length=min_length)
            optimizer = optim.Adam(model.parameters(), lr=5e-3)
            criterion = nn.CrossEntropyLoss()
            model = model.to(device)
            criterion = criterion.to(device)
            best_valid_loss = float("inf")
            metrics = collections.defaultdict(list)
            for epoch in range(3):
                train_loss, train_acc = train(train_data_loader, model, criterion, optimizer,
                                              device, uses_length)
                valid_loss, valid_acc = evaluate(test_data_loader, model, criterion, device,
                                                 uses_length)
                metrics["train_losses"].append(train_loss)
                metrics["valid_losses"].append(valid_loss)
                if valid_loss < best_valid_loss:
                    best_valid_loss = valid_loss
                    torch.save(model.state_dict(), f"{name}.pt")
                print(f"epoch: {epoch}")
                print(f"train_loss: {train_loss:.3f}, train_acc: {train_acc:.3f}")
                print(f"valid_loss: {valid_loss:.3f}, valid_acc: {valid_acc:.3f}")
            print(metrics["train_losses"], metrics["valid_losses"])
            model.load_state_dict(torch.load(f"{name}.pt"))

            def predict_sentiment(text, model, tokenizer, device):
                ids = [stoi.get(token, unk_index) for token in tokenizer(text)]
                if min_length is not None and len(ids) < min_length:
                    ids += [pad_index] * (min_length - len(ids))
                tensor = torch.LongTensor(ids).unsqueeze(dim=0).to(device)
                if uses_length:
                    prediction = model(tensor, torch.LongTensor([len(ids)])).squeeze(dim=0)
                else:
                    prediction = model(tensor).squeeze(dim=0)
                probability = torch.softmax(prediction, dim=-1)
                predicted_class = prediction.argmax(dim=-1).item()
                predicted_probability = probability[predicted_class].item()
                return predicted_class, predicted_probability

            for text in ("This film is terrible!", "This film is great!",
                         "This film is not terrible, it's great!"):
                print(predict_sentiment(text.lower(), model, str.split, device))
            finals.update({f"{name}_fc.{k}": v for k, v in model.fc.state_dict().items()})
    return finals


# ---- pytorch/tutorials: beginner_source/former_torchies -----------------------------------

def former_torchies(torch):
    """pytorch/tutorials beginner_source/former_torchies/tensor_tutorial.py (randn of
    double, fill_, add, index_add_ of columns, the NumPy bridge both ways),
    autograd_tutorial.py (grad_fn, mean of y*y*3, ``a.to(requires_grad=True)``, which
    PyTorch's to() refuses with its overloads (printed; then requires_grad_), backward
    with retain_graph and a random gradient, no_grad) and nnft_tutorial.py (an MNIST
    ConvNet, norms of a weight and its gradient, a forward hook and an old-style
    ``register_backward_hook`` on conv2, with PyTorch's FutureWarning, and an RNN cell
    reused over 5 steps)."""
    nn, F = torch.nn, torch.nn.functional
    a = torch.empty(5, 7, dtype=torch.float)
    a = torch.randn(5, 7, dtype=torch.double)
    print(a)
    print(a.size())
    a.fill_(3.5)
    b = a.add(4.0)
    print(a, b)
    b = a[0, 3]
    b = a[:, 3:5]
    x = torch.ones(5, 5)
    print(x)
    z = torch.empty(5, 2)
    z[:, 0] = 10
    z[:, 1] = 100
    print(z)
    x.index_add_(1, torch.tensor([4, 0], dtype=torch.long), z)
    print(x)
    a = torch.ones(5)
    print(a)
    b = a.numpy()
    print(b)
    a.add_(1)
    print(a)
    print(b)
    a = np.ones(5)
    b = torch.from_numpy(a)
    np.add(a, 1, out=a)
    print(a)
    print(b)

    x = torch.ones(2, 2, requires_grad=True)
    print(x)
    print(x.data)
    print(x.grad)
    print(x.grad_fn)
    y = x + 2
    print(y)
    print(y.grad_fn)
    z = y * y * 3
    out = z.mean()
    print(z, out)
    a = torch.randn(2, 2)
    a = ((a * 3) / (a - 1))
    print(a.requires_grad)
    try:
        a = a.to(requires_grad=True)
    except TypeError as e:
        print(type(e).__name__, e)
        a.requires_grad_(True)
    print(a.requires_grad)
    b = (a * a).sum()
    print(b.grad_fn)
    out.backward()
    print(x.grad)
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    y.backward(torch.ones(2, 2), retain_graph=True)
    print(x.grad)
    z = y * y
    print(z)
    gradient = torch.randn(2, 2)
    y.backward(gradient)
    print(x.grad)
    print(x.requires_grad)
    print((x ** 2).requires_grad)
    with torch.no_grad():
        print((x ** 2).requires_grad)

    class MNISTConvNet(nn.Module):
        def __init__(self):
            super(MNISTConvNet, self).__init__()
            self.conv1 = nn.Conv2d(1, 10, 5)
            self.pool1 = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(10, 20, 5)
            self.pool2 = nn.MaxPool2d(2, 2)
            self.fc1 = nn.Linear(320, 50)
            self.fc2 = nn.Linear(50, 10)

        def forward(self, input):
            x = self.pool1(F.relu(self.conv1(input)))
            x = self.pool2(F.relu(self.conv2(x)))
            x = x.flatten(start_dim=1)
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return x

    net = MNISTConvNet()
    print(net)
    input = torch.randn(1, 1, 28, 28)
    out = net(input)
    print(out.size())
    target = torch.tensor([3], dtype=torch.long)
    loss_fn = nn.CrossEntropyLoss()
    err = loss_fn(out, target)
    err.backward()
    print(err)
    print(net.conv1.weight.grad.size())
    print(net.conv1.weight.data.norm())
    print(net.conv1.weight.grad.data.norm())

    def printnorm(self, input, output):
        print('Inside ' + self.__class__.__name__ + ' forward')
        print('')
        print('input: ', type(input))
        print('input[0]: ', type(input[0]))
        print('output: ', type(output))
        print('')
        print('input size:', input[0].size())
        print('output size:', output.data.size())
        print('output norm:', output.data.norm())

    net.conv2.register_forward_hook(printnorm)
    out = net(input)

    def printgradnorm(self, grad_input, grad_output):
        print('Inside ' + self.__class__.__name__ + ' backward')
        print('Inside class:' + self.__class__.__name__)
        print('')
        print('grad_input: ', type(grad_input))
        print('grad_input[0]: ', type(grad_input[0]))
        print('grad_output: ', type(grad_output))
        print('grad_output[0]: ', type(grad_output[0]))
        print('')
        print('grad_input size:', grad_input[0].size())
        print('grad_output size:', grad_output[0].size())
        print('grad_input norm:', grad_input[0].norm())

    net.conv2.register_backward_hook(printgradnorm)
    out = net(input)
    err = loss_fn(out, target)
    err.backward()

    class RNN(nn.Module):
        def __init__(self, data_size, hidden_size, output_size):
            super(RNN, self).__init__()
            self.hidden_size = hidden_size
            input_size = data_size + hidden_size
            self.i2h = nn.Linear(input_size, hidden_size)
            self.h2o = nn.Linear(hidden_size, output_size)

        def forward(self, data, last_hidden):
            input = torch.cat((data, last_hidden), 1)
            hidden = self.i2h(input)
            output = self.h2o(hidden)
            return hidden, output

    rnn = RNN(50, 20, 10)
    loss_fn = nn.MSELoss()
    batch_size = 10
    TIMESTEPS = 5
    batch = torch.randn(batch_size, 50)
    hidden = torch.zeros(batch_size, 20)
    target = torch.zeros(batch_size, 10)
    loss = 0
    for t in range(TIMESTEPS):
        hidden, output = rnn(batch, hidden)
        loss += loss_fn(output, target)
    loss.backward()
    print(loss)
    return {"conv1.weight.grad": net.conv1.weight.grad, "i2h.weight.grad": rnn.i2h.weight.grad,
            "h2o.bias.grad": rnn.h2o.bias.grad}


# ---- d2l-ai/d2l-en: chapter_natural-language-processing-pretraining ----------------------

PTB_LIKE = """the chip maker said its new chip sales rose in the quarter
intel and other chip makers expect sales of memory chips to rise
the company said its computer sales fell in the quarter
analysts said the stock market rose as investors bought computer and chip shares
the bank said its loans rose and its profit fell in the quarter
investors sold bank shares as the market fell
the maker of memory chips said prices fell
computer makers said demand for chips rose""".split("\n")


def d2l_nlp_pretraining(torch):
    """d2l-ai/d2l-en chapter_natural-language-processing-pretraining (word-embedding-
    dataset.md, word2vec-pretraining.md, bert.md, bert-dataset.md, bert-pretraining.md,
    PyTorch tabs): PTB subsampling and centers/contexts with Python's random, negative
    sampling with random.choices, batchify into padded contexts, masks and labels, the
    skip-gram model (Embedding, bmm with a permute), SigmoidBCELoss through
    binary_cross_entropy_with_logits with an integer mask as weight, training with
    xavier_uniform_ starts and Adam, get_similar_tokens by cosine with mv and topk; BERT's
    get_tokens_and_segments, BERTEncoder (token, segment and a learned positional
    embedding, TransformerEncoderBlocks with biases), MaskLM (repeat_interleave batch
    indices, LazyLinear, LayerNorm), NextSentencePred, BERTModel, the NSP and MLM data
    (random.shuffle, random.random, random.randint) padded into tensors with float32
    valid lengths, and _get_batch_loss_bert's weighted MLM loss with Adam. PTB and
    WikiText-2 are a few made-up sentences (``PTB_LIKE``), subsampled with 1e-1 for the
    book's 1e-4 (which keeps almost nothing of 83 tokens); small sizes, few steps."""
    nn = torch.nn
    d2l = d2l_library(torch)
    torch.manual_seed(0)
    random.seed(0)
    sentences = [line.split() for line in PTB_LIKE]
    vocab = d2l.Vocab(sentences, min_freq=1)
    print(f'# tokens: {sum([len(line) for line in sentences])}', len(vocab))

    def subsample(sentences, vocab):
        sentences = [[token for token in line if vocab[token] != vocab.unk]
                     for line in sentences]
        counter = collections.Counter([token for line in sentences for token in line])
        num_tokens = sum(counter.values())

        def keep(token):
            return (random.uniform(0, 1) <
                    math.sqrt(1e-1 / counter[token] * num_tokens))  # (the book: 1e-4)

        return ([[token for token in line if keep(token)] for line in sentences], counter)

    subsampled, counter = subsample(sentences, vocab)

    def compare_counts(token):
        return (f'# of "{token}": '
                f'before={sum([l.count(token) for l in sentences])}, '
                f'after={sum([l.count(token) for l in subsampled])}')

    print(compare_counts('the'), compare_counts('chip'))
    corpus = [vocab[line] for line in subsampled]

    def get_centers_and_contexts(corpus, max_window_size):
        centers, contexts = [], []
        for line in corpus:
            if len(line) < 2:
                continue
            centers += line
            for i in range(len(line)):
                window_size = random.randint(1, max_window_size)
                indices = list(range(max(0, i - window_size),
                                     min(len(line), i + 1 + window_size)))
                indices.remove(i)
                contexts.append([line[idx] for idx in indices])
        return centers, contexts

    all_centers, all_contexts = get_centers_and_contexts(corpus, 3)
    print(f'# center-context pairs: {sum([len(contexts) for contexts in all_contexts])}')

    class RandomGenerator:
        def __init__(self, sampling_weights):
            self.population = list(range(1, len(sampling_weights) + 1))
            self.sampling_weights = sampling_weights
            self.candidates = []
            self.i = 0

        def draw(self):
            if self.i == len(self.candidates):
                self.candidates = random.choices(
                    self.population, self.sampling_weights, k=10000)
                self.i = 0
            self.i += 1
            return self.candidates[self.i - 1]

    def get_negatives(all_contexts, vocab, counter, K):
        sampling_weights = [counter[vocab.to_tokens(i)]**0.75 for i in range(1, len(vocab))]
        all_negatives, generator = [], RandomGenerator(sampling_weights)
        for contexts in all_contexts:
            negatives = []
            while len(negatives) < len(contexts) * K:
                neg = generator.draw()
                if neg not in contexts:
                    negatives.append(neg)
            all_negatives.append(negatives)
        return all_negatives

    all_negatives = get_negatives(all_contexts, vocab, counter, 3)

    def batchify(data):
        max_len = max(len(c) + len(n) for _, c, n in data)
        centers, contexts_negatives, masks, labels = [], [], [], []
        for center, context, negative in data:
            cur_len = len(context) + len(negative)
            centers += [center]
            contexts_negatives += [context + negative + [0] * (max_len - cur_len)]
            masks += [[1] * cur_len + [0] * (max_len - cur_len)]
            labels += [[1] * len(context) + [0] * (max_len - len(context))]
        return (torch.tensor(centers).reshape((-1, 1)), torch.tensor(contexts_negatives),
                torch.tensor(masks), torch.tensor(labels))

    x_1 = (1, [2, 2], [3, 3, 3, 3])
    x_2 = (1, [2, 2, 2], [3, 3])
    batch = batchify((x_1, x_2))
    names = ['centers', 'contexts_negatives', 'masks', 'labels']
    for name, data in zip(names, batch):
        print(name, '=', data)

    class PTBDataset(torch.utils.data.Dataset):
        def __init__(self, centers, contexts, negatives):
            assert len(centers) == len(contexts) == len(negatives)
            self.centers = centers
            self.contexts = contexts
            self.negatives = negatives

        def __getitem__(self, index):
            return (self.centers[index], self.contexts[index], self.negatives[index])

        def __len__(self):
            return len(self.centers)

    dataset = PTBDataset(all_centers, all_contexts, all_negatives)
    data_iter = torch.utils.data.DataLoader(dataset, 32, shuffle=True, collate_fn=batchify,
                                            num_workers=0)
    for batch in data_iter:
        for name, data in zip(names, batch):
            print(name, 'shape:', data.shape)
        break

    embed = nn.Embedding(num_embeddings=20, embedding_dim=4)
    print(f'Parameter embedding_weight ({embed.weight.shape}, dtype={embed.weight.dtype})')
    x = torch.tensor([[1, 2, 3], [4, 5, 6]])
    print(embed(x))

    def skip_gram(center, contexts_and_negatives, embed_v, embed_u):
        v = embed_v(center)
        u = embed_u(contexts_and_negatives)
        pred = torch.bmm(v, u.permute(0, 2, 1))
        return pred

    print(skip_gram(torch.ones((2, 1), dtype=torch.long),
                    torch.ones((2, 4), dtype=torch.long), embed, embed).shape)

    class SigmoidBCELoss(nn.Module):
        "BCEWithLogitLoss with masking on call."
        def __init__(self):
            super().__init__()

        def forward(self, inputs, target, mask=None):
            out = nn.functional.binary_cross_entropy_with_logits(
                inputs, target, weight=mask, reduction="none")
            return out.mean(dim=1)

    loss = SigmoidBCELoss()
    pred = torch.tensor([[1.1, -2.2, 3.3, -4.4]] * 2)
    label = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]])
    print(loss(pred, label, mask) * 4 / mask.sum(axis=1))

    embed_size = 16
    net = nn.Sequential(nn.Embedding(num_embeddings=len(vocab), embedding_dim=embed_size),
                        nn.Embedding(num_embeddings=len(vocab), embedding_dim=embed_size))

    def train(net, data_iter, lr, num_epochs, device=torch.device('cpu')):
        def init_weights(module):
            if type(module) == nn.Embedding:
                nn.init.xavier_uniform_(module.weight)
        net.apply(init_weights)
        net = net.to(device)
        optimizer = torch.optim.Adam(net.parameters(), lr=lr)
        metric = d2l.Accumulator(2)
        for epoch in range(num_epochs):
            for i, batch in enumerate(data_iter):
                optimizer.zero_grad()
                center, context_negative, mask, label = [data.to(device) for data in batch]
                pred = skip_gram(center, context_negative, net[0], net[1])
                l = (loss(pred.reshape(label.shape).float(), label.float(), mask)
                     / mask.sum(axis=1) * mask.shape[1])
                l.sum().backward()
                optimizer.step()
                metric.add(l.sum(), l.numel())
            print(f'epoch {epoch + 1}, loss {metric[0] / metric[1]:.3f}')

    train(net, data_iter, 0.01, 3)

    def get_similar_tokens(query_token, k, embed):
        W = embed.weight.data
        x = W[vocab[query_token]]
        cos = torch.mv(W, x) / torch.sqrt(torch.sum(W * W, dim=1) * torch.sum(x * x) + 1e-9)
        topk = torch.topk(cos, k=k + 1)[1].cpu().numpy().astype('int32')
        for i in topk[1:]:
            print(f'cosine sim={float(cos[i]):.3f}: {vocab.to_tokens(i)}')

    get_similar_tokens('chip', 3, net[0])
    finals = {"word2vec.embed_v": net[0].weight, "word2vec.embed_u": net[1].weight}

    def get_tokens_and_segments(tokens_a, tokens_b=None):
        tokens = ['<cls>'] + tokens_a + ['<sep>']
        segments = [0] * (len(tokens_a) + 2)
        if tokens_b is not None:
            tokens += tokens_b + ['<sep>']
            segments += [1] * (len(tokens_b) + 1)
        return tokens, segments

    class PositionWiseFFN(nn.Module):
        def __init__(self, ffn_num_hiddens, ffn_num_outputs):
            super().__init__()
            self.dense1 = nn.LazyLinear(ffn_num_hiddens)
            self.relu = nn.ReLU()
            self.dense2 = nn.LazyLinear(ffn_num_outputs)

        def forward(self, X):
            return self.dense2(self.relu(self.dense1(X)))

    class AddNorm(nn.Module):
        def __init__(self, norm_shape, dropout):
            super().__init__()
            self.dropout = nn.Dropout(dropout)
            self.ln = nn.LayerNorm(norm_shape)

        def forward(self, X, Y):
            return self.ln(self.dropout(Y) + X)

    class TransformerEncoderBlock(nn.Module):
        def __init__(self, num_hiddens, ffn_num_hiddens, num_heads, dropout, use_bias=False):
            super().__init__()
            self.attention = d2l.MultiHeadAttention(num_hiddens, num_heads, dropout, use_bias)
            self.addnorm1 = AddNorm(num_hiddens, dropout)
            self.ffn = PositionWiseFFN(ffn_num_hiddens, num_hiddens)
            self.addnorm2 = AddNorm(num_hiddens, dropout)

        def forward(self, X, valid_lens):
            Y = self.addnorm1(X, self.attention(X, X, X, valid_lens))
            return self.addnorm2(Y, self.ffn(Y))

    class BERTEncoder(nn.Module):
        def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks,
                     dropout, max_len=1000, **kwargs):
            super(BERTEncoder, self).__init__(**kwargs)
            self.token_embedding = nn.Embedding(vocab_size, num_hiddens)
            self.segment_embedding = nn.Embedding(2, num_hiddens)
            self.blks = nn.Sequential()
            for i in range(num_blks):
                self.blks.add_module(f"{i}", TransformerEncoderBlock(
                    num_hiddens, ffn_num_hiddens, num_heads, dropout, True))
            self.pos_embedding = nn.Parameter(torch.randn(1, max_len, num_hiddens))

        def forward(self, tokens, segments, valid_lens):
            X = self.token_embedding(tokens) + self.segment_embedding(segments)
            X = X + self.pos_embedding[:, :X.shape[1], :]
            for blk in self.blks:
                X = blk(X, valid_lens)
            return X

    vocab_size, num_hiddens, ffn_num_hiddens, num_heads = 100, 24, 32, 4
    num_blks, dropout = 2, 0.2
    encoder = BERTEncoder(vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks,
                          dropout)
    tokens = torch.randint(0, vocab_size, (2, 8))
    segments = torch.tensor([[0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1, 1]])
    encoded_X = encoder(tokens, segments, None)
    print(encoded_X.shape)

    class MaskLM(nn.Module):
        def __init__(self, vocab_size, num_hiddens, **kwargs):
            super(MaskLM, self).__init__(**kwargs)
            self.mlp = nn.Sequential(nn.LazyLinear(num_hiddens), nn.ReLU(),
                                     nn.LayerNorm(num_hiddens), nn.LazyLinear(vocab_size))

        def forward(self, X, pred_positions):
            num_pred_positions = pred_positions.shape[1]
            pred_positions = pred_positions.reshape(-1)
            batch_size = X.shape[0]
            batch_idx = torch.arange(0, batch_size)
            batch_idx = torch.repeat_interleave(batch_idx, num_pred_positions)
            masked_X = X[batch_idx, pred_positions]
            masked_X = masked_X.reshape((batch_size, num_pred_positions, -1))
            mlm_Y_hat = self.mlp(masked_X)
            return mlm_Y_hat

    mlm = MaskLM(vocab_size, num_hiddens)
    mlm_positions = torch.tensor([[1, 5, 2], [6, 1, 5]])
    mlm_Y_hat = mlm(encoded_X, mlm_positions)
    print(mlm_Y_hat.shape)
    mlm_Y = torch.tensor([[7, 8, 9], [10, 20, 30]])
    loss = nn.CrossEntropyLoss(reduction='none')
    mlm_l = loss(mlm_Y_hat.reshape((-1, vocab_size)), mlm_Y.reshape(-1))
    print(mlm_l.shape, mlm_l)

    class NextSentencePred(nn.Module):
        def __init__(self, **kwargs):
            super(NextSentencePred, self).__init__(**kwargs)
            self.output = nn.LazyLinear(2)

        def forward(self, X):
            return self.output(X)

    encoded_X = torch.flatten(encoded_X, start_dim=1)
    nsp = NextSentencePred()
    nsp_Y_hat = nsp(encoded_X)
    print(nsp_Y_hat.shape)
    nsp_y = torch.tensor([0, 1])
    nsp_l = loss(nsp_Y_hat, nsp_y)
    print(nsp_l.shape, nsp_l)

    class BERTModel(nn.Module):
        def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks,
                     dropout, max_len=1000):
            super(BERTModel, self).__init__()
            self.encoder = BERTEncoder(vocab_size, num_hiddens, ffn_num_hiddens, num_heads,
                                       num_blks, dropout, max_len=max_len)
            self.hidden = nn.Sequential(nn.LazyLinear(num_hiddens), nn.Tanh())
            self.mlm = MaskLM(vocab_size, num_hiddens)
            self.nsp = NextSentencePred()

        def forward(self, tokens, segments, valid_lens=None, pred_positions=None):
            encoded_X = self.encoder(tokens, segments, valid_lens)
            if pred_positions is not None:
                mlm_Y_hat = self.mlm(encoded_X, pred_positions)
            else:
                mlm_Y_hat = None
            nsp_Y_hat = self.nsp(self.hidden(encoded_X[:, 0, :]))
            return encoded_X, mlm_Y_hat, nsp_Y_hat

    def _get_next_sentence(sentence, next_sentence, paragraphs):
        if random.random() < 0.5:
            is_next = True
        else:
            next_sentence = random.choice(random.choice(paragraphs))
            is_next = False
        return sentence, next_sentence, is_next

    def _get_nsp_data_from_paragraph(paragraph, paragraphs, vocab, max_len):
        nsp_data_from_paragraph = []
        for i in range(len(paragraph) - 1):
            tokens_a, tokens_b, is_next = _get_next_sentence(
                paragraph[i], paragraph[i + 1], paragraphs)
            if len(tokens_a) + len(tokens_b) + 3 > max_len:
                continue
            tokens, segments = get_tokens_and_segments(tokens_a, tokens_b)
            nsp_data_from_paragraph.append((tokens, segments, is_next))
        return nsp_data_from_paragraph

    def _replace_mlm_tokens(tokens, candidate_pred_positions, num_mlm_preds, vocab):
        mlm_input_tokens = [token for token in tokens]
        pred_positions_and_labels = []
        random.shuffle(candidate_pred_positions)
        for mlm_pred_position in candidate_pred_positions:
            if len(pred_positions_and_labels) >= num_mlm_preds:
                break
            masked_token = None
            if random.random() < 0.8:
                masked_token = '<mask>'
            else:
                if random.random() < 0.5:
                    masked_token = tokens[mlm_pred_position]
                else:
                    masked_token = random.choice(vocab.idx_to_token)
            mlm_input_tokens[mlm_pred_position] = masked_token
            pred_positions_and_labels.append((mlm_pred_position, tokens[mlm_pred_position]))
        return mlm_input_tokens, pred_positions_and_labels

    def _get_mlm_data_from_tokens(tokens, vocab):
        candidate_pred_positions = []
        for i, token in enumerate(tokens):
            if token in ['<cls>', '<sep>']:
                continue
            candidate_pred_positions.append(i)
        num_mlm_preds = max(1, round(len(tokens) * 0.15))
        mlm_input_tokens, pred_positions_and_labels = _replace_mlm_tokens(
            tokens, candidate_pred_positions, num_mlm_preds, vocab)
        pred_positions_and_labels = sorted(pred_positions_and_labels, key=lambda x: x[0])
        pred_positions = [v[0] for v in pred_positions_and_labels]
        mlm_pred_labels = [v[1] for v in pred_positions_and_labels]
        return vocab[mlm_input_tokens], pred_positions, vocab[mlm_pred_labels]

    def _pad_bert_inputs(examples, max_len, vocab):
        max_num_mlm_preds = round(max_len * 0.15)
        all_token_ids, all_segments, valid_lens, = [], [], []
        all_pred_positions, all_mlm_weights, all_mlm_labels = [], [], []
        nsp_labels = []
        for (token_ids, pred_positions, mlm_pred_label_ids, segments, is_next) in examples:
            all_token_ids.append(torch.tensor(token_ids + [vocab['<pad>']] * (
                max_len - len(token_ids)), dtype=torch.long))
            all_segments.append(torch.tensor(segments + [0] * (
                max_len - len(segments)), dtype=torch.long))
            valid_lens.append(torch.tensor(len(token_ids), dtype=torch.float32))
            all_pred_positions.append(torch.tensor(pred_positions + [0] * (
                max_num_mlm_preds - len(pred_positions)), dtype=torch.long))
            all_mlm_weights.append(torch.tensor([1.0] * len(mlm_pred_label_ids) + [0.0] * (
                max_num_mlm_preds - len(pred_positions)), dtype=torch.float32))
            all_mlm_labels.append(torch.tensor(mlm_pred_label_ids + [0] * (
                max_num_mlm_preds - len(mlm_pred_label_ids)), dtype=torch.long))
            nsp_labels.append(torch.tensor(is_next, dtype=torch.long))
        return (all_token_ids, all_segments, valid_lens, all_pred_positions,
                all_mlm_weights, all_mlm_labels, nsp_labels)

    class _WikiTextDataset(torch.utils.data.Dataset):
        def __init__(self, paragraphs, max_len):
            paragraphs = [[line.split() for line in paragraph] for paragraph in paragraphs]
            sentences = [sentence for paragraph in paragraphs for sentence in paragraph]
            self.vocab = d2l.Vocab(sentences, min_freq=2, reserved_tokens=[
                '<pad>', '<mask>', '<cls>', '<sep>'])
            examples = []
            for paragraph in paragraphs:
                examples.extend(_get_nsp_data_from_paragraph(
                    paragraph, paragraphs, self.vocab, max_len))
            examples = [(_get_mlm_data_from_tokens(tokens, self.vocab) + (segments, is_next))
                        for tokens, segments, is_next in examples]
            (self.all_token_ids, self.all_segments, self.valid_lens,
             self.all_pred_positions, self.all_mlm_weights,
             self.all_mlm_labels, self.nsp_labels) = _pad_bert_inputs(
                examples, max_len, self.vocab)

        def __getitem__(self, idx):
            return (self.all_token_ids[idx], self.all_segments[idx],
                    self.valid_lens[idx], self.all_pred_positions[idx],
                    self.all_mlm_weights[idx], self.all_mlm_labels[idx],
                    self.nsp_labels[idx])

        def __len__(self):
            return len(self.all_token_ids)

    paragraphs = [PTB_LIKE[i:i + 3] for i in range(0, len(PTB_LIKE), 2)] * 3
    train_set = _WikiTextDataset(paragraphs, 32)
    train_iter = torch.utils.data.DataLoader(train_set, 8, shuffle=True, num_workers=0)
    vocab = train_set.vocab
    for (tokens_X, segments_X, valid_lens_x, pred_positions_X, mlm_weights_X,
         mlm_Y, nsp_y) in train_iter:
        print(tokens_X.shape, segments_X.shape, valid_lens_x.shape,
              pred_positions_X.shape, mlm_weights_X.shape, mlm_Y.shape, nsp_y.shape)
        break
    print(len(vocab), len(train_set))

    net = BERTModel(len(vocab), num_hiddens=24, ffn_num_hiddens=32, num_heads=2, num_blks=2,
                    dropout=0.2, max_len=32)
    loss = nn.CrossEntropyLoss()

    def _get_batch_loss_bert(net, loss, vocab_size, tokens_X, segments_X, valid_lens_x,
                             pred_positions_X, mlm_weights_X, mlm_Y, nsp_y):
        _, mlm_Y_hat, nsp_Y_hat = net(tokens_X, segments_X, valid_lens_x.reshape(-1),
                                      pred_positions_X)
        mlm_l = loss(mlm_Y_hat.reshape(-1, vocab_size), mlm_Y.reshape(-1)) * \
            mlm_weights_X.reshape(-1, 1)
        mlm_l = mlm_l.sum() / (mlm_weights_X.sum() + 1e-8)
        nsp_l = loss(nsp_Y_hat, nsp_y)
        l = mlm_l + nsp_l
        return mlm_l, nsp_l, l

    def train_bert(train_iter, net, loss, vocab_size, num_steps):
        net(*next(iter(train_iter))[:4])
        trainer = torch.optim.Adam(net.parameters(), lr=0.01)
        step, metric = 0, d2l.Accumulator(4)
        num_steps_reached = False
        while step < num_steps and not num_steps_reached:
            for tokens_X, segments_X, valid_lens_x, pred_positions_X, \
                    mlm_weights_X, mlm_Y, nsp_y in train_iter:
                trainer.zero_grad()
                mlm_l, nsp_l, l = _get_batch_loss_bert(
                    net, loss, vocab_size, tokens_X, segments_X, valid_lens_x,
                    pred_positions_X, mlm_weights_X, mlm_Y, nsp_y)
                l.backward()
                trainer.step()
                metric.add(mlm_l, nsp_l, tokens_X.shape[0], 1)
                step += 1
                if step % 4 == 0:
                    print(step, f'MLM loss {metric[0] / metric[3]:.3f}, '
                          f'NSP loss {metric[1] / metric[3]:.3f}')
                if step == num_steps:
                    num_steps_reached = True
                    break

    train_bert(train_iter, net, loss, len(vocab), 12)

    def get_bert_encoding(net, tokens_a, tokens_b=None):
        tokens, segments = get_tokens_and_segments(tokens_a, tokens_b)
        token_ids = torch.tensor(vocab[tokens]).unsqueeze(0)
        segments = torch.tensor(segments).unsqueeze(0)
        valid_len = torch.tensor(len(tokens)).unsqueeze(0)
        encoded_X, _, _ = net(token_ids, segments, valid_len)
        return encoded_X

    net.eval()
    tokens_a = ['the', 'chip', 'maker', 'said']
    encoded_text = get_bert_encoding(net, tokens_a)
    encoded_text_cls = encoded_text[:, 0, :]
    encoded_text_chip = encoded_text[:, 2, :]
    print(encoded_text.shape, encoded_text_cls.shape, encoded_text_chip[0][:3])
    encoded_pair = get_bert_encoding(net, tokens_a, ['sales', 'rose'])
    print(encoded_pair.shape, encoded_pair[:, 0, :][0][:3])
    finals.update({"bert.nsp": net.nsp.output.weight, "bert.mlm_out": net.mlm.mlp[3].bias})
    return finals



def leaf_tensors_and_parametrizations(torch):
    """pytorch/tutorials beginner_source/understanding_leaf_vs_nonleaf_tutorial.py
    (is_leaf, requires_grad, the .grad of a non-leaf with PyTorch's warning, retain_grad,
    retains_grad, retain_grad on a tensor without grad refused) and
    intermediate_source/parametrizations.py (register_parametrization of Symmetric, Skew,
    CayleyMap with torch.linalg.solve as the current text has it, MatrixExponential,
    parametrize.cached(), right_inverse on assignment, a pruning mask from bernoulli,
    remove_parametrizations with leave_parametrized either way)."""
    F = torch.nn.functional
    nn, parametrize = torch.nn, torch.nn.utils.parametrize
    x = torch.ones(1, 3)
    W = torch.ones(3, 2, requires_grad=True)
    b = torch.ones(1, 2, requires_grad=True)
    y = torch.ones(1, 2)
    z = (x @ W) + b
    y_pred = F.relu(z)
    loss = F.mse_loss(y_pred, y)
    print(f"{x.is_leaf=}")
    print(f"{z.is_leaf=}")
    print(f"{x.requires_grad=}")
    print(f"{W.requires_grad=}")
    print(f"{z.requires_grad=}")
    loss.backward()
    print(f"{W.grad=}")
    print(f"{b.grad=}")
    print(f"{x.grad=}")
    print(f"{y.grad=}")
    print(f"{z.grad=}")
    z = (x @ W) + b
    y_pred = F.relu(z)
    loss = F.mse_loss(y_pred, y)
    z.retain_grad()
    y_pred.retain_grad()
    loss.retain_grad()
    W.grad = None
    b.grad = None
    loss.backward()
    print(f"{W.grad=}")
    print(f"{b.grad=}")
    print(f"{z.grad=}")
    print(f"{y_pred.grad=}")
    print(f"{loss.grad=}")
    print(z.retains_grad, W.retains_grad)
    try:
        x.retain_grad()
    except RuntimeError as e:
        print(e)
    def symmetric(X):
        return X.triu() + X.triu(1).transpose(-1, -2)
    X = torch.rand(3, 3)
    A = symmetric(X)
    assert torch.allclose(A, A.T)
    print(A)
    class LinearSymmetric(nn.Module):
        def __init__(self, n_features):
            super().__init__()
            self.weight = nn.Parameter(torch.rand(n_features, n_features))
        def forward(self, x):
            A = symmetric(self.weight)
            return x @ A
    layer = LinearSymmetric(3)
    out = layer(torch.rand(8, 3))
    print(out)
    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)
    layer = nn.Linear(3, 3)
    parametrize.register_parametrization(layer, "weight", Symmetric())
    A = layer.weight
    assert torch.allclose(A, A.T)
    print(A)
    class Skew(nn.Module):
        def forward(self, X):
            A = X.triu(1)
            return A - A.transpose(-1, -2)
    cnn = nn.Conv2d(in_channels=5, out_channels=8, kernel_size=3)
    parametrize.register_parametrization(cnn, "weight", Skew())
    print(cnn.weight[0, 1])
    print(cnn.weight[2, 2])
    layer = nn.Linear(3, 3)
    print(f"Unparametrized:\n{layer}")
    parametrize.register_parametrization(layer, "weight", Symmetric())
    print(f"\nParametrized:\n{layer}")
    print(layer.parametrizations)
    print(layer.parametrizations.weight)
    print(layer.parametrizations.weight[0])
    print(dict(layer.named_parameters()))
    print(layer.parametrizations.weight.original)
    symmetric = Symmetric()
    weight_orig = layer.parametrizations.weight.original
    print(torch.dist(layer.weight, symmetric(weight_orig)))
    class NoisyParametrization(nn.Module):
        def forward(self, X):
            print("Computing the Parametrization")
            return X
    layer = nn.Linear(4, 4)
    parametrize.register_parametrization(layer, "weight", NoisyParametrization())
    print("Here, layer.weight is recomputed every time we call it")
    foo = layer.weight + layer.weight.T
    bar = layer.weight.sum()
    with parametrize.cached():
        print("Here, it is computed just the first time layer.weight is called")
        foo = layer.weight + layer.weight.T
        bar = layer.weight.sum()
    class CayleyMap(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.register_buffer("Id", torch.eye(n))
        def forward(self, X):
            return torch.linalg.solve(self.Id - X, self.Id + X)
    layer = nn.Linear(3, 3)
    parametrize.register_parametrization(layer, "weight", Skew())
    parametrize.register_parametrization(layer, "weight", CayleyMap(3))
    X = layer.weight
    print(torch.dist(X.T @ X, torch.eye(3)))
    class MatrixExponential(nn.Module):
        def forward(self, X):
            return torch.matrix_exp(X)
    layer_orthogonal = nn.Linear(3, 3)
    parametrize.register_parametrization(layer_orthogonal, "weight", Skew())
    parametrize.register_parametrization(layer_orthogonal, "weight", MatrixExponential())
    X = layer_orthogonal.weight
    print(torch.dist(X.T @ X, torch.eye(3)))
    layer_spd = nn.Linear(3, 3)
    parametrize.register_parametrization(layer_spd, "weight", Symmetric())
    parametrize.register_parametrization(layer_spd, "weight", MatrixExponential())
    X = layer_spd.weight
    print(torch.dist(X, X.T))
    print((torch.linalg.eigvalsh(X) > 0.).all())
    class Skew(nn.Module):
        def forward(self, X):
            A = X.triu(1)
            return A - A.transpose(-1, -2)
        def right_inverse(self, A):
            return A.triu(1)
    layer = nn.Linear(3, 3)
    parametrize.register_parametrization(layer, "weight", Skew())
    X = torch.rand(3, 3)
    X = X - X.T
    layer.weight = X
    print(torch.dist(layer.weight, X))
    class CayleyMap(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.register_buffer("Id", torch.eye(n))
        def forward(self, X):
            return torch.linalg.solve(self.Id - X, self.Id + X)
        def right_inverse(self, A):
            return torch.linalg.solve(A + self.Id, self.Id - A)
    layer_orthogonal = nn.Linear(3, 3)
    parametrize.register_parametrization(layer_orthogonal, "weight", Skew())
    parametrize.register_parametrization(layer_orthogonal, "weight", CayleyMap(3))
    X = torch.empty(3, 3)
    nn.init.orthogonal_(X)
    if X.det() < 0.:
        X[0].neg_()
    layer_orthogonal.weight = X
    print(torch.dist(layer_orthogonal.weight, X))
    layer_orthogonal.weight = nn.init.orthogonal_(layer_orthogonal.weight)
    print(layer_orthogonal.weight)
    class PruningParametrization(nn.Module):
        def __init__(self, X, p_drop=0.2):
            super().__init__()
            mask = torch.full_like(X, 1.0 - p_drop)
            self.mask = torch.bernoulli(mask)
        def forward(self, X):
            return X * self.mask
        def right_inverse(self, A):
            return A
    layer = nn.Linear(3, 4)
    X = torch.rand_like(layer.weight)
    print(f"Initialization matrix:\n{X}")
    parametrize.register_parametrization(layer, "weight", PruningParametrization(layer.weight))
    layer.weight = X
    print(f"\nInitialized weight:\n{layer.weight}")
    layer = nn.Linear(3, 3)
    print("Before:")
    print(layer)
    print(layer.weight)
    parametrize.register_parametrization(layer, "weight", Skew())
    print("\nParametrized:")
    print(layer)
    print(layer.weight)
    parametrize.remove_parametrizations(layer, "weight")
    print("\nAfter. Weight has skew-symmetric values but it is unconstrained:")
    print(layer)
    print(layer.weight)
    layer = nn.Linear(3, 3)
    print("Before:")
    print(layer)
    print(layer.weight)
    parametrize.register_parametrization(layer, "weight", Skew())
    print("\nParametrized:")
    print(layer)
    print(layer.weight)
    parametrize.remove_parametrizations(layer, "weight", leave_parametrized=False)
    print("\nAfter. Same as Before:")
    print(layer)
    print(layer.weight)
    return {"layer.weight": layer.weight, "orthogonal": layer_orthogonal.weight}


def knowledge_distillation(torch):
    """pytorch/tutorials beginner_source/knowledge_distillation_tutorial.py: the DeepNN
    teacher and LightNN students (seeded alike, their first layers' norms printed),
    train/test with Adam and CrossEntropyLoss, train_knowledge_distillation (softmax and
    log_softmax at temperature T, -sum(soft_targets * soft_prob) / batch * T**2),
    ModifiedDeepNNCosine (avg_pool1d of the flattened features, its state loaded from the
    teacher) with CosineEmbeddingLoss against a target of ones, and the regressor
    students with an MSE between feature maps. CIFAR-10 is 8 + 8 seeded random images
    through Normalize's channel means (image_dataset), batches of 8 loaded in the process (the tutorial's
    num_workers=2 starts PyTorch's worker processes each pass), one epoch each."""
    nn, optim = torch.nn, torch.optim
    device = "cpu"
    mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)

    class Normalized(torch.utils.data.Dataset):
        def __init__(self, n, seed):
            self.images = image_dataset(torch, n, shape=(3, 32, 32), seed=seed)

        def __len__(self):
            return len(self.images)

        def __getitem__(self, i):
            x, label = self.images[i]
            return (x - mean) / std, label

    train_dataset, test_dataset = Normalized(8, 1), Normalized(8, 2)
    train_loader = torch.utils.data.DataLoader(train_dataset, batch_size=8, shuffle=True,
                                               num_workers=0)
    test_loader = torch.utils.data.DataLoader(test_dataset, batch_size=8, shuffle=False,
                                              num_workers=0)

    def deep_features():
        return nn.Sequential(
            nn.Conv2d(3, 128, kernel_size=3, padding=1), nn.ReLU(),
            nn.Conv2d(128, 64, kernel_size=3, padding=1), nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
            nn.Conv2d(64, 64, kernel_size=3, padding=1), nn.ReLU(),
            nn.Conv2d(64, 32, kernel_size=3, padding=1), nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2))

    def light_features():
        return nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=3, padding=1), nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2),
            nn.Conv2d(16, 16, kernel_size=3, padding=1), nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2))

    class DeepNN(nn.Module):
        def __init__(self, num_classes=10):
            super(DeepNN, self).__init__()
            self.features = deep_features()
            self.classifier = nn.Sequential(nn.Linear(2048, 512), nn.ReLU(), nn.Dropout(0.1),
                                            nn.Linear(512, num_classes))

        def forward(self, x):
            x = self.features(x)
            x = torch.flatten(x, 1)
            x = self.classifier(x)
            return x

    class LightNN(nn.Module):
        def __init__(self, num_classes=10):
            super(LightNN, self).__init__()
            self.features = light_features()
            self.classifier = nn.Sequential(nn.Linear(1024, 256), nn.ReLU(), nn.Dropout(0.1),
                                            nn.Linear(256, num_classes))

        def forward(self, x):
            x = self.features(x)
            x = torch.flatten(x, 1)
            x = self.classifier(x)
            return x

    def train(model, train_loader, epochs, learning_rate, device):
        criterion = nn.CrossEntropyLoss()
        optimizer = optim.Adam(model.parameters(), lr=learning_rate)
        model.to(device)
        model.train()
        for epoch in range(epochs):
            running_loss = 0.0
            for inputs, labels in train_loader:
                inputs, labels = inputs.to(device), labels.to(device)
                optimizer.zero_grad()
                outputs = model(inputs)
                loss = criterion(outputs, labels)
                loss.backward()
                optimizer.step()
                running_loss += loss.item()
            print(f"Epoch {epoch+1}/{epochs}, Loss: {running_loss / len(train_loader)}")

    def test(model, test_loader, device, multiple_outputs=False):
        model.to(device)
        model.eval()
        correct = 0
        total = 0
        with torch.no_grad():
            for inputs, labels in test_loader:
                inputs, labels = inputs.to(device), labels.to(device)
                outputs = model(inputs)
                if multiple_outputs:
                    outputs, _ = outputs
                _, predicted = torch.max(outputs.data, 1)
                total += labels.size(0)
                correct += (predicted == labels).sum().item()
        accuracy = 100 * correct / total
        print(f"Test Accuracy: {accuracy:.2f}%")
        return accuracy

    torch.manual_seed(42)
    nn_deep = DeepNN(num_classes=10)
    train(nn_deep, train_loader, epochs=1, learning_rate=0.001, device=device)
    test_accuracy_deep = test(nn_deep, test_loader, device)
    torch.manual_seed(42)
    nn_light = LightNN(num_classes=10)
    torch.manual_seed(42)
    new_nn_light = LightNN(num_classes=10)
    print("Norm of 1st layer of nn_light:", torch.norm(nn_light.features[0].weight).item())
    print("Norm of 1st layer of new_nn_light:", torch.norm(new_nn_light.features[0].weight).item())
    total_params_deep = "{:,}".format(sum(p.numel() for p in nn_deep.parameters()))
    print(f"DeepNN parameters: {total_params_deep}")
    total_params_light = "{:,}".format(sum(p.numel() for p in nn_light.parameters()))
    print(f"LightNN parameters: {total_params_light}")
    train(nn_light, train_loader, epochs=1, learning_rate=0.001, device=device)
    test_accuracy_light_ce = test(nn_light, test_loader, device)
    print(f"Teacher accuracy: {test_accuracy_deep:.2f}%")
    print(f"Student accuracy: {test_accuracy_light_ce:.2f}%")

    def train_knowledge_distillation(teacher, student, train_loader, epochs, learning_rate, T,
                                     soft_target_loss_weight, ce_loss_weight, device):
        ce_loss = nn.CrossEntropyLoss()
        optimizer = optim.Adam(student.parameters(), lr=learning_rate)
        teacher.to(device)
        student.to(device)
        teacher.eval()
        student.train()
        for epoch in range(epochs):
            running_loss = 0.0
            for inputs, labels in train_loader:
                inputs, labels = inputs.to(device), labels.to(device)
                optimizer.zero_grad()
                with torch.no_grad():
                    teacher_logits = teacher(inputs)
                student_logits = student(inputs)
                soft_targets = nn.functional.softmax(teacher_logits / T, dim=-1)
                soft_prob = nn.functional.log_softmax(student_logits / T, dim=-1)
                soft_targets_loss = -torch.sum(soft_targets * soft_prob) / soft_prob.size()[0] * (T**2)
                label_loss = ce_loss(student_logits, labels)
                loss = soft_target_loss_weight * soft_targets_loss + ce_loss_weight * label_loss
                loss.backward()
                optimizer.step()
                running_loss += loss.item()
            print(f"Epoch {epoch+1}/{epochs}, Loss: {running_loss / len(train_loader)}")

    train_knowledge_distillation(teacher=nn_deep, student=new_nn_light, train_loader=train_loader,
                                 epochs=1, learning_rate=0.001, T=2, soft_target_loss_weight=0.25,
                                 ce_loss_weight=0.75, device=device)
    test_accuracy_light_ce_and_kd = test(new_nn_light, test_loader, device)
    print(f"Student accuracy with CE + KD: {test_accuracy_light_ce_and_kd:.2f}%")

    class ModifiedDeepNNCosine(DeepNN):
        def forward(self, x):
            x = self.features(x)
            flattened_conv_output = torch.flatten(x, 1)
            x = self.classifier(flattened_conv_output)
            flattened_conv_output_after_pooling = torch.nn.functional.avg_pool1d(
                flattened_conv_output, 2)
            return x, flattened_conv_output_after_pooling

    class ModifiedLightNNCosine(LightNN):
        def forward(self, x):
            x = self.features(x)
            flattened_conv_output = torch.flatten(x, 1)
            x = self.classifier(flattened_conv_output)
            return x, flattened_conv_output

    modified_nn_deep = ModifiedDeepNNCosine(num_classes=10)
    print(modified_nn_deep.load_state_dict(nn_deep.state_dict()))
    print("Norm of 1st layer for deep_nn:", torch.norm(nn_deep.features[0].weight).item())
    print("Norm of 1st layer for modified_deep_nn:",
          torch.norm(modified_nn_deep.features[0].weight).item())
    torch.manual_seed(42)
    modified_light_nn = ModifiedLightNNCosine(num_classes=10)
    print("Norm of 1st layer:", torch.norm(modified_light_nn.features[0].weight).item())

    def train_with_hidden_loss(teacher, student, train_loader, epochs, learning_rate,
                               hidden_loss, hidden_weight, ce_loss_weight, device):
        ce_loss = nn.CrossEntropyLoss()
        optimizer = optim.Adam(student.parameters(), lr=learning_rate)
        teacher.to(device)
        student.to(device)
        teacher.eval()
        student.train()
        for epoch in range(epochs):
            running_loss = 0.0
            for inputs, labels in train_loader:
                inputs, labels = inputs.to(device), labels.to(device)
                optimizer.zero_grad()
                with torch.no_grad():
                    _, teacher_hidden = teacher(inputs)
                student_logits, student_hidden = student(inputs)
                if isinstance(hidden_loss, nn.CosineEmbeddingLoss):
                    hidden_rep_loss = hidden_loss(student_hidden, teacher_hidden,
                                                  target=torch.ones(inputs.size(0)).to(device))
                else:
                    hidden_rep_loss = hidden_loss(student_hidden, teacher_hidden)
                label_loss = ce_loss(student_logits, labels)
                loss = hidden_weight * hidden_rep_loss + ce_loss_weight * label_loss
                loss.backward()
                optimizer.step()
                running_loss += loss.item()
            print(f"Epoch {epoch+1}/{epochs}, Loss: {running_loss / len(train_loader)}")

    train_with_hidden_loss(modified_nn_deep, modified_light_nn, train_loader, 1, 0.001,
                           nn.CosineEmbeddingLoss(), 0.25, 0.75, device)
    test_accuracy_light_ce_and_cosine_loss = test(modified_light_nn, test_loader, device, True)

    class ModifiedDeepNNRegressor(DeepNN):
        def forward(self, x):
            x = self.features(x)
            conv_feature_map = x
            x = torch.flatten(x, 1)
            x = self.classifier(x)
            return x, conv_feature_map

    class ModifiedLightNNRegressor(LightNN):
        def __init__(self, num_classes=10):
            super(ModifiedLightNNRegressor, self).__init__(num_classes)
            self.regressor = nn.Sequential(nn.Conv2d(16, 32, kernel_size=3, padding=1))

        def forward(self, x):
            x = self.features(x)
            regressor_output = self.regressor(x)
            x = torch.flatten(x, 1)
            x = self.classifier(x)
            return x, regressor_output

    torch.manual_seed(42)
    modified_nn_light_reg = ModifiedLightNNRegressor(num_classes=10)
    modified_nn_deep_reg = ModifiedDeepNNRegressor(num_classes=10)
    modified_nn_deep_reg.load_state_dict(nn_deep.state_dict())
    train_with_hidden_loss(modified_nn_deep_reg, modified_nn_light_reg, train_loader, 1, 0.001,
                           nn.MSELoss(), 0.25, 0.75, device)
    test_accuracy_light_ce_and_mse_loss = test(modified_nn_light_reg, test_loader, device, True)
    print(f"Student accuracy with CE + CosineLoss: {test_accuracy_light_ce_and_cosine_loss:.2f}%")
    print(f"Student accuracy with CE + RegressorMSE: {test_accuracy_light_ce_and_mse_loss:.2f}%")
    return {"light.out.bias": new_nn_light.classifier[3].bias,
            "regressor.out.bias": modified_nn_light_reg.classifier[3].bias}


def basics_data_and_transforms(torch):
    """pytorch/tutorials beginner_source/basics/data_tutorial.py (labels_map, samples
    drawn with ``torch.randint(len(training_data), size=(1,)).item()``, a Dataset with
    transform and target_transform, a DataLoader's first batch, ``squeeze``) and
    transforms_tutorial.py (ToTensor and the one-hot target_transform
    ``Lambda(lambda y: torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y),
    value=1))``). FashionMNIST is image_dataset's seeded images; the plots are the
    printed labels and image sizes; torchvision's Lambda is the function it wraps."""
    images = image_dataset(torch, 64, seed=3)

    class FashionMNIST(torch.utils.data.Dataset):
        def __init__(self, transform=None, target_transform=None):
            self.transform = transform
            self.target_transform = target_transform

        def __len__(self):
            return len(images)

        def __getitem__(self, idx):
            image, label = images[idx]
            if self.transform:
                image = self.transform(image)
            if self.target_transform:
                label = self.target_transform(label)
            return image, label

    training_data = FashionMNIST()
    labels_map = {0: "T-Shirt", 1: "Trouser", 2: "Pullover", 3: "Dress", 4: "Coat",
                  5: "Sandal", 6: "Shirt", 7: "Sneaker", 8: "Bag", 9: "Ankle Boot"}
    cols, rows = 3, 3
    for i in range(1, cols * rows + 1):
        sample_idx = torch.randint(len(training_data), size=(1,)).item()
        img, label = training_data[sample_idx]
        print(i, sample_idx, labels_map[label], tuple(img.squeeze().shape))
    train_dataloader = torch.utils.data.DataLoader(training_data, batch_size=16, shuffle=True)
    train_features, train_labels = next(iter(train_dataloader))
    print(f"Feature batch shape: {train_features.size()}")
    print(f"Labels batch shape: {train_labels.size()}")
    img = train_features[0].squeeze()
    label = train_labels[0]
    print(f"Label: {label}", img.shape, img.sum())
    ds = FashionMNIST(
        transform=lambda x: x,
        target_transform=lambda y: torch.zeros(10, dtype=torch.float).scatter_(
            0, torch.tensor(y), value=1))
    print(ds[0][1], ds[5][1])
    batch = next(iter(torch.utils.data.DataLoader(ds, batch_size=4)))
    print(batch[1], batch[1].argmax(1))
    return {"targets": batch[1]}


def spatial_transformer(torch):
    """pytorch/tutorials intermediate_source/spatial_transformer_tutorial.py: the
    localization network (MaxPool2d then ReLU(True)), fc_loc started at the identity
    (``weight.data.zero_()``, ``bias.data.copy_``), F.affine_grid and F.grid_sample
    without align_corners (PyTorch's warnings), Dropout2d, F.dropout, nll_loss with the
    old ``size_average=False`` (its deprecation warning), training with SGD and the test
    loop, and visualize_stn's images through convert_image_np (the plots are printed
    sums; make_grid is the batch's first image). MNIST is image_dataset's seeded images
    normalized with (0.1307,), (0.3081,): 32 for training, 16 for testing, 2 epochs."""
    nn, F, optim = torch.nn, torch.nn.functional, torch.optim
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    class Normalized(torch.utils.data.Dataset):
        def __init__(self, n, seed):
            self.images = image_dataset(torch, n, seed=seed)

        def __len__(self):
            return len(self.images)

        def __getitem__(self, i):
            x, label = self.images[i]
            return (x - 0.1307) / 0.3081, label

    train_loader = torch.utils.data.DataLoader(Normalized(32, 1), batch_size=16, shuffle=True,
                                               num_workers=0)
    test_loader = torch.utils.data.DataLoader(Normalized(16, 2), batch_size=16, shuffle=True,
                                              num_workers=0)

    class Net(nn.Module):
        def __init__(self):
            super(Net, self).__init__()
            self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
            self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
            self.conv2_drop = nn.Dropout2d()
            self.fc1 = nn.Linear(320, 50)
            self.fc2 = nn.Linear(50, 10)
            self.localization = nn.Sequential(
                nn.Conv2d(1, 8, kernel_size=7),
                nn.MaxPool2d(2, stride=2),
                nn.ReLU(True),
                nn.Conv2d(8, 10, kernel_size=5),
                nn.MaxPool2d(2, stride=2),
                nn.ReLU(True)
            )
            self.fc_loc = nn.Sequential(
                nn.Linear(10 * 3 * 3, 32),
                nn.ReLU(True),
                nn.Linear(32, 3 * 2)
            )
            self.fc_loc[2].weight.data.zero_()
            self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))

        def stn(self, x):
            xs = self.localization(x)
            xs = xs.view(-1, 10 * 3 * 3)
            theta = self.fc_loc(xs)
            theta = theta.view(-1, 2, 3)
            grid = F.affine_grid(theta, x.size())
            x = F.grid_sample(x, grid)
            return x

        def forward(self, x):
            x = self.stn(x)
            x = F.relu(F.max_pool2d(self.conv1(x), 2))
            x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
            x = x.view(-1, 320)
            x = F.relu(self.fc1(x))
            x = F.dropout(x, training=self.training)
            x = self.fc2(x)
            return F.log_softmax(x, dim=1)

    model = Net().to(device)
    optimizer = optim.SGD(model.parameters(), lr=0.01)

    def train(epoch):
        model.train()
        for batch_idx, (data, target) in enumerate(train_loader):
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            output = model(data)
            loss = F.nll_loss(output, target)
            loss.backward()
            optimizer.step()
            if batch_idx % 1 == 0:
                print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                    epoch, batch_idx * len(data), len(train_loader.dataset),
                    100. * batch_idx / len(train_loader), loss.item()))

    def test():
        with torch.no_grad():
            model.eval()
            test_loss = 0
            correct = 0
            for data, target in test_loader:
                data, target = data.to(device), target.to(device)
                output = model(data)
                test_loss += F.nll_loss(output, target, size_average=False).item()
                pred = output.max(1, keepdim=True)[1]
                correct += pred.eq(target.view_as(pred)).sum().item()
            test_loss /= len(test_loader.dataset)
            print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'
                  .format(test_loss, correct, len(test_loader.dataset),
                          100. * correct / len(test_loader.dataset)))

    def convert_image_np(inp):
        inp = inp.numpy().transpose((1, 2, 0))
        mean = np.array([0.485, 0.456, 0.406])
        std = np.array([0.229, 0.224, 0.225])
        inp = std * inp + mean
        inp = np.clip(inp, 0, 1)
        return inp

    def visualize_stn():
        with torch.no_grad():
            data = next(iter(test_loader))[0].to(device)
            input_tensor = data.cpu()
            transformed_input_tensor = model.stn(data).cpu()
            in_grid = convert_image_np(input_tensor[0])
            out_grid = convert_image_np(transformed_input_tensor[0])
            print(in_grid.shape, round(float(in_grid.sum()), 3), round(float(out_grid.sum()), 3))

    for epoch in range(1, 2 + 1):
        train(epoch)
        test()
    visualize_stn()
    return {"fc_loc.bias": model.fc_loc[2].bias, "fc2.weight": model.fc2.weight}


def morvan_dqn(torch):
    """MorvanZhou/PyTorch-Tutorial tutorial-contents/405_DQN_Reinforcement_learning.py: the
    Net with ``weight.data.normal_(0, 0.1)``, DQN's choose_action (``torch.FloatTensor`` of
    a NumPy state, ``torch.max(actions_value, 1)[1].data.numpy()``, NumPy's random greedy
    choice), the replay memory in a NumPy array, learn() (target net loaded from the
    state_dict every TARGET_REPLACE_ITER steps, ``torch.LongTensor`` of ``astype(int)``
    actions, gather, ``q_next.max(1)[0].view(BATCH_SIZE, 1)``, MSELoss, Adam). gym's
    CartPole is a small deterministic stand-in with the attributes the reward uses;
    NumPy's global random state is seeded (np.random.seed(0)); a memory of 40, 8 episodes."""
    nn, F = torch.nn, torch.nn.functional
    np.random.seed(0)
    BATCH_SIZE, LR, EPSILON, GAMMA = 8, 0.01, 0.9, 0.9
    TARGET_REPLACE_ITER, MEMORY_CAPACITY = 10, 40

    class CartPole:  # stands for gym.make('CartPole-v0').unwrapped
        x_threshold, theta_threshold_radians = 2.4, 12 * 2 * math.pi / 360
        action_space = SimpleNamespace(n=2, sample=lambda: 0)
        observation_space = SimpleNamespace(shape=(4,))

        def reset(self):
            self.state, self.steps = np.array([0.01, -0.02, 0.03, 0.01]), 0
            return self.state

        def step(self, action):
            self.steps += 1
            push = 0.04 * (action * 2 - 1)
            x, x_dot, theta, theta_dot = self.state
            self.state = np.array([x + 0.02 * x_dot, x_dot + push, theta + 0.02 * theta_dot,
                                   theta_dot - 1.5 * push + 0.3 * theta])
            done = bool(abs(self.state[2]) > self.theta_threshold_radians) or self.steps >= 15
            return self.state, 1.0, done, {}

        def render(self):
            pass

    env = CartPole()
    N_ACTIONS = env.action_space.n
    N_STATES = env.observation_space.shape[0]
    ENV_A_SHAPE = 0 if isinstance(env.action_space.sample(), int) else env.action_space.sample().shape

    class Net(nn.Module):
        def __init__(self, ):
            super(Net, self).__init__()
            self.fc1 = nn.Linear(N_STATES, 50)
            self.fc1.weight.data.normal_(0, 0.1)
            self.out = nn.Linear(50, N_ACTIONS)
            self.out.weight.data.normal_(0, 0.1)

        def forward(self, x):
            x = self.fc1(x)
            x = F.relu(x)
            actions_value = self.out(x)
            return actions_value

    class DQN(object):
        def __init__(self):
            self.eval_net, self.target_net = Net(), Net()
            self.learn_step_counter = 0
            self.memory_counter = 0
            self.memory = np.zeros((MEMORY_CAPACITY, N_STATES * 2 + 2))
            self.optimizer = torch.optim.Adam(self.eval_net.parameters(), lr=LR)
            self.loss_func = nn.MSELoss()

        def choose_action(self, x):
            x = torch.unsqueeze(torch.FloatTensor(x), 0)
            if np.random.uniform() < EPSILON:
                actions_value = self.eval_net.forward(x)
                action = torch.max(actions_value, 1)[1].data.numpy()
                action = action[0] if ENV_A_SHAPE == 0 else action.reshape(ENV_A_SHAPE)
            else:
                action = np.random.randint(0, N_ACTIONS)
                action = action if ENV_A_SHAPE == 0 else action.reshape(ENV_A_SHAPE)
            return action

        def store_transition(self, s, a, r, s_):
            transition = np.hstack((s, [a, r], s_))
            index = self.memory_counter % MEMORY_CAPACITY
            self.memory[index, :] = transition
            self.memory_counter += 1

        def learn(self):
            if self.learn_step_counter % TARGET_REPLACE_ITER == 0:
                self.target_net.load_state_dict(self.eval_net.state_dict())
            self.learn_step_counter += 1
            sample_index = np.random.choice(MEMORY_CAPACITY, BATCH_SIZE)
            b_memory = self.memory[sample_index, :]
            b_s = torch.FloatTensor(b_memory[:, :N_STATES])
            b_a = torch.LongTensor(b_memory[:, N_STATES:N_STATES + 1].astype(int))
            b_r = torch.FloatTensor(b_memory[:, N_STATES + 1:N_STATES + 2])
            b_s_ = torch.FloatTensor(b_memory[:, -N_STATES:])
            q_eval = self.eval_net(b_s).gather(1, b_a)
            q_next = self.target_net(b_s_).detach()
            q_target = b_r + GAMMA * q_next.max(1)[0].view(BATCH_SIZE, 1)
            loss = self.loss_func(q_eval, q_target)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            return loss

    dqn = DQN()
    print('\nCollecting experience...')
    for i_episode in range(8):
        s = env.reset()
        ep_r = 0
        while True:
            env.render()
            a = dqn.choose_action(s)
            s_, r, done, info = env.step(a)
            x, x_dot, theta, theta_dot = s_
            r1 = (env.x_threshold - abs(x)) / env.x_threshold - 0.8
            r2 = (env.theta_threshold_radians - abs(theta)) / env.theta_threshold_radians - 0.5
            r = r1 + r2
            dqn.store_transition(s, a, r, s_)
            ep_r += r
            if dqn.memory_counter > MEMORY_CAPACITY:
                loss = dqn.learn()
                if done:
                    print('Ep: ', i_episode, '| Ep_r: ', round(ep_r, 2), loss)
            if done:
                break
            s = s_
    return {"eval.out.weight": dqn.eval_net.out.weight, "target.fc1.bias": dqn.target_net.fc1.bias}


def lyeoni_transformer_classifier(torch):
    """lyeoni/nlp-tutorial text-classification-transformer/model.py: a Transformer encoder
    written out (ScaledDotProductAttention dividing by ``np.sqrt(self.d_k)``, a NumPy
    float64, with ``masked_fill_`` of a padding mask repeated over heads,
    ``nn.Softmax(dim=-1)(attn_score)``; MultiHeadAttention with view/transpose/contiguous;
    EncoderLayer with LayerNorm(eps=1e-6); a sinusoid table from NumPy loaded with
    ``nn.Embedding.from_pretrained(torch.FloatTensor(...), freeze=True)``; positions from
    arange().repeat() + 1 with ``masked_fill_`` at the pads; ``torch.max(outputs, dim=1)``
    pooling and a softmax head), trained a few Adam steps on made-up token ids with
    CrossEntropyLoss as its trainer.py does (on the softmax's output); small sizes."""
    nn = torch.nn

    class ScaledDotProductAttention(nn.Module):
        def __init__(self, d_k):
            super(ScaledDotProductAttention, self).__init__()
            self.d_k = d_k

        def forward(self, q, k, v, attn_mask):
            attn_score = torch.matmul(q, k.transpose(-1, -2)) / np.sqrt(self.d_k)
            attn_score.masked_fill_(attn_mask, -1e9)
            attn_weights = nn.Softmax(dim=-1)(attn_score)
            output = torch.matmul(attn_weights, v)
            return output, attn_weights

    class MultiHeadAttention(nn.Module):
        def __init__(self, d_model, n_heads):
            super(MultiHeadAttention, self).__init__()
            self.n_heads = n_heads
            self.d_k = self.d_v = d_model // n_heads
            self.WQ = nn.Linear(d_model, d_model)
            self.WK = nn.Linear(d_model, d_model)
            self.WV = nn.Linear(d_model, d_model)
            self.scaled_dot_product_attn = ScaledDotProductAttention(self.d_k)
            self.linear = nn.Linear(n_heads * self.d_v, d_model)

        def forward(self, Q, K, V, attn_mask):
            batch_size = Q.size(0)
            q_heads = self.WQ(Q).view(batch_size, -1, self.n_heads, self.d_k).transpose(1, 2)
            k_heads = self.WK(K).view(batch_size, -1, self.n_heads, self.d_k).transpose(1, 2)
            v_heads = self.WV(V).view(batch_size, -1, self.n_heads, self.d_v).transpose(1, 2)
            attn_mask = attn_mask.unsqueeze(1).repeat(1, self.n_heads, 1, 1)
            attn, attn_weights = self.scaled_dot_product_attn(q_heads, k_heads, v_heads, attn_mask)
            attn = attn.transpose(1, 2).contiguous().view(batch_size, -1, self.n_heads * self.d_v)
            output = self.linear(attn)
            return output, attn_weights

    class PositionWiseFeedForwardNetwork(nn.Module):
        def __init__(self, d_model, d_ff):
            super(PositionWiseFeedForwardNetwork, self).__init__()
            self.linear1 = nn.Linear(d_model, d_ff)
            self.linear2 = nn.Linear(d_ff, d_model)
            self.relu = nn.ReLU()

        def forward(self, inputs):
            output = self.relu(self.linear1(inputs))
            output = self.linear2(output)
            return output

    class EncoderLayer(nn.Module):
        def __init__(self, d_model, n_heads, p_drop, d_ff):
            super(EncoderLayer, self).__init__()
            self.mha = MultiHeadAttention(d_model, n_heads)
            self.dropout1 = nn.Dropout(p_drop)
            self.layernorm1 = nn.LayerNorm(d_model, eps=1e-6)
            self.ffn = PositionWiseFeedForwardNetwork(d_model, d_ff)
            self.dropout2 = nn.Dropout(p_drop)
            self.layernorm2 = nn.LayerNorm(d_model, eps=1e-6)

        def forward(self, inputs, attn_mask):
            attn_outputs, attn_weights = self.mha(inputs, inputs, inputs, attn_mask)
            attn_outputs = self.dropout1(attn_outputs)
            attn_outputs = self.layernorm1(inputs + attn_outputs)
            ffn_outputs = self.ffn(attn_outputs)
            ffn_outputs = self.dropout2(ffn_outputs)
            ffn_outputs = self.layernorm2(attn_outputs + ffn_outputs)
            return ffn_outputs, attn_weights

    class TransformerEncoder(nn.Module):
        def __init__(self, vocab_size, seq_len, d_model=512, n_layers=6, n_heads=8, p_drop=0.1,
                     d_ff=2048, pad_id=0):
            super(TransformerEncoder, self).__init__()
            self.pad_id = pad_id
            self.sinusoid_table = self.get_sinusoid_table(seq_len + 1, d_model)
            self.embedding = nn.Embedding(vocab_size, d_model)
            self.pos_embedding = nn.Embedding.from_pretrained(self.sinusoid_table, freeze=True)
            self.layers = nn.ModuleList([EncoderLayer(d_model, n_heads, p_drop, d_ff)
                                         for _ in range(n_layers)])
            self.linear = nn.Linear(d_model, 2)
            self.softmax = nn.Softmax(dim=-1)

        def forward(self, inputs):
            positions = torch.arange(inputs.size(1), device=inputs.device,
                                     dtype=inputs.dtype).repeat(inputs.size(0), 1) + 1
            position_pad_mask = inputs.eq(self.pad_id)
            positions.masked_fill_(position_pad_mask, 0)
            outputs = self.embedding(inputs) + self.pos_embedding(positions)
            attn_pad_mask = self.get_attention_padding_mask(inputs, inputs, self.pad_id)
            attention_weights = []
            for layer in self.layers:
                outputs, attn_weights = layer(outputs, attn_pad_mask)
                attention_weights.append(attn_weights)
            outputs, _ = torch.max(outputs, dim=1)
            outputs = self.softmax(self.linear(outputs))
            return outputs, attention_weights

        def get_attention_padding_mask(self, q, k, pad_id):
            attn_pad_mask = k.eq(pad_id).unsqueeze(1).repeat(1, q.size(1), 1)
            return attn_pad_mask

        def get_sinusoid_table(self, seq_len, d_model):
            def get_angle(pos, i, d_model):
                return pos / np.power(10000, (2 * (i // 2)) / d_model)
            sinusoid_table = np.zeros((seq_len, d_model))
            for pos in range(seq_len):
                for i in range(d_model):
                    if i % 2 == 0:
                        sinusoid_table[pos, i] = np.sin(get_angle(pos, i, d_model))
                    else:
                        sinusoid_table[pos, i] = np.cos(get_angle(pos, i, d_model))
            return torch.FloatTensor(sinusoid_table)

    torch.manual_seed(0)
    model = TransformerEncoder(vocab_size=40, seq_len=10, d_model=16, n_layers=2, n_heads=4,
                               p_drop=0.1, d_ff=32, pad_id=0)
    print(model.layers[0])
    print(sum(p.numel() for p in model.parameters() if p.requires_grad))
    inputs = torch.randint(1, 40, (6, 10))
    inputs[:, 7:] = 0
    inputs[0, 4:] = 0
    labels = torch.randint(0, 2, (6,))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    for step in range(6):
        model.train()
        outputs, attention_weights = model(inputs)
        loss = loss_fn(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item(), (outputs.argmax(dim=-1) == labels).sum().item())
    model.eval()
    with torch.no_grad():
        outputs, attention_weights = model(inputs)
    print(outputs, len(attention_weights), attention_weights[0].shape)
    print(attention_weights[1][0, 0])
    return {"linear.weight": model.linear.weight, "table": model.pos_embedding.weight}



def aladdin_pytorch_basics(torch):
    """aladdinpersson/Machine-Learning-Collection ML/Pytorch/Basics/pytorch_tensorbasics.py
    (initialisation, conversions, ``torch.add(x, y, out=z1)`` of int64s into float32,
    true_divide, matrix_power, bmm, broadcasting, reductions, sort, any/all, fancy and
    boolean indexing, remainder, where, unique, views, chunk), pytorch_rnn_gru_lstm.py (a
    2-layer LSTM and GRU over MNIST's rows with batch_first, outputs flattened into a
    Linear, check_accuracy reading ``loader.dataset.train``) and pytorch_lr_ratescheduler.py
    (ReduceLROnPlateau with ``verbose=True``, which PyTorch 2.13 refuses with a TypeError,
    then without it, stepped on each epoch's mean loss). MNIST is
    seeded random images (an MNIST stand-in with ``train``); hidden 32, one epoch, 14 of
    the scheduler's 100 epochs; then pytorch_init_weights.py (kaiming_uniform_, constant_
    over model.modules()), pytorch_loadsave.py (a checkpoint of the model's and Adam's
    state_dicts, on the CNN for its VGG16) and pytorch_std_mean.py (per-channel mean and
    std of CIFAR-10 stand-ins through mean over dim=[0, 2, 3])."""
    nn, optim, DataLoader = torch.nn, torch.optim, torch.utils.data.DataLoader

    class MNIST(torch.utils.data.Dataset):
        def __init__(self, root, train, transform=None, download=False):
            self.train, self.images = train, image_dataset(torch, 128 if train else 64,
                                                           seed=1 if train else 2)

        def __len__(self):
            return len(self.images)

        def __getitem__(self, i):
            return self.images[i]

    datasets = SimpleNamespace(MNIST=MNIST)
    transforms = SimpleNamespace(ToTensor=lambda: None)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    my_tensor = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.float32, device=device, requires_grad=True)
    print(f"Information about tensor: {my_tensor}")
    print("Type of Tensor {my_tensor.dtype}")
    print(f"Device Tensor is on {my_tensor.device}")
    print(f"Shape of tensor {my_tensor.shape}")
    print(f"Requires gradient: {my_tensor.requires_grad}")
    x = torch.empty(size=(3, 3))
    x = torch.zeros((3, 3))
    x = torch.rand((3, 3))
    x = torch.ones((3, 3))
    x = torch.eye(5, 5)
    x = torch.arange(start=0, end=5, step=1)
    x = torch.linspace(start=0.1, end=1, steps=10)
    print(x)
    x = torch.empty(size=(1, 5)).normal_(mean=0, std=1)
    print(x)
    x = torch.empty(size=(1, 5)).uniform_(0, 1)
    print(x)
    x = torch.diag(torch.ones(3))
    tensor = torch.arange(4)
    print(f"Converted Boolean: {tensor.bool()}")
    print(f"Converted int16 {tensor.short()}")
    print(f"Converted int64 {tensor.long()}")
    print(f"Converted float16 {tensor.half()}")
    print(f"Converted float32 {tensor.float()}")
    print(f"Converted float64 {tensor.double()}")
    np_array = np.zeros((5, 5))
    tensor = torch.from_numpy(np_array)
    np_array_again = tensor.numpy()
    x = torch.tensor([1, 2, 3])
    y = torch.tensor([9, 8, 7])
    z1 = torch.empty(3)
    torch.add(x, y, out=z1)
    print(z1)
    z2 = torch.add(x, y)
    z = x + y
    z = x - y
    z = torch.true_divide(x, y)
    print(z)
    t = torch.zeros(3)
    t.add_(x)
    t += x
    print(t)
    z = x.pow(2)
    z = x**2
    z = x > 0
    z = x < 0
    x1 = torch.rand((2, 5))
    x2 = torch.rand((5, 3))
    x3 = torch.mm(x1, x2)
    x3 = x1.mm(x2)
    matrix_exp = torch.rand(5, 5)
    print(matrix_exp.matrix_power(3))
    z = x * y
    z = torch.dot(x, y)
    print(z)
    batch = 32
    n = 10
    m = 20
    p = 30
    tensor1 = torch.rand((batch, n, m))
    tensor2 = torch.rand((batch, m, p))
    out_bmm = torch.bmm(tensor1, tensor2)
    print(out_bmm.shape, out_bmm[0, 0, :3])
    x1 = torch.rand((5, 5))
    x2 = torch.ones((1, 5))
    z = x1 - x2
    z = x1**x2
    sum_x = torch.sum(x, dim=0)
    values, indices = torch.max(x, dim=0)
    values, indices = torch.min(x, dim=0)
    abs_x = torch.abs(x)
    z = torch.argmax(x, dim=0)
    z = torch.argmin(x, dim=0)
    mean_x = torch.mean(x.float(), dim=0)
    z = torch.eq(x, y)
    sorted_y, indices = torch.sort(y, dim=0, descending=False)
    print(sum_x, values, indices, abs_x, z, mean_x, sorted_y)
    z = torch.clamp(x, min=0)
    x = torch.tensor([1, 0, 1, 1, 1], dtype=torch.bool)
    z = torch.any(x)
    z = torch.all(x)
    print(z)
    batch_size = 10
    features = 25
    x = torch.rand((batch_size, features))
    print(x[0].shape)
    print(x[:, 0].shape)
    print(x[2, 0:10].shape)
    x[0, 0] = 100
    x = torch.arange(10)
    indices = [2, 5, 8]
    print(x[indices])
    x = torch.rand((3, 5))
    rows = torch.tensor([1, 0])
    cols = torch.tensor([4, 0])
    print(x[rows, cols])
    x = torch.arange(10)
    print(x[(x < 2) | (x > 8)])
    print(x[x.remainder(2) == 0])
    print(torch.where(x > 5, x, x * 2))
    x = torch.tensor([0, 0, 1, 2, 2, 3, 4]).unique()
    print(x.ndimension())
    x = torch.arange(10)
    print(x.numel())
    x = torch.arange(9)
    x_3x3 = x.view(3, 3)
    x_3x3 = x.reshape(3, 3)
    y = x_3x3.t()
    print(y.is_contiguous())
    print(y.contiguous().view(9))
    x1 = torch.rand(2, 5)
    x2 = torch.rand(2, 5)
    print(torch.cat((x1, x2), dim=0).shape)
    print(torch.cat((x1, x2), dim=1).shape)
    z = x1.view(-1)
    batch = 64
    x = torch.rand((batch, 2, 5))
    z = x.view(batch, -1)
    z = x.permute(0, 2, 1)
    z = torch.chunk(x, chunks=2, dim=1)
    print(z[0].shape)
    print(z[1].shape)
    x = torch.arange(10)
    print(x.unsqueeze(0).shape)
    print(x.unsqueeze(1).shape)
    x = torch.arange(10).unsqueeze(0).unsqueeze(1)
    z = x.squeeze(1)
    print(z)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    input_size, hidden_size, num_layers, num_classes, sequence_length = 28, 32, 2, 10, 28
    class RNN_LSTM(nn.Module):
        def __init__(self, input_size, hidden_size, num_layers, num_classes):
            super(RNN_LSTM, self).__init__()
            self.hidden_size = hidden_size
            self.num_layers = num_layers
            self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
            self.fc = nn.Linear(hidden_size * sequence_length, num_classes)
        def forward(self, x):
            h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
            c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
            out, _ = self.lstm(x, (h0, c0))
            out = out.reshape(out.shape[0], -1)
            out = self.fc(out)
            return out
    class RNN_GRU(nn.Module):
        def __init__(self, input_size, hidden_size, num_layers, num_classes):
            super(RNN_GRU, self).__init__()
            self.hidden_size = hidden_size
            self.num_layers = num_layers
            self.gru = nn.GRU(input_size, hidden_size, num_layers, batch_first=True)
            self.fc = nn.Linear(hidden_size * sequence_length, num_classes)
        def forward(self, x):
            h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
            out, _ = self.gru(x, h0)
            out = out.reshape(out.shape[0], -1)
            return self.fc(out)
    train_dataset = datasets.MNIST(root="dataset/", train=True, transform=transforms.ToTensor(), download=True)
    test_dataset = datasets.MNIST(root="dataset/", train=False, transform=transforms.ToTensor(), download=True)
    train_loader = DataLoader(dataset=train_dataset, batch_size=64, shuffle=True)
    test_loader = DataLoader(dataset=test_dataset, batch_size=64, shuffle=True)
    def check_accuracy(loader, model):
        if loader.dataset.train:
            print("Checking accuracy on training data")
        else:
            print("Checking accuracy on test data")
        num_correct = 0
        num_samples = 0
        model.eval()
        with torch.no_grad():
            for x, y in loader:
                x = x.to(device=device).squeeze(1)
                y = y.to(device=device)
                scores = model(x)
                _, predictions = scores.max(1)
                num_correct += (predictions == y).sum()
                num_samples += predictions.size(0)
            print(f"Got {num_correct} / {num_samples} with \
                  accuracy {float(num_correct)/float(num_samples)*100:.2f}")
        model.train()
    for M in (RNN_LSTM, RNN_GRU):
        model = M(input_size, hidden_size, num_layers, num_classes).to(device)
        criterion = nn.CrossEntropyLoss()
        optimizer = optim.Adam(model.parameters(), lr=0.005)
        for epoch in range(1):
            for batch_idx, (data, targets) in enumerate(train_loader):
                data = data.to(device=device).squeeze(1)
                targets = targets.to(device=device)
                scores = model(data)
                loss = criterion(scores, targets)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                print(loss.item())
        check_accuracy(train_loader, model)
        check_accuracy(test_loader, model)
    model = nn.Sequential(nn.Linear(784, 50), nn.ReLU(), nn.Linear(50, 10)).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=0.1)
    try:  # (PyTorch 2.13 has no verbose=: the script's TypeError, then without it)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.1, patience=5, verbose=True)
    except TypeError as e:
        print(type(e).__name__, e)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.1, patience=5)
    for epoch in range(1, 15):
        losses = []
        for batch_idx, (data, targets) in enumerate(train_loader):
            data = data.reshape(data.shape[0], -1)
            scores = model(data)
            loss = criterion(scores, targets)
            losses.append(loss.item())
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        mean_loss = sum(losses)/len(losses)
        scheduler.step(mean_loss)
        print(f'Cost at epoch {epoch} is {mean_loss}', scheduler.get_last_lr())
    scheduler_model = model
    F = torch.nn.functional

    class CNN(nn.Module):  # pytorch_init_weights.py
        def __init__(self, in_channels, num_classes):
            super(CNN, self).__init__()
            self.conv1 = nn.Conv2d(in_channels=in_channels, out_channels=6, kernel_size=(3, 3),
                                   stride=(1, 1), padding=(1, 1))
            self.pool = nn.MaxPool2d(kernel_size=(2, 2), stride=(2, 2))
            self.conv2 = nn.Conv2d(in_channels=6, out_channels=16, kernel_size=(3, 3),
                                   stride=(1, 1), padding=(1, 1))
            self.fc1 = nn.Linear(16 * 7 * 7, num_classes)
            self.initialize_weights()

        def forward(self, x):
            x = F.relu(self.conv1(x))
            x = self.pool(x)
            x = F.relu(self.conv2(x))
            x = self.pool(x)
            x = x.reshape(x.shape[0], -1)
            x = self.fc1(x)
            return x

        def initialize_weights(self):
            for m in self.modules():
                if isinstance(m, nn.Conv2d):
                    nn.init.kaiming_uniform_(m.weight)
                    if m.bias is not None:
                        nn.init.constant_(m.bias, 0)
                elif isinstance(m, nn.BatchNorm2d):
                    nn.init.constant_(m.weight, 1)
                    nn.init.constant_(m.bias, 0)
                elif isinstance(m, nn.Linear):
                    nn.init.kaiming_uniform_(m.weight)
                    nn.init.constant_(m.bias, 0)

    model = CNN(in_channels=3, num_classes=10)
    for param in model.parameters():
        print(param.shape, param.sum())

    def save_checkpoint(state, filename="my_checkpoint.pth.tar"):  # pytorch_loadsave.py
        print("=> Saving checkpoint")
        torch.save(state, filename)

    def load_checkpoint(checkpoint, model, optimizer):
        print("=> Loading checkpoint")
        model.load_state_dict(checkpoint["state_dict"])
        optimizer.load_state_dict(checkpoint["optimizer"])

    optimizer = optim.Adam(model.parameters())
    model(torch.randn(2, 3, 28, 28)).sum().backward()
    optimizer.step()
    with in_temporary_directory():
        checkpoint = {"state_dict": model.state_dict(), "optimizer": optimizer.state_dict()}
        save_checkpoint(checkpoint)
        load_checkpoint(torch.load("my_checkpoint.pth.tar"), model, optimizer)
    print(optimizer.state_dict()["param_groups"])
    cifar = image_dataset(torch, 96, shape=(3, 32, 32), seed=4)

    def get_mean_std(loader):  # pytorch_std_mean.py
        channels_sum, channels_sqrd_sum, num_batches = 0, 0, 0
        for data, _ in loader:
            channels_sum += torch.mean(data, dim=[0, 2, 3])
            channels_sqrd_sum += torch.mean(data ** 2, dim=[0, 2, 3])
            num_batches += 1
        mean = channels_sum / num_batches
        std = (channels_sqrd_sum / num_batches - mean ** 2) ** 0.5
        return mean, std

    mean, std = get_mean_std(DataLoader(dataset=cifar, batch_size=64, shuffle=True))
    print(mean)
    print(std)
    return {"scheduler_model.2.weight": scheduler_model[2].weight, "cnn.fc1.bias": model.fc1.bias}


# ---- rasbt/LLMs-from-scratch ------------------------------------------------------------

def llms_appendix_a(torch):
    """rasbt/LLMs-from-scratch appendix-A/01_main-chapter-code/code-part1.ipynb (PyTorch in
    a nutshell): tensors from Python lists and NumPy (torch.tensor copies, from_numpy
    shares), dtypes and .to(torch.float32), reshape/view/.T/matmul/@, a logistic unit's
    binary_cross_entropy with torch.autograd.grad(retain_graph=True) then backward, the
    NeuralNetwork MLP (2213 parameters, its printed first weight), softmax under no_grad,
    the ToyDataset with shuffled DataLoaders (drop_last), the SGD training loop's log,
    set_printoptions(sci_mode=False), compute_accuracy, and the state_dict saved and loaded
    with weights_only=True (in a temporary directory)."""
    F, grad = torch.nn.functional, torch.autograd.grad
    Dataset, DataLoader = torch.utils.data.Dataset, torch.utils.data.DataLoader
    print(torch.cuda.is_available())
    tensor0d = torch.tensor(1)
    tensor1d = torch.tensor([1, 2, 3])
    tensor2d = torch.tensor([[1, 2],
                             [3, 4]])
    tensor3d_1 = torch.tensor([[[1, 2], [3, 4]],
                               [[5, 6], [7, 8]]])
    ary3d = np.array([[[1, 2], [3, 4]],
                      [[5, 6], [7, 8]]])
    tensor3d_2 = torch.tensor(ary3d)  # Copies NumPy array
    tensor3d_3 = torch.from_numpy(ary3d)  # Shares memory with NumPy array
    ary3d[0, 0, 0] = 999
    print(tensor3d_2)  # remains unchanged
    print(tensor3d_3)  # changes because of memory sharing
    tensor1d = torch.tensor([1, 2, 3])
    print(tensor1d.dtype)
    floatvec = torch.tensor([1.0, 2.0, 3.0])
    print(floatvec.dtype)
    floatvec = tensor1d.to(torch.float32)
    print(floatvec.dtype)
    tensor2d = torch.tensor([[1, 2, 3],
                             [4, 5, 6]])
    print(repr(tensor2d))
    print(repr(tensor2d.shape))
    print(repr(tensor2d.reshape(3, 2)))
    print(repr(tensor2d.view(3, 2)))
    print(repr(tensor2d.T))
    print(repr(tensor2d.matmul(tensor2d.T)))
    print(repr(tensor2d @ tensor2d.T))
    y = torch.tensor([1.0])  # true label
    x1 = torch.tensor([1.1])  # input feature
    w1 = torch.tensor([2.2])  # weight parameter
    b = torch.tensor([0.0])  # bias unit
    z = x1 * w1 + b  # net input
    a = torch.sigmoid(z)  # activation & output
    loss = F.binary_cross_entropy(a, y)
    print(loss)
    y = torch.tensor([1.0])
    x1 = torch.tensor([1.1])
    w1 = torch.tensor([2.2], requires_grad=True)
    b = torch.tensor([0.0], requires_grad=True)
    z = x1 * w1 + b
    a = torch.sigmoid(z)
    loss = F.binary_cross_entropy(a, y)
    grad_L_w1 = grad(loss, w1, retain_graph=True)
    grad_L_b = grad(loss, b, retain_graph=True)
    print(grad_L_w1)
    print(grad_L_b)
    loss.backward()
    print(w1.grad)
    print(b.grad)

    class NeuralNetwork(torch.nn.Module):
        def __init__(self, num_inputs, num_outputs):
            super().__init__()
            self.layers = torch.nn.Sequential(
                # 1st hidden layer
                torch.nn.Linear(num_inputs, 30),
                torch.nn.ReLU(),
                # 2nd hidden layer
                torch.nn.Linear(30, 20),
                torch.nn.ReLU(),
                # output layer
                torch.nn.Linear(20, num_outputs),
            )

        def forward(self, x):
            logits = self.layers(x)
            return logits

    model = NeuralNetwork(50, 3)
    print(model)
    num_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print("Total number of trainable model parameters:", num_params)
    print(model.layers[0].weight)
    torch.manual_seed(123)
    model = NeuralNetwork(50, 3)
    print(model.layers[0].weight)
    print(model.layers[0].weight.shape)
    torch.manual_seed(123)
    X = torch.rand((1, 50))
    out = model(X)
    print(out)
    with torch.no_grad():
        out = model(X)
    print(out)
    with torch.no_grad():
        out = torch.softmax(model(X), dim=1)
    print(out)
    X_train = torch.tensor([
        [-1.2, 3.1],
        [-0.9, 2.9],
        [-0.5, 2.6],
        [2.3, -1.1],
        [2.7, -1.5]
    ])
    y_train = torch.tensor([0, 0, 0, 1, 1])
    X_test = torch.tensor([
        [-0.8, 2.8],
        [2.6, -1.6],
    ])
    y_test = torch.tensor([0, 1])

    class ToyDataset(Dataset):
        def __init__(self, X, y):
            self.features = X
            self.labels = y

        def __getitem__(self, index):
            one_x = self.features[index]
            one_y = self.labels[index]
            return one_x, one_y

        def __len__(self):
            return self.labels.shape[0]

    train_ds = ToyDataset(X_train, y_train)
    test_ds = ToyDataset(X_test, y_test)
    print(len(train_ds))
    torch.manual_seed(123)
    train_loader = DataLoader(dataset=train_ds, batch_size=2, shuffle=True, num_workers=0)
    test_ds = ToyDataset(X_test, y_test)
    test_loader = DataLoader(dataset=test_ds, batch_size=2, shuffle=False, num_workers=0)
    for idx, (x, y) in enumerate(train_loader):
        print(f"Batch {idx+1}:", x, y)
    train_loader = DataLoader(dataset=train_ds, batch_size=2, shuffle=True, num_workers=0,
                              drop_last=True)
    for idx, (x, y) in enumerate(train_loader):
        print(f"Batch {idx+1}:", x, y)
    torch.manual_seed(123)
    model = NeuralNetwork(num_inputs=2, num_outputs=2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    num_epochs = 2
    for epoch in range(num_epochs):
        model.train()
        for batch_idx, (features, labels) in enumerate(train_loader):
            logits = model(features)
            loss = F.cross_entropy(logits, labels)  # Loss function
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ### LOGGING
            print(f"Epoch: {epoch+1:03d}/{num_epochs:03d}"
                  f" | Batch {batch_idx+1:03d}/{len(train_loader):03d}"
                  f" | Train/Val Loss: {loss:.2f}")
        model.eval()
    model.eval()
    with torch.no_grad():
        outputs = model(X_train)
    print(outputs)
    torch.set_printoptions(sci_mode=False)
    try:
        probas = torch.softmax(outputs, dim=1)
        print(probas)
        predictions = torch.argmax(probas, dim=1)
        print(predictions)
    finally:
        torch.set_printoptions(profile="default")
    predictions = torch.argmax(outputs, dim=1)
    print(predictions)
    print(repr(predictions == y_train))
    print(repr(torch.sum(predictions == y_train)))

    def compute_accuracy(model, dataloader):
        model.eval()
        correct = 0.0
        total_examples = 0
        for idx, (features, labels) in enumerate(dataloader):
            with torch.no_grad():
                logits = model(features)
            predictions = torch.argmax(logits, dim=1)
            compare = labels == predictions
            correct += torch.sum(compare)
            total_examples += len(compare)
        return (correct / total_examples).item()

    print(compute_accuracy(model, train_loader))
    print(compute_accuracy(model, test_loader))
    with in_temporary_directory():
        torch.save(model.state_dict(), "model.pth")
        model = NeuralNetwork(2, 2)  # needs to match the original model exactly
        print(model.load_state_dict(torch.load("model.pth", weights_only=True)))
    return {"model.layers.4.weight": model.layers[4].weight, "probas": probas}


VERDICT = None


def the_verdict():
    """A made-up short story standing for the-verdict.txt (deterministic, ~600 words)."""
    global VERDICT
    if VERDICT is None:
        r = random.Random(11)
        words = ("I had always thought Jack Gisburn rather a cheap genius -- though a good fellow "
                 "enough so it was no great surprise to me to hear that in the height of his "
                 "glory he had dropped his painting married a rich widow and established "
                 "himself in a villa on the Riviera").split()
        sentences = []
        for _ in range(60):
            s = [r.choice(words) for _ in range(r.randint(5, 14))]
            s[0] = s[0].capitalize()
            if r.random() < 0.3:
                s.insert(r.randint(1, len(s) - 1), ",")
            sentences.append(" ".join(s).replace(" ,", ",") + r.choice([".", ".", "!", "?"]))
        VERDICT = " ".join(sentences)
    return VERDICT


class StandInTokenizer:
    """tiktoken's gpt2 encoding offline: the chapter's own SimpleTokenizerV2 split (words
    and punctuation), a vocabulary of the story's words, <|endoftext|> and <|unk|>."""
    def __init__(self):
        tokens = sorted(set(self._split(the_verdict()) + "Every effort moves you day holds a "
                            "Hello I am".split()))
        self.str_to_int = {s: i for i, s in enumerate(tokens + ["<|endoftext|>", "<|unk|>"])}
        self.int_to_str = {i: s for s, i in self.str_to_int.items()}
        self.n_vocab = len(self.str_to_int)

    @staticmethod
    def _split(text):
        return [item.strip() for item in re.split(r'([,.:;?_!"()\']|--|\s)', text)
                if item.strip()]

    def encode(self, text, allowed_special=()):
        return [self.str_to_int.get(s, self.str_to_int["<|unk|>"]) for s in self._split(text)]

    def decode(self, ids):
        return re.sub(r'\s+([,.:;?!"()\'])', r'\1', " ".join(self.int_to_str[i] for i in ids))


tiktoken = SimpleNamespace(get_encoding=lambda name: StandInTokenizer())


def llms_ch02_ch03(torch):
    """rasbt/LLMs-from-scratch ch02/01_main-chapter-code/ch02.ipynb and dataloader.ipynb
    (GPTDatasetV1's sliding window and create_dataloader_v1 with stride, an Embedding's
    weight and lookups, token plus positional embeddings of a batch) and
    ch03/01_main-chapter-code/ch03.ipynb (attention from scratch on "Your journey starts
    with one step": dot products, naive and torch softmax, context vectors, trainable
    weights, SelfAttention_v1/v2, the causal mask by tril and by masked_fill with -inf,
    Dropout's scaled output, CausalAttention, MultiHeadAttentionWrapper and
    MultiHeadAttention, the batched head matmul). tiktoken's gpt2 encoding is a word
    tokenizer of the chapter's own split and the-verdict.txt a made-up story."""
    Dataset, DataLoader, nn = torch.utils.data.Dataset, torch.utils.data.DataLoader, torch.nn

    class GPTDatasetV1(Dataset):
        def __init__(self, txt, tokenizer, max_length, stride):
            self.input_ids = []
            self.target_ids = []
            # Tokenize the entire text
            token_ids = tokenizer.encode(txt, allowed_special={"<|endoftext|>"})
            assert len(token_ids) > max_length, "Number of tokenized inputs must at least be equal to max_length+1"
            # Use a sliding window to chunk the book into overlapping sequences of max_length
            for i in range(0, len(token_ids) - max_length, stride):
                input_chunk = token_ids[i:i + max_length]
                target_chunk = token_ids[i + 1: i + max_length + 1]
                self.input_ids.append(torch.tensor(input_chunk))
                self.target_ids.append(torch.tensor(target_chunk))

        def __len__(self):
            return len(self.input_ids)

        def __getitem__(self, idx):
            return self.input_ids[idx], self.target_ids[idx]

    def create_dataloader_v1(txt, batch_size=4, max_length=256,
                             stride=128, shuffle=True, drop_last=True, num_workers=0):
        # Initialize the tokenizer
        tokenizer = tiktoken.get_encoding("gpt2")
        # Create dataset
        dataset = GPTDatasetV1(txt, tokenizer, max_length, stride)
        # Create dataloader
        dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=shuffle,
                                drop_last=drop_last, num_workers=num_workers)
        return dataloader

    raw_text = the_verdict()
    dataloader = create_dataloader_v1(raw_text, batch_size=1, max_length=4, stride=1, shuffle=False)
    data_iter = iter(dataloader)
    first_batch = next(data_iter)
    print(first_batch)
    second_batch = next(data_iter)
    print(second_batch)
    dataloader = create_dataloader_v1(raw_text, batch_size=8, max_length=4, stride=4, shuffle=False)
    data_iter = iter(dataloader)
    inputs, targets = next(data_iter)
    print("Inputs:\n", inputs)
    print("\nTargets:\n", targets)
    input_ids = torch.tensor([2, 3, 5, 1])
    vocab_size = 6
    output_dim = 3
    torch.manual_seed(123)
    embedding_layer = torch.nn.Embedding(vocab_size, output_dim)
    print(embedding_layer.weight)
    print(embedding_layer(torch.tensor([3])))
    print(embedding_layer(input_ids))
    vocab_size = 50257
    output_dim = 256
    token_embedding_layer = torch.nn.Embedding(vocab_size, output_dim)
    max_length = 4
    dataloader = create_dataloader_v1(raw_text, batch_size=8, max_length=max_length,
                                      stride=max_length, shuffle=False)
    data_iter = iter(dataloader)
    inputs, targets = next(data_iter)
    print("Token IDs:\n", inputs)
    print("\nInputs shape:\n", inputs.shape)
    token_embeddings = token_embedding_layer(inputs)
    print(token_embeddings.shape)
    print(token_embeddings[0, :2, :4])
    context_length = max_length
    pos_embedding_layer = torch.nn.Embedding(context_length, output_dim)
    pos_embeddings = pos_embedding_layer(torch.arange(max_length))
    print(pos_embeddings.shape)
    input_embeddings = token_embeddings + pos_embeddings
    print(input_embeddings.shape)
    print(input_embeddings[1, :, :3])

    # ch03
    inputs = torch.tensor(
        [[0.43, 0.15, 0.89],  # Your     (x^1)
         [0.55, 0.87, 0.66],  # journey  (x^2)
         [0.57, 0.85, 0.64],  # starts   (x^3)
         [0.22, 0.58, 0.33],  # with     (x^4)
         [0.77, 0.25, 0.10],  # one      (x^5)
         [0.05, 0.80, 0.55]]  # step     (x^6)
    )
    query = inputs[1]  # 2nd input token is the query
    attn_scores_2 = torch.empty(inputs.shape[0])
    for i, x_i in enumerate(inputs):
        attn_scores_2[i] = torch.dot(x_i, query)  # dot product (transpose not necessary here since they are 1-dim vectors)
    print(attn_scores_2)
    res = 0.
    for idx, element in enumerate(inputs[0]):
        res += inputs[0][idx] * query[idx]
    print(res)
    print(torch.dot(inputs[0], query))
    attn_weights_2_tmp = attn_scores_2 / attn_scores_2.sum()
    print("Attention weights:", attn_weights_2_tmp)
    print("Sum:", attn_weights_2_tmp.sum())

    def softmax_naive(x):
        return torch.exp(x) / torch.exp(x).sum(dim=0)

    attn_weights_2_naive = softmax_naive(attn_scores_2)
    print("Attention weights:", attn_weights_2_naive)
    print("Sum:", attn_weights_2_naive.sum())
    attn_weights_2 = torch.softmax(attn_scores_2, dim=0)
    print("Attention weights:", attn_weights_2)
    print("Sum:", attn_weights_2.sum())
    query = inputs[1]  # 2nd input token is the query
    context_vec_2 = torch.zeros(query.shape)
    for i, x_i in enumerate(inputs):
        context_vec_2 += attn_weights_2[i] * x_i
    print(context_vec_2)
    attn_scores = torch.empty(6, 6)
    for i, x_i in enumerate(inputs):
        for j, x_j in enumerate(inputs):
            attn_scores[i, j] = torch.dot(x_i, x_j)
    print(attn_scores)
    attn_scores = inputs @ inputs.T
    print(attn_scores)
    attn_weights = torch.softmax(attn_scores, dim=-1)
    print(attn_weights)
    row_2_sum = sum([0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581])
    print("Row 2 sum:", row_2_sum)
    print("All row sums:", attn_weights.sum(dim=-1))
    all_context_vecs = attn_weights @ inputs
    print(all_context_vecs)
    print("Previous 2nd context vector:", context_vec_2)
    x_2 = inputs[1]  # second input element
    d_in = inputs.shape[1]  # the input embedding size, d=3
    d_out = 2  # the output embedding size, d=2
    torch.manual_seed(123)
    W_query = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
    W_key = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
    W_value = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
    query_2 = x_2 @ W_query  # _2 because it's with respect to the 2nd input element
    key_2 = x_2 @ W_key
    value_2 = x_2 @ W_value
    print(query_2)
    keys = inputs @ W_key
    values = inputs @ W_value
    print("keys.shape:", keys.shape)
    print("values.shape:", values.shape)
    keys_2 = keys[1]  # Python starts index at 0
    attn_score_22 = query_2.dot(keys_2)
    print(attn_score_22)
    attn_scores_2 = query_2 @ keys.T  # All attention scores for given query
    print(attn_scores_2)
    d_k = keys.shape[1]
    attn_weights_2 = torch.softmax(attn_scores_2 / d_k**0.5, dim=-1)
    print(attn_weights_2)
    context_vec_2 = attn_weights_2 @ values
    print(context_vec_2)

    class SelfAttention_v1(nn.Module):
        def __init__(self, d_in, d_out):
            super().__init__()
            self.W_query = nn.Parameter(torch.rand(d_in, d_out))
            self.W_key = nn.Parameter(torch.rand(d_in, d_out))
            self.W_value = nn.Parameter(torch.rand(d_in, d_out))

        def forward(self, x):
            keys = x @ self.W_key
            queries = x @ self.W_query
            values = x @ self.W_value
            attn_scores = queries @ keys.T  # omega
            attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
            context_vec = attn_weights @ values
            return context_vec

    torch.manual_seed(123)
    sa_v1 = SelfAttention_v1(d_in, d_out)
    print(sa_v1(inputs))

    class SelfAttention_v2(nn.Module):
        def __init__(self, d_in, d_out, qkv_bias=False):
            super().__init__()
            self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

        def forward(self, x):
            keys = self.W_key(x)
            queries = self.W_query(x)
            values = self.W_value(x)
            attn_scores = queries @ keys.T
            attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
            context_vec = attn_weights @ values
            return context_vec

    torch.manual_seed(789)
    sa_v2 = SelfAttention_v2(d_in, d_out)
    print(sa_v2(inputs))
    # Reuse the query and key weight matrices of the
    # SelfAttention_v2 object from the previous section for convenience
    queries = sa_v2.W_query(inputs)
    keys = sa_v2.W_key(inputs)
    attn_scores = queries @ keys.T
    attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
    print(attn_weights)
    context_length = attn_scores.shape[0]
    mask_simple = torch.tril(torch.ones(context_length, context_length))
    print(mask_simple)
    masked_simple = attn_weights * mask_simple
    print(masked_simple)
    row_sums = masked_simple.sum(dim=-1, keepdim=True)
    masked_simple_norm = masked_simple / row_sums
    print(masked_simple_norm)
    mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)
    masked = attn_scores.masked_fill(mask.bool(), -torch.inf)
    print(masked)
    attn_weights = torch.softmax(masked / keys.shape[-1]**0.5, dim=-1)
    print(attn_weights)
    torch.manual_seed(123)
    dropout = torch.nn.Dropout(0.5)  # dropout rate of 50%
    example = torch.ones(6, 6)  # create a matrix of ones
    print(dropout(example))
    torch.manual_seed(123)
    print(dropout(attn_weights))
    batch = torch.stack((inputs, inputs), dim=0)
    print(batch.shape)  # 2 inputs with 6 tokens each, and each token has embedding dimension 3

    class CausalAttention(nn.Module):
        def __init__(self, d_in, d_out, context_length,
                     dropout, qkv_bias=False):
            super().__init__()
            self.d_out = d_out
            self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.dropout = nn.Dropout(dropout)  # New
            self.register_buffer('mask', torch.triu(torch.ones(context_length, context_length), diagonal=1))  # New

        def forward(self, x):
            b, num_tokens, d_in = x.shape  # New batch dimension b
            keys = self.W_key(x)
            queries = self.W_query(x)
            values = self.W_value(x)
            attn_scores = queries @ keys.transpose(1, 2)  # Changed transpose
            attn_scores.masked_fill_(  # New, _ ops are in-place
                self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)  # `:num_tokens` to account for cases where the number of tokens in the batch is smaller than the supported context_size
            attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
            attn_weights = self.dropout(attn_weights)  # New
            context_vec = attn_weights @ values
            return context_vec

    torch.manual_seed(123)
    context_length = batch.shape[1]
    ca = CausalAttention(d_in, d_out, context_length, 0.0)
    context_vecs = ca(batch)
    print(context_vecs)
    print("context_vecs.shape:", context_vecs.shape)

    class MultiHeadAttentionWrapper(nn.Module):
        def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
            super().__init__()
            self.heads = nn.ModuleList(
                [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)
                 for _ in range(num_heads)]
            )

        def forward(self, x):
            return torch.cat([head(x) for head in self.heads], dim=-1)

    torch.manual_seed(123)
    context_length = batch.shape[1]  # This is the number of tokens
    d_in, d_out = 3, 2
    mha = MultiHeadAttentionWrapper(d_in, d_out, context_length, 0.0, num_heads=2)
    context_vecs = mha(batch)
    print(context_vecs)
    print("context_vecs.shape:", context_vecs.shape)

    class MultiHeadAttention(nn.Module):
        def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
            super().__init__()
            assert (d_out % num_heads == 0), "d_out must be divisible by num_heads"
            self.d_out = d_out
            self.num_heads = num_heads
            self.head_dim = d_out // num_heads  # Reduce the projection dim to match desired output dim
            self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.out_proj = nn.Linear(d_out, d_out)  # Linear layer to combine head outputs
            self.dropout = nn.Dropout(dropout)
            self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

        def forward(self, x):
            b, num_tokens, d_in = x.shape
            keys = self.W_key(x)  # Shape: (b, num_tokens, d_out)
            queries = self.W_query(x)
            values = self.W_value(x)
            keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)
            values = values.view(b, num_tokens, self.num_heads, self.head_dim)
            queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)
            keys = keys.transpose(1, 2)
            queries = queries.transpose(1, 2)
            values = values.transpose(1, 2)
            attn_scores = queries @ keys.transpose(2, 3)  # Dot product for each head
            mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
            attn_scores.masked_fill_(mask_bool, -torch.inf)
            attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
            attn_weights = self.dropout(attn_weights)
            context_vec = (attn_weights @ values).transpose(1, 2)
            context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
            context_vec = self.out_proj(context_vec)  # optional projection
            return context_vec

    torch.manual_seed(123)
    batch_size, context_length, d_in = batch.shape
    d_out = 2
    mha = MultiHeadAttention(d_in, d_out, context_length, 0.0, num_heads=2)
    context_vecs = mha(batch)
    print(context_vecs)
    print("context_vecs.shape:", context_vecs.shape)
    # (b, num_heads, num_tokens, head_dim) = (1, 2, 3, 4)
    a = torch.tensor([[[[0.2745, 0.6584, 0.2775, 0.8573],
                        [0.8993, 0.0390, 0.9268, 0.7388],
                        [0.7179, 0.7058, 0.9156, 0.4340]],
                       [[0.0772, 0.3565, 0.1479, 0.5331],
                        [0.4066, 0.2318, 0.4545, 0.9737],
                        [0.4606, 0.5159, 0.4220, 0.5786]]]])
    print(a @ a.transpose(2, 3))
    first_head = a[0, 0, :, :]
    first_res = first_head @ first_head.T
    print("First head:\n", first_res)
    second_head = a[0, 1, :, :]
    second_res = second_head @ second_head.T
    print("\nSecond head:\n", second_res)
    context_vecs.sum().backward()
    return {"input_embeddings": input_embeddings, "mha.out_proj.weight.grad": mha.out_proj.weight.grad,
            "mha.W_query.weight.grad": mha.W_query.weight.grad}


def llms_ch04_ch05(torch):
    """rasbt/LLMs-from-scratch ch04/01_main-chapter-code/ch04.ipynb (a batch of two encoded
    texts, LayerNorm by hand with mean/var then the LayerNorm class with unbiased=False
    under set_printoptions(sci_mode=False), GELU with torch.pi next to ReLU, FeedForward,
    ExampleDeepNeuralNetwork's gradient means with and without shortcuts, the
    TransformerBlock, GPTModel's parameter count and size, generate_text_simple) and
    ch05/01_main-chapter-code/ch05.ipynb with gpt_train.py (the loss by hand from target
    probabilities and by cross_entropy, perplexity, calc_loss_loader on the 90/10 split,
    train_model_simple with AdamW (2 of its 10 epochs), the temperature and top-k sampling of the nine-word
    vocabulary with torch.multinomial and bincount, generate with temperature, top_k and
    eos_id, the model and optimizer saved with torch.save and loaded back). The config is
    small (emb_dim 32, 2 layers, context 16, the stand-in tokenizer's vocabulary) and
    the-verdict.txt a made-up story; plots are left out."""
    nn, Dataset, DataLoader = torch.nn, torch.utils.data.Dataset, torch.utils.data.DataLoader
    tokenizer = tiktoken.get_encoding("gpt2")
    GPT_CONFIG_124M = {
        "vocab_size": tokenizer.n_vocab,  # Vocabulary size
        "context_length": 16,  # Context length
        "emb_dim": 32,  # Embedding dimension
        "n_heads": 4,  # Number of attention heads
        "n_layers": 2,  # Number of layers
        "drop_rate": 0.1,  # Dropout rate
        "qkv_bias": False  # Query-Key-Value bias
    }
    batch = []
    txt1 = "Every effort moves you"
    txt2 = "Every day holds a"
    batch.append(torch.tensor(tokenizer.encode(txt1)))
    batch.append(torch.tensor(tokenizer.encode(txt2)))
    batch = torch.stack(batch, dim=0)
    print(batch)
    torch.manual_seed(123)
    # create 2 training examples with 5 dimensions (features) each
    batch_example = torch.randn(2, 5)
    layer = nn.Sequential(nn.Linear(5, 6), nn.ReLU())
    out = layer(batch_example)
    print(out)
    mean = out.mean(dim=-1, keepdim=True)
    var = out.var(dim=-1, keepdim=True)
    print("Mean:\n", mean)
    print("Variance:\n", var)
    out_norm = (out - mean) / torch.sqrt(var)
    print("Normalized layer outputs:\n", out_norm)
    mean = out_norm.mean(dim=-1, keepdim=True)
    var = out_norm.var(dim=-1, keepdim=True)
    print("Mean:\n", mean)
    print("Variance:\n", var)
    torch.set_printoptions(sci_mode=False)
    try:
        print("Mean:\n", mean)
        print("Variance:\n", var)

        class LayerNorm(nn.Module):
            def __init__(self, emb_dim):
                super().__init__()
                self.eps = 1e-5
                self.scale = nn.Parameter(torch.ones(emb_dim))
                self.shift = nn.Parameter(torch.zeros(emb_dim))

            def forward(self, x):
                mean = x.mean(dim=-1, keepdim=True)
                var = x.var(dim=-1, keepdim=True, unbiased=False)
                norm_x = (x - mean) / torch.sqrt(var + self.eps)
                return self.scale * norm_x + self.shift

        ln = LayerNorm(emb_dim=5)
        out_ln = ln(batch_example)
        mean = out_ln.mean(dim=-1, keepdim=True)
        var = out_ln.var(dim=-1, unbiased=False, keepdim=True)
        print("Mean:\n", mean)
        print("Variance:\n", var)
    finally:
        torch.set_printoptions(profile="default")

    class GELU(nn.Module):
        def __init__(self):
            super().__init__()

        def forward(self, x):
            return 0.5 * x * (1 + torch.tanh(
                torch.sqrt(torch.tensor(2.0 / torch.pi)) *
                (x + 0.044715 * torch.pow(x, 3))
            ))

    gelu, relu = GELU(), nn.ReLU()
    # Some sample data
    x = torch.linspace(-3, 3, 100)
    y_gelu, y_relu = gelu(x), relu(x)
    for i, (y, label) in enumerate(zip([y_gelu, y_relu], ["GELU", "ReLU"]), 1):  # (the plot)
        print(f"{label} activation function", y[::11])

    class FeedForward(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.layers = nn.Sequential(
                nn.Linear(cfg["emb_dim"], 4 * cfg["emb_dim"]),
                GELU(),
                nn.Linear(4 * cfg["emb_dim"], cfg["emb_dim"]),
            )

        def forward(self, x):
            return self.layers(x)

    print(GPT_CONFIG_124M["emb_dim"])
    ffn = FeedForward(GPT_CONFIG_124M)
    # input shape: [batch_size, num_token, emb_size]
    x = torch.rand(2, 3, 32)
    out = ffn(x)
    print(out.shape)

    class ExampleDeepNeuralNetwork(nn.Module):
        def __init__(self, layer_sizes, use_shortcut):
            super().__init__()
            self.use_shortcut = use_shortcut
            self.layers = nn.ModuleList([
                nn.Sequential(nn.Linear(layer_sizes[0], layer_sizes[1]), GELU()),
                nn.Sequential(nn.Linear(layer_sizes[1], layer_sizes[2]), GELU()),
                nn.Sequential(nn.Linear(layer_sizes[2], layer_sizes[3]), GELU()),
                nn.Sequential(nn.Linear(layer_sizes[3], layer_sizes[4]), GELU()),
                nn.Sequential(nn.Linear(layer_sizes[4], layer_sizes[5]), GELU())
            ])

        def forward(self, x):
            for layer in self.layers:
                # Compute the output of the current layer
                layer_output = layer(x)
                # Check if shortcut can be applied
                if self.use_shortcut and x.shape == layer_output.shape:
                    x = x + layer_output
                else:
                    x = layer_output
            return x

    def print_gradients(model, x):
        # Forward pass
        output = model(x)
        target = torch.tensor([[0.]])
        # Calculate loss based on how close the target
        # and output are
        loss = nn.MSELoss()
        loss = loss(output, target)
        # Backward pass to calculate the gradients
        loss.backward()
        for name, param in model.named_parameters():
            if 'weight' in name:
                # Print the mean absolute gradient of the weights
                print(f"{name} has gradient mean of {param.grad.abs().mean().item()}")

    layer_sizes = [3, 3, 3, 3, 3, 1]
    sample_input = torch.tensor([[1., 0., -1.]])
    torch.manual_seed(123)
    model_without_shortcut = ExampleDeepNeuralNetwork(layer_sizes, use_shortcut=False)
    print_gradients(model_without_shortcut, sample_input)
    torch.manual_seed(123)
    model_with_shortcut = ExampleDeepNeuralNetwork(layer_sizes, use_shortcut=True)
    print_gradients(model_with_shortcut, sample_input)

    class MultiHeadAttention(nn.Module):  # (ch04's previous_chapters.py)
        def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
            super().__init__()
            assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
            self.d_out = d_out
            self.num_heads = num_heads
            self.head_dim = d_out // num_heads  # Reduce the projection dim to match desired output dim
            self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.out_proj = nn.Linear(d_out, d_out)  # Linear layer to combine head outputs
            self.dropout = nn.Dropout(dropout)
            self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

        def forward(self, x):
            b, num_tokens, d_in = x.shape
            keys = self.W_key(x)  # Shape: (b, num_tokens, d_out)
            queries = self.W_query(x)
            values = self.W_value(x)
            keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)
            values = values.view(b, num_tokens, self.num_heads, self.head_dim)
            queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)
            keys = keys.transpose(1, 2)
            queries = queries.transpose(1, 2)
            values = values.transpose(1, 2)
            attn_scores = queries @ keys.transpose(2, 3)  # Dot product for each head
            mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
            attn_scores.masked_fill_(mask_bool, -torch.inf)
            attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
            attn_weights = self.dropout(attn_weights)
            context_vec = (attn_weights @ values).transpose(1, 2)
            context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
            context_vec = self.out_proj(context_vec)  # optional projection
            return context_vec

    class TransformerBlock(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.att = MultiHeadAttention(
                d_in=cfg["emb_dim"],
                d_out=cfg["emb_dim"],
                context_length=cfg["context_length"],
                num_heads=cfg["n_heads"],
                dropout=cfg["drop_rate"],
                qkv_bias=cfg["qkv_bias"])
            self.ff = FeedForward(cfg)
            self.norm1 = LayerNorm(cfg["emb_dim"])
            self.norm2 = LayerNorm(cfg["emb_dim"])
            self.drop_shortcut = nn.Dropout(cfg["drop_rate"])

        def forward(self, x):
            # Shortcut connection for attention block
            shortcut = x
            x = self.norm1(x)
            x = self.att(x)  # Shape [batch_size, num_tokens, emb_size]
            x = self.drop_shortcut(x)
            x = x + shortcut  # Add the original input back
            # Shortcut connection for feed forward block
            shortcut = x
            x = self.norm2(x)
            x = self.ff(x)
            x = self.drop_shortcut(x)
            x = x + shortcut  # Add the original input back
            return x

    torch.manual_seed(123)
    x = torch.rand(2, 4, 32)  # Shape: [batch_size, num_tokens, emb_dim]
    block = TransformerBlock(GPT_CONFIG_124M)
    output = block(x)
    print("Input shape:", x.shape)
    print("Output shape:", output.shape)
    print(output[0, :2, :5])

    class GPTModel(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"])
            self.pos_emb = nn.Embedding(cfg["context_length"], cfg["emb_dim"])
            self.drop_emb = nn.Dropout(cfg["drop_rate"])
            self.trf_blocks = nn.Sequential(
                *[TransformerBlock(cfg) for _ in range(cfg["n_layers"])])
            self.final_norm = LayerNorm(cfg["emb_dim"])
            self.out_head = nn.Linear(cfg["emb_dim"], cfg["vocab_size"], bias=False)

        def forward(self, in_idx):
            batch_size, seq_len = in_idx.shape
            tok_embeds = self.tok_emb(in_idx)
            pos_embeds = self.pos_emb(torch.arange(seq_len, device=in_idx.device))
            x = tok_embeds + pos_embeds  # Shape [batch_size, num_tokens, emb_size]
            x = self.drop_emb(x)
            x = self.trf_blocks(x)
            x = self.final_norm(x)
            logits = self.out_head(x)
            return logits

    torch.manual_seed(123)
    model = GPTModel(GPT_CONFIG_124M)
    out = model(batch)
    print("Input batch:\n", batch)
    print("\nOutput shape:", out.shape)
    print(out[:, :2, :6])
    total_params = sum(p.numel() for p in model.parameters())
    print(f"Total number of parameters: {total_params:,}")
    print("Token embedding layer shape:", model.tok_emb.weight.shape)
    print("Output layer shape:", model.out_head.weight.shape)
    total_params_gpt2 = total_params - sum(p.numel() for p in model.out_head.parameters())
    print(f"Number of trainable parameters considering weight tying: {total_params_gpt2:,}")
    # Calculate the total size in bytes (assuming float32, 4 bytes per parameter)
    total_size_bytes = total_params * 4
    # Convert to megabytes
    total_size_mb = total_size_bytes / (1024 * 1024)
    print(f"Total size of the model: {total_size_mb:.2f} MB")

    def generate_text_simple(model, idx, max_new_tokens, context_size):
        # idx is (batch, n_tokens) array of indices in the current context
        for _ in range(max_new_tokens):
            # Crop current context if it exceeds the supported context size
            idx_cond = idx[:, -context_size:]
            # Get the predictions
            with torch.no_grad():
                logits = model(idx_cond)
            # Focus only on the last time step
            logits = logits[:, -1, :]
            # Apply softmax to get probabilities
            probas = torch.softmax(logits, dim=-1)  # (batch, vocab_size)
            # Get the idx of the vocab entry with the highest probability value
            idx_next = torch.argmax(probas, dim=-1, keepdim=True)  # (batch, 1)
            # Append sampled index to the running sequence
            idx = torch.cat((idx, idx_next), dim=1)  # (batch, n_tokens+1)
        return idx

    start_context = "Hello, I am"
    encoded = tokenizer.encode(start_context)
    print("encoded:", encoded)
    encoded_tensor = torch.tensor(encoded).unsqueeze(0)
    print("encoded_tensor.shape:", encoded_tensor.shape)
    model.eval()  # disable dropout
    out = generate_text_simple(model=model, idx=encoded_tensor, max_new_tokens=6,
                               context_size=GPT_CONFIG_124M["context_length"])
    print("Output:", out)
    print("Output length:", len(out[0]))
    decoded_text = tokenizer.decode(out.squeeze(0).tolist())
    print(decoded_text)

    # ch05
    torch.manual_seed(123)
    model = GPTModel(GPT_CONFIG_124M)
    model.eval()  # Disable dropout during inference

    def text_to_token_ids(text, tokenizer):
        encoded = tokenizer.encode(text, allowed_special={'<|endoftext|>'})
        encoded_tensor = torch.tensor(encoded).unsqueeze(0)  # add batch dimension
        return encoded_tensor

    def token_ids_to_text(token_ids, tokenizer):
        flat = token_ids.squeeze(0)  # remove batch dimension
        return tokenizer.decode(flat.tolist())

    start_context = "Every effort moves you"
    token_ids = generate_text_simple(model=model, idx=text_to_token_ids(start_context, tokenizer),
                                     max_new_tokens=10, context_size=GPT_CONFIG_124M["context_length"])
    print("Output text:\n", token_ids_to_text(token_ids, tokenizer))
    inputs = torch.tensor([[16, 36, 60],  # ["every effort moves",
                           [7, 11, 58]])  # "I really like"]
    targets = torch.tensor([[36, 60, 71],  # [" effort moves you",
                            [11, 58, 2]])  # " really like chocolate"]
    with torch.no_grad():
        logits = model(inputs)
    probas = torch.softmax(logits, dim=-1)  # Probability of each token in vocabulary
    print(probas.shape)  # Shape: (batch_size, num_tokens, vocab_size)
    token_ids = torch.argmax(probas, dim=-1, keepdim=True)
    print("Token IDs:\n", token_ids)
    print(f"Targets batch 1: {token_ids_to_text(targets[0], tokenizer)}")
    print(f"Outputs batch 1: {token_ids_to_text(token_ids[0].flatten(), tokenizer)}")
    text_idx = 0
    target_probas_1 = probas[text_idx, [0, 1, 2], targets[text_idx]]
    print("Text 1:", target_probas_1)
    text_idx = 1
    target_probas_2 = probas[text_idx, [0, 1, 2], targets[text_idx]]
    print("Text 2:", target_probas_2)
    # Compute logarithm of all token probabilities
    log_probas = torch.log(torch.cat((target_probas_1, target_probas_2)))
    print(log_probas)
    # Calculate the average probability for each token
    avg_log_probas = torch.mean(log_probas)
    print(avg_log_probas)
    neg_avg_log_probas = avg_log_probas * -1
    print(neg_avg_log_probas)
    # Logits have shape (batch_size, num_tokens, vocab_size)
    print("Logits shape:", logits.shape)
    # Targets have shape (batch_size, num_tokens)
    print("Targets shape:", targets.shape)
    logits_flat = logits.flatten(0, 1)
    targets_flat = targets.flatten()
    print("Flattened logits:", logits_flat.shape)
    print("Flattened targets:", targets_flat.shape)
    loss = torch.nn.functional.cross_entropy(logits_flat, targets_flat)
    print(loss)
    perplexity = torch.exp(loss)
    print(perplexity)
    text_data = the_verdict()
    total_characters = len(text_data)
    total_tokens = len(tokenizer.encode(text_data))
    print("Characters:", total_characters)
    print("Tokens:", total_tokens)

    class GPTDatasetV1(Dataset):
        def __init__(self, txt, tokenizer, max_length, stride):
            self.tokenizer = tokenizer
            self.input_ids = []
            self.target_ids = []
            token_ids = tokenizer.encode(txt, allowed_special={"<|endoftext|>"})
            for i in range(0, len(token_ids) - max_length, stride):
                input_chunk = token_ids[i:i + max_length]
                target_chunk = token_ids[i + 1: i + max_length + 1]
                self.input_ids.append(torch.tensor(input_chunk))
                self.target_ids.append(torch.tensor(target_chunk))

        def __len__(self):
            return len(self.input_ids)

        def __getitem__(self, idx):
            return self.input_ids[idx], self.target_ids[idx]

    def create_dataloader_v1(txt, batch_size=4, max_length=256,
                             stride=128, shuffle=True, drop_last=True, num_workers=0):
        tokenizer = tiktoken.get_encoding("gpt2")
        dataset = GPTDatasetV1(txt, tokenizer, max_length, stride)
        dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=shuffle,
                                drop_last=drop_last, num_workers=num_workers)
        return dataloader

    # Train/validation ratio
    train_ratio = 0.90
    split_idx = int(train_ratio * len(text_data))
    train_data = text_data[:split_idx]
    val_data = text_data[split_idx:]
    torch.manual_seed(123)
    train_loader = create_dataloader_v1(train_data, batch_size=2,
                                        max_length=GPT_CONFIG_124M["context_length"],
                                        stride=GPT_CONFIG_124M["context_length"],
                                        drop_last=True, shuffle=True, num_workers=0)
    val_loader = create_dataloader_v1(val_data, batch_size=2,
                                      max_length=GPT_CONFIG_124M["context_length"],
                                      stride=GPT_CONFIG_124M["context_length"],
                                      drop_last=False, shuffle=False, num_workers=0)
    print("Train loader:")
    for x, y in train_loader:
        print(x.shape, y.shape)
    print("\nValidation loader:")
    for x, y in val_loader:
        print(x.shape, y.shape)
    train_tokens = 0
    for input_batch, target_batch in train_loader:
        train_tokens += input_batch.numel()
    val_tokens = 0
    for input_batch, target_batch in val_loader:
        val_tokens += input_batch.numel()
    print("Training tokens:", train_tokens)
    print("Validation tokens:", val_tokens)
    print("All tokens:", train_tokens + val_tokens)

    def calc_loss_batch(input_batch, target_batch, model, device):
        input_batch, target_batch = input_batch.to(device), target_batch.to(device)
        logits = model(input_batch)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), target_batch.flatten())
        return loss

    def calc_loss_loader(data_loader, model, device, num_batches=None):
        total_loss = 0.
        if len(data_loader) == 0:
            return float("nan")
        elif num_batches is None:
            num_batches = len(data_loader)
        else:
            # Reduce the number of batches to match the total number of batches in the data loader
            # if num_batches exceeds the number of batches in the data loader
            num_batches = min(num_batches, len(data_loader))
        for i, (input_batch, target_batch) in enumerate(data_loader):
            if i < num_batches:
                loss = calc_loss_batch(input_batch, target_batch, model, device)
                total_loss += loss.item()
            else:
                break
        return total_loss / num_batches

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model.to(device)  # no assignment model = model.to(device) necessary for nn.Module classes
    torch.manual_seed(123)  # For reproducibility due to the shuffling in the data loader
    with torch.no_grad():  # Disable gradient tracking for efficiency because we are not training, yet
        train_loss = calc_loss_loader(train_loader, model, device)
        val_loss = calc_loss_loader(val_loader, model, device)
    print("Training loss:", train_loss)
    print("Validation loss:", val_loss)

    def evaluate_model(model, train_loader, val_loader, device, eval_iter):
        model.eval()
        with torch.no_grad():
            train_loss = calc_loss_loader(train_loader, model, device, num_batches=eval_iter)
            val_loss = calc_loss_loader(val_loader, model, device, num_batches=eval_iter)
        model.train()
        return train_loss, val_loss

    def generate_and_print_sample(model, tokenizer, device, start_context):
        model.eval()
        context_size = model.pos_emb.weight.shape[0]
        encoded = text_to_token_ids(start_context, tokenizer).to(device)
        with torch.no_grad():
            token_ids = generate_text_simple(model=model, idx=encoded,
                                             max_new_tokens=12, context_size=context_size)
        decoded_text = token_ids_to_text(token_ids, tokenizer)
        print(decoded_text.replace("\n", " "))  # Compact print format
        model.train()

    def train_model_simple(model, train_loader, val_loader, optimizer, device, num_epochs,
                           eval_freq, eval_iter, start_context, tokenizer):
        # Initialize lists to track losses and tokens seen
        train_losses, val_losses, track_tokens_seen = [], [], []
        tokens_seen, global_step = 0, -1
        # Main training loop
        for epoch in range(num_epochs):
            model.train()  # Set model to training mode
            for input_batch, target_batch in train_loader:
                optimizer.zero_grad()  # Reset loss gradients from previous batch iteration
                loss = calc_loss_batch(input_batch, target_batch, model, device)
                loss.backward()  # Calculate loss gradients
                optimizer.step()  # Update model weights using loss gradients
                tokens_seen += input_batch.numel()
                global_step += 1
                # Optional evaluation step
                if global_step % eval_freq == 0:
                    train_loss, val_loss = evaluate_model(
                        model, train_loader, val_loader, device, eval_iter)
                    train_losses.append(train_loss)
                    val_losses.append(val_loss)
                    track_tokens_seen.append(tokens_seen)
                    print(f"Ep {epoch+1} (Step {global_step:06d}): "
                          f"Train loss {train_loss:.3f}, Val loss {val_loss:.3f}")
            # Print a sample text after each epoch
            generate_and_print_sample(model, tokenizer, device, start_context)
        return train_losses, val_losses, track_tokens_seen

    torch.manual_seed(123)
    model = GPTModel(GPT_CONFIG_124M)
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=0.0004, weight_decay=0.1)
    num_epochs = 2
    train_losses, val_losses, tokens_seen = train_model_simple(
        model, train_loader, val_loader, optimizer, device,
        num_epochs=num_epochs, eval_freq=5, eval_iter=2,
        start_context="Every effort moves you", tokenizer=tokenizer
    )
    epochs_tensor = torch.linspace(0, num_epochs, len(train_losses))
    print(epochs_tensor)  # (plot_losses's x axis)
    model.to("cpu")
    model.eval()
    token_ids = generate_text_simple(model=model, idx=text_to_token_ids("Every effort moves you", tokenizer),
                                     max_new_tokens=12, context_size=GPT_CONFIG_124M["context_length"])
    print("Output text:\n", token_ids_to_text(token_ids, tokenizer))
    vocab = {"closer": 0, "every": 1, "effort": 2, "forward": 3, "inches": 4, "moves": 5,
             "pizza": 6, "toward": 7, "you": 8}
    inverse_vocab = {v: k for k, v in vocab.items()}
    # Suppose input is "every effort moves you", and the LLM
    # returns the following logits for the next token:
    next_token_logits = torch.tensor([4.51, 0.89, -1.90, 6.75, 1.63, -1.62, -1.89, 6.28, 1.79])
    probas = torch.softmax(next_token_logits, dim=0)
    next_token_id = torch.argmax(probas).item()
    # The next generated token is then as follows:
    print(inverse_vocab[next_token_id])
    torch.manual_seed(123)
    next_token_id = torch.multinomial(probas, num_samples=1).item()
    print(inverse_vocab[next_token_id])

    def print_sampled_tokens(probas):
        torch.manual_seed(123)  # Manual seed for reproducibility
        sample = [torch.multinomial(probas, num_samples=1).item() for i in range(1_000)]
        sampled_ids = torch.bincount(torch.tensor(sample), minlength=len(probas))
        for i, freq in enumerate(sampled_ids):
            print(f"{freq} x {inverse_vocab[i]}")

    print_sampled_tokens(probas)

    def softmax_with_temperature(logits, temperature):
        scaled_logits = logits / temperature
        return torch.softmax(scaled_logits, dim=0)

    # Temperature values
    temperatures = [1, 0.1, 5]  # Original, higher confidence, and lower confidence
    # Calculate scaled probabilities
    scaled_probas = [softmax_with_temperature(next_token_logits, T) for T in temperatures]
    for i, T in enumerate(temperatures):  # (the bar plot)
        print(f"Temperature = {T}", scaled_probas[i])
    for i, probas in enumerate(scaled_probas):
        print("\n\nTemperature:", temperatures[i])
        print_sampled_tokens(probas)
    top_k = 3
    top_logits, top_pos = torch.topk(next_token_logits, top_k)
    print("Top logits:", top_logits)
    print("Top positions:", top_pos)
    new_logits = torch.where(
        condition=next_token_logits < top_logits[-1],
        input=torch.tensor(float("-inf")),
        other=next_token_logits
    )
    print(new_logits)
    new_logits = torch.full_like(  # create tensor containing -inf values
        next_token_logits, -torch.inf
    )
    new_logits[top_pos] = next_token_logits[top_pos]  # copy top k values into the -inf tensor
    topk_probas = torch.softmax(new_logits, dim=0)
    print(topk_probas)

    def generate(model, idx, max_new_tokens, context_size, temperature=0.0, top_k=None, eos_id=None):
        # For-loop is the same as before: Get logits, and only focus on last time step
        for _ in range(max_new_tokens):
            idx_cond = idx[:, -context_size:]
            with torch.no_grad():
                logits = model(idx_cond)
            logits = logits[:, -1, :]
            # New: Filter logits with top_k sampling
            if top_k is not None:
                # Keep only top_k values
                top_logits, _ = torch.topk(logits, top_k)
                min_val = top_logits[:, -1]
                logits = torch.where(logits < min_val, torch.tensor(float("-inf")).to(logits.device), logits)
            # New: Apply temperature scaling
            if temperature > 0.0:
                logits = logits / temperature
                # New (not in book): numerical stability tip to get equivalent results on mps device
                # subtract rowwise max before softmax
                logits = logits - logits.max(dim=-1, keepdim=True).values
                # Apply softmax to get probabilities
                probs = torch.softmax(logits, dim=-1)  # (batch_size, context_len)
                # Sample from the distribution
                idx_next = torch.multinomial(probs, num_samples=1)  # (batch_size, 1)
            # Otherwise same as before: get idx of the vocab entry with the highest logits value
            else:
                idx_next = torch.argmax(logits, dim=-1, keepdim=True)  # (batch_size, 1)
            if idx_next == eos_id:  # Stop generating early if end-of-sequence token is encountered and eos_id is specified
                break
            # Same as before: append sampled index to the running sequence
            idx = torch.cat((idx, idx_next), dim=1)  # (batch_size, num_tokens+1)
        return idx

    torch.manual_seed(123)
    token_ids = generate(model=model, idx=text_to_token_ids("Every effort moves you", tokenizer),
                         max_new_tokens=15, context_size=GPT_CONFIG_124M["context_length"],
                         top_k=25, temperature=1.4)
    print("Output text:\n", token_ids_to_text(token_ids, tokenizer))
    buffer, both = io.BytesIO(), io.BytesIO()  # ("model.pth", "model_and_optimizer.pth")
    torch.save(model.state_dict(), buffer)
    buffer.seek(0)
    model = GPTModel(GPT_CONFIG_124M)
    model.load_state_dict(torch.load(buffer, map_location=device, weights_only=True))
    model.eval()
    torch.save({
        "model_state_dict": model.state_dict(),
        "optimizer_state_dict": optimizer.state_dict(),
    }, both)
    both.seek(0)
    checkpoint = torch.load(both, weights_only=True)
    model = GPTModel(GPT_CONFIG_124M)
    model.load_state_dict(checkpoint["model_state_dict"])
    optimizer = torch.optim.AdamW(model.parameters(), lr=0.0005, weight_decay=0.1)
    optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
    model.train()
    print(optimizer.state_dict()["param_groups"][0]["lr"], len(optimizer.state_dict()["state"]))
    loss = calc_loss_batch(*next(iter(train_loader)), model, device)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(loss)
    return {"out_head.weight": model.out_head.weight, "tok_emb.weight": model.tok_emb.weight,
            "trf_blocks.1.att.W_query.weight": model.trf_blocks[1].att.W_query.weight}


# ---- deep-learning-with-pytorch/dlwpt-code (Deep Learning with PyTorch, part 1) -----------

def dlwpt_tensors_and_learning(torch):
    """deep-learning-with-pytorch/dlwpt-code p1ch3/1_tensors.ipynb (lists and tensors,
    indexing, storage() and its offsets and strides, t()/transpose and contiguous, dtypes
    by name, .double()/.short()/.to/.type, slicing, NumPy both ways, torch.save/load to a
    file and a file object; h5py and CUDA cells left out), p1ch5/1_parameter_estimation.ipynb
    (the thermometer: the model and loss by hand, broadcasting shapes, finite-difference
    rates, the analytic grad_fn and a training loop diverging at lr=1e-2, then converging
    on normalized inputs, 2000 of the 5000 epochs). Plots are left out."""
    nn, optim = torch.nn, torch.optim
    torch.set_printoptions(edgeitems=2)
    try:
        return _dlwpt_tensors_and_learning(torch, nn, optim)
    finally:
        torch.set_printoptions(profile="default")


def _dlwpt_tensors_and_learning(torch, nn, optim):
    a = [1.0, 2.0, 1.0]
    print(a[0])
    a[2] = 3.0
    print(a)
    a = torch.ones(3)
    print(repr(a))
    print(repr(a[1]))
    print(float(a[1]))
    a[2] = 2.0
    print(repr(a))
    points = torch.zeros(6)  # <1>
    points[0] = 4.0  # <2>
    points[1] = 1.0
    points[2] = 5.0
    points[3] = 3.0
    points[4] = 2.0
    points[5] = 1.0
    points = torch.tensor([4.0, 1.0, 5.0, 3.0, 2.0, 1.0])
    print(repr(points))
    print((float(points[0]), float(points[1])))
    points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
    print(repr(points))
    print(repr(points.shape))
    points = torch.zeros(3, 2)
    print(repr(points))
    points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
    print(repr(points))
    print(repr(points[0, 1]))
    print(repr(points[0]))
    points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
    print(repr(points.storage()))
    points_storage = points.storage()
    print(points_storage[0])
    print(points.storage()[1])
    points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
    points_storage = points.storage()
    points_storage[0] = 2.0
    print(repr(points))
    points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
    second_point = points[1]
    print(second_point.storage_offset())
    print(repr(second_point.size()))
    print(repr(second_point.shape))
    print(points.stride())
    second_point = points[1]
    print(repr(second_point.size()))
    print(second_point.storage_offset())
    print(second_point.stride())
    points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
    second_point = points[1]
    second_point[0] = 10.0
    print(repr(points))
    points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
    second_point = points[1].clone()
    second_point[0] = 10.0
    print(repr(points))
    points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
    print(repr(points))
    points_t = points.t()
    print(repr(points_t))
    print(id(points.storage()) == id(points_t.storage()))
    print(points.stride())
    print(points_t.stride())
    some_t = torch.ones(3, 4, 5)
    transpose_t = some_t.transpose(0, 2)
    print(repr(some_t.shape))
    print(repr(transpose_t.shape))
    print(some_t.stride())
    print(transpose_t.stride())
    print(points.is_contiguous())
    print(points_t.is_contiguous())
    points = torch.tensor([[4.0, 1.0], [2.0, 1.0], [3.0, 5.0]])
    points_t = points.t()
    print(repr(points_t))
    print(repr(points_t.storage()))
    print(points_t.stride())
    points_t_cont = points_t.contiguous()
    print(repr(points_t_cont))
    print(points_t_cont.stride())
    print(repr(points_t_cont.storage()))
    double_points = torch.ones(10, 2, dtype=torch.double)
    short_points = torch.tensor([[1, 2], [3, 4]], dtype=torch.short)
    print(repr(short_points.dtype))
    double_points = torch.zeros(10, 2).double()
    short_points = torch.ones(10, 2).short()
    double_points = torch.zeros(10, 2).to(torch.double)
    short_points = torch.ones(10, 2).to(dtype=torch.short)
    points = torch.randn(10, 2)  # <1>
    short_points = points.type(torch.short)
    print(repr(short_points[:3]), double_points.dtype)
    points_64 = torch.rand(5, dtype=torch.double)  # <1>
    points_short = points_64.to(torch.short)
    print(repr(points_64 * points_short))  # works from PyTorch 1.3 onwards
    # reset points back to original value
    points = torch.tensor([[1.0, 4.0], [2.0, 1.0], [3.0, 4.0]])
    some_list = list(range(6))
    print(some_list[:], some_list[1:4], some_list[1:], some_list[:4], some_list[:-1], some_list[1:4:2])
    print(repr(points[1:]))  # <1>
    print(repr(points[1:, :]))  # <2>
    print(repr(points[1:, 0]))  # <3>
    print(repr(points[None]))  # <4>
    points = torch.ones(3, 4)
    points_np = points.numpy()
    print(repr(points_np))
    points = torch.from_numpy(points_np)
    with in_temporary_directory():
        os.makedirs("data/p1ch3")  # (the book's ../data/p1ch3)
        torch.save(points, 'data/p1ch3/ourpoints.t')
        with open('data/p1ch3/ourpoints.t', 'wb') as f:
            torch.save(points, f)
        points = torch.load('data/p1ch3/ourpoints.t')
        with open('data/p1ch3/ourpoints.t', 'rb') as f:
            points = torch.load(f)
    print(repr(points))
    a = torch.ones(3, 2)
    a_t = torch.transpose(a, 0, 1)
    print((a.shape, a_t.shape))
    a = torch.ones(3, 2)
    a_t = a.transpose(0, 1)
    print((a.shape, a_t.shape))
    a = torch.ones(3, 2)
    a.zero_()
    print(repr(a))

    # p1ch5/1_parameter_estimation.ipynb
    t_c = [0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0]
    t_u = [35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4]
    t_c = torch.tensor(t_c)
    t_u = torch.tensor(t_u)

    def model(t_u, w, b):
        return w * t_u + b

    def loss_fn(t_p, t_c):
        squared_diffs = (t_p - t_c)**2
        return squared_diffs.mean()

    w = torch.ones(())
    b = torch.zeros(())
    t_p = model(t_u, w, b)
    print(repr(t_p))
    loss = loss_fn(t_p, t_c)
    print(repr(loss))
    x = torch.ones(())
    y = torch.ones(3, 1)
    z = torch.ones(1, 3)
    a = torch.ones(2, 1, 1)
    print(f"shapes: x: {x.shape}, y: {y.shape}, z: {z.shape}, a: {a.shape}")
    print("x * y:", (x * y).shape)
    print("y * z:", (y * z).shape)
    print("y * z * a:", (y * z * a).shape)
    delta = 0.1
    loss_rate_of_change_w = \
        (loss_fn(model(t_u, w + delta, b), t_c) -
         loss_fn(model(t_u, w - delta, b), t_c)) / (2.0 * delta)
    learning_rate = 1e-2
    w = w - learning_rate * loss_rate_of_change_w
    loss_rate_of_change_b = \
        (loss_fn(model(t_u, w, b + delta), t_c) -
         loss_fn(model(t_u, w, b - delta), t_c)) / (2.0 * delta)
    b = b - learning_rate * loss_rate_of_change_b
    print(repr(w), repr(b))

    def dloss_fn(t_p, t_c):
        dsq_diffs = 2 * (t_p - t_c) / t_p.size(0)  # <1>
        return dsq_diffs

    def dmodel_dw(t_u, w, b):
        return t_u

    def dmodel_db(t_u, w, b):
        return 1.0

    def grad_fn(t_u, t_c, t_p, w, b):
        dloss_dtp = dloss_fn(t_p, t_c)
        dloss_dw = dloss_dtp * dmodel_dw(t_u, w, b)
        dloss_db = dloss_dtp * dmodel_db(t_u, w, b)
        return torch.stack([dloss_dw.sum(), dloss_db.sum()])  # <1>

    def training_loop(n_epochs, learning_rate, params, t_u, t_c, print_params=True):
        for epoch in range(1, n_epochs + 1):
            w, b = params
            t_p = model(t_u, w, b)  # <1>
            loss = loss_fn(t_p, t_c)
            grad = grad_fn(t_u, t_c, t_p, w, b)  # <2>
            params = params - learning_rate * grad
            if epoch in {1, 2, 3, 10, 11, 99, 100, 4000, 5000}:  # <3>
                print('Epoch %d, Loss %f' % (epoch, float(loss)))
                if print_params:
                    print('    Params:', params)
                    print('    Grad:  ', grad)
            if epoch in {4, 12, 101}:
                print('...')
            if not torch.isfinite(loss).all():
                break  # <3>
        return params

    print(repr(training_loop(n_epochs=100, learning_rate=1e-2, params=torch.tensor([1.0, 0.0]),
                             t_u=t_u, t_c=t_c)))
    print(repr(training_loop(n_epochs=100, learning_rate=1e-4, params=torch.tensor([1.0, 0.0]),
                             t_u=t_u, t_c=t_c)))
    t_un = 0.1 * t_u
    print(repr(training_loop(n_epochs=100, learning_rate=1e-2, params=torch.tensor([1.0, 0.0]),
                             t_u=t_un, t_c=t_c)))
    params = training_loop(n_epochs=2000, learning_rate=1e-2, params=torch.tensor([1.0, 0.0]),
                           t_u=t_un, t_c=t_c, print_params=False)
    print(repr(params))
    t_p = model(t_un, *params)  # (the plot's points)
    print(t_p)
    return {"params": params}


def dlwpt_autograd_optimizers_and_nn(torch):
    """deep-learning-with-pytorch/dlwpt-code p1ch5/2_autograd.ipynb (requires_grad,
    backward accumulating, grad.zero_(), the update under no_grad), 3_optimizers.ipynb
    (SGD step by step, the optimizer loop, Adam on raw inputs, a randperm
    train/validation split, no_grad and set_grad_enabled) and
    p1ch6/1_neural_networks.ipynb (nn.Linear on the unsqueezed data, MSELoss, Sequential
    with Tanh, OrderedDict names, the hidden layer's grad). Each loop runs 500 or 1000 of
    the book's 2000 to 5000 epochs (the prints it reaches kept); the 13-unit Tanh net
    trains 300 epochs: its SGD is chaotic, and PyTorch's BLAS rounds a matrix times a
    column (nn.Linear(8, 1) on a batch) otherwise than NumPy, so after thousands of
    epochs the two runs part. Plots are left out; ``dir(optim)`` is shown for the names
    both have (PyTorch 2.13 also lists Adafactor, which minigrad lacks)."""
    nn, optim = torch.nn, torch.optim
    torch.set_printoptions(edgeitems=2)
    try:
        return _dlwpt_autograd_optimizers_and_nn(torch, nn, optim)
    finally:
        torch.set_printoptions(profile="default")


def _dlwpt_autograd_optimizers_and_nn(torch, nn, optim):
    t_c = torch.tensor([0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0])
    t_u = torch.tensor([35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4])
    t_un = 0.1 * t_u

    def model(t_u, w, b):
        return w * t_u + b

    def loss_fn(t_p, t_c):
        squared_diffs = (t_p - t_c)**2
        return squared_diffs.mean()

    # p1ch5/2_autograd.ipynb
    params = torch.tensor([1.0, 0.0], requires_grad=True)
    print(params.grad is None)
    loss = loss_fn(model(t_u, *params), t_c)
    loss.backward()
    print(repr(params.grad))
    if params.grad is not None:
        params.grad.zero_()

    def training_loop(n_epochs, learning_rate, params, t_u, t_c):
        for epoch in range(1, n_epochs + 1):
            if params.grad is not None:  # <1>
                params.grad.zero_()
            t_p = model(t_u, *params)
            loss = loss_fn(t_p, t_c)
            loss.backward()
            with torch.no_grad():  # <2>
                params -= learning_rate * params.grad
            if epoch % 500 == 0:
                print('Epoch %d, Loss %f' % (epoch, float(loss)))
        return params

    print(repr(training_loop(n_epochs=1000, learning_rate=1e-2,
                             params=torch.tensor([1.0, 0.0], requires_grad=True),  # <1>
                             t_u=t_un, t_c=t_c)))  # <2>

    # p1ch5/3_optimizers.ipynb
    print([name for name in ("ASGD", "Adadelta", "Adagrad", "Adam", "SGD") if name in dir(optim)])
    params = torch.tensor([1.0, 0.0], requires_grad=True)
    learning_rate = 1e-5
    optimizer = optim.SGD([params], lr=learning_rate)
    t_p = model(t_u, *params)
    loss = loss_fn(t_p, t_c)
    loss.backward()
    optimizer.step()
    print(repr(params))
    params = torch.tensor([1.0, 0.0], requires_grad=True)
    learning_rate = 1e-2
    optimizer = optim.SGD([params], lr=learning_rate)
    t_p = model(t_un, *params)
    loss = loss_fn(t_p, t_c)
    optimizer.zero_grad()  # <1>
    loss.backward()
    optimizer.step()
    print(repr(params))

    def training_loop(n_epochs, optimizer, params, t_u, t_c):
        for epoch in range(1, n_epochs + 1):
            t_p = model(t_u, *params)
            loss = loss_fn(t_p, t_c)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if epoch % 500 == 0:
                print('Epoch %d, Loss %f' % (epoch, float(loss)))
        return params

    params = torch.tensor([1.0, 0.0], requires_grad=True)
    learning_rate = 1e-2
    optimizer = optim.SGD([params], lr=learning_rate)  # <1>
    print(repr(training_loop(n_epochs=1000, optimizer=optimizer, params=params,  # <1>
                             t_u=t_un, t_c=t_c)))
    params = torch.tensor([1.0, 0.0], requires_grad=True)
    learning_rate = 1e-1
    optimizer = optim.Adam([params], lr=learning_rate)  # <1>
    print(repr(training_loop(n_epochs=500, optimizer=optimizer, params=params,
                             t_u=t_u, t_c=t_c)))  # <2>
    n_samples = t_u.shape[0]
    n_val = int(0.2 * n_samples)
    shuffled_indices = torch.randperm(n_samples)
    train_indices = shuffled_indices[:-n_val]
    val_indices = shuffled_indices[-n_val:]
    print((train_indices, val_indices))  # <1>
    train_t_u = t_u[train_indices]
    train_t_c = t_c[train_indices]
    val_t_u = t_u[val_indices]
    val_t_c = t_c[val_indices]
    train_t_un = 0.1 * train_t_u
    val_t_un = 0.1 * val_t_u

    def training_loop(n_epochs, optimizer, params, train_t_u, val_t_u, train_t_c, val_t_c):
        for epoch in range(1, n_epochs + 1):
            train_t_p = model(train_t_u, *params)  # <1>
            train_loss = loss_fn(train_t_p, train_t_c)
            with torch.no_grad():  # <1>
                val_t_p = model(val_t_u, *params)
                val_loss = loss_fn(val_t_p, val_t_c)
                assert val_loss.requires_grad == False  # <2>
            optimizer.zero_grad()
            train_loss.backward()  # <2>
            optimizer.step()
            if epoch <= 3 or epoch % 500 == 0:
                print('Epoch {}, Training loss {}, Validation loss {}'.format(
                    epoch, float(train_loss), float(val_loss)))
        return params

    params = torch.tensor([1.0, 0.0], requires_grad=True)
    learning_rate = 1e-2
    optimizer = optim.SGD([params], lr=learning_rate)
    print(repr(training_loop(n_epochs=500, optimizer=optimizer, params=params,
                             train_t_u=train_t_un,  # <1>
                             val_t_u=val_t_un,  # <1>
                             train_t_c=train_t_c, val_t_c=val_t_c)))

    def calc_forward(t_u, t_c, is_train):
        with torch.set_grad_enabled(is_train):
            t_p = model(t_u, *params)
            loss = loss_fn(t_p, t_c)
        return loss

    print(calc_forward(val_t_un, val_t_c, False), calc_forward(train_t_un, train_t_c, True))

    # p1ch6/1_neural_networks.ipynb
    t_c = [0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0]
    t_u = [35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4]
    t_c = torch.tensor(t_c).unsqueeze(1)  # <1>
    t_u = torch.tensor(t_u).unsqueeze(1)  # <1>
    print(repr(t_u.shape))
    n_samples = t_u.shape[0]
    n_val = int(0.2 * n_samples)
    shuffled_indices = torch.randperm(n_samples)
    train_indices = shuffled_indices[:-n_val]
    val_indices = shuffled_indices[-n_val:]
    print((train_indices, val_indices))
    t_u_train = t_u[train_indices]
    t_c_train = t_c[train_indices]
    t_u_val = t_u[val_indices]
    t_c_val = t_c[val_indices]
    t_un_train = 0.1 * t_u_train
    t_un_val = 0.1 * t_u_val
    linear_model = nn.Linear(1, 1)  # <1>
    print(repr(linear_model(t_un_val)))
    print(repr(linear_model.weight))
    print(repr(linear_model.bias))
    x = torch.ones(1)
    print(repr(linear_model(x)))
    x = torch.ones(10, 1)
    print(repr(linear_model(x)))
    linear_model = nn.Linear(1, 1)  # <1>
    optimizer = optim.SGD(linear_model.parameters(),  # <2>
                          lr=1e-2)
    print(type(linear_model.parameters()).__name__)
    print(list(linear_model.parameters()))

    def training_loop(n_epochs, optimizer, model, loss_fn, t_u_train, t_u_val, t_c_train, t_c_val):
        for epoch in range(1, n_epochs + 1):
            t_p_train = model(t_un_train)  # <1>
            loss_train = loss_fn(t_p_train, t_c_train)
            t_p_val = model(t_un_val)  # <1>
            loss_val = loss_fn(t_p_val, t_c_val)
            optimizer.zero_grad()
            loss_train.backward()  # <2>
            optimizer.step()
            if epoch == 1 or epoch % 1000 == 0:
                print('Epoch {}, Training loss {}, Validation loss {}'.format(
                    epoch, float(loss_train), float(loss_val)))

    def loss_fn(t_p, t_c):
        squared_diffs = (t_p - t_c)**2
        return squared_diffs.mean()

    linear_model = nn.Linear(1, 1)  # <1>
    optimizer = optim.SGD(linear_model.parameters(), lr=1e-2)
    training_loop(n_epochs=1000, optimizer=optimizer, model=linear_model, loss_fn=loss_fn,
                  t_u_train=t_un_train, t_u_val=t_un_val, t_c_train=t_c_train, t_c_val=t_c_val)
    print()
    print(linear_model.weight)
    print(linear_model.bias)
    linear_model = nn.Linear(1, 1)
    optimizer = optim.SGD(linear_model.parameters(), lr=1e-2)
    training_loop(n_epochs=1000, optimizer=optimizer, model=linear_model,
                  loss_fn=nn.MSELoss(),  # <1>
                  t_u_train=t_un_train, t_u_val=t_un_val, t_c_train=t_c_train, t_c_val=t_c_val)
    print()
    print(linear_model.weight)
    print(linear_model.bias)
    seq_model = nn.Sequential(
        nn.Linear(1, 13),  # <1>
        nn.Tanh(),
        nn.Linear(13, 1))  # <2>
    print(seq_model)
    print([param.shape for param in seq_model.parameters()])
    for name, param in seq_model.named_parameters():
        print(name, param.shape)
    seq_model = nn.Sequential(collections.OrderedDict([
        ('hidden_linear', nn.Linear(1, 8)),
        ('hidden_activation', nn.Tanh()),
        ('output_linear', nn.Linear(8, 1))
    ]))
    print(seq_model)
    for name, param in seq_model.named_parameters():
        print(name, param.shape)
    print(repr(seq_model.output_linear.bias))
    optimizer = optim.SGD(seq_model.parameters(), lr=1e-3)  # <1>
    training_loop(n_epochs=300, optimizer=optimizer, model=seq_model, loss_fn=nn.MSELoss(),
                  t_u_train=t_un_train, t_u_val=t_un_val, t_c_train=t_c_train, t_c_val=t_c_val)
    print('output', seq_model(t_un_val))
    print('answer', t_c_val)
    print('hidden', seq_model.hidden_linear.weight.grad)
    t_range = torch.arange(20., 90.).unsqueeze(1)  # (the plot's curve)
    print(seq_model(0.1 * t_range).detach()[::10])
    return {"params": params, "seq_model.hidden_linear.weight": seq_model.hidden_linear.weight,
            "linear_model.weight": linear_model.weight}


def dlwpt_images_and_convolutions(torch):
    """deep-learning-with-pytorch/dlwpt-code p1ch7/2_birds_airplanes.ipynb (CIFAR-2 from
    CIFAR-10's airplanes and birds: softmax by hand and nn.Softmax, a fully connected
    model with LogSoftmax and NLLLoss, trained sample by sample and then with a
    DataLoader, accuracy, the parameter counts of the wider models) and
    p1ch8/1_convolution.ipynb (Conv2d's weight shapes, padding, a blur and an edge
    kernel set under no_grad, MaxPool2d, the Sequential model's size-mismatch error, Net
    with modules and with F.max_pool2d/torch.tanh, training_loop with datetime and
    validate, state_dict saved and loaded, NetWidth, L2 regularisation by hand, NetDropout
    with Dropout2d, NetBatchNorm, NetDepth, NetRes, ResBlock with kaiming_normal_ and
    NetResDeep). CIFAR-10 is 32 + 16 seeded random 32x32 images, normalized as the book
    normalizes them (about two thirds are airplanes and birds); datetime.now() prints a
    fixed time; the fully connected loops run 2 of the book's 100 epochs, the
    convolutional ones 1, and the wider models have 8 channels where the book gives 32
    (their parameter counts are printed for 32 too)."""
    nn, optim, F = torch.nn, torch.optim, torch.nn.functional
    datetime = SimpleNamespace(datetime=SimpleNamespace(now=lambda: "2020-01-01 00:00:00"))
    torch.set_printoptions(edgeitems=2)
    try:
        return _dlwpt_images_and_convolutions(torch, nn, optim, F, datetime)
    finally:
        torch.set_printoptions(profile="default")


def _dlwpt_images_and_convolutions(torch, nn, optim, F, datetime):
    torch.manual_seed(123)
    class_names = ['airplane', 'automobile', 'bird', 'cat', 'deer',
                   'dog', 'frog', 'horse', 'ship', 'truck']
    mean = torch.tensor([0.4915, 0.4823, 0.4468]).view(3, 1, 1)
    std = torch.tensor([0.2470, 0.2435, 0.2616]).view(3, 1, 1)

    def cifar(n, seed):  # (datasets.CIFAR10 with ToTensor and Normalize)
        images = image_dataset(torch, n, shape=(3, 32, 32), seed=seed)
        return [((img - mean) / std, label % 3) for img, label in images]

    cifar10, cifar10_val = cifar(32, 11), cifar(16, 12)
    label_map = {0: 0, 2: 1}
    class_names = ['airplane', 'bird']
    cifar2 = [(img, label_map[label]) for img, label in cifar10 if label in [0, 2]]
    cifar2_val = [(img, label_map[label]) for img, label in cifar10_val if label in [0, 2]]
    print(len(cifar2), len(cifar2_val))

    # p1ch7/2_birds_airplanes.ipynb
    def softmax(x):
        return torch.exp(x) / torch.exp(x).sum()

    x = torch.tensor([1.0, 2.0, 3.0])
    print(repr(softmax(x)))
    print(repr(softmax(x).sum()))
    softmax = nn.Softmax(dim=1)
    x = torch.tensor([[1.0, 2.0, 3.0],
                      [1.0, 2.0, 3.0]])
    print(repr(softmax(x)))
    model = nn.Sequential(
        nn.Linear(3072, 512),
        nn.Tanh(),
        nn.Linear(512, 2),
        nn.Softmax(dim=1))
    img, _ = cifar2[0]
    img_batch = img.view(-1).unsqueeze(0)
    out = model(img_batch)
    print(repr(out))
    _, index = torch.max(out, dim=1)
    print(repr(index))
    model = nn.Sequential(
        nn.Linear(3072, 512),
        nn.Tanh(),
        nn.Linear(512, 2),
        nn.LogSoftmax(dim=1))
    loss = nn.NLLLoss()
    img, label = cifar2[0]
    out = model(img.view(-1).unsqueeze(0))
    print(repr(loss(out, torch.tensor([label]))))
    learning_rate = 1e-2
    optimizer = optim.SGD(model.parameters(), lr=learning_rate)
    loss_fn = nn.NLLLoss()
    n_epochs = 2
    for epoch in range(n_epochs):
        for img, label in cifar2:
            out = model(img.view(-1).unsqueeze(0))
            loss = loss_fn(out, torch.tensor([label]))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("Epoch: %d, Loss: %f" % (epoch, float(loss)))
    train_loader = torch.utils.data.DataLoader(cifar2, batch_size=64, shuffle=True)
    model = nn.Sequential(
        nn.Linear(3072, 128),
        nn.Tanh(),
        nn.Linear(128, 2),
        nn.LogSoftmax(dim=1))
    optimizer = optim.SGD(model.parameters(), lr=learning_rate)
    for epoch in range(n_epochs):
        for imgs, labels in train_loader:
            outputs = model(imgs.view(imgs.shape[0], -1))
            loss = loss_fn(outputs, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("Epoch: %d, Loss: %f" % (epoch, float(loss)))
    val_loader = torch.utils.data.DataLoader(cifar2_val, batch_size=64, shuffle=False)
    correct = 0
    total = 0
    with torch.no_grad():
        for imgs, labels in val_loader:
            outputs = model(imgs.view(imgs.shape[0], -1))
            _, predicted = torch.max(outputs, dim=1)
            total += labels.shape[0]
            correct += int((predicted == labels).sum())
    print("Accuracy: %f" % (correct / total))
    model = nn.Sequential(
        nn.Linear(3072, 1024),
        nn.Tanh(),
        nn.Linear(1024, 512),
        nn.Tanh(),
        nn.Linear(512, 128),
        nn.Tanh(),
        nn.Linear(128, 2))
    numel_list = [p.numel() for p in model.parameters() if p.requires_grad == True]
    print((sum(numel_list), numel_list))
    linear = nn.Linear(3072, 1024)
    print((linear.weight.shape, linear.bias.shape))

    # p1ch8/1_convolution.ipynb
    conv = nn.Conv2d(3, 16, kernel_size=3)  # <1>
    print(repr(conv))
    print((conv.weight.shape, conv.bias.shape))
    img, _ = cifar2[0]
    output = conv(img.unsqueeze(0))
    print((img.unsqueeze(0).shape, output.shape))
    conv = nn.Conv2d(3, 1, kernel_size=3, padding=1)  # <1>
    output = conv(img.unsqueeze(0))
    print((img.unsqueeze(0).shape, output.shape))
    with torch.no_grad():
        conv.bias.zero_()
    with torch.no_grad():
        conv.weight.fill_(1.0 / 9.0)
    output = conv(img.unsqueeze(0))
    print(output[0, 0, :2, :4])  # (plt.imshow)
    conv = nn.Conv2d(3, 1, kernel_size=3, padding=1)
    with torch.no_grad():
        conv.weight[:] = torch.tensor([[-1.0, 0.0, 1.0],
                                       [-1.0, 0.0, 1.0],
                                       [-1.0, 0.0, 1.0]])
        conv.bias.zero_()
    output = conv(img.unsqueeze(0))
    print(output[0, 0, :2, :4])
    pool = nn.MaxPool2d(2)
    output = pool(img.unsqueeze(0))
    print((img.unsqueeze(0).shape, output.shape))
    model = nn.Sequential(
        nn.Conv2d(3, 16, kernel_size=3, padding=1),
        nn.Tanh(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 8, kernel_size=3, padding=1),
        nn.Tanh(),
        nn.MaxPool2d(2),
        # ...
    )
    model = nn.Sequential(
        nn.Conv2d(3, 16, kernel_size=3, padding=1),
        nn.Tanh(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 8, kernel_size=3, padding=1),
        nn.Tanh(),
        nn.MaxPool2d(2),
        # ... <1>
        nn.Linear(8 * 8 * 8, 32),
        nn.Tanh(),
        nn.Linear(32, 2))
    numel_list = [p.numel() for p in model.parameters()]
    print((sum(numel_list), numel_list))
    try:
        model(img.unsqueeze(0))
    except RuntimeError as e:
        print(type(e).__name__, e)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 16, kernel_size=3, padding=1)
            self.act1 = nn.Tanh()
            self.pool1 = nn.MaxPool2d(2)
            self.conv2 = nn.Conv2d(16, 8, kernel_size=3, padding=1)
            self.act2 = nn.Tanh()
            self.pool2 = nn.MaxPool2d(2)
            self.fc1 = nn.Linear(8 * 8 * 8, 32)
            self.act3 = nn.Tanh()
            self.fc2 = nn.Linear(32, 2)

        def forward(self, x):
            out = self.pool1(self.act1(self.conv1(x)))
            out = self.pool2(self.act2(self.conv2(out)))
            out = out.view(-1, 8 * 8 * 8)  # <1>
            out = self.act3(self.fc1(out))
            out = self.fc2(out)
            return out

    model = Net()
    numel_list = [p.numel() for p in model.parameters()]
    print((sum(numel_list), numel_list))

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 16, kernel_size=3, padding=1)
            self.conv2 = nn.Conv2d(16, 8, kernel_size=3, padding=1)
            self.fc1 = nn.Linear(8 * 8 * 8, 32)
            self.fc2 = nn.Linear(32, 2)

        def forward(self, x):
            out = F.max_pool2d(torch.tanh(self.conv1(x)), 2)
            out = F.max_pool2d(torch.tanh(self.conv2(out)), 2)
            out = out.view(-1, 8 * 8 * 8)
            out = torch.tanh(self.fc1(out))
            out = self.fc2(out)
            return out

    model = Net()
    print(repr(model(img.unsqueeze(0))))

    def training_loop(n_epochs, optimizer, model, loss_fn, train_loader):
        for epoch in range(1, n_epochs + 1):  # <2>
            loss_train = 0.0
            for imgs, labels in train_loader:  # <3>
                outputs = model(imgs)  # <4>
                loss = loss_fn(outputs, labels)  # <5>
                optimizer.zero_grad()  # <6>
                loss.backward()  # <7>
                optimizer.step()  # <8>
                loss_train += loss.item()  # <9>
            if epoch == 1 or epoch % 10 == 0:
                print('{} Epoch {}, Training loss {}'.format(
                    datetime.datetime.now(), epoch,
                    loss_train / len(train_loader)))  # <10>

    train_loader = torch.utils.data.DataLoader(cifar2, batch_size=64, shuffle=True)  # <1>
    model = Net()  # <2>
    optimizer = optim.SGD(model.parameters(), lr=1e-2)  # <3>
    loss_fn = nn.CrossEntropyLoss()  # <4>
    training_loop(n_epochs=1, optimizer=optimizer, model=model, loss_fn=loss_fn,
                  train_loader=train_loader)
    train_loader = torch.utils.data.DataLoader(cifar2, batch_size=64, shuffle=False)
    val_loader = torch.utils.data.DataLoader(cifar2_val, batch_size=64, shuffle=False)

    def validate(model, train_loader, val_loader):
        for name, loader in [("train", train_loader), ("val", val_loader)]:
            correct = 0
            total = 0
            with torch.no_grad():  # <1>
                for imgs, labels in loader:
                    outputs = model(imgs)
                    _, predicted = torch.max(outputs, dim=1)  # <2>
                    total += labels.shape[0]  # <3>
                    correct += int((predicted == labels).sum())  # <4>
            print("Accuracy {}: {:.2f}".format(name, correct / total))

    validate(model, train_loader, val_loader)
    buffer = io.BytesIO()  # (data_path + 'birds_vs_airplanes.pt')
    torch.save(model.state_dict(), buffer)
    buffer.seek(0)
    loaded_model = Net()  # <1>
    print(loaded_model.load_state_dict(torch.load(buffer)))
    device = (torch.device('cuda') if torch.cuda.is_available() else torch.device('cpu'))
    print(f"Training on device {device}.")

    class NetWidth(nn.Module):
        def __init__(self, n_chans1=32):
            super().__init__()
            self.n_chans1 = n_chans1
            self.conv1 = nn.Conv2d(3, n_chans1, kernel_size=3, padding=1)
            self.conv2 = nn.Conv2d(n_chans1, n_chans1 // 2, kernel_size=3, padding=1)
            self.fc1 = nn.Linear(8 * 8 * n_chans1 // 2, 32)
            self.fc2 = nn.Linear(32, 2)

        def forward(self, x):
            out = F.max_pool2d(torch.tanh(self.conv1(x)), 2)
            out = F.max_pool2d(torch.tanh(self.conv2(out)), 2)
            out = out.view(-1, 8 * 8 * self.n_chans1 // 2)
            out = torch.tanh(self.fc1(out))
            out = self.fc2(out)
            return out

    print(sum(p.numel() for p in NetWidth().parameters()))  # (the book's width, 32)
    model = NetWidth(n_chans1=8).to(device=device)
    optimizer = optim.SGD(model.parameters(), lr=1e-2)
    training_loop(n_epochs=1, optimizer=optimizer, model=model, loss_fn=loss_fn,
                  train_loader=train_loader)
    validate(model, train_loader, val_loader)
    print(sum(p.numel() for p in model.parameters()))

    def training_loop_l2reg(n_epochs, optimizer, model, loss_fn, train_loader):
        for epoch in range(1, n_epochs + 1):
            loss_train = 0.0
            for imgs, labels in train_loader:
                imgs = imgs.to(device=device)
                labels = labels.to(device=device)
                outputs = model(imgs)
                loss = loss_fn(outputs, labels)
                l2_lambda = 0.001
                l2_norm = sum(p.pow(2.0).sum() for p in model.parameters())  # <1>
                loss = loss + l2_lambda * l2_norm
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                loss_train += loss.item()
            if epoch == 1 or epoch % 10 == 0:
                print('{} Epoch {}, Training loss {}'.format(
                    datetime.datetime.now(), epoch, loss_train / len(train_loader)))

    model = Net().to(device=device)
    optimizer = optim.SGD(model.parameters(), lr=1e-2)
    training_loop_l2reg(n_epochs=1, optimizer=optimizer, model=model, loss_fn=loss_fn,
                        train_loader=train_loader)
    validate(model, train_loader, val_loader)

    class NetDropout(nn.Module):
        def __init__(self, n_chans1=32):
            super().__init__()
            self.n_chans1 = n_chans1
            self.conv1 = nn.Conv2d(3, n_chans1, kernel_size=3, padding=1)
            self.conv1_dropout = nn.Dropout2d(p=0.4)
            self.conv2 = nn.Conv2d(n_chans1, n_chans1 // 2, kernel_size=3, padding=1)
            self.conv2_dropout = nn.Dropout2d(p=0.4)
            self.fc1 = nn.Linear(8 * 8 * n_chans1 // 2, 32)
            self.fc2 = nn.Linear(32, 2)

        def forward(self, x):
            out = F.max_pool2d(torch.tanh(self.conv1(x)), 2)
            out = self.conv1_dropout(out)
            out = F.max_pool2d(torch.tanh(self.conv2(out)), 2)
            out = self.conv2_dropout(out)
            out = out.view(-1, 8 * 8 * self.n_chans1 // 2)
            out = torch.tanh(self.fc1(out))
            out = self.fc2(out)
            return out

    class NetBatchNorm(nn.Module):
        def __init__(self, n_chans1=32):
            super().__init__()
            self.n_chans1 = n_chans1
            self.conv1 = nn.Conv2d(3, n_chans1, kernel_size=3, padding=1)
            self.conv1_batchnorm = nn.BatchNorm2d(num_features=n_chans1)
            self.conv2 = nn.Conv2d(n_chans1, n_chans1 // 2, kernel_size=3, padding=1)
            self.conv2_batchnorm = nn.BatchNorm2d(num_features=n_chans1 // 2)
            self.fc1 = nn.Linear(8 * 8 * n_chans1 // 2, 32)
            self.fc2 = nn.Linear(32, 2)

        def forward(self, x):
            out = self.conv1_batchnorm(self.conv1(x))
            out = F.max_pool2d(torch.tanh(out), 2)
            out = self.conv2_batchnorm(self.conv2(out))
            out = F.max_pool2d(torch.tanh(out), 2)
            out = out.view(-1, 8 * 8 * self.n_chans1 // 2)
            out = torch.tanh(self.fc1(out))
            out = self.fc2(out)
            return out

    class NetDepth(nn.Module):
        def __init__(self, n_chans1=32):
            super().__init__()
            self.n_chans1 = n_chans1
            self.conv1 = nn.Conv2d(3, n_chans1, kernel_size=3, padding=1)
            self.conv2 = nn.Conv2d(n_chans1, n_chans1 // 2, kernel_size=3, padding=1)
            self.conv3 = nn.Conv2d(n_chans1 // 2, n_chans1 // 2, kernel_size=3, padding=1)
            self.fc1 = nn.Linear(4 * 4 * n_chans1 // 2, 32)
            self.fc2 = nn.Linear(32, 2)

        def forward(self, x):
            out = F.max_pool2d(torch.relu(self.conv1(x)), 2)
            out = F.max_pool2d(torch.relu(self.conv2(out)), 2)
            out = F.max_pool2d(torch.relu(self.conv3(out)), 2)
            out = out.view(-1, 4 * 4 * self.n_chans1 // 2)
            out = torch.relu(self.fc1(out))
            out = self.fc2(out)
            return out

    class NetRes(nn.Module):
        def __init__(self, n_chans1=32):
            super().__init__()
            self.n_chans1 = n_chans1
            self.conv1 = nn.Conv2d(3, n_chans1, kernel_size=3, padding=1)
            self.conv2 = nn.Conv2d(n_chans1, n_chans1 // 2, kernel_size=3, padding=1)
            self.conv3 = nn.Conv2d(n_chans1 // 2, n_chans1 // 2, kernel_size=3, padding=1)
            self.fc1 = nn.Linear(4 * 4 * n_chans1 // 2, 32)
            self.fc2 = nn.Linear(32, 2)

        def forward(self, x):
            out = F.max_pool2d(torch.relu(self.conv1(x)), 2)
            out = F.max_pool2d(torch.relu(self.conv2(out)), 2)
            out1 = out
            out = F.max_pool2d(torch.relu(self.conv3(out)) + out1, 2)
            out = out.view(-1, 4 * 4 * self.n_chans1 // 2)
            out = torch.relu(self.fc1(out))
            out = self.fc2(out)
            return out

    class ResBlock(nn.Module):
        def __init__(self, n_chans):
            super(ResBlock, self).__init__()
            self.conv = nn.Conv2d(n_chans, n_chans, kernel_size=3, padding=1, bias=False)  # <1>
            self.batch_norm = nn.BatchNorm2d(num_features=n_chans)
            torch.nn.init.kaiming_normal_(self.conv.weight, nonlinearity='relu')  # <2>
            torch.nn.init.constant_(self.batch_norm.weight, 0.5)
            torch.nn.init.zeros_(self.batch_norm.bias)

        def forward(self, x):
            out = self.conv(x)
            out = self.batch_norm(out)
            out = torch.relu(out)
            return out + x

    class NetResDeep(nn.Module):
        def __init__(self, n_chans1=32, n_blocks=10):
            super().__init__()
            self.n_chans1 = n_chans1
            self.conv1 = nn.Conv2d(3, n_chans1, kernel_size=3, padding=1)
            self.resblocks = nn.Sequential(
                *(n_blocks * [ResBlock(n_chans=n_chans1)]))
            self.fc1 = nn.Linear(8 * 8 * n_chans1, 32)
            self.fc2 = nn.Linear(32, 2)

        def forward(self, x):
            out = F.max_pool2d(torch.relu(self.conv1(x)), 2)
            out = self.resblocks(out)
            out = F.max_pool2d(out, 2)
            out = out.view(-1, 8 * 8 * self.n_chans1)
            out = torch.relu(self.fc1(out))
            out = self.fc2(out)
            return out

    all_acc_dict = collections.OrderedDict()
    for name, model in [("dropout", NetDropout(n_chans1=8)), ("batch_norm", NetBatchNorm(n_chans1=8)),
                        ("depth", NetDepth(n_chans1=8)), ("res", NetRes(n_chans1=8)),
                        ("res deep", NetResDeep(n_chans1=8, n_blocks=10))]:
        model = model.to(device=device)
        print(name, sum(p.numel() for p in model.parameters()),
              sum(p.numel() for p in type(model)().parameters()))
        optimizer = optim.SGD(model.parameters(), lr=3e-3 if name == "res deep" else 1e-2)
        training_loop(n_epochs=1, optimizer=optimizer, model=model, loss_fn=loss_fn,
                      train_loader=train_loader)
        model.eval()
        validate(model, train_loader, val_loader)
        all_acc_dict[name] = model(img.unsqueeze(0))
    print(all_acc_dict)
    return {"res_deep.fc2.weight": model.fc2.weight, "resblock.conv.weight": model.resblocks[0].conv.weight,
            "res_deep.bn.running_mean": model.resblocks[0].batch_norm.running_mean}


# ---- rasbt/machine-learning-book (Machine Learning with PyTorch and Scikit-Learn) ---------

def iris_stand_in():
    """sklearn's load_iris offline: 150 rows of 4 float64 features in three seeded
    clusters around the species' means, 50 each, and int64 targets 0, 1, 2."""
    rng = np.random.RandomState(0)
    means = [[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]]
    data = np.concatenate([rng.normal(m, 0.3, (50, 4)) for m in means]).round(1)
    return {"data": data, "target": np.repeat(np.arange(3), 50)}


def train_test_split(X, y, test_size, random_state):
    """sklearn's train_test_split offline: a seeded permutation, the first part the test
    rows (as sklearn's ShuffleSplit takes them)."""
    order = np.random.RandomState(random_state).permutation(len(X))
    n_test = int(math.ceil(test_size * len(X)))
    test, train = order[:n_test], order[n_test:]
    return X[train], X[test], y[train], y[test]


def ml_book_ch12(torch):
    """rasbt/machine-learning-book ch12/ch12_part1.py (tensors from lists and NumPy,
    is_tensor, dtype and shape changes, multiply/mean(axis=)/matmul/linalg.norm, chunk,
    split, cat and stack with axis=, DataLoader over a tensor, a JointDataset and
    TensorDataset, shuffled batches over two epochs, the file-name ImageDataset) and
    ch12/ch12_part2.py (linear regression by hand with ``xb @ weight`` and the same with
    nn.Linear, MSELoss and SGD; the Iris MLP with Sigmoid and Softmax modules, Adam,
    loss and accuracy histories, test accuracy, the whole model saved and loaded (PyTorch
    2.13 refuses it with weights_only=True: the error's type, then weights_only=False),
    the state_dict; logistic and softmax in NumPy beside torch.softmax, tanh, sigmoid and
    relu of the same inputs). Iris and train_test_split are offline stand-ins, image files
    and CelebA/MNIST downloads are left out, np.set_printoptions(precision=3) is kept to
    the program, plots are left out; 30 of the regression's 200 epochs, 10 of the
    MLP's 100."""
    with np.printoptions(precision=3):
        return _ml_book_ch12(torch)


def _ml_book_ch12(torch):
    nn = torch.nn
    DataLoader, Dataset = torch.utils.data.DataLoader, torch.utils.data.Dataset
    TensorDataset = torch.utils.data.TensorDataset
    a = [1, 2, 3]
    b = np.array([4, 5, 6], dtype=np.int32)
    t_a = torch.tensor(a)
    t_b = torch.from_numpy(b)
    print(t_a)
    print(t_b)
    print((torch.is_tensor(a), torch.is_tensor(t_a)))
    t_ones = torch.ones(2, 3)
    print(t_ones.shape)
    print(t_ones)
    rand_tensor = torch.rand(2, 3)
    print(rand_tensor)
    t_a_new = t_a.to(torch.int64)
    print(t_a_new.dtype)
    t = torch.rand(3, 5)
    t_tr = torch.transpose(t, 0, 1)
    print(t.shape, ' --> ', t_tr.shape)
    t = torch.zeros(30)
    t_reshape = t.reshape(5, 6)
    print(t_reshape.shape)
    t = torch.zeros(1, 2, 1, 4, 1)
    t_sqz = torch.squeeze(t, 2)
    print(t.shape, ' --> ', t_sqz.shape)
    torch.manual_seed(1)
    t1 = 2 * torch.rand(5, 2) - 1
    t2 = torch.normal(mean=0, std=1, size=(5, 2))
    t3 = torch.multiply(t1, t2)
    print(t3)
    t4 = torch.mean(t1, axis=0)
    print(t4)
    t5 = torch.matmul(t1, torch.transpose(t2, 0, 1))
    print(t5)
    t6 = torch.matmul(torch.transpose(t1, 0, 1), t2)
    print(t6)
    norm_t1 = torch.linalg.norm(t1, ord=2, dim=1)
    print(norm_t1)
    print(repr(np.sqrt(np.sum(np.square(t1.numpy()), axis=1))))
    torch.manual_seed(1)
    t = torch.rand(6)
    print(t)
    t_splits = torch.chunk(t, 3)
    print([item.numpy() for item in t_splits])
    torch.manual_seed(1)
    t = torch.rand(5)
    print(t)
    t_splits = torch.split(t, split_size_or_sections=[3, 2])
    print([item.numpy() for item in t_splits])
    A = torch.ones(3)
    B = torch.zeros(2)
    C = torch.cat([A, B], axis=0)
    print(C)
    A = torch.ones(3)
    B = torch.zeros(3)
    S = torch.stack([A, B], axis=1)
    print(S)
    t = torch.arange(6, dtype=torch.float32)
    data_loader = DataLoader(t)
    for item in data_loader:
        print(item)
    data_loader = DataLoader(t, batch_size=3, drop_last=False)
    for i, batch in enumerate(data_loader, 1):
        print(f'batch {i}:', batch)

    class JointDataset(Dataset):
        def __init__(self, x, y):
            self.x = x
            self.y = y

        def __len__(self):
            return len(self.x)

        def __getitem__(self, idx):
            return self.x[idx], self.y[idx]

    torch.manual_seed(1)
    t_x = torch.rand([4, 3], dtype=torch.float32)
    t_y = torch.arange(4)
    joint_dataset = JointDataset(t_x, t_y)
    # Or use TensorDataset directly
    joint_dataset = TensorDataset(t_x, t_y)
    for example in joint_dataset:
        print('  x: ', example[0], '  y: ', example[1])
    torch.manual_seed(1)
    data_loader = DataLoader(dataset=joint_dataset, batch_size=2, shuffle=True)
    for i, batch in enumerate(data_loader, 1):
        print(f'batch {i}:', 'x:', batch[0], '\n         y:', batch[1])
    for epoch in range(2):
        print(f'epoch {epoch+1}')
        for i, batch in enumerate(data_loader, 1):
            print(f'batch {i}:', 'x:', batch[0], '\n         y:', batch[1])
    file_list = sorted(['cat_dog_images/cat-01.jpg', 'cat_dog_images/cat-02.jpg',
                        'cat_dog_images/cat-03.jpg', 'cat_dog_images/dog-01.jpg',
                        'cat_dog_images/dog-02.jpg', 'cat_dog_images/dog-03.jpg'])
    print(file_list)  # (pathlib's glob of the folder)
    labels = [1 if 'dog' in os.path.basename(file) else 0 for file in file_list]
    print(labels)

    class ImageDataset(Dataset):
        def __init__(self, file_list, labels):
            self.file_list = file_list
            self.labels = labels

        def __getitem__(self, index):
            file = self.file_list[index]
            label = self.labels[index]
            return file, label

        def __len__(self):
            return len(self.labels)

    image_dataset = ImageDataset(file_list, labels)
    for file, label in image_dataset:
        print(file, label)

    # ch12_part2.py
    X_train = np.arange(10, dtype='float32').reshape((10, 1))
    y_train = np.array([1.0, 1.3, 3.1, 2.0, 5.0, 6.3, 6.6, 7.4, 8.0, 9.0], dtype='float32')
    X_train_norm = (X_train - np.mean(X_train)) / np.std(X_train)
    X_train_norm = torch.from_numpy(X_train_norm)
    # On some computers the explicit cast to .float() is
    # necessary
    y_train = torch.from_numpy(y_train).float()
    train_ds = TensorDataset(X_train_norm, y_train)
    batch_size = 1
    train_dl = DataLoader(train_ds, batch_size, shuffle=True)
    torch.manual_seed(1)
    weight = torch.randn(1)
    weight.requires_grad_()
    bias = torch.zeros(1, requires_grad=True)

    def loss_fn(input, target):
        return (input - target).pow(2).mean()

    def model(xb):
        return xb @ weight + bias

    learning_rate = 0.001
    num_epochs = 30
    log_epochs = 10
    for epoch in range(num_epochs):
        for x_batch, y_batch in train_dl:
            pred = model(x_batch)
            loss = loss_fn(pred, y_batch)
            loss.backward()
            with torch.no_grad():
                weight -= weight.grad * learning_rate
                bias -= bias.grad * learning_rate
                weight.grad.zero_()
                bias.grad.zero_()
        if epoch % log_epochs == 0:
            print(f'Epoch {epoch}  Loss {loss.item():.4f}')
    print('Final Parameters:', weight.item(), bias.item())
    X_test = np.linspace(0, 9, num=100, dtype='float32').reshape(-1, 1)
    X_test_norm = (X_test - np.mean(X_train)) / np.std(X_train)
    X_test_norm = torch.from_numpy(X_test_norm)
    y_pred = model(X_test_norm).detach().numpy()
    print(y_pred[::20])  # (the plot)
    input_size = 1
    output_size = 1
    model = nn.Linear(input_size, output_size)
    loss_fn = nn.MSELoss(reduction='mean')
    optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)
    for epoch in range(num_epochs):
        for x_batch, y_batch in train_dl:
            # 1. Generate predictions
            pred = model(x_batch)[:, 0]
            # 2. Calculate loss
            loss = loss_fn(pred, y_batch)
            # 3. Compute gradients
            loss.backward()
            # 4. Update parameters using gradients
            optimizer.step()
            # 5. Reset the gradients to zero
            optimizer.zero_grad()
        if epoch % log_epochs == 0:
            print(f'Epoch {epoch}  Loss {loss.item():.4f}')
    print('Final Parameters:', model.weight.item(), model.bias.item())
    y_pred = model(X_test_norm).detach().numpy()
    print(y_pred[::20])
    iris = iris_stand_in()
    X = iris['data']
    y = iris['target']
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=1. / 3, random_state=1)
    X_train_norm = (X_train - np.mean(X_train)) / np.std(X_train)
    X_train_norm = torch.from_numpy(X_train_norm).float()
    y_train = torch.from_numpy(y_train)
    train_ds = TensorDataset(X_train_norm, y_train)
    torch.manual_seed(1)
    batch_size = 2
    train_dl = DataLoader(train_ds, batch_size, shuffle=True)

    class Model(nn.Module):
        def __init__(self, input_size, hidden_size, output_size):
            super().__init__()
            self.layer1 = nn.Linear(input_size, hidden_size)
            self.layer2 = nn.Linear(hidden_size, output_size)

        def forward(self, x):
            x = self.layer1(x)
            x = nn.Sigmoid()(x)
            x = self.layer2(x)
            x = nn.Softmax(dim=1)(x)
            return x

    module_level(torch, Model)
    input_size = X_train_norm.shape[1]
    hidden_size = 16
    output_size = 3
    model = Model(input_size, hidden_size, output_size)
    learning_rate = 0.001
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    num_epochs = 10
    loss_hist = [0] * num_epochs
    accuracy_hist = [0] * num_epochs
    for epoch in range(num_epochs):
        for x_batch, y_batch in train_dl:
            pred = model(x_batch)
            loss = loss_fn(pred, y_batch.long())
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            loss_hist[epoch] += loss.item() * y_batch.size(0)
            is_correct = (torch.argmax(pred, dim=1) == y_batch).float()
            accuracy_hist[epoch] += is_correct.sum()
        loss_hist[epoch] /= len(train_dl.dataset)
        accuracy_hist[epoch] /= len(train_dl.dataset)
    print(loss_hist[::3], accuracy_hist[::3])  # (the plots)
    X_test_norm = (X_test - np.mean(X_train)) / np.std(X_train)
    X_test_norm = torch.from_numpy(X_test_norm).float()
    y_test = torch.from_numpy(y_test)
    pred_test = model(X_test_norm)
    correct = (torch.argmax(pred_test, dim=1) == y_test).float()
    accuracy = correct.mean()
    print(f'Test Acc.: {accuracy:.4f}')
    with in_temporary_directory():
        path = 'iris_classifier.pt'
        torch.save(model, path)
        try:
            model_new = torch.load(path)
        except Exception as e:  # (PyTorch 2.6 on: weights_only=True by default)
            print(type(e).__name__)
            model_new = torch.load(path, weights_only=False)
        print(model_new.eval())
        pred_test = model_new(X_test_norm)
        correct = (torch.argmax(pred_test, dim=1) == y_test).float()
        accuracy = correct.mean()
        print(f'Test Acc.: {accuracy:.4f}')
        path = 'iris_classifier_state.pt'
        torch.save(model.state_dict(), path)
        model_new = Model(input_size, hidden_size, output_size)
        print(model_new.load_state_dict(torch.load(path)))
    X = np.array([1, 1.4, 2.5])  ## first value must be 1
    w = np.array([0.4, 0.3, 0.5])

    def net_input(X, w):
        return np.dot(X, w)

    def logistic(z):
        return 1.0 / (1.0 + np.exp(-z))

    def logistic_activation(X, w):
        z = net_input(X, w)
        return logistic(z)

    print(f'P(y=1|x) = {logistic_activation(X, w):.3f}')
    W = np.array([[1.1, 1.2, 0.8, 0.4],
                  [0.2, 0.4, 1.0, 0.2],
                  [0.6, 1.5, 1.2, 0.7]])
    A = np.array([[1, 0.1, 0.4, 0.6]])
    Z = np.dot(W, A[0])
    y_probas = logistic(Z)
    print('Net Input: \n', Z)
    print('Output Units:\n', y_probas)
    y_class = np.argmax(Z, axis=0)
    print('Predicted class label:', y_class)

    def softmax(z):
        return np.exp(z) / np.sum(np.exp(z))

    y_probas = softmax(Z)
    print('Probabilities:\n', y_probas)
    print(np.sum(y_probas))
    print(repr(torch.softmax(torch.from_numpy(Z), dim=0)))
    z = np.arange(-5, 5, 0.005)
    print(repr(torch.tanh(torch.from_numpy(z))))
    print(repr(torch.sigmoid(torch.from_numpy(z))))
    print(repr(torch.relu(torch.from_numpy(z))))
    return {"model.layer1.weight": model.layer1.weight, "model_new.layer2.bias": model_new.layer2.bias}


def ml_book_ch13_part1(torch):
    """rasbt/machine-learning-book ch13/ch13_part1.py: compute_z with torch.sub/mul/add on
    scalars and rank 1 and 2 tensors, requires_grad and requires_grad_(), xavier_normal_
    and xavier_uniform_, a module keeping plain tensors, the gradient of a squared error
    checked by hand, Sequential models, an L1 penalty, the XOR problem (np.random data)
    with BCELoss and SGD trained by ``train``, a ModuleList model with predict, and the
    NoisyLinear custom layer (torch.Tensor(...) then xavier_uniform_, torch.normal noise
    in training) in MyNoisyModule. 6 of the book's 200 epochs; the plots and mlxtend's
    decision regions are left out (predict on a few points stands for them)."""
    nn = torch.nn
    DataLoader, TensorDataset = torch.utils.data.DataLoader, torch.utils.data.TensorDataset

    def compute_z(a, b, c):
        r1 = torch.sub(a, b)
        r2 = torch.mul(r1, 2)
        z = torch.add(r2, c)
        return z

    print('Scalar Inputs:', compute_z(torch.tensor(1), torch.tensor(2), torch.tensor(3)))
    print('Rank 1 Inputs:', compute_z(torch.tensor([1]), torch.tensor([2]), torch.tensor([3])))
    print('Rank 2 Inputs:', compute_z(torch.tensor([[1]]), torch.tensor([[2]]), torch.tensor([[3]])))
    a = torch.tensor(3.14, requires_grad=True)
    b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    print(a)
    print(b)
    print(a.requires_grad)
    w = torch.tensor([1.0, 2.0, 3.0])
    print(w.requires_grad)
    w.requires_grad_()
    print(w.requires_grad)
    torch.manual_seed(1)
    w = torch.empty(2, 3)
    nn.init.xavier_normal_(w)
    print(w)

    class MyModule(nn.Module):
        def __init__(self):
            super().__init__()
            self.w1 = torch.empty(2, 3, requires_grad=True)
            nn.init.xavier_normal_(self.w1)
            self.w2 = torch.empty(1, 2, requires_grad=True)
            nn.init.xavier_normal_(self.w2)

    print(list(MyModule().parameters()))
    w = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    x = torch.tensor([1.4])
    y = torch.tensor([2.1])
    z = torch.add(torch.mul(w, x), b)
    loss = (y - z).pow(2).sum()
    loss.backward()
    print('dL/dw : ', w.grad)
    print('dL/db : ', b.grad)
    # verifying the computed gradient dL/dw
    print(2 * x * ((w * x + b) - y))
    model = nn.Sequential(
        nn.Linear(4, 16),
        nn.ReLU(),
        nn.Linear(16, 32),
        nn.ReLU()
    )
    print(model)
    nn.init.xavier_uniform_(model[0].weight)
    l1_weight = 0.01
    l1_penalty = l1_weight * model[2].weight.abs().sum()
    print(l1_penalty)
    loss_fn = nn.BCELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
    np.random.seed(1)
    torch.manual_seed(1)
    x = np.random.uniform(low=-1, high=1, size=(200, 2))
    y = np.ones(len(x))
    y[x[:, 0] * x[:, 1] < 0] = 0
    n_train = 100
    x_train = torch.tensor(x[:n_train, :], dtype=torch.float32)
    y_train = torch.tensor(y[:n_train], dtype=torch.float32)
    x_valid = torch.tensor(x[n_train:, :], dtype=torch.float32)
    y_valid = torch.tensor(y[n_train:], dtype=torch.float32)
    train_ds = TensorDataset(x_train, y_train)
    batch_size = 2
    torch.manual_seed(1)
    train_dl = DataLoader(train_ds, batch_size, shuffle=True)
    model = nn.Sequential(
        nn.Linear(2, 1),
        nn.Sigmoid()
    )
    print(model)
    loss_fn = nn.BCELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
    torch.manual_seed(1)
    num_epochs = 6

    def train(model, num_epochs, train_dl, x_valid, y_valid):
        loss_hist_train = [0] * num_epochs
        accuracy_hist_train = [0] * num_epochs
        loss_hist_valid = [0] * num_epochs
        accuracy_hist_valid = [0] * num_epochs
        for epoch in range(num_epochs):
            for x_batch, y_batch in train_dl:
                pred = model(x_batch)[:, 0]
                loss = loss_fn(pred, y_batch)
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()
                loss_hist_train[epoch] += loss.item()
                is_correct = ((pred >= 0.5).float() == y_batch).float()
                accuracy_hist_train[epoch] += is_correct.mean()
            loss_hist_train[epoch] /= n_train / batch_size
            accuracy_hist_train[epoch] /= n_train / batch_size
            pred = model(x_valid)[:, 0]
            loss = loss_fn(pred, y_valid)
            loss_hist_valid[epoch] = loss.item()
            is_correct = ((pred >= 0.5).float() == y_valid).float()
            accuracy_hist_valid[epoch] += is_correct.mean()
        return loss_hist_train, loss_hist_valid, accuracy_hist_train, accuracy_hist_valid

    history = train(model, num_epochs, train_dl, x_valid, y_valid)
    print(history)  # (the plots)
    model = nn.Sequential(
        nn.Linear(2, 4),
        nn.ReLU(),
        nn.Linear(4, 4),
        nn.ReLU(),
        nn.Linear(4, 1),
        nn.Sigmoid()
    )
    loss_fn = nn.BCELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.015)
    print(model)
    history = train(model, num_epochs, train_dl, x_valid, y_valid)
    print(history)

    class MyModule(nn.Module):
        def __init__(self):
            super().__init__()
            l1 = nn.Linear(2, 4)
            a1 = nn.ReLU()
            l2 = nn.Linear(4, 4)
            a2 = nn.ReLU()
            l3 = nn.Linear(4, 1)
            a3 = nn.Sigmoid()
            l = [l1, a1, l2, a2, l3, a3]
            self.module_list = nn.ModuleList(l)

        def forward(self, x):
            for f in self.module_list:
                x = f(x)
            return x

        def predict(self, x):
            x = torch.tensor(x, dtype=torch.float32)
            pred = self.forward(x)[:, 0]
            return (pred >= 0.5).float()

    model = MyModule()
    print(model)
    loss_fn = nn.BCELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.015)
    # torch.manual_seed(1)
    history = train(model, num_epochs, train_dl, x_valid, y_valid)
    print(history)
    print(model.predict(x_valid.numpy()[:8]))  # (plot_decision_regions calls predict)

    class NoisyLinear(nn.Module):
        def __init__(self, input_size, output_size, noise_stddev=0.1):
            super().__init__()
            w = torch.Tensor(input_size, output_size)
            self.w = nn.Parameter(w)  # nn.Parameter is a Tensor that's a module parameter.
            nn.init.xavier_uniform_(self.w)
            b = torch.Tensor(output_size).fill_(0)
            self.b = nn.Parameter(b)
            self.noise_stddev = noise_stddev

        def forward(self, x, training=False):
            if training:
                noise = torch.normal(0.0, self.noise_stddev, x.shape)
                x_new = torch.add(x, noise)
            else:
                x_new = x
            return torch.add(torch.mm(x_new, self.w), self.b)

    ## testing:
    torch.manual_seed(1)
    noisy_layer = NoisyLinear(4, 2)
    x = torch.zeros((1, 4))
    print(noisy_layer(x, training=True))
    print(noisy_layer(x, training=True))
    print(noisy_layer(x, training=False))

    class MyNoisyModule(nn.Module):
        def __init__(self):
            super().__init__()
            self.l1 = NoisyLinear(2, 4, 0.07)
            self.a1 = nn.ReLU()
            self.l2 = nn.Linear(4, 4)
            self.a2 = nn.ReLU()
            self.l3 = nn.Linear(4, 1)
            self.a3 = nn.Sigmoid()

        def forward(self, x, training=False):
            x = self.l1(x, training)
            x = self.a1(x)
            x = self.l2(x)
            x = self.a2(x)
            x = self.l3(x)
            x = self.a3(x)
            return x

        def predict(self, x):
            x = torch.tensor(x, dtype=torch.float32)
            pred = self.forward(x)[:, 0]
            return (pred >= 0.5).float()

    torch.manual_seed(1)
    model = MyNoisyModule()
    print(model)
    loss_fn = nn.BCELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.015)
    torch.manual_seed(1)
    loss_hist_train = [0] * num_epochs
    accuracy_hist_train = [0] * num_epochs
    loss_hist_valid = [0] * num_epochs
    accuracy_hist_valid = [0] * num_epochs
    for epoch in range(num_epochs):
        for x_batch, y_batch in train_dl:
            pred = model(x_batch, True)[:, 0]
            loss = loss_fn(pred, y_batch)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            loss_hist_train[epoch] += loss.item()
            is_correct = ((pred >= 0.5).float() == y_batch).float()
            accuracy_hist_train[epoch] += is_correct.mean()
        loss_hist_train[epoch] /= n_train / batch_size
        accuracy_hist_train[epoch] /= n_train / batch_size
        pred = model(x_valid)[:, 0]
        loss = loss_fn(pred, y_valid)
        loss_hist_valid[epoch] = loss.item()
        is_correct = ((pred >= 0.5).float() == y_valid).float()
        accuracy_hist_valid[epoch] += is_correct.mean()
    print(loss_hist_train, loss_hist_valid, accuracy_hist_train, accuracy_hist_valid)
    print(model.predict(x_valid.numpy()[:8]))
    return {"noisy.l1.w": model.l1.w, "noisy.l3.weight": model.l3.weight}


def ml_book_ch16_self_attention(torch):
    """rasbt/machine-learning-book ch16/ch16-part1-self-attention.py: the embedded
    sentence, dot products in loops and as a matmul (allclose), softmax attention weights,
    context vectors by hand and by matmul, the scaled dot-product attention with U_query,
    U_key, U_value, the multi-head projections by matmul and bmm over a repeated input,
    permute, and the heads' concatenation through a Linear."""
    F = torch.nn.functional
    sentence = torch.tensor(
        [0,  # can
         7,  # you
         1,  # help
         2,  # me
         5,  # to
         6,  # translate
         4,  # this
         3]  # sentence
    )
    print(repr(sentence))
    torch.manual_seed(123)
    embed = torch.nn.Embedding(10, 16)
    embedded_sentence = embed(sentence).detach()
    print(repr(embedded_sentence.shape))
    omega = torch.empty(8, 8)
    for i, x_i in enumerate(embedded_sentence):
        for j, x_j in enumerate(embedded_sentence):
            omega[i, j] = torch.dot(x_i, x_j)
    omega_mat = embedded_sentence.matmul(embedded_sentence.T)
    print(torch.allclose(omega_mat, omega))
    attention_weights = F.softmax(omega, dim=1)
    print(repr(attention_weights.shape))
    print(repr(attention_weights.sum(dim=1)))
    x_2 = embedded_sentence[1, :]
    context_vec_2 = torch.zeros(x_2.shape)
    for j in range(8):
        x_j = embedded_sentence[j, :]
        context_vec_2 += attention_weights[1, j] * x_j
    print(repr(context_vec_2))
    context_vectors = torch.matmul(attention_weights, embedded_sentence)
    print(torch.allclose(context_vec_2, context_vectors[1]))
    torch.manual_seed(123)
    d = embedded_sentence.shape[1]
    U_query = torch.rand(d, d)
    U_key = torch.rand(d, d)
    U_value = torch.rand(d, d)
    x_2 = embedded_sentence[1]
    query_2 = U_query.matmul(x_2)
    key_2 = U_key.matmul(x_2)
    value_2 = U_value.matmul(x_2)
    keys = U_key.matmul(embedded_sentence.T).T
    print(torch.allclose(key_2, keys[1]))
    values = U_value.matmul(embedded_sentence.T).T
    print(torch.allclose(value_2, values[1]))
    omega_23 = query_2.dot(keys[2])
    print(repr(omega_23))
    omega_2 = query_2.matmul(keys.T)
    print(repr(omega_2))
    attention_weights_2 = F.softmax(omega_2 / d**0.5, dim=0)
    print(repr(attention_weights_2))
    context_vector_2 = attention_weights_2.matmul(values)
    print(repr(context_vector_2))
    torch.manual_seed(123)
    d = embedded_sentence.shape[1]
    one_U_query = torch.rand(d, d)
    h = 8
    multihead_U_query = torch.rand(h, d, d)
    multihead_U_key = torch.rand(h, d, d)
    multihead_U_value = torch.rand(h, d, d)
    multihead_query_2 = multihead_U_query.matmul(x_2)
    print(repr(multihead_query_2.shape))
    multihead_key_2 = multihead_U_key.matmul(x_2)
    multihead_value_2 = multihead_U_value.matmul(x_2)
    print(repr(multihead_key_2[2]))
    stacked_inputs = embedded_sentence.T.repeat(8, 1, 1)
    print(repr(stacked_inputs.shape))
    multihead_keys = torch.bmm(multihead_U_key, stacked_inputs)
    print(repr(multihead_keys.shape))
    multihead_keys = multihead_keys.permute(0, 2, 1)
    print(repr(multihead_keys.shape))
    print(repr(multihead_keys[2, 1]))  # index: [2nd attention head, 2nd key]
    multihead_values = torch.matmul(multihead_U_value, stacked_inputs)
    multihead_values = multihead_values.permute(0, 2, 1)
    multihead_z_2 = torch.rand(8, 16)
    linear = torch.nn.Linear(8 * 16, 16)
    context_vector_2 = linear(multihead_z_2.flatten())
    print(repr(context_vector_2.shape))
    print(repr(context_vector_2))
    return {"multihead_values": multihead_values, "one_U_query": one_U_query}


def ml_book_ch14_cnn(torch):
    """rasbt/machine-learning-book ch14/ch14_part1.py: conv1d and conv2d by hand in NumPy
    beside np.convolve, an L2 penalty over a Conv2d's and a Linear's parameters, BCELoss
    and BCEWithLogitsLoss, NLLLoss of log-probabilities and CrossEntropyLoss, MNIST's
    Subset split, the CNN built by add_module (Conv2d, MaxPool2d, Flatten, Linear(3136,
    1024), Dropout) with its output shapes, Adam and the train function with train and
    validation accuracy, the test accuracy on .data / 255, per-image predictions, and
    the whole model saved. MNIST is 192 seeded random images (128 for training), 1 of
    the 20 epochs, on the CPU (the book's cuda:0 line is the commented cpu one);
    torchvision's read_image, scipy's convolve2d and the plots are left out."""
    nn = torch.nn
    Subset, DataLoader = torch.utils.data.Subset, torch.utils.data.DataLoader

    def conv1d(x, w, p=0, s=1):
        w_rot = np.array(w[::-1])
        x_padded = np.array(x)
        if p > 0:
            zero_pad = np.zeros(shape=p)
            x_padded = np.concatenate([zero_pad, x_padded, zero_pad])
        res = []
        for i in range(0, int((len(x_padded) - len(w_rot))) + 1, s):
            res.append(np.sum(x_padded[i:i + w_rot.shape[0]] * w_rot))
        return np.array(res)

    ## Testing:
    x = [1, 3, 2, 4, 5, 6, 1, 3]
    w = [1, 0, 3, 1, 2]
    print('Conv1d Implementation:', conv1d(x, w, p=2, s=1))
    print('Numpy Results:', np.convolve(x, w, mode='same'))

    def conv2d(X, W, p=(0, 0), s=(1, 1)):
        W_rot = np.array(W)[::-1, ::-1]
        X_orig = np.array(X)
        n1 = X_orig.shape[0] + 2 * p[0]
        n2 = X_orig.shape[1] + 2 * p[1]
        X_padded = np.zeros(shape=(n1, n2))
        X_padded[p[0]:p[0] + X_orig.shape[0], p[1]:p[1] + X_orig.shape[1]] = X_orig
        res = []
        for i in range(0, int((X_padded.shape[0] - W_rot.shape[0]) / s[0]) + 1, s[0]):
            res.append([])
            for j in range(0, int((X_padded.shape[1] - W_rot.shape[1]) / s[1]) + 1, s[1]):
                X_sub = X_padded[i:i + W_rot.shape[0], j:j + W_rot.shape[1]]
                res[-1].append(np.sum(X_sub * W_rot))
        return (np.array(res))

    X = [[1, 3, 2, 4], [5, 6, 1, 3], [1, 2, 0, 2], [3, 4, 3, 2]]
    W = [[1, 0, 3], [1, 2, 1], [0, 1, 1]]
    print('Conv2d Implementation:\n', conv2d(X, W, p=(1, 1), s=(1, 1)))
    # (PyTorch's own: a cross-correlation, so the kernel flipped)
    print(torch.nn.functional.conv2d(torch.tensor(X, dtype=torch.float64)[None, None],
                                     torch.tensor(np.array(W)[::-1, ::-1].copy(), dtype=torch.float64)[None, None],
                                     padding=1))
    loss_func = nn.BCELoss()
    loss = loss_func(torch.tensor([0.9]), torch.tensor([1.0]))
    l2_lambda = 0.001
    conv_layer = nn.Conv2d(in_channels=3, out_channels=5, kernel_size=5)
    l2_penalty = l2_lambda * sum([(p**2).sum() for p in conv_layer.parameters()])
    loss_with_penalty = loss + l2_penalty
    print(loss_with_penalty)
    linear_layer = nn.Linear(10, 16)
    l2_penalty = l2_lambda * sum([(p**2).sum() for p in linear_layer.parameters()])
    loss_with_penalty = loss + l2_penalty
    print(loss_with_penalty)
    ####### Binary Cross-entropy
    logits = torch.tensor([0.8])
    probas = torch.sigmoid(logits)
    target = torch.tensor([1.0])
    bce_loss_fn = nn.BCELoss()
    bce_logits_loss_fn = nn.BCEWithLogitsLoss()
    print(f'BCE (w Probas): {bce_loss_fn(probas, target):.4f}')
    print(f'BCE (w Logits): {bce_logits_loss_fn(logits, target):.4f}')
    ####### Categorical Cross-entropy
    logits = torch.tensor([[1.5, 0.8, 2.1]])
    probas = torch.softmax(logits, dim=1)
    target = torch.tensor([2])
    cce_loss_fn = nn.NLLLoss()
    cce_logits_loss_fn = nn.CrossEntropyLoss()
    print(f'CCE (w Logits): {cce_logits_loss_fn(logits, target):.4f}')
    print(f'CCE (w Probas): {cce_loss_fn(torch.log(probas), target):.4f}')
    images = image_dataset(torch, 192, seed=21)

    class MNIST(torch.utils.data.Dataset):  # (torchvision's, with ToTensor)
        def __init__(self, root, train, transform=None, download=False):
            part = slice(0, 192) if train else slice(128, 192)
            self.data, self.targets = images.data[part, 0], images.targets[part]

        def __len__(self):
            return len(self.data)

        def __getitem__(self, i):
            return (self.data[i].float() / 255)[None], int(self.targets[i])

    image_path = './'
    mnist_dataset = MNIST(root=image_path, train=True, transform=None, download=True)
    mnist_valid_dataset = Subset(mnist_dataset, torch.arange(64))
    mnist_train_dataset = Subset(mnist_dataset, torch.arange(64, len(mnist_dataset)))
    mnist_test_dataset = MNIST(root=image_path, train=False, transform=None, download=False)
    batch_size = 64
    torch.manual_seed(1)
    train_dl = DataLoader(mnist_train_dataset, batch_size, shuffle=True)
    valid_dl = DataLoader(mnist_valid_dataset, batch_size, shuffle=False)
    model = nn.Sequential()
    model.add_module('conv1', nn.Conv2d(in_channels=1, out_channels=32, kernel_size=5, padding=2))
    model.add_module('relu1', nn.ReLU())
    model.add_module('pool1', nn.MaxPool2d(kernel_size=2))
    model.add_module('conv2', nn.Conv2d(in_channels=32, out_channels=64, kernel_size=5, padding=2))
    model.add_module('relu2', nn.ReLU())
    model.add_module('pool2', nn.MaxPool2d(kernel_size=2))
    x = torch.ones((4, 1, 28, 28))
    print(repr(model(x).shape))
    model.add_module('flatten', nn.Flatten())
    x = torch.ones((4, 1, 28, 28))
    print(repr(model(x).shape))
    model.add_module('fc1', nn.Linear(3136, 1024))
    model.add_module('relu3', nn.ReLU())
    model.add_module('dropout', nn.Dropout(p=0.5))
    model.add_module('fc2', nn.Linear(1024, 10))
    # device = torch.device("cuda:0")
    device = torch.device("cpu")
    model = model.to(device)
    print(model)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)

    def train(model, num_epochs, train_dl, valid_dl):
        loss_hist_train = [0] * num_epochs
        accuracy_hist_train = [0] * num_epochs
        loss_hist_valid = [0] * num_epochs
        accuracy_hist_valid = [0] * num_epochs
        for epoch in range(num_epochs):
            model.train()
            for x_batch, y_batch in train_dl:
                x_batch = x_batch.to(device)
                y_batch = y_batch.to(device)
                pred = model(x_batch)
                loss = loss_fn(pred, y_batch)
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()
                loss_hist_train[epoch] += loss.item() * y_batch.size(0)
                is_correct = (torch.argmax(pred, dim=1) == y_batch).float()
                accuracy_hist_train[epoch] += is_correct.sum().cpu()
            loss_hist_train[epoch] /= len(train_dl.dataset)
            accuracy_hist_train[epoch] /= len(train_dl.dataset)
            model.eval()
            with torch.no_grad():
                for x_batch, y_batch in valid_dl:
                    x_batch = x_batch.to(device)
                    y_batch = y_batch.to(device)
                    pred = model(x_batch)
                    loss = loss_fn(pred, y_batch)
                    loss_hist_valid[epoch] += loss.item() * y_batch.size(0)
                    is_correct = (torch.argmax(pred, dim=1) == y_batch).float()
                    accuracy_hist_valid[epoch] += is_correct.sum().cpu()
            loss_hist_valid[epoch] /= len(valid_dl.dataset)
            accuracy_hist_valid[epoch] /= len(valid_dl.dataset)
            print(f'Epoch {epoch+1} accuracy: {accuracy_hist_train[epoch]:.4f} val_accuracy: {accuracy_hist_valid[epoch]:.4f}')
        return loss_hist_train, loss_hist_valid, accuracy_hist_train, accuracy_hist_valid

    torch.manual_seed(1)
    num_epochs = 1
    hist = train(model, num_epochs, train_dl, valid_dl)
    print(hist)  # (the plots)
    model_cpu = model.cpu()
    pred = model(mnist_test_dataset.data.unsqueeze(1) / 255.)
    is_correct = (torch.argmax(pred, dim=1) == mnist_test_dataset.targets).float()
    print(f'Test accuracy: {is_correct.mean():.4f}')
    for i in range(12):  # (the figure's titles)
        img = mnist_test_dataset[i][0][0, :, :]
        pred = model(img.unsqueeze(0).unsqueeze(1))
        y_pred = torch.argmax(pred)
        print(y_pred.item(), end=" ")
    print()
    with in_temporary_directory():
        if not os.path.exists('models'):
            os.mkdir('models')
        path = 'models/mnist-cnn.ph'
        torch.save(model, path)
        print(sorted(os.listdir('models')))
    return {"conv2.weight": model.conv2.weight, "conv1.weight": model.conv1.weight}


def ml_book_ch15_rnn(torch):
    """rasbt/machine-learning-book ch15/ch15_part1.py (an nn.RNN's weights, its output
    beside the same recurrence by hand with matmul and tanh) and ch15/ch15_part3.py (the
    character-level language model: the text encoded, 41-character chunks in a
    TextDataset, an Embedding + LSTM(batch_first) + Linear model stepped a character at a
    time from init_hidden, Adam on the summed cross-entropy, Categorical samples of fixed
    logits, and sample() generating text with scale factors 1, 2 and 0.5). The book's
    1268-0.txt (The Mysterious Island) is a made-up text between its start and end
    markers; embed_dim 32 and rnn_hidden_size 64 (the book: 256 and 512), 3 of the
    10,000 iterations, 60 generated characters of 500; on the CPU."""
    nn, Dataset, DataLoader = torch.nn, torch.utils.data.Dataset, torch.utils.data.DataLoader
    Categorical = torch.distributions.categorical.Categorical
    torch.manual_seed(1)
    rnn_layer = nn.RNN(input_size=5, hidden_size=2, num_layers=1, batch_first=True)
    w_xh = rnn_layer.weight_ih_l0
    w_hh = rnn_layer.weight_hh_l0
    b_xh = rnn_layer.bias_ih_l0
    b_hh = rnn_layer.bias_hh_l0
    print('W_xh shape:', w_xh.shape)
    print('W_hh shape:', w_hh.shape)
    print('b_xh shape:', b_xh.shape)
    print('b_hh shape:', b_hh.shape)
    x_seq = torch.tensor([[1.0] * 5, [2.0] * 5, [3.0] * 5]).float()
    ## output of the simple RNN:
    output, hn = rnn_layer(torch.reshape(x_seq, (1, 3, 5)))
    ## manually computing the output:
    out_man = []
    for t in range(3):
        xt = torch.reshape(x_seq[t], (1, 5))
        print(f'Time step {t} =>')
        print('   Input           :', xt.numpy())
        ht = torch.matmul(xt, torch.transpose(w_xh, 0, 1)) + b_xh
        print('   Hidden          :', ht.detach().numpy())
        if t > 0:
            prev_h = out_man[t - 1]
        else:
            prev_h = torch.zeros((ht.shape))
        ot = ht + torch.matmul(prev_h, torch.transpose(w_hh, 0, 1)) + b_hh
        ot = torch.tanh(ot)
        out_man.append(ot)
        print('   Output (manual) :', ot.detach().numpy())
        print('   RNN output      :', output[:, t].detach().numpy())
        print()

    # ch15_part3.py
    text = "THE MYSTERIOUS ISLAND\n" + the_verdict() + "\nEnd of the Project Gutenberg EBook"
    start_indx = text.find('THE MYSTERIOUS ISLAND')
    end_indx = text.find('End of the Project Gutenberg')
    text = text[start_indx:end_indx]
    char_set = set(text)
    print('Total Length:', len(text))
    print('Unique Characters:', len(char_set))
    chars_sorted = sorted(char_set)
    char2int = {ch: i for i, ch in enumerate(chars_sorted)}
    char_array = np.array(chars_sorted)
    text_encoded = np.array([char2int[ch] for ch in text], dtype=np.int32)
    print('Text encoded shape: ', text_encoded.shape)
    print(text[:15], '     == Encoding ==> ', text_encoded[:15])
    print(text_encoded[15:21], ' == Reverse  ==> ', ''.join(char_array[text_encoded[15:21]]))
    for ex in text_encoded[:5]:
        print('{} -> {}'.format(ex, char_array[ex]))
    seq_length = 40
    chunk_size = seq_length + 1
    text_chunks = [text_encoded[i:i + chunk_size] for i in range(len(text_encoded) - chunk_size + 1)]
    ## inspection:
    for seq in text_chunks[:1]:
        input_seq = seq[:seq_length]
        target = seq[seq_length]
        print(input_seq, ' -> ', target)
        print(repr(''.join(char_array[input_seq])), ' -> ', repr(''.join(char_array[target])))

    class TextDataset(Dataset):
        def __init__(self, text_chunks):
            self.text_chunks = text_chunks

        def __len__(self):
            return len(self.text_chunks)

        def __getitem__(self, idx):
            text_chunk = self.text_chunks[idx]
            return text_chunk[:-1].long(), text_chunk[1:].long()

    seq_dataset = TextDataset(torch.tensor(np.array(text_chunks)))
    for i, (seq, target) in enumerate(seq_dataset):
        print(' Input (x):', repr(''.join(char_array[seq])))
        print('Target (y):', repr(''.join(char_array[target])))
        print()
        if i == 1:
            break
    # device = torch.device("cuda:0")
    device = 'cpu'
    batch_size = 64
    torch.manual_seed(1)
    seq_dl = DataLoader(seq_dataset, batch_size=batch_size, shuffle=True, drop_last=True)

    class RNN(nn.Module):
        def __init__(self, vocab_size, embed_dim, rnn_hidden_size):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embed_dim)
            self.rnn_hidden_size = rnn_hidden_size
            self.rnn = nn.LSTM(embed_dim, rnn_hidden_size, batch_first=True)
            self.fc = nn.Linear(rnn_hidden_size, vocab_size)

        def forward(self, x, hidden, cell):
            out = self.embedding(x).unsqueeze(1)
            out, (hidden, cell) = self.rnn(out, (hidden, cell))
            out = self.fc(out).reshape(out.size(0), -1)
            return out, hidden, cell

        def init_hidden(self, batch_size):
            hidden = torch.zeros(1, batch_size, self.rnn_hidden_size)
            cell = torch.zeros(1, batch_size, self.rnn_hidden_size)
            return hidden.to(device), cell.to(device)

    vocab_size = len(char_array)
    embed_dim = 32
    rnn_hidden_size = 64
    torch.manual_seed(1)
    model = RNN(vocab_size, embed_dim, rnn_hidden_size)
    model = model.to(device)
    print(model)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.005)
    num_epochs = 3
    torch.manual_seed(1)
    for epoch in range(num_epochs):
        hidden, cell = model.init_hidden(batch_size)
        seq_batch, target_batch = next(iter(seq_dl))
        seq_batch = seq_batch.to(device)
        target_batch = target_batch.to(device)
        optimizer.zero_grad()
        loss = 0
        for c in range(seq_length):
            pred, hidden, cell = model(seq_batch[:, c], hidden, cell)
            loss += loss_fn(pred, target_batch[:, c])
        loss.backward()
        optimizer.step()
        loss = loss.item() / seq_length
        if epoch % 1 == 0:  # (the book logs every 500th of its 10,000)
            print(f'Epoch {epoch} loss: {loss:.4f}')
    torch.manual_seed(1)
    logits = torch.tensor([[1.0, 1.0, 1.0]])
    print('Probabilities:', nn.functional.softmax(logits, dim=1).numpy()[0])
    m = Categorical(logits=logits)
    samples = m.sample((10,))
    print(samples.numpy())
    torch.manual_seed(1)
    logits = torch.tensor([[1.0, 1.0, 3.0]])
    print('Probabilities:', nn.functional.softmax(logits, dim=1).numpy()[0])
    m = Categorical(logits=logits)
    samples = m.sample((10,))
    print(samples.numpy())

    def sample(model, starting_str, len_generated_text=60, scale_factor=1.0):
        encoded_input = torch.tensor([char2int[s] for s in starting_str])
        encoded_input = torch.reshape(encoded_input, (1, -1))
        generated_str = starting_str
        model.eval()
        hidden, cell = model.init_hidden(1)
        hidden = hidden.to('cpu')
        cell = cell.to('cpu')
        for c in range(len(starting_str) - 1):
            _, hidden, cell = model(encoded_input[:, c].view(1), hidden, cell)
        last_char = encoded_input[:, -1]
        for i in range(len_generated_text):
            logits, hidden, cell = model(last_char.view(1), hidden, cell)
            logits = torch.squeeze(logits, 0)
            scaled_logits = logits * scale_factor
            m = Categorical(logits=scaled_logits)
            last_char = m.sample()
            generated_str += str(char_array[last_char])
        return generated_str

    torch.manual_seed(1)
    model.to('cpu')
    print(sample(model, starting_str='The island'.replace('island', 'glory')))
    logits = torch.tensor([[1.0, 1.0, 3.0]])
    print('Probabilities before scaling:        ', nn.functional.softmax(logits, dim=1).numpy()[0])
    print('Probabilities after scaling with 0.5:', nn.functional.softmax(0.5 * logits, dim=1).numpy()[0])
    print('Probabilities after scaling with 0.1:', nn.functional.softmax(0.1 * logits, dim=1).numpy()[0])
    torch.manual_seed(1)
    print(sample(model, starting_str='The glory', scale_factor=2.0))
    torch.manual_seed(1)
    print(sample(model, starting_str='The glory', scale_factor=0.5))
    return {"fc.weight": model.fc.weight,
            "rnn_layer.output": output}


class _Graph:
    """networkx's Graph as the chapter uses it (nodes with attributes, undirected edges,
    a dense adjacency matrix in the nodes' order): networkx's adjacency_matrix needs
    SciPy, which the kit does without."""
    def __init__(self):
        self.nodes, self.edges = {}, []

    def add_nodes_from(self, nodes):
        self.nodes.update((name, dict(attributes)) for name, attributes in nodes)

    def add_edges_from(self, edges):
        self.edges.extend(edges)


def _adjacency_matrix(G):
    order = {name: i for i, name in enumerate(G.nodes)}
    A = np.zeros((len(order), len(order)), dtype=np.int64)
    for u, v in G.edges:
        A[order[u], order[v]] = A[order[v], order[u]] = 1
    return SimpleNamespace(todense=lambda: A)


nx = SimpleNamespace(Graph=_Graph, adjacency_matrix=_adjacency_matrix,
                     get_node_attributes=lambda G, name: {n: a[name] for n, a in G.nodes.items()})


def ml_book_ch18_gnn(torch):
    """rasbt/machine-learning-book ch18/ch18_part1.py: a graph's adjacency matrix and
    one-hot colour features, a basic graph convolution in NumPy, NodeNetwork of
    BasicGraphConvolutionLayer (Parameter(torch.rand(...)), torch.mm of features,
    messages and adjacency, clamp(0)), global_sum_pool by a batch matrix, get_batch_tensor
    and collate_graphs (block-diagonal adjacency by slice assignment) in a DataLoader
    with collate_fn, and a graph's prediction alone and in its batch compared with
    isclose. networkx is a small stand-in (its adjacency_matrix needs SciPy); the
    drawing is left out, and the NumPy weights are seeded (np.random.seed(0))."""
    Parameter, F = torch.nn.Parameter, torch.nn.functional
    Dataset, DataLoader = torch.utils.data.Dataset, torch.utils.data.DataLoader
    np.random.seed(0)
    G = nx.Graph()
    # Hex codes for colors if we draw graph
    blue, orange, green = "#1f77b4", "#ff7f0e", "#2ca02c"
    G.add_nodes_from([(1, {"color": blue}),
                      (2, {"color": orange}),
                      (3, {"color": blue}),
                      (4, {"color": green})])
    G.add_edges_from([(1, 2), (2, 3), (1, 3), (3, 4)])
    A = np.asarray(nx.adjacency_matrix(G).todense())
    print(A)

    def build_graph_color_label_representation(G, mapping_dict):
        one_hot_idxs = np.array([mapping_dict[v] for v in nx.get_node_attributes(G, 'color').values()])
        one_hot_encoding = np.zeros((one_hot_idxs.size, len(mapping_dict)))
        one_hot_encoding[np.arange(one_hot_idxs.size), one_hot_idxs] = 1
        return one_hot_encoding

    X = build_graph_color_label_representation(G, {green: 0, blue: 1, orange: 2})
    print(X)
    f_in, f_out = X.shape[1], 6
    W_1 = np.random.rand(f_in, f_out)
    W_2 = np.random.rand(f_in, f_out)
    h = np.dot(X, W_1) + np.dot(np.dot(A, X), W_2)
    print(h)

    class NodeNetwork(torch.nn.Module):
        def __init__(self, input_features):
            super().__init__()
            self.conv_1 = BasicGraphConvolutionLayer(input_features, 32)
            self.conv_2 = BasicGraphConvolutionLayer(32, 32)
            self.fc_1 = torch.nn.Linear(32, 16)
            self.out_layer = torch.nn.Linear(16, 2)

        def forward(self, X, A, batch_mat):
            x = self.conv_1(X, A).clamp(0)
            x = self.conv_2(x, A).clamp(0)
            output = global_sum_pool(x, batch_mat)
            output = self.fc_1(output)
            output = self.out_layer(output)
            return F.softmax(output, dim=1)

    class BasicGraphConvolutionLayer(torch.nn.Module):
        def __init__(self, in_channels, out_channels):
            super().__init__()
            self.in_channels = in_channels
            self.out_channels = out_channels
            self.W2 = Parameter(torch.rand((in_channels, out_channels), dtype=torch.float32))
            self.W1 = Parameter(torch.rand((in_channels, out_channels), dtype=torch.float32))
            self.bias = Parameter(torch.zeros(out_channels, dtype=torch.float32))

        def forward(self, X, A):
            potential_msgs = torch.mm(X, self.W2)
            propagated_msgs = torch.mm(A, potential_msgs)
            root_update = torch.mm(X, self.W1)
            output = propagated_msgs + root_update + self.bias
            return output

    def global_sum_pool(X, batch_mat):
        if batch_mat is None or batch_mat.dim() == 1:
            return torch.sum(X, dim=0).unsqueeze(0)
        else:
            return torch.mm(batch_mat, X)

    def get_batch_tensor(graph_sizes):
        starts = [sum(graph_sizes[:idx]) for idx in range(len(graph_sizes))]
        stops = [starts[idx] + graph_sizes[idx] for idx in range(len(graph_sizes))]
        tot_len = sum(graph_sizes)
        batch_size = len(graph_sizes)
        batch_mat = torch.zeros([batch_size, tot_len]).float()
        for idx, starts_and_stops in enumerate(zip(starts, stops)):
            start = starts_and_stops[0]
            stop = starts_and_stops[1]
            batch_mat[idx, start:stop] = 1
        return batch_mat

    def collate_graphs(batch):
        adj_mats = [graph['A'] for graph in batch]
        sizes = [A.size(0) for A in adj_mats]
        tot_size = sum(sizes)
        # create batch matrix
        batch_mat = get_batch_tensor(sizes)
        # combine feature matrices
        feat_mats = torch.cat([graph['X'] for graph in batch], dim=0)
        # combine labels
        labels = torch.cat([graph['y'] for graph in batch], dim=0)
        # combine adjacency matrices
        batch_adj = torch.zeros([tot_size, tot_size], dtype=torch.float32)
        accum = 0
        for adj in adj_mats:
            g_size = adj.shape[0]
            batch_adj[accum:accum + g_size, accum:accum + g_size] = adj
            accum = accum + g_size
        repr_and_label = {'A': batch_adj, 'X': feat_mats, 'y': labels, 'batch': batch_mat}
        return repr_and_label

    def get_graph_dict(G, mapping_dict):
        # build dictionary representation of graph G
        A = torch.from_numpy(np.asarray(nx.adjacency_matrix(G).todense())).float()
        # build_graph_color_label_representation() was introduced with the first example graph
        X = torch.from_numpy(build_graph_color_label_representation(G, mapping_dict)).float()
        # kludge since there is not specific task for this example
        y = torch.tensor([[1, 0]]).float()
        return {'A': A, 'X': X, 'y': y, 'batch': None}

    # building 4 graphs to treat as a dataset
    blue, orange, green = "#1f77b4", "#ff7f0e", "#2ca02c"
    mapping_dict = {green: 0, blue: 1, orange: 2}
    G1 = nx.Graph()
    G1.add_nodes_from([(1, {"color": blue}), (2, {"color": orange}), (3, {"color": blue}),
                       (4, {"color": green})])
    G1.add_edges_from([(1, 2), (2, 3), (1, 3), (3, 4)])
    G2 = nx.Graph()
    G2.add_nodes_from([(1, {"color": green}), (2, {"color": green}), (3, {"color": orange}),
                       (4, {"color": orange}), (5, {"color": blue})])
    G2.add_edges_from([(2, 3), (3, 4), (3, 1), (5, 1)])
    G3 = nx.Graph()
    G3.add_nodes_from([(1, {"color": orange}), (2, {"color": orange}), (3, {"color": green}),
                       (4, {"color": green}), (5, {"color": blue}), (6, {"color": orange})])
    G3.add_edges_from([(2, 3), (3, 4), (3, 1), (5, 1), (2, 5), (6, 1)])
    G4 = nx.Graph()
    G4.add_nodes_from([(1, {"color": blue}), (2, {"color": blue}), (3, {"color": green})])
    G4.add_edges_from([(1, 2), (2, 3)])
    graph_list = [get_graph_dict(graph, mapping_dict) for graph in [G1, G2, G3, G4]]

    class ExampleDataset(Dataset):
        # Simple PyTorch dataset that will use our list of graphs
        def __init__(self, graph_list):
            self.graphs = graph_list

        def __len__(self):
            return len(self.graphs)

        def __getitem__(self, idx):
            mol_rep = self.graphs[idx]
            return mol_rep

    dset = ExampleDataset(graph_list)
    # Note how we use our custom collate function
    loader = DataLoader(dset, batch_size=2, shuffle=False, collate_fn=collate_graphs)
    torch.manual_seed(123)
    node_features = 3
    net = NodeNetwork(node_features)
    batch_results = []
    for b in loader:
        batch_results.append(net(b['X'], b['A'], b['batch']).detach())
    print(batch_results)
    G1_rep = dset[1]
    G1_single = net(G1_rep['X'], G1_rep['A'], G1_rep['batch']).detach()
    G1_batch = batch_results[0][1]
    print(repr(torch.all(torch.isclose(G1_single, G1_batch))))
    b = next(iter(loader))
    loss = ((net(b['X'], b['A'], b['batch']) - b['y']) ** 2).sum()  # (a loss to see gradients)
    loss.backward()
    return {"conv_1.W2.grad": net.conv_1.W2.grad, "batch_adj": b['A'], "out_layer.weight.grad": net.out_layer.weight.grad}


def ml_book_ch17_gan(torch):
    """rasbt/machine-learning-book ch17/ch17_part1.py: the generator and discriminator
    built by add_module in loops (LeakyReLU, Dropout, Tanh, Sigmoid), MNIST normalized to
    [-1, 1], create_noise (uniform or normal), the step-by-step data flow and BCELoss of
    both networks, then d_train/g_train with two Adams, fixed_z samples per epoch and the
    epoch log; the MMD score's distance() calls .cuda(), which on a CPU build raises
    PyTorch's AssertionError (printed). MNIST is 128 seeded random images, 2 of the 100
    epochs; the plots are left out."""
    nn, DataLoader = torch.nn, torch.utils.data.DataLoader
    print("GPU Available:", torch.cuda.is_available())
    if torch.cuda.is_available():
        device = torch.device("cuda:0")
    else:
        device = "cpu"

    ## define a function for the generator:
    def make_generator_network(input_size=20, num_hidden_layers=1, num_hidden_units=100,
                               num_output_units=784):
        model = nn.Sequential()
        for i in range(num_hidden_layers):
            model.add_module(f'fc_g{i}', nn.Linear(input_size, num_hidden_units))
            model.add_module(f'relu_g{i}', nn.LeakyReLU())
            input_size = num_hidden_units
        model.add_module(f'fc_g{num_hidden_layers}', nn.Linear(input_size, num_output_units))
        model.add_module('tanh_g', nn.Tanh())
        return model

    ## define a function for the discriminator:
    def make_discriminator_network(input_size, num_hidden_layers=1, num_hidden_units=100,
                                   num_output_units=1):
        model = nn.Sequential()
        for i in range(num_hidden_layers):
            model.add_module(f'fc_d{i}', nn.Linear(input_size, num_hidden_units, bias=False))
            model.add_module(f'relu_d{i}', nn.LeakyReLU())
            model.add_module('dropout', nn.Dropout(p=0.5))
            input_size = num_hidden_units
        model.add_module(f'fc_d{num_hidden_layers}', nn.Linear(input_size, num_output_units))
        model.add_module('sigmoid', nn.Sigmoid())
        return model

    image_size = (28, 28)
    z_size = 20
    gen_hidden_layers = 1
    gen_hidden_size = 100
    disc_hidden_layers = 1
    disc_hidden_size = 100
    torch.manual_seed(1)
    gen_model = make_generator_network(input_size=z_size, num_hidden_layers=gen_hidden_layers,
                                       num_hidden_units=gen_hidden_size,
                                       num_output_units=np.prod(image_size))
    print(gen_model)
    disc_model = make_discriminator_network(input_size=np.prod(image_size),
                                            num_hidden_layers=disc_hidden_layers,
                                            num_hidden_units=disc_hidden_size)
    print(disc_model)
    images = image_dataset(torch, 128, seed=31)

    class MNIST(torch.utils.data.Dataset):  # (ToTensor, Normalize(mean=0.5, std=0.5))
        def __len__(self):
            return len(images)

        def __getitem__(self, i):
            image, label = images[i]
            return (image - 0.5) / 0.5, label

    mnist_dataset = MNIST()
    example, label = next(iter(mnist_dataset))
    print(f'Min: {example.min()} Max: {example.max()}')
    print(example.shape)

    def create_noise(batch_size, z_size, mode_z):
        if mode_z == 'uniform':
            input_z = torch.rand(batch_size, z_size) * 2 - 1
        elif mode_z == 'normal':
            input_z = torch.randn(batch_size, z_size)
        return input_z

    batch_size = 32
    dataloader = DataLoader(mnist_dataset, batch_size, shuffle=False)
    input_real, label = next(iter(dataloader))
    input_real = input_real.view(batch_size, -1)
    torch.manual_seed(1)
    mode_z = 'uniform'  # 'uniform' vs. 'normal'
    input_z = create_noise(batch_size, z_size, mode_z)
    print('input-z -- shape:', input_z.shape)
    print('input-real -- shape:', input_real.shape)
    g_output = gen_model(input_z)
    print('Output of G -- shape:', g_output.shape)
    d_proba_real = disc_model(input_real)
    d_proba_fake = disc_model(g_output)
    print('Disc. (real) -- shape:', d_proba_real.shape)
    print('Disc. (fake) -- shape:', d_proba_fake.shape)
    loss_fn = nn.BCELoss()
    ## Loss for the Generator
    g_labels_real = torch.ones_like(d_proba_fake)
    g_loss = loss_fn(d_proba_fake, g_labels_real)
    print(f'Generator Loss: {g_loss:.4f}')
    ## Loss for the Discriminator
    d_labels_real = torch.ones_like(d_proba_real)
    d_labels_fake = torch.zeros_like(d_proba_fake)
    d_loss_real = loss_fn(d_proba_real, d_labels_real)
    d_loss_fake = loss_fn(d_proba_fake, d_labels_fake)
    print(f'Discriminator Losses: Real {d_loss_real:.4f} Fake {d_loss_fake:.4f}')
    batch_size = 64
    torch.manual_seed(1)
    np.random.seed(1)
    ## Set up the dataset
    mnist_dl = DataLoader(mnist_dataset, batch_size=batch_size, shuffle=True, drop_last=True)
    ## Set up the models
    gen_model = make_generator_network(input_size=z_size, num_hidden_layers=gen_hidden_layers,
                                       num_hidden_units=gen_hidden_size,
                                       num_output_units=np.prod(image_size)).to(device)
    disc_model = make_discriminator_network(input_size=np.prod(image_size),
                                            num_hidden_layers=disc_hidden_layers,
                                            num_hidden_units=disc_hidden_size).to(device)
    ## Loss function and optimizers:
    loss_fn = nn.BCELoss()
    g_optimizer = torch.optim.Adam(gen_model.parameters())
    d_optimizer = torch.optim.Adam(disc_model.parameters())

    ## Train the discriminator
    def d_train(x):
        disc_model.zero_grad()
        # Train discriminator with a real batch
        batch_size = x.size(0)
        x = x.view(batch_size, -1).to(device)
        d_labels_real = torch.ones(batch_size, 1, device=device)
        d_proba_real = disc_model(x)
        d_loss_real = loss_fn(d_proba_real, d_labels_real)
        # Train discriminator on a fake batch
        input_z = create_noise(batch_size, z_size, mode_z).to(device)
        g_output = gen_model(input_z)
        d_proba_fake = disc_model(g_output)
        d_labels_fake = torch.zeros(batch_size, 1, device=device)
        d_loss_fake = loss_fn(d_proba_fake, d_labels_fake)
        # gradient backprop & optimize ONLY D's parameters
        d_loss = d_loss_real + d_loss_fake
        d_loss.backward()
        d_optimizer.step()
        return d_loss.data.item(), d_proba_real.detach(), d_proba_fake.detach()

    ## Train the generator
    def g_train(x):
        gen_model.zero_grad()
        batch_size = x.size(0)
        input_z = create_noise(batch_size, z_size, mode_z).to(device)
        g_labels_real = torch.ones(batch_size, 1, device=device)
        g_output = gen_model(input_z)
        d_proba_fake = disc_model(g_output)
        g_loss = loss_fn(d_proba_fake, g_labels_real)
        # gradient backprop & optimize ONLY G's parameters
        g_loss.backward()
        g_optimizer.step()
        return g_loss.data.item()

    fixed_z = create_noise(batch_size, z_size, mode_z).to(device)

    def create_samples(g_model, input_z):
        g_output = g_model(input_z)
        images = torch.reshape(g_output, (batch_size, *image_size))
        return (images + 1) / 2.0

    epoch_samples = []
    all_d_losses = []
    all_g_losses = []
    all_d_real = []
    all_d_fake = []
    num_epochs = 2
    torch.manual_seed(1)
    for epoch in range(1, num_epochs + 1):
        d_losses, g_losses = [], []
        d_vals_real, d_vals_fake = [], []
        for i, (x, _) in enumerate(mnist_dl):
            d_loss, d_proba_real, d_proba_fake = d_train(x)
            d_losses.append(d_loss)
            g_losses.append(g_train(x))
            d_vals_real.append(d_proba_real.mean().cpu())
            d_vals_fake.append(d_proba_fake.mean().cpu())
        all_d_losses.append(torch.tensor(d_losses).mean())
        all_g_losses.append(torch.tensor(g_losses).mean())
        all_d_real.append(torch.tensor(d_vals_real).mean())
        all_d_fake.append(torch.tensor(d_vals_fake).mean())
        print(f'Epoch {epoch:03d} | Avg Losses >>'
              f' G/D {all_g_losses[-1]:.4f}/{all_d_losses[-1]:.4f}'
              f' [D-Real: {all_d_real[-1]:.4f} D-Fake: {all_d_fake[-1]:.4f}]')
        epoch_samples.append(create_samples(gen_model, fixed_z).detach().cpu().numpy())
    print(epoch_samples[-1][0, 14, :6])  # (the figures)

    def distance(X, Y, sqrt):
        nX = X.size(0)
        nY = Y.size(0)
        X = X.view(nX, -1).cuda()
        X2 = (X * X).sum(1).resize_(nX, 1)
        Y = Y.view(nY, -1).cuda()
        Y2 = (Y * Y).sum(1).resize_(nY, 1)
        M = torch.zeros(nX, nY)
        M.copy_(X2.expand(nX, nY) + Y2.expand(nY, nX).transpose(0, 1) - 2 * torch.mm(X, Y.transpose(0, 1)))
        del X, X2, Y, Y2
        if sqrt:
            M = ((M + M.abs()) / 2).sqrt()
        return M

    def mmd(Mxx, Mxy, Myy, sigma):
        scale = Mxx.mean()
        Mxx = torch.exp(-Mxx / (scale * 2 * sigma * sigma))
        Mxy = torch.exp(-Mxy / (scale * 2 * sigma * sigma))
        Myy = torch.exp(-Myy / (scale * 2 * sigma * sigma))
        a = Mxx.mean() + Myy.mean() - 2 * Mxy.mean()
        mmd = math.sqrt(max(a, 0))
        return mmd

    def compute_score(fake, real, k=1, sigma=1, sqrt=True):
        Mxx = distance(real, real, False)
        Mxy = distance(real, fake, False)
        Myy = distance(fake, fake, False)
        print(mmd(Mxx, Mxy, Myy, sigma))

    whole_dl = DataLoader(mnist_dataset, batch_size=100, shuffle=True, drop_last=True)
    real_image = next(iter(whole_dl))[0]
    try:
        compute_score(torch.from_numpy(epoch_samples[-1]), real_image)
    except AssertionError as e:
        print(type(e).__name__, e)
    return {"gen.fc_g1.weight": gen_model.fc_g1.weight, "disc.fc_d1.bias": disc_model.fc_d1.bias}


# ---- rasbt/LLMs-from-scratch ch06-ch07 ----------------------------------------------------

class StandInGPT2Tokenizer(StandInTokenizer):
    """The stand-in word tokenizer with tiktoken's gpt2 numbering where the chapters rely
    on it: 50,257 ids, <|endoftext|> is 50256 (the padding token), and an id outside the
    words decodes to a placeholder, as any id decodes in tiktoken."""
    def __init__(self):
        super().__init__()
        self.str_to_int["<|endoftext|>"] = 50256
        self.int_to_str = {i: s for s, i in self.str_to_int.items()}
        self.n_vocab = 50257

    def decode(self, ids):
        words = (self.int_to_str.get(i, f"<{i}>") for i in ids)
        return re.sub(r'\s+([,.:;?!"()\'])', r'\1', " ".join(words))


def llms_previous_chapters(torch):
    """The chapters' previous_chapters.py (rasbt/LLMs-from-scratch
    ch07/01_main-chapter-code/previous_chapters.py): GPTModel and its parts,
    generate_text_simple, generate, the token/text helpers, the loss functions and
    train_model_simple, written as there."""
    nn = torch.nn

    class MultiHeadAttention(nn.Module):
        def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
            super().__init__()
            assert d_out % num_heads == 0, "d_out must be divisible by n_heads"
            self.d_out = d_out
            self.num_heads = num_heads
            self.head_dim = d_out // num_heads  # Reduce the projection dim to match desired output dim
            self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
            self.out_proj = nn.Linear(d_out, d_out)  # Linear layer to combine head outputs
            self.dropout = nn.Dropout(dropout)
            self.register_buffer('mask', torch.triu(torch.ones(context_length, context_length), diagonal=1))

        def forward(self, x):
            b, num_tokens, d_in = x.shape
            keys = self.W_key(x)  # Shape: (b, num_tokens, d_out)
            queries = self.W_query(x)
            values = self.W_value(x)
            keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)
            values = values.view(b, num_tokens, self.num_heads, self.head_dim)
            queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)
            keys = keys.transpose(1, 2)
            queries = queries.transpose(1, 2)
            values = values.transpose(1, 2)
            attn_scores = queries @ keys.transpose(2, 3)  # Dot product for each head
            mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
            attn_scores.masked_fill_(mask_bool, -torch.inf)
            attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
            attn_weights = self.dropout(attn_weights)
            context_vec = (attn_weights @ values).transpose(1, 2)
            context_vec = context_vec.reshape(b, num_tokens, self.d_out)
            context_vec = self.out_proj(context_vec)  # optional projection
            return context_vec

    class LayerNorm(nn.Module):
        def __init__(self, emb_dim):
            super().__init__()
            self.eps = 1e-5
            self.scale = nn.Parameter(torch.ones(emb_dim))
            self.shift = nn.Parameter(torch.zeros(emb_dim))

        def forward(self, x):
            mean = x.mean(dim=-1, keepdim=True)
            var = x.var(dim=-1, keepdim=True, unbiased=False)
            norm_x = (x - mean) / torch.sqrt(var + self.eps)
            return self.scale * norm_x + self.shift

    class GELU(nn.Module):
        def __init__(self):
            super().__init__()

        def forward(self, x):
            return 0.5 * x * (1 + torch.tanh(
                torch.sqrt(torch.tensor(2.0 / torch.pi)) *
                (x + 0.044715 * torch.pow(x, 3))
            ))

    class FeedForward(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.layers = nn.Sequential(
                nn.Linear(cfg["emb_dim"], 4 * cfg["emb_dim"]),
                GELU(),
                nn.Linear(4 * cfg["emb_dim"], cfg["emb_dim"]),
            )

        def forward(self, x):
            return self.layers(x)

    class TransformerBlock(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.att = MultiHeadAttention(
                d_in=cfg["emb_dim"], d_out=cfg["emb_dim"], context_length=cfg["context_length"],
                num_heads=cfg["n_heads"], dropout=cfg["drop_rate"], qkv_bias=cfg["qkv_bias"])
            self.ff = FeedForward(cfg)
            self.norm1 = LayerNorm(cfg["emb_dim"])
            self.norm2 = LayerNorm(cfg["emb_dim"])
            self.drop_resid = nn.Dropout(cfg["drop_rate"])

        def forward(self, x):
            # Shortcut connection for attention block
            shortcut = x
            x = self.norm1(x)
            x = self.att(x)  # Shape [batch_size, num_tokens, emb_size]
            x = self.drop_resid(x)
            x = x + shortcut  # Add the original input back
            # Shortcut connection for feed-forward block
            shortcut = x
            x = self.norm2(x)
            x = self.ff(x)
            x = self.drop_resid(x)
            x = x + shortcut  # Add the original input back
            return x

    class GPTModel(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"])
            self.pos_emb = nn.Embedding(cfg["context_length"], cfg["emb_dim"])
            self.drop_emb = nn.Dropout(cfg["drop_rate"])
            self.trf_blocks = nn.Sequential(*[TransformerBlock(cfg) for _ in range(cfg["n_layers"])])
            self.final_norm = LayerNorm(cfg["emb_dim"])
            self.out_head = nn.Linear(cfg["emb_dim"], cfg["vocab_size"], bias=False)

        def forward(self, in_idx):
            batch_size, seq_len = in_idx.shape
            tok_embeds = self.tok_emb(in_idx)
            pos_embeds = self.pos_emb(torch.arange(seq_len, device=in_idx.device))
            x = tok_embeds + pos_embeds  # Shape [batch_size, num_tokens, emb_size]
            x = self.drop_emb(x)
            x = self.trf_blocks(x)
            x = self.final_norm(x)
            logits = self.out_head(x)
            return logits

    def generate_text_simple(model, idx, max_new_tokens, context_size):
        for _ in range(max_new_tokens):
            idx_cond = idx[:, -context_size:]
            with torch.no_grad():
                logits = model(idx_cond)
            logits = logits[:, -1, :]
            idx_next = torch.argmax(logits, dim=-1, keepdim=True)  # (batch, 1)
            idx = torch.cat((idx, idx_next), dim=1)  # (batch, n_tokens+1)
        return idx

    def generate(model, idx, max_new_tokens, context_size, temperature=0.0, top_k=None, eos_id=None):
        for _ in range(max_new_tokens):
            idx_cond = idx[:, -context_size:]
            with torch.no_grad():
                logits = model(idx_cond)
            logits = logits[:, -1, :]
            if top_k is not None:
                top_logits, _ = torch.topk(logits, top_k)
                min_val = top_logits[:, -1]
                logits = torch.where(logits < min_val, torch.tensor(float('-inf')).to(logits.device), logits)
            if temperature > 0.0:
                logits = logits / temperature
                probs = torch.softmax(logits, dim=-1)  # (batch_size, context_len)
                idx_next = torch.multinomial(probs, num_samples=1)  # (batch_size, 1)
            else:
                idx_next = torch.argmax(logits, dim=-1, keepdim=True)  # (batch_size, 1)
            if idx_next == eos_id:  # Stop generating early if end-of-sequence token is encountered and eos_id is specified
                break
            idx = torch.cat((idx, idx_next), dim=1)  # (batch_size, num_tokens+1)
        return idx

    def text_to_token_ids(text, tokenizer):
        encoded = tokenizer.encode(text, allowed_special={"<|endoftext|>"})
        encoded_tensor = torch.tensor(encoded).unsqueeze(0)  # add batch dimension
        return encoded_tensor

    def token_ids_to_text(token_ids, tokenizer):
        flat = token_ids.squeeze(0)  # remove batch dimension
        return tokenizer.decode(flat.tolist())

    def calc_loss_batch(input_batch, target_batch, model, device):
        input_batch, target_batch = input_batch.to(device), target_batch.to(device)
        logits = model(input_batch)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), target_batch.flatten())
        return loss

    def calc_loss_loader(data_loader, model, device, num_batches=None):
        total_loss = 0.
        if len(data_loader) == 0:
            return float("nan")
        elif num_batches is None:
            num_batches = len(data_loader)
        else:
            num_batches = min(num_batches, len(data_loader))
        for i, (input_batch, target_batch) in enumerate(data_loader):
            if i < num_batches:
                loss = calc_loss_batch(input_batch, target_batch, model, device)
                total_loss += loss.item()
            else:
                break
        return total_loss / num_batches

    def evaluate_model(model, train_loader, val_loader, device, eval_iter):
        model.eval()
        with torch.no_grad():
            train_loss = calc_loss_loader(train_loader, model, device, num_batches=eval_iter)
            val_loss = calc_loss_loader(val_loader, model, device, num_batches=eval_iter)
        model.train()
        return train_loss, val_loss

    def generate_and_print_sample(model, tokenizer, device, start_context):
        model.eval()
        context_size = model.pos_emb.weight.shape[0]
        encoded = text_to_token_ids(start_context, tokenizer).to(device)
        with torch.no_grad():
            token_ids = generate_text_simple(model=model, idx=encoded, max_new_tokens=8,
                                             context_size=context_size)  # (50 there)
        decoded_text = token_ids_to_text(token_ids, tokenizer)
        print(decoded_text.replace("\n", " "))  # Compact print format
        model.train()

    def train_model_simple(model, train_loader, val_loader, optimizer, device, num_epochs,
                           eval_freq, eval_iter, start_context, tokenizer):
        train_losses, val_losses, track_tokens_seen = [], [], []
        tokens_seen, global_step = 0, -1
        for epoch in range(num_epochs):
            model.train()  # Set model to training mode
            for input_batch, target_batch in train_loader:
                optimizer.zero_grad()  # Reset loss gradients from previous batch iteration
                loss = calc_loss_batch(input_batch, target_batch, model, device)
                loss.backward()  # Calculate loss gradients
                optimizer.step()  # Update model weights using loss gradients
                tokens_seen += input_batch.numel()
                global_step += 1
                if global_step % eval_freq == 0:
                    train_loss, val_loss = evaluate_model(model, train_loader, val_loader, device, eval_iter)
                    train_losses.append(train_loss)
                    val_losses.append(val_loss)
                    track_tokens_seen.append(tokens_seen)
                    print(f"Ep {epoch+1} (Step {global_step:06d}): "
                          f"Train loss {train_loss:.3f}, Val loss {val_loss:.3f}")
            generate_and_print_sample(model, tokenizer, device, start_context)
        return train_losses, val_losses, track_tokens_seen

    return SimpleNamespace(**{name: value for name, value in locals().items() if name not in ("torch", "nn")})


def spam_messages():
    """The SMS Spam Collection offline: made-up ham and spam messages, labels 0 and 1."""
    r = random.Random(5)
    ham = "are we still on for lunch today ? I will call you later . see you at home".split()
    spam = "WINNER ! you have won a free prize , call now to claim your cash reward".split()
    rows = []
    for i in range(40):
        words, label = (spam, 1) if i % 2 else (ham, 0)
        rows.append({"Label": label, "Text": " ".join(r.choice(words) for _ in range(r.randint(4, 12)))})
    return rows


class _Frame:
    """pandas' DataFrame as SpamDataset reads it (a column by name, iloc rows, len)."""
    def __init__(self, rows):
        self.rows = rows
        self.iloc = rows

    def __getitem__(self, column):
        return [row[column] for row in self.rows]

    def __len__(self):
        return len(self.rows)


def _read_csv(path):
    with open(path, newline="") as f:
        return _Frame([{"Label": int(row["Label"]), "Text": row["Text"]} for row in csv.DictReader(f)])


pd = SimpleNamespace(read_csv=_read_csv)


def llms_ch06_classification(torch):
    """rasbt/LLMs-from-scratch ch06/01_main-chapter-code/gpt_class_finetune.py with its
    test_mode's small GPT (emb_dim 12, 1 layer, 2 heads, context 120, vocab 50257):
    SpamDataset padding to the longest message with 50256, DataLoaders, every parameter
    frozen, a new two-class out_head, the last block and final norm unfrozen, the logits
    of the last token, calc_accuracy_loader, calc_loss_loader and train_classifier_simple
    with AdamW, 2 of the 5 epochs. The SMS Spam Collection is 40 made-up messages
    written to train/validation/test CSV files (pandas' read_csv is a small stand-in),
    tiktoken the stand-in word tokenizer with gpt2's numbering; the plots are left out."""
    Dataset, DataLoader = torch.utils.data.Dataset, torch.utils.data.DataLoader
    chapters = llms_previous_chapters(torch)
    GPTModel = chapters.GPTModel

    class SpamDataset(Dataset):
        def __init__(self, csv_file, tokenizer, max_length=None, pad_token_id=50256):
            self.data = pd.read_csv(csv_file)
            # Pre-tokenize texts
            self.encoded_texts = [tokenizer.encode(text) for text in self.data["Text"]]
            if max_length is None:
                self.max_length = self._longest_encoded_length()
            else:
                self.max_length = max_length
                # Truncate sequences if they are longer than max_length
                self.encoded_texts = [encoded_text[:self.max_length] for encoded_text in self.encoded_texts]
            # Pad sequences to the longest sequence
            self.encoded_texts = [encoded_text + [pad_token_id] * (self.max_length - len(encoded_text))
                                  for encoded_text in self.encoded_texts]

        def __getitem__(self, index):
            encoded = self.encoded_texts[index]
            label = self.data.iloc[index]["Label"]
            return (torch.tensor(encoded, dtype=torch.long), torch.tensor(label, dtype=torch.long))

        def __len__(self):
            return len(self.data)

        def _longest_encoded_length(self):
            max_length = 0
            for encoded_text in self.encoded_texts:
                encoded_length = len(encoded_text)
                if encoded_length > max_length:
                    max_length = encoded_length
            return max_length

    def calc_accuracy_loader(data_loader, model, device, num_batches=None):
        model.eval()
        correct_predictions, num_examples = 0, 0
        if num_batches is None:
            num_batches = len(data_loader)
        else:
            num_batches = min(num_batches, len(data_loader))
        for i, (input_batch, target_batch) in enumerate(data_loader):
            if i < num_batches:
                input_batch, target_batch = input_batch.to(device), target_batch.to(device)
                with torch.no_grad():
                    logits = model(input_batch)[:, -1, :]  # Logits of last output token
                predicted_labels = torch.argmax(logits, dim=-1)
                num_examples += predicted_labels.shape[0]
                correct_predictions += (predicted_labels == target_batch).sum().item()
            else:
                break
        return correct_predictions / num_examples

    def calc_loss_batch(input_batch, target_batch, model, device):
        input_batch, target_batch = input_batch.to(device), target_batch.to(device)
        logits = model(input_batch)[:, -1, :]  # Logits of last output token
        loss = torch.nn.functional.cross_entropy(logits, target_batch)
        return loss

    def calc_loss_loader(data_loader, model, device, num_batches=None):
        total_loss = 0.
        if len(data_loader) == 0:
            return float("nan")
        elif num_batches is None:
            num_batches = len(data_loader)
        else:
            num_batches = min(num_batches, len(data_loader))
        for i, (input_batch, target_batch) in enumerate(data_loader):
            if i < num_batches:
                loss = calc_loss_batch(input_batch, target_batch, model, device)
                total_loss += loss.item()
            else:
                break
        return total_loss / num_batches

    def evaluate_model(model, train_loader, val_loader, device, eval_iter):
        model.eval()
        with torch.no_grad():
            train_loss = calc_loss_loader(train_loader, model, device, num_batches=eval_iter)
            val_loss = calc_loss_loader(val_loader, model, device, num_batches=eval_iter)
        model.train()
        return train_loss, val_loss

    def train_classifier_simple(model, train_loader, val_loader, optimizer, device, num_epochs,
                                eval_freq, eval_iter, tokenizer):
        train_losses, val_losses, train_accs, val_accs = [], [], [], []
        examples_seen, global_step = 0, -1
        for epoch in range(num_epochs):
            model.train()  # Set model to training mode
            for input_batch, target_batch in train_loader:
                optimizer.zero_grad()  # Reset loss gradients from previous batch iteration
                loss = calc_loss_batch(input_batch, target_batch, model, device)
                loss.backward()  # Calculate loss gradients
                optimizer.step()  # Update model weights using loss gradients
                examples_seen += input_batch.shape[0]  # New: track examples instead of tokens
                global_step += 1
                if global_step % eval_freq == 0:
                    train_loss, val_loss = evaluate_model(model, train_loader, val_loader, device, eval_iter)
                    train_losses.append(train_loss)
                    val_losses.append(val_loss)
                    print(f"Ep {epoch+1} (Step {global_step:06d}): "
                          f"Train loss {train_loss:.3f}, Val loss {val_loss:.3f}")
            train_accuracy = calc_accuracy_loader(train_loader, model, device, num_batches=eval_iter)
            val_accuracy = calc_accuracy_loader(val_loader, model, device, num_batches=eval_iter)
            print(f"Training accuracy: {train_accuracy*100:.2f}% | ", end="")
            print(f"Validation accuracy: {val_accuracy*100:.2f}%")
            train_accs.append(train_accuracy)
            val_accs.append(val_accuracy)
        return train_losses, val_losses, train_accs, val_accs, examples_seen

    with in_temporary_directory():
        rows = spam_messages()  # (downloaded, balanced and split with pandas there)
        for name, part in [("train.csv", rows[:28]), ("validation.csv", rows[28:32]), ("test.csv", rows[32:])]:
            with open(name, "w", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=["Label", "Text"])
                writer.writeheader()
                writer.writerows(part)
        tokenizer = StandInGPT2Tokenizer()
        train_dataset = SpamDataset(csv_file="train.csv", max_length=None, tokenizer=tokenizer)
        val_dataset = SpamDataset(csv_file="validation.csv", max_length=train_dataset.max_length, tokenizer=tokenizer)
        test_dataset = SpamDataset(csv_file="test.csv", max_length=train_dataset.max_length, tokenizer=tokenizer)
    print(train_dataset.max_length, len(train_dataset), len(val_dataset), len(test_dataset))
    num_workers = 0
    batch_size = 8
    torch.manual_seed(123)
    train_loader = DataLoader(dataset=train_dataset, batch_size=batch_size, shuffle=True,
                              num_workers=num_workers, drop_last=True)
    val_loader = DataLoader(dataset=val_dataset, batch_size=batch_size, num_workers=num_workers, drop_last=False)
    test_loader = DataLoader(dataset=test_dataset, batch_size=batch_size, num_workers=num_workers, drop_last=False)
    # Small GPT model for testing purposes
    BASE_CONFIG = {"vocab_size": 50257, "context_length": 120, "drop_rate": 0.0, "qkv_bias": False,
                   "emb_dim": 12, "n_layers": 1, "n_heads": 2}
    model = GPTModel(BASE_CONFIG)
    model.eval()
    device = "cpu"
    for param in model.parameters():
        param.requires_grad = False
    torch.manual_seed(123)
    num_classes = 2
    model.out_head = torch.nn.Linear(in_features=BASE_CONFIG["emb_dim"], out_features=num_classes)
    model.to(device)
    for param in model.trf_blocks[-1].parameters():
        param.requires_grad = True
    for param in model.final_norm.parameters():
        param.requires_grad = True
    print(sum(p.numel() for p in model.parameters() if p.requires_grad))
    torch.manual_seed(123)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5, weight_decay=0.1)
    num_epochs = 2
    train_losses, val_losses, train_accs, val_accs, examples_seen = train_classifier_simple(
        model, train_loader, val_loader, optimizer, device,
        num_epochs=num_epochs, eval_freq=2, eval_iter=5, tokenizer=tokenizer)
    epochs_tensor = torch.linspace(0, num_epochs, len(train_losses))
    examples_seen_tensor = torch.linspace(0, examples_seen, len(train_losses))
    print(epochs_tensor, examples_seen_tensor)  # (plot_values)
    print(f"Test accuracy: {calc_accuracy_loader(test_loader, model, device) * 100:.2f}%")
    return {"out_head.weight": model.out_head.weight, "final_norm.scale": model.final_norm.scale,
            "tok_emb.weight[:3]": model.tok_emb.weight[:3]}


def instruction_data():
    """instruction-data.json offline: made-up entries with instruction, input and output."""
    entries = [("Rewrite the sentence in passive voice.", "The cat sat on the mat.", "The mat was sat on by the cat."),
               ("What is the capital of France?", "", "The capital of France is Paris."),
               ("Convert the number to words.", "12", "Twelve."),
               ("Give a synonym for happy.", "", "Glad."),
               ("Correct the spelling.", "Recieve", "Receive."),
               ("Name a primary color.", "", "Red.")]
    return [{"instruction": i, "input": x, "output": o} for k in range(4) for i, x, o in entries][:20]


def llms_ch07_instruction_finetuning(torch):
    """rasbt/LLMs-from-scratch ch07/01_main-chapter-code/gpt_instruction_finetuning.py
    with its test_mode's small GPT: format_input's Alpaca prompt, InstructionDataset,
    custom_collate_fn (an <|endoftext|> appended, padding with 50256, all but the first
    padding target replaced by -100 through nonzero and index assignment,
    allowed_max_length) bound with functools.partial as the loaders' collate_fn, the
    initial losses (cross_entropy ignoring -100), train_model_simple with AdamW, and
    responses generated with eos_id=50256, saved as JSON with the model's state_dict.
    instruction-data.json is 20 made-up entries; the sample generation gives 8 tokens of
    50, each response 6 of 256, for 2 test entries; the plot is left out."""
    Dataset, DataLoader = torch.utils.data.Dataset, torch.utils.data.DataLoader
    chapters = llms_previous_chapters(torch)
    calc_loss_loader, generate, GPTModel = chapters.calc_loss_loader, chapters.generate, chapters.GPTModel
    text_to_token_ids, token_ids_to_text = chapters.text_to_token_ids, chapters.token_ids_to_text
    train_model_simple = chapters.train_model_simple

    class InstructionDataset(Dataset):
        def __init__(self, data, tokenizer):
            self.data = data
            # Pre-tokenize texts
            self.encoded_texts = []
            for entry in data:
                instruction_plus_input = format_input(entry)
                response_text = f"\n\n### Response:\n{entry['output']}"
                full_text = instruction_plus_input + response_text
                self.encoded_texts.append(tokenizer.encode(full_text))

        def __getitem__(self, index):
            return self.encoded_texts[index]

        def __len__(self):
            return len(self.data)

    def custom_collate_fn(batch, pad_token_id=50256, ignore_index=-100, allowed_max_length=None, device="cpu"):
        # Find the longest sequence in the batch
        batch_max_length = max(len(item) + 1 for item in batch)
        # Pad and prepare inputs and targets
        inputs_lst, targets_lst = [], []
        for item in batch:
            new_item = item.copy()
            # Add an <|endoftext|> token
            new_item += [pad_token_id]
            # Pad sequences to max_length
            padded = new_item + [pad_token_id] * (batch_max_length - len(new_item))
            inputs = torch.tensor(padded[:-1])  # Truncate the last token for inputs
            targets = torch.tensor(padded[1:])  # Shift +1 to the right for targets
            # New: Replace all but the first padding tokens in targets by ignore_index
            mask = targets == pad_token_id
            indices = torch.nonzero(mask).squeeze()
            if indices.numel() > 1:
                targets[indices[1:]] = ignore_index
            # New: Optionally truncate to maximum sequence length
            if allowed_max_length is not None:
                inputs = inputs[:allowed_max_length]
                targets = targets[:allowed_max_length]
            inputs_lst.append(inputs)
            targets_lst.append(targets)
        # Convert list of inputs and targets to tensors and transfer to target device
        inputs_tensor = torch.stack(inputs_lst).to(device)
        targets_tensor = torch.stack(targets_lst).to(device)
        return inputs_tensor, targets_tensor

    def format_input(entry):
        instruction_text = (
            f"Below is an instruction that describes a task. "
            f"Write a response that appropriately completes the request."
            f"\n\n### Instruction:\n{entry['instruction']}"
        )
        input_text = f"\n\n### Input:\n{entry['input']}" if entry["input"] else ""
        return instruction_text + input_text

    data = instruction_data()  # (download_and_load_file)
    train_portion = int(len(data) * 0.85)  # 85% for training
    test_portion = int(len(data) * 0.1)  # 10% for testing
    train_data = data[:train_portion]
    test_data = data[train_portion:train_portion + test_portion]
    val_data = data[train_portion + test_portion:]
    # Use very small subset for testing purposes
    train_data = train_data[:10]
    val_data = val_data[:10]
    test_data = test_data[:10]
    print("Training set length:", len(train_data))
    print("Validation set length:", len(val_data))
    print("Test set length:", len(test_data))
    print(50 * "-")
    tokenizer = StandInGPT2Tokenizer()
    if torch.cuda.is_available():
        device = torch.device("cuda")
    elif torch.backends.mps.is_available():
        device = torch.device("mps")
    else:
        device = torch.device("cpu")
    print("Device:", device)
    print(50 * "-")
    inputs_1, inputs_2, inputs_3 = [0, 1, 2, 3, 4], [5, 6], [7, 8, 9]
    batch = (inputs_1, inputs_2, inputs_3)
    print(custom_collate_fn(batch))  # (the chapter's example)
    print(custom_collate_fn(batch, allowed_max_length=3))
    customized_collate_fn = functools.partial(custom_collate_fn, device=device, allowed_max_length=1024)
    num_workers = 0
    batch_size = 8
    torch.manual_seed(123)
    train_dataset = InstructionDataset(train_data, tokenizer)
    train_loader = DataLoader(train_dataset, batch_size=batch_size, collate_fn=customized_collate_fn,
                              shuffle=True, drop_last=True, num_workers=num_workers)
    val_dataset = InstructionDataset(val_data, tokenizer)
    val_loader = DataLoader(val_dataset, batch_size=batch_size, collate_fn=customized_collate_fn,
                            shuffle=False, drop_last=False, num_workers=num_workers)
    BASE_CONFIG = {"vocab_size": 50257, "context_length": 120, "drop_rate": 0.0, "qkv_bias": False,
                   "emb_dim": 12, "n_layers": 1, "n_heads": 2}
    model = GPTModel(BASE_CONFIG)
    model.eval()
    device = "cpu"
    CHOOSE_MODEL = "Small test model"
    print("Loaded model:", CHOOSE_MODEL)
    print(50 * "-")
    print("Initial losses")
    with torch.no_grad():
        train_loss = calc_loss_loader(train_loader, model, device, num_batches=5)
        val_loss = calc_loss_loader(val_loader, model, device, num_batches=5)
    print("   Training loss:", train_loss)
    print("   Validation loss:", val_loss)
    optimizer = torch.optim.AdamW(model.parameters(), lr=0.00005, weight_decay=0.1)
    num_epochs = 2
    torch.manual_seed(123)
    train_losses, val_losses, tokens_seen = train_model_simple(
        model, train_loader, val_loader, optimizer, device,
        num_epochs=num_epochs, eval_freq=5, eval_iter=5,
        start_context=format_input(val_data[0]), tokenizer=tokenizer)
    epochs_tensor = torch.linspace(0, num_epochs, len(train_losses))
    print(epochs_tensor, tokens_seen)  # (plot_losses)
    print(50 * "-")
    print("Generating responses")
    for i, entry in enumerate(test_data):  # (tqdm)
        input_text = format_input(entry)
        token_ids = generate(model=model, idx=text_to_token_ids(input_text, tokenizer).to(device),
                             max_new_tokens=6, context_size=BASE_CONFIG["context_length"], eos_id=50256)
        generated_text = token_ids_to_text(token_ids, tokenizer)
        response_text = generated_text[len(input_text):].replace("### Response:", "").strip()
        test_data[i]["model_response"] = response_text
    with in_temporary_directory():
        test_data_path = "instruction-data-with-response-standalone.json"
        with open(test_data_path, "w") as file:
            json.dump(test_data, file, indent=4)  # "indent" for pretty-printing
        print(f"Responses saved as {test_data_path}")
        file_name = f"{re.sub(r'[ ()]', '', CHOOSE_MODEL) }-sft-standalone.pth"
        torch.save(model.state_dict(), file_name)
        print(f"Model saved as {file_name}")
        with open(test_data_path) as file:
            print(json.load(file)[0]["model_response"])
    return {"trf_blocks.0.att.W_query.weight": model.trf_blocks[0].att.W_query.weight,
            "final_norm.shift": model.final_norm.shift}


# ---- rasbt/machine-learning-book ch17 part 2 ----------------------------------------------

def ml_book_ch17_dcgan_wgan(torch):
    """rasbt/machine-learning-book ch17/ch17_part2.py: the DCGAN generator of
    ConvTranspose2d, BatchNorm2d, LeakyReLU(0.2) and Tanh and the Conv2d discriminator
    (``output.view(-1, 1).squeeze(0)``), BCELoss with two Adams, epoch logs through
    torch.FloatTensor(losses).mean(), samples in eval mode; then WGAN-GP: InstanceNorm2d
    networks, gradient_penalty (an interpolation whose alpha requires grad, the
    discriminator's gradient with respect to it by torch.autograd.grad with
    create_graph=True, its norm per sample) in the critic's loss, 5 critic iterations per
    generator step (1 here: Adam steps on gradients near its eps part the runs in the
    5th digit after a few), and backward through the penalty (a second derivative through
    convolutions, InstanceNorm and LeakyReLU). MNIST is 64 seeded random images; 8
    filters where the book has 32, 1 of the 100 epochs each; the plots are left out (a
    few pixels of the samples are printed, rounded to 4 decimals)."""
    nn, DataLoader, torch_grad = torch.nn, torch.utils.data.DataLoader, torch.autograd.grad
    print("GPU Available:", torch.cuda.is_available())
    if torch.cuda.is_available():
        device = torch.device("cuda:0")
    else:
        device = "cpu"
    images = image_dataset(torch, 64, seed=41)

    class MNIST(torch.utils.data.Dataset):  # (ToTensor, Normalize(mean=0.5, std=0.5))
        def __len__(self):
            return len(images)

        def __getitem__(self, i):
            image, label = images[i]
            return (image - 0.5) / 0.5, label

    mnist_dataset = MNIST()
    batch_size = 64
    torch.manual_seed(1)
    np.random.seed(1)
    ## Set up the dataset
    mnist_dl = DataLoader(mnist_dataset, batch_size=batch_size, shuffle=True, drop_last=True)

    def make_generator_network(input_size, n_filters):
        model = nn.Sequential(
            nn.ConvTranspose2d(input_size, n_filters * 4, 4, 1, 0, bias=False),
            nn.BatchNorm2d(n_filters * 4),
            nn.LeakyReLU(0.2),
            nn.ConvTranspose2d(n_filters * 4, n_filters * 2, 3, 2, 1, bias=False),
            nn.BatchNorm2d(n_filters * 2),
            nn.LeakyReLU(0.2),
            nn.ConvTranspose2d(n_filters * 2, n_filters, 4, 2, 1, bias=False),
            nn.BatchNorm2d(n_filters),
            nn.LeakyReLU(0.2),
            nn.ConvTranspose2d(n_filters, 1, 4, 2, 1, bias=False),
            nn.Tanh())
        return model

    class Discriminator(nn.Module):
        def __init__(self, n_filters):
            super(Discriminator, self).__init__()
            self.network = nn.Sequential(
                nn.Conv2d(1, n_filters, 4, 2, 1, bias=False),
                nn.LeakyReLU(0.2),
                nn.Conv2d(n_filters, n_filters * 2, 4, 2, 1, bias=False),
                nn.BatchNorm2d(n_filters * 2),
                nn.LeakyReLU(0.2),
                nn.Conv2d(n_filters * 2, n_filters * 4, 3, 2, 1, bias=False),
                nn.BatchNorm2d(n_filters * 4),
                nn.LeakyReLU(0.2),
                nn.Conv2d(n_filters * 4, 1, 4, 1, 0, bias=False),
                nn.Sigmoid())

        def forward(self, input):
            output = self.network(input)
            return output.view(-1, 1).squeeze(0)

    z_size = 100
    image_size = (28, 28)
    n_filters = 8
    gen_model = make_generator_network(z_size, n_filters).to(device)
    print(gen_model)
    disc_model = Discriminator(n_filters).to(device)
    print(disc_model)
    ## Loss function and optimizers:
    loss_fn = nn.BCELoss()
    g_optimizer = torch.optim.Adam(gen_model.parameters(), 0.0003)
    d_optimizer = torch.optim.Adam(disc_model.parameters(), 0.0002)

    def create_noise(batch_size, z_size, mode_z):
        if mode_z == 'uniform':
            input_z = torch.rand(batch_size, z_size, 1, 1) * 2 - 1
        elif mode_z == 'normal':
            input_z = torch.randn(batch_size, z_size, 1, 1)
        return input_z

    ## Train the discriminator
    def d_train(x):
        disc_model.zero_grad()
        # Train discriminator with a real batch
        batch_size = x.size(0)
        x = x.to(device)
        d_labels_real = torch.ones(batch_size, 1, device=device)
        d_proba_real = disc_model(x)
        d_loss_real = loss_fn(d_proba_real, d_labels_real)
        # Train discriminator on a fake batch
        input_z = create_noise(batch_size, z_size, mode_z).to(device)
        g_output = gen_model(input_z)
        d_proba_fake = disc_model(g_output)
        d_labels_fake = torch.zeros(batch_size, 1, device=device)
        d_loss_fake = loss_fn(d_proba_fake, d_labels_fake)
        # gradient backprop & optimize ONLY D's parameters
        d_loss = d_loss_real + d_loss_fake
        d_loss.backward()
        d_optimizer.step()
        return d_loss.data.item(), d_proba_real.detach(), d_proba_fake.detach()

    ## Train the generator
    def g_train(x):
        gen_model.zero_grad()
        batch_size = x.size(0)
        input_z = create_noise(batch_size, z_size, mode_z).to(device)
        g_labels_real = torch.ones((batch_size, 1), device=device)
        g_output = gen_model(input_z)
        d_proba_fake = disc_model(g_output)
        g_loss = loss_fn(d_proba_fake, g_labels_real)
        # gradient backprop & optimize ONLY G's parameters
        g_loss.backward()
        g_optimizer.step()
        return g_loss.data.item()

    mode_z = 'uniform'
    fixed_z = create_noise(batch_size, z_size, mode_z).to(device)

    def create_samples(g_model, input_z):
        g_output = g_model(input_z)
        images = torch.reshape(g_output, (batch_size, *image_size))
        return (images + 1) / 2.0

    epoch_samples = []
    num_epochs = 1
    torch.manual_seed(1)
    for epoch in range(1, num_epochs + 1):
        gen_model.train()
        d_losses, g_losses = [], []
        for i, (x, _) in enumerate(mnist_dl):
            d_loss, d_proba_real, d_proba_fake = d_train(x)
            d_losses.append(d_loss)
            g_losses.append(g_train(x))
        print(f'Epoch {epoch:03d} | Avg Losses >>'
              f' G/D {torch.FloatTensor(g_losses).mean():.4f}'
              f'/{torch.FloatTensor(d_losses).mean():.4f}')
        gen_model.eval()
        epoch_samples.append(create_samples(gen_model, fixed_z).detach().cpu().numpy())
    print(epoch_samples[-1][0, 14, 10:16].round(4))  # (the figure)

    def make_generator_network_wgan(input_size, n_filters):
        model = nn.Sequential(
            nn.ConvTranspose2d(input_size, n_filters * 4, 4, 1, 0, bias=False),
            nn.InstanceNorm2d(n_filters * 4),
            nn.LeakyReLU(0.2),
            nn.ConvTranspose2d(n_filters * 4, n_filters * 2, 3, 2, 1, bias=False),
            nn.InstanceNorm2d(n_filters * 2),
            nn.LeakyReLU(0.2),
            nn.ConvTranspose2d(n_filters * 2, n_filters, 4, 2, 1, bias=False),
            nn.InstanceNorm2d(n_filters),
            nn.LeakyReLU(0.2),
            nn.ConvTranspose2d(n_filters, 1, 4, 2, 1, bias=False),
            nn.Tanh())
        return model

    class DiscriminatorWGAN(nn.Module):
        def __init__(self, n_filters):
            super(DiscriminatorWGAN, self).__init__()
            self.network = nn.Sequential(
                nn.Conv2d(1, n_filters, 4, 2, 1, bias=False),
                nn.LeakyReLU(0.2),
                nn.Conv2d(n_filters, n_filters * 2, 4, 2, 1, bias=False),
                nn.InstanceNorm2d(n_filters * 2),
                nn.LeakyReLU(0.2),
                nn.Conv2d(n_filters * 2, n_filters * 4, 3, 2, 1, bias=False),
                nn.InstanceNorm2d(n_filters * 4),
                nn.LeakyReLU(0.2),
                nn.Conv2d(n_filters * 4, 1, 4, 1, 0, bias=False),
                nn.Sigmoid())

        def forward(self, input):
            output = self.network(input)
            return output.view(-1, 1).squeeze(0)

    gen_model = make_generator_network_wgan(z_size, n_filters).to(device)
    disc_model = DiscriminatorWGAN(n_filters).to(device)
    g_optimizer = torch.optim.Adam(gen_model.parameters(), 0.0002)
    d_optimizer = torch.optim.Adam(disc_model.parameters(), 0.0002)

    def gradient_penalty(real_data, generated_data):
        batch_size = real_data.size(0)
        # Calculate interpolation
        alpha = torch.rand(real_data.shape[0], 1, 1, 1, requires_grad=True, device=device)
        interpolated = alpha * real_data + (1 - alpha) * generated_data
        # Calculate probability of interpolated examples
        proba_interpolated = disc_model(interpolated)
        # Calculate gradients of probabilities with respect to examples
        gradients = torch_grad(outputs=proba_interpolated, inputs=interpolated,
                               grad_outputs=torch.ones(proba_interpolated.size(), device=device),
                               create_graph=True, retain_graph=True)[0]
        gradients = gradients.view(batch_size, -1)
        gradients_norm = gradients.norm(2, dim=1)
        return lambda_gp * ((gradients_norm - 1)**2).mean()

    ## Train the discriminator
    def d_train_wgan(x):
        disc_model.zero_grad()
        batch_size = x.size(0)
        x = x.to(device)
        # Calculate probabilities on real and generated data
        d_real = disc_model(x)
        input_z = create_noise(batch_size, z_size, mode_z).to(device)
        g_output = gen_model(input_z)
        d_generated = disc_model(g_output)
        d_loss = d_generated.mean() - d_real.mean() + gradient_penalty(x.data, g_output.data)
        d_loss.backward()
        d_optimizer.step()
        return d_loss.data.item()

    ## Train the generator
    def g_train_wgan(x):
        gen_model.zero_grad()
        batch_size = x.size(0)
        input_z = create_noise(batch_size, z_size, mode_z).to(device)
        g_output = gen_model(input_z)
        d_generated = disc_model(g_output)
        g_loss = -d_generated.mean()
        # gradient backprop & optimize ONLY G's parameters
        g_loss.backward()
        g_optimizer.step()
        return g_loss.data.item()

    epoch_samples_wgan = []
    lambda_gp = 10.0
    num_epochs = 1
    torch.manual_seed(1)
    critic_iterations = 1
    for epoch in range(1, num_epochs + 1):
        gen_model.train()
        d_losses, g_losses = [], []
        for i, (x, _) in enumerate(mnist_dl):
            for _ in range(critic_iterations):
                d_loss = d_train_wgan(x)
                print(d_loss)
            d_losses.append(d_loss)
            g_losses.append(g_train_wgan(x))
        print(f'Epoch {epoch:03d} | D Loss >>'
              f' {torch.FloatTensor(d_losses).mean():.4f}')
        gen_model.eval()
        epoch_samples_wgan.append(create_samples(gen_model, fixed_z).detach().cpu().numpy())
    print(epoch_samples_wgan[-1][0, 14, 10:16].round(4))
    return {"wgan_disc.conv0.weight": disc_model.network[0].weight,
            "wgan_gen.convT0.weight": gen_model[0].weight}


# ---- deep-learning-with-pytorch/dlwpt-code p1ch4 ------------------------------------------

def dlwpt_real_world_data(torch):
    """deep-learning-with-pytorch/dlwpt-code p1ch4/3_tabular_wine.ipynb (a CSV through
    np.loadtxt and from_numpy under set_printoptions(edgeitems=2, precision=2): features
    and target, a one-hot by scatter_, mean/var per column, normalization, boolean masks
    and the per-class means, lt and & counts) and p1ch4/4_time_series_bikes.ipynb (the
    hourly table viewed as days (view and transpose with their strides), the weather
    one-hot by scatter_ and torch.cat, per day too, rescaled and standardised columns)
    and p1ch4/5_text_jane_austen.ipynb (a line's letters and words one-hot encoded by
    index assignment, unsqueeze; the novel is the made-up story of LLMs-from-scratch's
    programs).
    The wine and bike-sharing files are seeded random tables of their shapes' kind (490
    wines, 20 days of hours) written to a temporary directory and read as the book reads
    them."""
    torch.set_printoptions(edgeitems=2, precision=2)
    try:
        with in_temporary_directory():
            _write_wine_and_bikes()
            return _dlwpt_real_world_data(torch)
    finally:
        torch.set_printoptions(profile="default")


def _write_wine_and_bikes():
    rng = np.random.RandomState(4)
    names = ["fixed acidity", "volatile acidity", "citric acid", "residual sugar", "chlorides",
             "free sulfur dioxide", "total sulfur dioxide", "density", "pH", "sulphates",
             "alcohol", "quality"]
    scales = [7, 0.28, 0.33, 6.4, 0.046, 35, 138, 0.994, 3.19, 0.49, 10.5]
    with open("winequality-white.csv", "w") as f:
        f.write(";".join(f'"{n}"' for n in names) + "\n")
        for _ in range(490):
            row = [round(s * rng.uniform(0.6, 1.4), 3) for s in scales] + [int(rng.choice(range(3, 10)))]
            f.write(";".join(str(v) for v in row) + "\n")
    with open("hour-fixed.csv", "w") as f:
        f.write("instant,dteday,season,yr,mnth,hr,holiday,weekday,workingday,weathersit,temp,"
                "atemp,hum,windspeed,casual,registered,cnt\n")
        for i in range(20 * 24):
            day, hour = divmod(i, 24)
            row = [i + 1, f"2011-01-{day + 1:02d}", 1, 0, 1, hour, 0, day % 7, int(day % 7 < 5),
                   int(rng.randint(1, 5)), round(rng.uniform(0.1, 0.5), 2), round(rng.uniform(0.1, 0.5), 4),
                   round(rng.uniform(0.3, 0.9), 2), round(rng.uniform(0, 0.3), 4)]
            casual, registered = int(rng.randint(0, 40)), int(rng.randint(0, 200))
            f.write(",".join(str(v) for v in row + [casual, registered, casual + registered]) + "\n")


def _dlwpt_real_world_data(torch):
    wine_path = "winequality-white.csv"
    wineq_numpy = np.loadtxt(wine_path, dtype=np.float32, delimiter=";", skiprows=1)
    print(repr(wineq_numpy[:2, :4]))
    col_list = next(csv.reader(open(wine_path), delimiter=';'))
    print((wineq_numpy.shape, col_list))
    wineq = torch.from_numpy(wineq_numpy)
    print((wineq.shape, wineq.dtype))
    data = wineq[:, :-1]  # <1>
    print((data, data.shape))
    target = wineq[:, -1]  # <2>
    print((target, target.shape))
    target = wineq[:, -1].long()
    print(repr(target))
    target_onehot = torch.zeros(target.shape[0], 10)
    print(repr(target_onehot.scatter_(1, target.unsqueeze(1), 1.0)))
    target_unsqueezed = target.unsqueeze(1)
    print(repr(target_unsqueezed))
    data_mean = torch.mean(data, dim=0)
    print(repr(data_mean))
    data_var = torch.var(data, dim=0)
    print(repr(data_var))
    data_normalized = (data - data_mean) / torch.sqrt(data_var)
    print(repr(data_normalized))
    bad_indexes = target <= 3  # <1>
    print((bad_indexes.shape, bad_indexes.dtype, bad_indexes.sum()))
    bad_data = data[bad_indexes]
    print(repr(bad_data.shape))
    bad_data = data[target <= 3]
    mid_data = data[(target > 3) & (target < 7)]  # <1>
    good_data = data[target >= 7]
    bad_mean = torch.mean(bad_data, dim=0)
    mid_mean = torch.mean(mid_data, dim=0)
    good_mean = torch.mean(good_data, dim=0)
    for i, args in enumerate(zip(col_list, bad_mean, mid_mean, good_mean)):
        print('{:2} {:20} {:6.2f} {:6.2f} {:6.2f}'.format(i, *args))
    total_sulfur_threshold = 141.83
    total_sulfur_data = data[:, 6]
    predicted_indexes = torch.lt(total_sulfur_data, total_sulfur_threshold)
    print((predicted_indexes.shape, predicted_indexes.dtype, predicted_indexes.sum()))
    actual_indexes = target > 5
    print((actual_indexes.shape, actual_indexes.dtype, actual_indexes.sum()))
    n_matches = torch.sum(actual_indexes & predicted_indexes).item()
    n_predicted = torch.sum(predicted_indexes).item()
    n_actual = torch.sum(actual_indexes).item()
    print((n_matches, n_matches / n_predicted, n_matches / n_actual))

    # p1ch4/4_time_series_bikes.ipynb
    torch.set_printoptions(edgeitems=2, threshold=50, linewidth=75)
    bikes_numpy = np.loadtxt("hour-fixed.csv", dtype=np.float32, delimiter=",", skiprows=1,
                             converters={1: lambda x: float(x[8:10])})  # <1>
    bikes = torch.from_numpy(bikes_numpy)
    print(repr(bikes))
    print((bikes.shape, bikes.stride()))
    daily_bikes = bikes.view(-1, 24, bikes.shape[1])
    print((daily_bikes.shape, daily_bikes.stride()))
    daily_bikes = daily_bikes.transpose(1, 2)
    print((daily_bikes.shape, daily_bikes.stride()))
    first_day = bikes[:24].long()
    weather_onehot = torch.zeros(first_day.shape[0], 4)
    print(repr(first_day[:, 9]))
    print(repr(weather_onehot.scatter_(dim=1, index=first_day[:, 9].unsqueeze(1).long() - 1,  # <1>
                                       value=1.0)))
    print(repr(torch.cat((bikes[:24], weather_onehot), 1)[:1]))
    daily_weather_onehot = torch.zeros(daily_bikes.shape[0], 4, daily_bikes.shape[2])
    print(repr(daily_weather_onehot.shape))
    daily_weather_onehot.scatter_(1, daily_bikes[:, 9, :].long().unsqueeze(1) - 1, 1.0)
    print(repr(daily_weather_onehot.shape))
    daily_bikes = torch.cat((daily_bikes, daily_weather_onehot), dim=1)
    daily_bikes[:, 9, :] = (daily_bikes[:, 9, :] - 1.0) / 3.0
    temp = daily_bikes[:, 10, :]
    temp_min = torch.min(temp)
    temp_max = torch.max(temp)
    daily_bikes[:, 10, :] = ((daily_bikes[:, 10, :] - temp_min) / (temp_max - temp_min))
    temp = daily_bikes[:, 10, :]
    daily_bikes[:, 10, :] = ((daily_bikes[:, 10, :] - torch.mean(temp)) / torch.std(temp))
    print(repr(daily_bikes[0, 8:12]))

    # p1ch4/5_text_jane_austen.ipynb
    text = the_verdict().replace(". ", ".\n")  # (1342-0.txt, Pride and Prejudice)
    lines = text.split('\n')
    line = lines[20]
    print(line)
    letter_t = torch.zeros(len(line), 128)  # <1>
    print(repr(letter_t.shape))
    for i, letter in enumerate(line.lower().strip()):
        letter_index = ord(letter) if ord(letter) < 128 else 0  # <1>
        letter_t[i][letter_index] = 1

    def clean_words(input_str):
        punctuation = '.,;:"!?”“_-'
        word_list = input_str.lower().replace('\n', ' ').split()
        word_list = [word.strip(punctuation) for word in word_list]
        return word_list

    words_in_line = clean_words(line)
    print((line, words_in_line))
    word_list = sorted(set(clean_words(text)))
    word2index_dict = {word: i for (i, word) in enumerate(word_list)}
    print((len(word2index_dict), word2index_dict['genius']))
    word_t = torch.zeros(len(words_in_line), len(word2index_dict))
    for i, word in enumerate(words_in_line):
        word_index = word2index_dict[word]
        word_t[i][word_index] = 1
        print('{:2} {:4} {}'.format(i, word_index, word))
    print(word_t.shape)
    word_t = word_t.unsqueeze(1)
    print(repr(word_t.shape))
    print(repr(letter_t.nonzero()[:6]), repr(word_t.sum(dim=-1).view(-1)))
    return {"daily_bikes": daily_bikes, "data_normalized": data_normalized, "word_t": word_t}


# ---- deep-learning-with-pytorch/dlwpt-code p1ch6-p1ch7 ------------------------------------

def dlwpt_subclassing_and_datasets(torch):
    """deep-learning-with-pytorch/dlwpt-code p1ch6/3_nn_module_subclassing.ipynb (the same
    net as a Sequential, an OrderedDict Sequential, an nn.Module subclass and a functional
    subclass, their named parameters formatted with ``str(param.shape)``) and
    p1ch7/1_datasets.ipynb (CIFAR-10 as PIL images turned into tensors, permute for
    plotting, the images stacked along a new dim 3 and their per-channel mean and std
    through view(3, -1), then normalized). CIFAR-10 is 50 seeded random images (uint8 HWC
    arrays standing for PIL's); transforms.ToTensor and Normalize are written out."""
    nn = torch.nn
    torch.set_printoptions(edgeitems=2)
    try:
        return _dlwpt_subclassing_and_datasets(torch, nn)
    finally:
        torch.set_printoptions(profile="default")


def _dlwpt_subclassing_and_datasets(torch, nn):
    seq_model = nn.Sequential(
        nn.Linear(1, 11),  # <1>
        nn.Tanh(),
        nn.Linear(11, 1))  # <2>
    print(seq_model)
    namedseq_model = nn.Sequential(collections.OrderedDict([
        ('hidden_linear', nn.Linear(1, 12)),
        ('hidden_activation', nn.Tanh()),
        ('output_linear', nn.Linear(12, 1))
    ]))
    print(namedseq_model)

    class SubclassModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden_linear = nn.Linear(1, 13)
            self.hidden_activation = nn.Tanh()
            self.output_linear = nn.Linear(13, 1)

        def forward(self, input):
            hidden_t = self.hidden_linear(input)
            activated_t = self.hidden_activation(hidden_t)
            output_t = self.output_linear(activated_t)
            return output_t

    subclass_model = SubclassModel()
    print(subclass_model)
    for type_str, model in [('seq', seq_model), ('namedseq', namedseq_model), ('subclass', subclass_model)]:
        print(type_str)
        for name_str, param in model.named_parameters():
            print("{:21} {:19} {}".format(name_str, str(param.shape), param.numel()))
        print()

    class SubclassFunctionalModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden_linear = nn.Linear(1, 14)
            # <1>
            self.output_linear = nn.Linear(14, 1)

        def forward(self, input):
            hidden_t = self.hidden_linear(input)
            activated_t = torch.tanh(hidden_t)  # <2>
            output_t = self.output_linear(activated_t)
            return output_t

    func_model = SubclassFunctionalModel()
    print(func_model)
    print(func_model(torch.tensor([[0.5], [1.5]])))

    # p1ch7/1_datasets.ipynb
    images = image_dataset(torch, 50, shape=(3, 32, 32), seed=51)
    pil_images = [((images.data[i].permute(1, 2, 0)).numpy(), int(images.targets[i])) for i in range(50)]

    class transforms:  # (torchvision.transforms, written out)
        class ToTensor:
            def __call__(self, pic):
                return torch.from_numpy(pic).permute(2, 0, 1).float().div(255)

        class Normalize:
            def __init__(self, mean, std):
                self.mean, self.std = torch.tensor(mean).view(-1, 1, 1), torch.tensor(std).view(-1, 1, 1)

            def __call__(self, tensor):
                return (tensor - self.mean) / self.std

        class Compose:
            def __init__(self, steps):
                self.steps = steps

            def __call__(self, x):
                for step in self.steps:
                    x = step(x)
                return x

    class CIFAR10(torch.utils.data.Dataset):
        def __init__(self, transform=None):
            self.transform = transform

        def __len__(self):
            return len(pil_images)

        def __getitem__(self, i):
            img, label = pil_images[i]
            return (self.transform(img) if self.transform else img), label

    cifar10 = CIFAR10()
    print(len(cifar10))
    class_names = ['airplane', 'automobile', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck']
    img, label = cifar10[9]
    print((img.shape, label, class_names[label]))  # (PIL's image and its class)
    to_tensor = transforms.ToTensor()
    img_t = to_tensor(img)
    print(repr(img_t.shape))
    tensor_cifar10 = CIFAR10(transform=transforms.ToTensor())
    img_t, _ = tensor_cifar10[9]
    print(type(img_t).__name__)
    print((img_t.shape, img_t.dtype))
    print((img_t.min(), img_t.max()))
    print(repr(img_t.permute(1, 2, 0)[0, :2]))  # (plt.imshow)
    imgs = torch.stack([img_t for img_t, _ in tensor_cifar10], dim=3)
    print(repr(imgs.shape))
    print(repr(imgs.view(3, -1).mean(dim=1)))
    print(repr(imgs.view(3, -1).std(dim=1)))
    transformed_cifar10 = CIFAR10(transform=transforms.Compose([
        transforms.ToTensor(),
        transforms.Normalize((0.4915, 0.4823, 0.4468), (0.2470, 0.2435, 0.2616))
    ]))
    img_t, _ = transformed_cifar10[9]
    print(repr(img_t.permute(1, 2, 0)[0, :2]))
    return {"imgs": imgs, "img_t": img_t, "func_model.output_linear.weight": func_model.output_linear.weight}


# ---- rasbt/machine-learning-book ch13 part 2 ----------------------------------------------

class _Column:
    def __init__(self, values):
        self.values = values

    def __iter__(self):
        return iter(self.values.tolist())


class _Table:
    """pandas' DataFrame as the chapter uses it: a column by name (``.values``), several
    columns' values as one float64 array, a column set from a tensor or an array."""
    def __init__(self, columns):
        self.columns = dict(columns)

    def __getitem__(self, name):
        if isinstance(name, list):
            return _Column(np.stack([self.columns[n] for n in name], axis=1).astype(np.float64))
        return _Column(self.columns[name])

    def __setitem__(self, name, values):
        self.columns[name] = np.asarray(values)


def auto_mpg_stand_in():
    """The Auto MPG table offline: 120 seeded cars of the UCI columns (no missing rows),
    split 80/20 in a seeded order, as train_test_split(train_size=0.8, random_state=1)."""
    rng = np.random.RandomState(2)
    n = 120
    cylinders = rng.choice([4, 6, 8], n).astype(np.float64)
    displacement = (cylinders * 40 + rng.normal(0, 20, n)).round(1)
    horsepower = (displacement * 0.45 + rng.normal(0, 8, n)).round(0)
    weight = (displacement * 8 + 1500 + rng.normal(0, 150, n)).round(0)
    acceleration = rng.uniform(9, 22, n).round(1)
    year = rng.randint(70, 83, n)
    origin = rng.randint(1, 4, n)
    mpg = (50 - weight / 150 + rng.normal(0, 2, n)).round(1)
    order = np.random.RandomState(1).permutation(n)
    parts = order[:int(0.8 * n)], order[int(0.8 * n):]
    columns = {"MPG": mpg, "Cylinders": cylinders, "Displacement": displacement,
               "Horsepower": horsepower, "Weight": weight, "Acceleration": acceleration,
               "Model Year": year, "Origin": origin}
    return [{name: values[part] for name, values in columns.items()} for part in parts]


def ml_book_ch13_part2(torch):
    """rasbt/machine-learning-book ch13/ch13_part2.py: the Auto MPG regression (numeric
    columns standardised with the training statistics, the model year bucketized with
    ``torch.bucketize(v, boundaries, right=True)``, the origin one-hot encoded by
    ``one_hot(... % total_origin)``, float64 columns concatenated with the one-hot and
    cast by .float(), an MLP built in a loop over hidden units, SGD on MSELoss, test MSE
    and L1Loss's MAE) and the MNIST classifier (Flatten and a loop of Linear/ReLU, Adam,
    accuracy per epoch, test accuracy on .data / 255). The car table is 120 seeded rows
    (pandas and sklearn's split are small stand-ins), MNIST 128 + 64 seeded random
    images; 40 of the regression's 200 epochs, 2 of the classifier's 20."""
    nn, one_hot = torch.nn, torch.nn.functional.one_hot
    TensorDataset, DataLoader = torch.utils.data.TensorDataset, torch.utils.data.DataLoader
    train_columns, test_columns = auto_mpg_stand_in()
    df_train, df_test = _Table(train_columns), _Table(test_columns)
    numeric_column_names = ['Cylinders', 'Displacement', 'Horsepower', 'Weight', 'Acceleration']
    df_train_norm, df_test_norm = _Table(train_columns), _Table(test_columns)
    for col_name in numeric_column_names:
        mean = df_train[col_name].values.mean()  # (train_stats.loc[col_name, 'mean'])
        std = df_train[col_name].values.std(ddof=1)
        df_train_norm[col_name] = (df_train_norm[col_name].values - mean) / std
        df_test_norm[col_name] = (df_test_norm[col_name].values - mean) / std
    boundaries = torch.tensor([73, 76, 79])
    v = torch.tensor(df_train_norm['Model Year'].values)
    df_train_norm['Model Year Bucketed'] = torch.bucketize(v, boundaries, right=True)
    v = torch.tensor(df_test_norm['Model Year'].values)
    df_test_norm['Model Year Bucketed'] = torch.bucketize(v, boundaries, right=True)
    print(torch.bucketize(v, boundaries, right=True)[:8], torch.bucketize(v, boundaries)[:8])
    numeric_column_names.append('Model Year Bucketed')
    total_origin = len(set(df_train_norm['Origin']))
    origin_encoded = one_hot(torch.from_numpy(df_train_norm['Origin'].values) % total_origin)
    x_train_numeric = torch.tensor(df_train_norm[numeric_column_names].values)
    x_train = torch.cat([x_train_numeric, origin_encoded], 1).float()
    origin_encoded = one_hot(torch.from_numpy(df_test_norm['Origin'].values) % total_origin)
    x_test_numeric = torch.tensor(df_test_norm[numeric_column_names].values)
    x_test = torch.cat([x_test_numeric, origin_encoded], 1).float()
    print(origin_encoded[:3], torch.cat([x_test_numeric, origin_encoded], 1).dtype, x_test[:2])
    y_train = torch.tensor(df_train_norm['MPG'].values).float()
    y_test = torch.tensor(df_test_norm['MPG'].values).float()
    train_ds = TensorDataset(x_train, y_train)
    batch_size = 8
    torch.manual_seed(1)
    train_dl = DataLoader(train_ds, batch_size, shuffle=True)
    hidden_units = [8, 4]
    input_size = x_train.shape[1]
    all_layers = []
    for hidden_unit in hidden_units:
        layer = nn.Linear(input_size, hidden_unit)
        all_layers.append(layer)
        all_layers.append(nn.ReLU())
        input_size = hidden_unit
    all_layers.append(nn.Linear(hidden_units[-1], 1))
    model = nn.Sequential(*all_layers)
    print(model)
    loss_fn = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
    torch.manual_seed(1)
    num_epochs = 40
    log_epochs = 20
    for epoch in range(num_epochs):
        loss_hist_train = 0
        for x_batch, y_batch in train_dl:
            pred = model(x_batch)[:, 0]
            loss = loss_fn(pred, y_batch)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            loss_hist_train += loss.item()
        if epoch % log_epochs == 0:
            print(f'Epoch {epoch}  Loss {loss_hist_train/len(train_dl):.4f}')
    with torch.no_grad():
        pred = model(x_test.float())[:, 0]
        loss = loss_fn(pred, y_test)
        print(f'Test MSE: {loss.item():.4f}')
        print(f'Test MAE: {nn.L1Loss()(pred, y_test).item():.4f}')
    regression = model
    images = image_dataset(torch, 192, seed=61)

    class MNIST(torch.utils.data.Dataset):  # (torchvision's, with ToTensor)
        def __init__(self, root, train, transform=None, download=False):
            part = slice(0, 128) if train else slice(128, 192)
            self.data, self.targets = images.data[part, 0], images.targets[part]

        def __len__(self):
            return len(self.data)

        def __getitem__(self, i):
            return (self.data[i].float() / 255)[None], int(self.targets[i])

    image_path = './'
    mnist_train_dataset = MNIST(root=image_path, train=True, transform=None, download=True)
    mnist_test_dataset = MNIST(root=image_path, train=False, transform=None, download=False)
    batch_size = 64
    torch.manual_seed(1)
    train_dl = DataLoader(mnist_train_dataset, batch_size, shuffle=True)
    hidden_units = [32, 16]
    image_size = mnist_train_dataset[0][0].shape
    input_size = image_size[0] * image_size[1] * image_size[2]
    all_layers = [nn.Flatten()]
    for hidden_unit in hidden_units:
        layer = nn.Linear(input_size, hidden_unit)
        all_layers.append(layer)
        all_layers.append(nn.ReLU())
        input_size = hidden_unit
    all_layers.append(nn.Linear(hidden_units[-1], 10))
    model = nn.Sequential(*all_layers)
    print(model)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    torch.manual_seed(1)
    num_epochs = 2
    for epoch in range(num_epochs):
        accuracy_hist_train = 0
        for x_batch, y_batch in train_dl:
            pred = model(x_batch)
            loss = loss_fn(pred, y_batch)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            is_correct = (torch.argmax(pred, dim=1) == y_batch).float()
            accuracy_hist_train += is_correct.sum()
        accuracy_hist_train /= len(train_dl.dataset)
        print(f'Epoch {epoch}  Accuracy {accuracy_hist_train:.4f}')
    pred = model(mnist_test_dataset.data / 255.)
    is_correct = (torch.argmax(pred, dim=1) == mnist_test_dataset.targets).float()
    print(f'Test accuracy: {is_correct.mean():.4f}')
    return {"regression.0.weight": regression[0].weight, "mnist.1.bias": model[1].bias}


# ---- rasbt/machine-learning-book ch15 part 2 ----------------------------------------------

def imdb_reviews(split):
    """torchtext's IMDB offline: made-up ('pos' | 'neg', review) pairs with some HTML and
    emoticons, 60 for 'train' and 20 for 'test'."""
    r = random.Random(8 if split == "train" else 9)
    good = "a wonderful moving film , great acting and a brilliant story :) loved it".split()
    bad = "a boring mess , terrible acting and a dull story :( wasted my evening".split()
    common = "this is an example of the movie i saw <br /> with friends".split()
    rows = []
    for i in range(60 if split == "train" else 20):
        label = "pos" if r.random() < 0.5 else "neg"
        words = [r.choice((good if label == "pos" else bad) + common) for _ in range(r.randint(5, 18))]
        rows.append((label, " ".join(words)))
    return rows


class _Vocab:
    """torchtext.vocab.vocab(ordered_dict) as the chapter uses it: insert_token,
    set_default_index, lookup by [] and len."""
    def __init__(self, ordered_dict):
        self.itos = list(ordered_dict)
        self.default = None

    def insert_token(self, token, index):
        self.itos.insert(index, token)

    def set_default_index(self, index):
        self.default = index

    def __getitem__(self, token):
        return self.itos.index(token) if token in self.itos else self.default

    def __len__(self):
        return len(self.itos)


def ml_book_ch15_sentiment(torch):
    """rasbt/machine-learning-book ch15/ch15_part2.py: the IMDb reviews split by
    random_split, the regex tokenizer keeping emoticons, a Counter vocabulary ordered by
    frequency with <pad> and <unk>, collate_batch with nn.utils.rnn.pad_sequence, an
    Embedding with padding_idx=0, a 2-layer nn.RNN's last hidden state, then the LSTM
    sentiment model over pack_padded_sequence(..., enforce_sorted=False, batch_first=True)
    with BCELoss and Adam, and its bidirectional form (torch.cat of hidden[-2] and
    hidden[-1]). The reviews are 60 + 20 made-up ones (torchtext's IMDB and vocab are
    stand-ins), on the CPU (the book's commented line); 2 of the 10 epochs each."""
    nn, DataLoader, random_split = torch.nn, torch.utils.data.DataLoader, torch.utils.data.random_split
    Counter, OrderedDict = collections.Counter, collections.OrderedDict
    IMDB, vocab = imdb_reviews, _Vocab
    # Step 1: load and create the datasets
    train_dataset = IMDB(split='train')
    test_dataset = IMDB(split='test')
    torch.manual_seed(1)
    train_dataset, valid_dataset = random_split(list(train_dataset), [48, 12])
    ## Step 2: find unique tokens (words)
    token_counts = Counter()

    def tokenizer(text):
        text = re.sub('<[^>]*>', '', text)
        emoticons = re.findall('(?::|;|=)(?:-)?(?:\\)|\\(|D|P)', text.lower())
        text = re.sub('[\\W]+', ' ', text.lower()) + ' '.join(emoticons).replace('-', '')
        tokenized = text.split()
        return tokenized

    for label, line in train_dataset:
        tokens = tokenizer(line)
        token_counts.update(tokens)
    print('Vocab-size:', len(token_counts))
    ## Step 3: encoding each unique token into integers
    sorted_by_freq_tuples = sorted(token_counts.items(), key=lambda x: x[1], reverse=True)
    ordered_dict = OrderedDict(sorted_by_freq_tuples)
    vocab = vocab(ordered_dict)
    vocab.insert_token("<pad>", 0)
    vocab.insert_token("<unk>", 1)
    vocab.set_default_index(1)
    print([vocab[token] for token in ['this', 'is', 'an', 'example']])
    ## Step 3-A: define the functions for transformation
    # device = torch.device("cuda:0")
    device = 'cpu'
    text_pipeline = lambda x: [vocab[token] for token in tokenizer(x)]
    label_pipeline = lambda x: 1. if x == 'pos' else 0.

    ## Step 3-B: wrap the encode and transformation function
    def collate_batch(batch):
        label_list, text_list, lengths = [], [], []
        for _label, _text in batch:
            label_list.append(label_pipeline(_label))
            processed_text = torch.tensor(text_pipeline(_text), dtype=torch.int64)
            text_list.append(processed_text)
            lengths.append(processed_text.size(0))
        label_list = torch.tensor(label_list)
        lengths = torch.tensor(lengths)
        padded_text_list = nn.utils.rnn.pad_sequence(text_list, batch_first=True)
        return padded_text_list.to(device), label_list.to(device), lengths.to(device)

    ## Take a small batch
    dataloader = DataLoader(train_dataset, batch_size=4, shuffle=False, collate_fn=collate_batch)
    text_batch, label_batch, length_batch = next(iter(dataloader))
    print(text_batch)
    print(label_batch)
    print(length_batch)
    print(text_batch.shape)
    ## Step 4: batching the datasets
    batch_size = 32
    train_dl = DataLoader(train_dataset, batch_size=batch_size, shuffle=True, collate_fn=collate_batch)
    valid_dl = DataLoader(valid_dataset, batch_size=batch_size, shuffle=False, collate_fn=collate_batch)
    test_dl = DataLoader(test_dataset, batch_size=batch_size, shuffle=False, collate_fn=collate_batch)
    embedding = nn.Embedding(num_embeddings=10, embedding_dim=3, padding_idx=0)
    # a batch of 2 samples of 4 indices each
    text_encoded_input = torch.LongTensor([[1, 2, 4, 5], [4, 3, 2, 0]])
    print(embedding(text_encoded_input))

    ## An example of building a RNN model
    ## with simple RNN layer
    # Fully connected neural network with one hidden layer
    class RNN(nn.Module):
        def __init__(self, input_size, hidden_size):
            super().__init__()
            self.rnn = nn.RNN(input_size, hidden_size, num_layers=2, batch_first=True)
            # self.gru = nn.GRU(input_size, hidden_size, num_layers, batch_first=True)
            # self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
            self.fc = nn.Linear(hidden_size, 1)

        def forward(self, x):
            _, hidden = self.rnn(x)
            out = hidden[-1, :, :]
            out = self.fc(out)
            return out

    model = RNN(64, 32)
    print(model)
    print(model(torch.randn(5, 3, 64)))

    class RNN(nn.Module):
        def __init__(self, vocab_size, embed_dim, rnn_hidden_size, fc_hidden_size):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
            self.rnn = nn.LSTM(embed_dim, rnn_hidden_size, batch_first=True)
            self.fc1 = nn.Linear(rnn_hidden_size, fc_hidden_size)
            self.relu = nn.ReLU()
            self.fc2 = nn.Linear(fc_hidden_size, 1)
            self.sigmoid = nn.Sigmoid()

        def forward(self, text, lengths):
            out = self.embedding(text)
            out = nn.utils.rnn.pack_padded_sequence(out, lengths.cpu().numpy(), enforce_sorted=False, batch_first=True)
            out, (hidden, cell) = self.rnn(out)
            out = hidden[-1, :, :]
            out = self.fc1(out)
            out = self.relu(out)
            out = self.fc2(out)
            out = self.sigmoid(out)
            return out

    vocab_size = len(vocab)
    embed_dim = 20
    rnn_hidden_size = 64
    fc_hidden_size = 64
    torch.manual_seed(1)
    model = RNN(vocab_size, embed_dim, rnn_hidden_size, fc_hidden_size)
    model = model.to(device)

    def train(dataloader):
        model.train()
        total_acc, total_loss = 0, 0
        for text_batch, label_batch, lengths in dataloader:
            optimizer.zero_grad()
            pred = model(text_batch, lengths)[:, 0]
            loss = loss_fn(pred, label_batch)
            loss.backward()
            optimizer.step()
            total_acc += ((pred >= 0.5).float() == label_batch).float().sum().item()
            total_loss += loss.item() * label_batch.size(0)
        return total_acc / len(dataloader.dataset), total_loss / len(dataloader.dataset)

    def evaluate(dataloader):
        model.eval()
        total_acc, total_loss = 0, 0
        with torch.no_grad():
            for text_batch, label_batch, lengths in dataloader:
                pred = model(text_batch, lengths)[:, 0]
                loss = loss_fn(pred, label_batch)
                total_acc += ((pred >= 0.5).float() == label_batch).float().sum().item()
                total_loss += loss.item() * label_batch.size(0)
        return total_acc / len(dataloader.dataset), total_loss / len(dataloader.dataset)

    loss_fn = nn.BCELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    num_epochs = 2
    torch.manual_seed(1)
    for epoch in range(num_epochs):
        acc_train, loss_train = train(train_dl)
        acc_valid, loss_valid = evaluate(valid_dl)
        print(f'Epoch {epoch} accuracy: {acc_train:.4f} val_accuracy: {acc_valid:.4f}')
        print(loss_train, loss_valid)
    acc_test, _ = evaluate(test_dl)
    print(f'test_accuracy: {acc_test:.4f}')
    unidirectional = model

    class RNN(nn.Module):
        def __init__(self, vocab_size, embed_dim, rnn_hidden_size, fc_hidden_size):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
            self.rnn = nn.LSTM(embed_dim, rnn_hidden_size, batch_first=True, bidirectional=True)
            self.fc1 = nn.Linear(rnn_hidden_size * 2, fc_hidden_size)
            self.relu = nn.ReLU()
            self.fc2 = nn.Linear(fc_hidden_size, 1)
            self.sigmoid = nn.Sigmoid()

        def forward(self, text, lengths):
            out = self.embedding(text)
            out = nn.utils.rnn.pack_padded_sequence(out, lengths.cpu().numpy(), enforce_sorted=False, batch_first=True)
            _, (hidden, cell) = self.rnn(out)
            out = torch.cat((hidden[-2, :, :], hidden[-1, :, :]), dim=1)
            out = self.fc1(out)
            out = self.relu(out)
            out = self.fc2(out)
            out = self.sigmoid(out)
            return out

    torch.manual_seed(1)
    model = RNN(vocab_size, embed_dim, rnn_hidden_size, fc_hidden_size)
    model = model.to(device)
    loss_fn = nn.BCELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.002)
    num_epochs = 2
    torch.manual_seed(1)
    for epoch in range(num_epochs):
        acc_train, loss_train = train(train_dl)
        acc_valid, loss_valid = evaluate(valid_dl)
        print(f'Epoch {epoch} accuracy: {acc_train:.4f} val_accuracy: {acc_valid:.4f}')
        print(loss_train, loss_valid)
    test_dataset = IMDB(split='test')
    test_dl = DataLoader(test_dataset, batch_size=batch_size, shuffle=False, collate_fn=collate_batch)
    acc_test, _ = evaluate(test_dl)
    print(f'test_accuracy: {acc_test:.4f}')
    return {"uni.fc2.weight": unidirectional.fc2.weight, "bi.fc1.bias": model.fc1.bias}


# ---- fastai/course22p2: the "from the foundations" notebooks ------------------------------

def mnist_pickle(n_train=100, n_valid=20, seed=3):
    """mnist.pkl.gz offline (fastai/course22p2's download): ((x_train, y_train), (x_valid,
    y_valid), _) as the pickle holds them, NumPy float32 rows of 784 pixels (multiples of
    1/256 in [0, 1), many zeros as in the digits) and int64 labels 0-9."""
    r = np.random.RandomState(seed)
    def part(n):
        x = (r.randint(0, 256, (n, 784)) / 256).astype(np.float32)
        x[r.rand(n, 784) < 0.6] = 0
        return x, r.randint(0, 10, n).astype(np.int64)
    return part(n_train), part(n_valid), part(0)


def test_close(a, b, eps=1e-5):
    """fastcore.test.test_close: every element within eps."""
    a, b = (np.asarray(v.detach() if hasattr(v, "detach") else v) for v in (a, b))
    assert np.allclose(a, b, rtol=eps, atol=eps), f"close:\n{a}\n{b}"


def course22p2_matmul(torch):
    """fastai/course22p2 nbs/01_matmul.ipynb: MNIST rows as lists (chunks, islice), a
    Matrix class, then tensors (map(tensor, ...), .type(), reshape, min/max), the
    Wichmann-Hill rand, matmul by three loops, by a dot of rows, by broadcasting
    (expand_as, .storage(), strides, None/unsqueeze, ...), by einsum and by @, and the
    CUDA kernel imitated by launch_kernel. (The fork cells, plots, timings, numba's njit
    and numba.cuda are left out; the dot that njit compiles runs as plain Python.)"""
    ((x_train, y_train), (x_valid, y_valid), _) = mnist_pickle()
    lst1 = list(x_train[0])
    vals = lst1[200:210]
    print(vals)
    def chunks(x, sz):
        for i in range(0, len(x), sz): yield x[i:i+sz]
    print(list(chunks(vals, 5)))
    it = iter(vals)
    print(list(itertools.islice(it, 5)))
    print(list(itertools.islice(it, 5)))
    print(list(itertools.islice(it, 5)))
    it = iter(lst1)
    img = list(iter(lambda: list(itertools.islice(it, 28)), []))
    print(img[20][15])
    class Matrix:
        def __init__(self, xs): self.xs = xs
        def __getitem__(self, idxs): return self.xs[idxs[0]][idxs[1]]
    m = Matrix(img)
    print(m[20, 15])
    tensor = torch.tensor
    print(tensor([1, 2, 3]))
    x_train, y_train, x_valid, y_valid = map(tensor, (x_train, y_train, x_valid, y_valid))
    print(x_train.shape)
    print(x_train.type())
    imgs = x_train.reshape((-1, 28, 28))
    print(imgs.shape)
    print(imgs[0, 20, 15])
    n, c = x_train.shape
    print(y_train, y_train.shape)
    print(min(y_train), max(y_train))
    print(y_train.min(), y_train.max())

    rnd_state = None
    def seed(a):
        nonlocal rnd_state
        a, x = divmod(a, 30268)
        a, y = divmod(a, 30306)
        a, z = divmod(a, 30322)
        rnd_state = int(x)+1, int(y)+1, int(z)+1
    seed(457428938475)
    print(rnd_state)
    def rand():
        nonlocal rnd_state
        x, y, z = rnd_state
        x = (171 * x) % 30269
        y = (172 * y) % 30307
        z = (170 * z) % 30323
        rnd_state = x, y, z
        return (x/30269 + y/30307 + z/30323) % 1.0
    print(rand(), rand(), rand())
    print(sum(rand() for _ in range(10000)) / 10000)
    print(torch.randn(784, 10).shape)

    torch.manual_seed(1)
    weights = torch.randn(784, 10)
    bias = torch.zeros(10)
    m1 = x_valid[:5]
    m2 = weights
    print(m1.shape, m2.shape)
    ar, ac = m1.shape
    br, bc = m2.shape
    print((ar, ac), (br, bc))
    t1 = torch.zeros(ar, bc)
    print(t1.shape)
    for i in range(ar):
        for j in range(2):        # (the tutorial's 10 columns: the first two here, for time)
            for k in range(ac):
                t1[i, j] += m1[i, k] * m2[k, j]
    print(t1)
    print(t1.shape)
    torch.set_printoptions(precision=2, linewidth=140, sci_mode=False)
    try:
        print(t1)
        np.set_printoptions(precision=2, linewidth=140)
        def matmul(a, b):
            (ar, ac), (br, bc) = a.shape, b.shape
            c = torch.zeros(ar, bc)
            for i in range(ar):
                for j in range(bc):
                    for k in range(ac): c[i, j] += a[i, k] * b[k, j]
            return c
        print(matmul(m1[:, :20], m2[:20, :3]))
        print(ar*bc*ac)
        def dot(a, b):
            res = 0.
            for i in range(len(a)): res += a[i]*b[i]
            return float(res)   # (njit's compiled dot returns a Python float)
        from numpy import array
        print(dot(array([1., 2, 3]), array([2., 3, 4])))
        def matmul(a, b):
            (ar, ac), (br, bc) = a.shape, b.shape
            c = torch.zeros(ar, bc)
            for i in range(ar):
                for j in range(bc): c[i, j] = dot(a[i, :], b[:, j])
            return c
        m1a, m2a = m1.numpy(), m2.numpy()
        t1 = torch.tensor(m1a) @ torch.tensor(m2a)
        test_close(t1, matmul(m1a, m2a))

        a = tensor([10., 6, -4])
        b = tensor([2., 8, 7])
        print(a, b)
        print(a + b)
        print((a < b).float().mean())
        m = tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9]]); print(m)
        sf = (m*m).sum()
        print(sf)
        print(sf.sqrt())
        print(m[2, :], m[:, 2])
        print(m[2])
        def matmul(a, b):
            (ar, ac), (br, bc) = a.shape, b.shape
            c = torch.zeros(ar, bc)
            for i in range(ar):
                for j in range(bc): c[i, j] = (a[i, :] * b[:, j]).sum()
            return c
        test_close(t1, matmul(m1, m2))
        def matmul(a, b):
            (ar, ac), (br, bc) = a.shape, b.shape
            c = torch.zeros(ar, bc)
            for i in range(ar):
                for j in range(bc): c[i, j] = torch.dot(a[i, :], b[:, j])
            return c
        test_close(t1, matmul(m1, m2))
        print(matmul(m1, m2))

        print(a)
        print(a > 0)
        print(a + 1)
        print(m)
        print(2*m)
        c = tensor([10., 20, 30]); print(c)
        print(m.shape, c.shape)
        print(m + c)
        print(c + m)
        t = c.expand_as(m)
        print(t)
        print(m + t)
        print(t.storage())
        print(t.stride(), t.shape)
        print(c.unsqueeze(0), c[None, :])
        print(c.shape, c.unsqueeze(0).shape)
        print(c.unsqueeze(1), c[:, None])
        print(c.shape, c.unsqueeze(1).shape)
        print(c[None].shape, c[..., None].shape)
        print(c[:, None].expand_as(m))
        print(m + c[:, None])
        print(m + c[None, :])
        print(c[None, :])
        print(c[None, :].shape)
        print(c[:, None])
        print(c[:, None].shape)
        print(c[None, :] * c[:, None])
        print(c[None] > c[:, None])
        print(m*m)

        digit = m1[0]
        print(digit.shape, m2.shape)
        print(digit[:, None].shape)
        print(digit[:, None].expand_as(m2).shape)
        print((digit[:, None]*m2).shape)
        def matmul(a, b):
            (ar, ac), (br, bc) = a.shape, b.shape
            c = torch.zeros(ar, bc)
            for i in range(ar):
                c[i] = (a[i, :, None] * b).sum(dim=0)
            return c
        test_close(t1, matmul(m1, m2))
        tr = matmul(x_train, weights)
        print(tr)
        print(tr.shape)

        print(m1.shape, m2.shape)
        mr = torch.einsum('ik,kj->ikj', m1, m2)
        print(mr.shape)
        print(mr.sum(1))
        print(torch.einsum('ik,kj->ij', m1, m2))
        def matmul(a, b): return torch.einsum('ik,kj->ij', a, b)
        test_close(tr, matmul(x_train, weights), eps=1e-3)
        test_close(tr, x_train@weights, eps=1e-3)
        print(torch.matmul(x_train, weights)[:3])

        def matmul(grid, a, b, c):
            i, j = grid
            if i < c.shape[0] and j < c.shape[1]:
                tmp = 0.
                for k in range(a.shape[1]): tmp += a[i, k] * b[k, j]
                c[i, j] = tmp
        res = torch.zeros(ar, bc)
        matmul((0, 0), m1, m2, res)
        print(res)
        def launch_kernel(kernel, grid_x, grid_y, *args, **kwargs):
            for i in range(grid_x):
                for j in range(grid_y): kernel((i, j), *args, **kwargs)
        res = torch.zeros(ar, bc)
        launch_kernel(matmul, ar, 2, m1[:, :100], m2[:100], res)
        print(res)
        r = np.zeros(tr.shape)
        print(r.shape)
        TPB = 16
        rr, rc = r.shape
        blockspergrid = (math.ceil(rr / TPB), math.ceil(rc / TPB))
        print(blockspergrid)
        r = (x_train@weights).cpu()
        test_close(tr, r, eps=1.03)
    finally:
        torch.set_printoptions(profile="default")
        np.set_printoptions(precision=8, linewidth=75)
    return {"weights": weights, "tr": tr, "res": res, "t": t}


def course22p2_backprop(torch):
    """fastai/course22p2 nbs/03_backprop.ipynb: a two-layer MLP as functions (lin, relu as
    clamp_min, mse), its backward written by hand into ``.g`` attributes (lin_grad,
    forward_and_backward) and checked against autograd on clones, the layers as classes
    with their own backward (Relu, Lin, Mse, Model), then on a Module base class, and the
    same model as nn.Module with F.mse_loss (the sympy cells are left out)."""
    tensor = torch.tensor
    torch.manual_seed(42)
    torch.set_printoptions(precision=2, linewidth=125, sci_mode=False)
    np.set_printoptions(precision=2, linewidth=125)
    try:
        ((x_train, y_train), (x_valid, y_valid), _) = mnist_pickle(200, 40)
        x_train, y_train, x_valid, y_valid = map(tensor, [x_train, y_train, x_valid, y_valid])
        n, m = x_train.shape
        c = y_train.max()+1
        print(n, m, c)
        nh = 50
        w1 = torch.randn(m, nh)
        b1 = torch.zeros(nh)
        w2 = torch.randn(nh, 1)
        b2 = torch.zeros(1)
        def lin(x, w, b): return x@w + b
        t = lin(x_valid, w1, b1)
        print(t.shape)
        def relu(x): return x.clamp_min(0.)
        t = relu(t)
        print(t)
        def model(xb):
            l1 = lin(xb, w1, b1)
            l2 = relu(l1)
            return lin(l2, w2, b2)
        res = model(x_valid)
        print(res.shape)
        print(res.shape, y_valid.shape)
        print((res-y_valid).shape)
        print(res[:, 0].shape)
        print(res.squeeze().shape)
        print((res[:, 0]-y_valid).shape)
        y_train, y_valid = y_train.float(), y_valid.float()
        preds = model(x_train)
        print(preds.shape)
        def mse(output, targ): return (output[:, 0]-targ).pow(2).mean()
        print(mse(preds, y_train))

        def lin_grad(inp, out, w, b):
            # grad of matmul with respect to input
            inp.g = out.g @ w.t()
            w.g = (inp.unsqueeze(-1) * out.g.unsqueeze(1)).sum(0)
            b.g = out.g.sum(0)
        def forward_and_backward(inp, targ):
            # forward pass:
            l1 = lin(inp, w1, b1)
            l2 = relu(l1)
            out = lin(l2, w2, b2)
            diff = out[:, 0]-targ
            loss = res.pow(2).mean()
            # backward pass:
            out.g = 2.*diff[:, None] / inp.shape[0]
            lin_grad(l2, out, w2, b2)
            l1.g = (l1 > 0).float() * l2.g
            lin_grad(inp, l1, w1, b1)
        forward_and_backward(x_train, y_train)
        def get_grad(x): return x.g.clone()
        chks = w1, w2, b1, b2, x_train
        w1g, w2g, b1g, b2g, ig = map(get_grad, chks)
        grads = w1g, w2g, b1g, b2g, ig
        print(b1g, b2g, w2g[:5])
        def mkgrad(x): return x.clone().requires_grad_(True)
        w12, w22, b12, b22, xt2 = map(mkgrad, chks)
        ptgrads = w12, w22, b12, b22, xt2
        def forward(inp, targ):
            l1 = lin(inp, w12, b12)
            l2 = relu(l1)
            out = lin(l2, w22, b22)
            return mse(out, targ)
        loss = forward(xt2, y_train)
        loss.backward()
        print(loss, loss.grad_fn)
        for a, b in zip(grads, ptgrads): test_close(a, b.grad, eps=0.01)

        class Relu():
            def __call__(self, inp):
                self.inp = inp
                self.out = inp.clamp_min(0.)
                return self.out
            def backward(self): self.inp.g = (self.inp > 0).float() * self.out.g
        class Lin():
            def __init__(self, w, b): self.w, self.b = w, b
            def __call__(self, inp):
                self.inp = inp
                self.out = lin(inp, self.w, self.b)
                return self.out
            def backward(self):
                self.inp.g = self.out.g @ self.w.t()
                self.w.g = self.inp.t() @ self.out.g
                self.b.g = self.out.g.sum(0)
        class Mse():
            def __call__(self, inp, targ):
                self.inp, self.targ = inp, targ
                self.out = mse(inp, targ)
                return self.out
            def backward(self):
                self.inp.g = 2. * (self.inp.squeeze() - self.targ).unsqueeze(-1) / self.targ.shape[0]
        class Model():
            def __init__(self, w1, b1, w2, b2):
                self.layers = [Lin(w1, b1), Relu(), Lin(w2, b2)]
                self.loss = Mse()
            def __call__(self, x, targ):
                for l in self.layers: x = l(x)
                return self.loss(x, targ)
            def backward(self):
                self.loss.backward()
                for l in reversed(self.layers): l.backward()
        model = Model(w1, b1, w2, b2)
        loss = model(x_train, y_train)
        print(loss)
        model.backward()
        test_close(w2g, w2.g, eps=0.01)
        test_close(b2g, b2.g, eps=0.01)
        test_close(w1g, w1.g, eps=0.01)
        test_close(b1g, b1.g, eps=0.01)
        test_close(ig, x_train.g, eps=0.01)

        class Module():
            def __call__(self, *args):
                self.args = args
                self.out = self.forward(*args)
                return self.out
            def forward(self): raise Exception('not implemented')
            def backward(self): self.bwd(self.out, *self.args)
            def bwd(self): raise Exception('not implemented')
        class Relu(Module):
            def forward(self, inp): return inp.clamp_min(0.)
            def bwd(self, out, inp): inp.g = (inp > 0).float() * out.g
        class Lin(Module):
            def __init__(self, w, b): self.w, self.b = w, b
            def forward(self, inp): return inp@self.w + self.b
            def bwd(self, out, inp):
                inp.g = self.out.g @ self.w.t()
                self.w.g = inp.t() @ self.out.g
                self.b.g = self.out.g.sum(0)
        class Mse(Module):
            def forward(self, inp, targ): return (inp.squeeze() - targ).pow(2).mean()
            def bwd(self, out, inp, targ): inp.g = 2*(inp.squeeze()-targ).unsqueeze(-1) / targ.shape[0]
        model = Model(w1, b1, w2, b2)
        loss = model(x_train, y_train)
        model.backward()
        test_close(w2g, w2.g, eps=0.01)
        test_close(b2g, b2.g, eps=0.01)
        test_close(w1g, w1.g, eps=0.01)
        test_close(b1g, b1.g, eps=0.01)
        test_close(ig, x_train.g, eps=0.01)
        print(x_train.g[:2, :8])

        from_torch = torch
        nn, F = from_torch.nn, from_torch.nn.functional
        class Linear(nn.Module):
            def __init__(self, n_in, n_out):
                super().__init__()
                self.w = torch.randn(n_in, n_out).requires_grad_()
                self.b = torch.zeros(n_out).requires_grad_()
            def forward(self, inp): return inp@self.w + self.b
        class Model(nn.Module):
            def __init__(self, n_in, nh, n_out):
                super().__init__()
                self.layers = [Linear(n_in, nh), nn.ReLU(), Linear(nh, n_out)]
            def __call__(self, x, targ):
                for l in self.layers: x = l(x)
                return F.mse_loss(x, targ[:, None])
        model = Model(m, nh, 1)
        loss = model(x_train, y_train)
        loss.backward()
        l0 = model.layers[0]
        print(l0.b.grad)
        print(model, list(model.parameters()))
    finally:
        torch.set_printoptions(profile="default")
        np.set_printoptions(precision=8, linewidth=75)
    return {"b1g": b1g, "w2g": w2g, "b": l0.b.grad, "loss": loss}


def store_attr():
    """fastcore's store_attr(): the caller's arguments stored as its self's attributes."""
    frame = inspect.currentframe().f_back
    names = frame.f_code.co_varnames[:frame.f_code.co_argcount]
    self = frame.f_locals[names[0]]
    for name in names[1:]:
        setattr(self, name, frame.f_locals[name])


def chunked(it, chunk_sz, drop_last=False):
    """fastcore's chunked: lists of chunk_sz items from an iterator (the last one shorter
    unless drop_last)."""
    it = iter(it)
    while True:
        chunk = list(itertools.islice(it, chunk_sz))
        if not chunk or (drop_last and len(chunk) < chunk_sz):
            return
        yield chunk


def course22p2_minibatch_training(torch):
    """fastai/course22p2 nbs/04_minibatch_training.ipynb: an MLP of nn.Linear layers in a
    list, log_softmax three ways (exp/sum/log, x - log-sum, the LogSumExp trick against
    Tensor.logsumexp), nll by integer-array indexing, F.nll_loss and F.cross_entropy, a
    training loop updating parameters under no_grad, nn.Module's registration
    (named_children, a __setattr__ of one's own, add_module, ModuleList, Sequential), an
    Optimizer by hand then optim.SGD, Dataset, DataLoader, Sampler and BatchSampler written
    from scratch (fastcore's store_attr and chunked as small stand-ins), collate, then
    PyTorch's DataLoader with SequentialSampler/RandomSampler/BatchSampler, shuffle and
    num_workers, and fit/get_dls with validation. (The multiprocessing DataLoader's
    mp.Pool.map is Python's map here; plots are left out.)"""
    from functools import reduce
    tensor, nn = torch.tensor, torch.nn
    F = torch.nn.functional
    optim = torch.optim
    torch.set_printoptions(precision=2, linewidth=140, sci_mode=False)
    torch.manual_seed(1)
    try:
        ((x_train, y_train), (x_valid, y_valid), _) = mnist_pickle(300, 100)
        x_train, y_train, x_valid, y_valid = map(tensor, [x_train, y_train, x_valid, y_valid])
        n, m = x_train.shape
        c = y_train.max()+1
        nh = 50
        class Model(nn.Module):
            def __init__(self, n_in, nh, n_out):
                super().__init__()
                self.layers = [nn.Linear(n_in, nh), nn.ReLU(), nn.Linear(nh, n_out)]
            def __call__(self, x):
                for l in self.layers: x = l(x)
                return x
        model = Model(m, nh, 10)
        pred = model(x_train)
        print(pred.shape)
        def log_softmax(x): return (x.exp()/(x.exp().sum(-1, keepdim=True))).log()
        print(log_softmax(pred))
        def log_softmax(x): return x - x.exp().sum(-1, keepdim=True).log()
        def logsumexp(x):
            m = x.max(-1)[0]
            return m + (x-m[:, None]).exp().sum(-1).log()
        def log_softmax(x): return x - x.logsumexp(-1, keepdim=True)
        test_close(logsumexp(pred), pred.logsumexp(-1))
        sm_pred = log_softmax(pred)
        print(sm_pred)
        print(y_train[:3])
        print(sm_pred[0, 5], sm_pred[1, 0], sm_pred[2, 4])
        print(sm_pred[[0, 1, 2], y_train[:3]])
        def nll(input, target): return -input[range(target.shape[0]), target].mean()
        loss = nll(sm_pred, y_train)
        print(loss)
        test_close(F.nll_loss(F.log_softmax(pred, -1), y_train), loss, 1e-3)
        test_close(F.cross_entropy(pred, y_train), loss, 1e-3)

        loss_func = F.cross_entropy
        bs = 50
        xb = x_train[0:bs]
        preds = model(xb)
        print(preds[0], preds.shape)
        yb = y_train[0:bs]
        print(yb)
        print(loss_func(preds, yb))
        print(preds.argmax(dim=1))
        def accuracy(out, yb): return (out.argmax(dim=1) == yb).float().mean()
        print(accuracy(preds, yb))
        lr = 0.5
        epochs = 3
        def report(loss, preds, yb): print(f'{loss:.2f}, {accuracy(preds, yb):.2f}')
        xb, yb = x_train[:bs], y_train[:bs]
        preds = model(xb)
        report(loss_func(preds, yb), preds, yb)
        for epoch in range(epochs):
            for i in range(0, n, bs):
                s = slice(i, min(n, i+bs))
                xb, yb = x_train[s], y_train[s]
                preds = model(xb)
                loss = loss_func(preds, yb)
                loss.backward()
                with torch.no_grad():
                    for l in model.layers:
                        if hasattr(l, 'weight'):
                            l.weight -= l.weight.grad * lr
                            l.bias -= l.bias.grad * lr
                            l.weight.grad.zero_()
                            l.bias .grad.zero_()
            report(loss, preds, yb)

        m1 = nn.Module()
        m1.foo = nn.Linear(3, 4)
        print(m1)
        print(list(m1.named_children()))
        print(type(m1.named_children()).__name__, m1.named_children().__name__)
        print(list(m1.parameters()))
        class MLP(nn.Module):
            def __init__(self, n_in, nh, n_out):
                super().__init__()
                self.l1 = nn.Linear(n_in, nh)
                self.l2 = nn.Linear(nh, n_out)
                self.relu = nn.ReLU()
            def forward(self, x): return self.l2(self.relu(self.l1(x)))
        model = MLP(m, nh, 10)
        print(model.l1)
        print(model)
        for name, l in model.named_children(): print(f"{name}: {l}")
        for p in model.parameters(): print(p.shape)
        def fit():
            for epoch in range(epochs):
                for i in range(0, n, bs):
                    s = slice(i, min(n, i+bs))
                    xb, yb = x_train[s], y_train[s]
                    preds = model(xb)
                    loss = loss_func(preds, yb)
                    loss.backward()
                    with torch.no_grad():
                        for p in model.parameters(): p -= p.grad * lr
                        model.zero_grad()
                report(loss, preds, yb)
        fit()
        class MyModule:
            def __init__(self, n_in, nh, n_out):
                self._modules = {}
                self.l1 = nn.Linear(n_in, nh)
                self.l2 = nn.Linear(nh, n_out)
            def __setattr__(self, k, v):
                if not k.startswith("_"): self._modules[k] = v
                super().__setattr__(k, v)
            def __repr__(self): return f'{self._modules}'
            def parameters(self):
                for l in self._modules.values(): yield from l.parameters()
        mdl = MyModule(m, nh, 10)
        print(mdl)
        for p in mdl.parameters(): print(p.shape)
        layers = [nn.Linear(m, nh), nn.ReLU(), nn.Linear(nh, 10)]
        class Model(nn.Module):
            def __init__(self, layers):
                super().__init__()
                self.layers = layers
                for i, l in enumerate(self.layers): self.add_module(f'layer_{i}', l)
            def forward(self, x): return reduce(lambda val, layer: layer(val), self.layers, x)
        model = Model(layers)
        print(model)
        print(model(xb).shape)
        class SequentialModel(nn.Module):
            def __init__(self, layers):
                super().__init__()
                self.layers = nn.ModuleList(layers)
            def forward(self, x):
                for l in self.layers: x = l(x)
                return x
        model = SequentialModel(layers)
        print(model)
        fit()
        model = nn.Sequential(nn.Linear(m, nh), nn.ReLU(), nn.Linear(nh, 10))
        fit()
        print(loss_func(model(xb), yb), accuracy(model(xb), yb))
        print(model)

        class Optimizer():
            def __init__(self, params, lr=0.5): self.params, self.lr = list(params), lr
            def step(self):
                with torch.no_grad():
                    for p in self.params: p -= p.grad * self.lr
            def zero_grad(self):
                for p in self.params: p.grad.data.zero_()
        model = nn.Sequential(nn.Linear(m, nh), nn.ReLU(), nn.Linear(nh, 10))
        opt = Optimizer(model.parameters())
        for epoch in range(epochs):
            for i in range(0, n, bs):
                s = slice(i, min(n, i+bs))
                xb, yb = x_train[s], y_train[s]
                preds = model(xb)
                loss = loss_func(preds, yb)
                loss.backward()
                opt.step()
                opt.zero_grad()
            report(loss, preds, yb)
        def get_model():
            model = nn.Sequential(nn.Linear(m, nh), nn.ReLU(), nn.Linear(nh, 10))
            return model, optim.SGD(model.parameters(), lr=lr)
        model, opt = get_model()
        print(loss_func(model(xb), yb))
        for epoch in range(epochs):
            for i in range(0, n, bs):
                s = slice(i, min(n, i+bs))
                xb, yb = x_train[s], y_train[s]
                preds = model(xb)
                loss = loss_func(preds, yb)
                loss.backward()
                opt.step()
                opt.zero_grad()
            report(loss, preds, yb)

        class Dataset():
            def __init__(self, x, y): self.x, self.y = x, y
            def __len__(self): return len(self.x)
            def __getitem__(self, i): return self.x[i], self.y[i]
        train_ds, valid_ds = Dataset(x_train, y_train), Dataset(x_valid, y_valid)
        assert len(train_ds) == len(x_train)
        assert len(valid_ds) == len(x_valid)
        xb, yb = train_ds[0:5]
        assert xb.shape == (5, 28*28)
        assert yb.shape == (5,)
        print(xb, yb)
        model, opt = get_model()
        for epoch in range(epochs):
            for i in range(0, n, bs):
                xb, yb = train_ds[i:min(n, i+bs)]
                preds = model(xb)
                loss = loss_func(preds, yb)
                loss.backward()
                opt.step()
                opt.zero_grad()
            report(loss, preds, yb)

        class DataLoader():
            def __init__(self, ds, bs): self.ds, self.bs = ds, bs
            def __iter__(self):
                for i in range(0, len(self.ds), self.bs): yield self.ds[i:i+self.bs]
        train_dl = DataLoader(train_ds, bs)
        valid_dl = DataLoader(valid_ds, bs)
        xb, yb = next(iter(valid_dl))
        print(xb.shape)
        print(yb)
        print(xb[0].view(28, 28).shape, yb[0])
        model, opt = get_model()
        def fit():
            for epoch in range(epochs):
                for xb, yb in train_dl:
                    preds = model(xb)
                    loss = loss_func(pred, yb)
                    loss.backward()
                    opt.step()
                    opt.zero_grad()
                report(loss, preds, yb)
        try:   # (the notebook's pred, the whole training set's, for preds: an error)
            fit()
        except ValueError as e:
            print(type(e).__name__, e)
        def fit():
            for epoch in range(epochs):
                for xb, yb in train_dl:
                    preds = model(xb)
                    loss = loss_func(preds, yb)
                    loss.backward()
                    opt.step()
                    opt.zero_grad()
                report(loss, preds, yb)
        fit()
        print(loss_func(model(xb), yb), accuracy(model(xb), yb))

        class Sampler():
            def __init__(self, ds, shuffle=False): self.n, self.shuffle = len(ds), shuffle
            def __iter__(self):
                res = list(range(self.n))
                if self.shuffle: random.shuffle(res)
                return iter(res)
        ss = Sampler(train_ds)
        it = iter(ss)
        for o in range(5): print(next(it))
        print(list(itertools.islice(ss, 5)))
        ss = Sampler(train_ds, shuffle=True)
        print(list(itertools.islice(ss, 5)))
        class BatchSampler():
            def __init__(self, sampler, bs, drop_last=False): store_attr()
            def __iter__(self): yield from chunked(iter(self.sampler), self.bs, drop_last=self.drop_last)
        batchs = BatchSampler(ss, 4)
        print(list(itertools.islice(batchs, 5)))
        def collate(b):
            xs, ys = zip(*b)
            return torch.stack(xs), torch.stack(ys)
        class DataLoader():
            def __init__(self, ds, batchs, collate_fn=collate): store_attr()
            def __iter__(self): yield from (self.collate_fn(self.ds[i] for i in b) for b in self.batchs)
        train_samp = BatchSampler(Sampler(train_ds, shuffle=True), bs)
        valid_samp = BatchSampler(Sampler(valid_ds, shuffle=False), bs)
        train_dl = DataLoader(train_ds, batchs=train_samp)
        valid_dl = DataLoader(valid_ds, batchs=valid_samp)
        xb, yb = next(iter(valid_dl))
        print(xb[0].view(28, 28).sum(), yb[0])
        print(xb.shape, yb.shape)
        model, opt = get_model()
        fit()
        print(train_ds[[3, 6, 8, 1]])
        print(train_ds.__getitem__([3, 6, 8, 1]))
        for o in map(train_ds.__getitem__, ([3, 6], [8, 1])): print(o)
        class DataLoader():
            def __init__(self, ds, batchs, n_workers=1, collate_fn=collate): store_attr()
            def __iter__(self):
                yield from map(self.ds.__getitem__, iter(self.batchs))
        train_dl = DataLoader(train_ds, batchs=train_samp, n_workers=2)
        it = iter(train_dl)
        xb, yb = next(it)
        print(xb.shape, yb.shape)

        DataLoader, SequentialSampler = torch.utils.data.DataLoader, torch.utils.data.SequentialSampler
        RandomSampler, BatchSampler = torch.utils.data.RandomSampler, torch.utils.data.BatchSampler
        train_samp = BatchSampler(RandomSampler(train_ds), bs, drop_last=False)
        valid_samp = BatchSampler(SequentialSampler(valid_ds), bs, drop_last=False)
        train_dl = DataLoader(train_ds, batch_sampler=train_samp, collate_fn=collate)
        valid_dl = DataLoader(valid_ds, batch_sampler=valid_samp, collate_fn=collate)
        model, opt = get_model()
        fit()
        print(loss_func(model(xb), yb), accuracy(model(xb), yb))
        train_dl = DataLoader(train_ds, bs, sampler=RandomSampler(train_ds), collate_fn=collate)
        valid_dl = DataLoader(valid_ds, bs, sampler=SequentialSampler(valid_ds), collate_fn=collate)
        # (the notebook's num_workers=2: worker processes take seconds to start under PyTorch)
        train_dl = DataLoader(train_ds, bs, shuffle=True, drop_last=True, num_workers=0)
        valid_dl = DataLoader(valid_ds, bs, shuffle=False, num_workers=0)
        model, opt = get_model()
        fit()
        print(loss_func(model(xb), yb), accuracy(model(xb), yb))
        print(train_ds[[4, 6, 7]])
        train_dl = DataLoader(train_ds, sampler=train_samp)
        valid_dl = DataLoader(valid_ds, sampler=valid_samp)
        xb, yb = next(iter(train_dl))
        print(xb.shape, yb.shape)

        def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
            for epoch in range(epochs):
                model.train()
                for xb, yb in train_dl:
                    loss = loss_func(model(xb), yb)
                    loss.backward()
                    opt.step()
                    opt.zero_grad()
                model.eval()
                with torch.no_grad():
                    tot_loss, tot_acc, count = 0., 0., 0
                    for xb, yb in valid_dl:
                        pred = model(xb)
                        n = len(xb)
                        count += n
                        tot_loss += loss_func(pred, yb).item()*n
                        tot_acc += accuracy(pred, yb).item()*n
                print(epoch, tot_loss/count, tot_acc/count)
            return tot_loss/count, tot_acc/count
        def get_dls(train_ds, valid_ds, bs, **kwargs):
            return (DataLoader(train_ds, batch_size=bs, shuffle=True, **kwargs),
                    DataLoader(valid_ds, batch_size=bs*2, **kwargs))
        train_dl, valid_dl = get_dls(train_ds, valid_ds, bs)
        model, opt = get_model()
        loss, acc = fit(5, model, loss_func, opt, train_dl, valid_dl)
        print(loss, acc)
    finally:
        torch.set_printoptions(profile="default")
    return dict(model.named_parameters())


# ---- karpathy/nn-zero-to-hero makemore parts 2, 3 and 5; karpathy/build-nanogpt ------------

def makemore_wavenet(torch):
    """karpathy/nn-zero-to-hero lectures/makemore/makemore_part5_cnn1.ipynb: the words
    shuffled with random.seed(42), an 8-character context, the torchified layers (Linear
    with kaiming-scaled randn and an in-place bias add, BatchNorm1d over dims (0, 1) for
    3-d input with running buffers under no_grad, Tanh, Embedding, FlattenConsecutive,
    Sequential), the hierarchical network (last layer scaled by 0.1 under no_grad), the
    SGD loop with a step decay and loss.log10(), eval mode, split_loss under
    @torch.no_grad(), sampling with multinomial, and the single-example forwards of the
    "why convolutions" preview; the layer output shapes printed as in the lecture video.
    (200,000 steps are 150 here; the plot is left out.)"""
    F = torch.nn.functional
    words = names()
    print(len(words))
    print(max(len(w) for w in words))
    print(words[:8])
    chars = sorted(list(set(''.join(words))))
    stoi = {s: i+1 for i, s in enumerate(chars)}
    stoi['.'] = 0
    itos = {i: s for s, i in stoi.items()}
    vocab_size = len(itos)
    print(itos)
    print(vocab_size)
    random.seed(42)
    random.shuffle(words)
    block_size = 8
    def build_dataset(words):
        X, Y = [], []
        for w in words:
            context = [0] * block_size
            for ch in w + '.':
                ix = stoi[ch]
                X.append(context)
                Y.append(ix)
                context = context[1:] + [ix]  # crop and append
        X = torch.tensor(X)
        Y = torch.tensor(Y)
        print(X.shape, Y.shape)
        return X, Y
    n1 = int(0.8*len(words))
    n2 = int(0.9*len(words))
    Xtr, Ytr = build_dataset(words[:n1])
    Xdev, Ydev = build_dataset(words[n1:n2])
    Xte, Yte = build_dataset(words[n2:])
    for x, y in zip(Xtr[:20], Ytr[:20]):
        print(''.join(itos[ix.item()] for ix in x), '-->', itos[y.item()])

    class Linear:
        def __init__(self, fan_in, fan_out, bias=True):
            self.weight = torch.randn((fan_in, fan_out)) / fan_in**0.5  # note: kaiming init
            self.bias = torch.zeros(fan_out) if bias else None
        def __call__(self, x):
            self.out = x @ self.weight
            if self.bias is not None:
                self.out += self.bias
            return self.out
        def parameters(self):
            return [self.weight] + ([] if self.bias is None else [self.bias])
    class BatchNorm1d:
        def __init__(self, dim, eps=1e-5, momentum=0.1):
            self.eps = eps
            self.momentum = momentum
            self.training = True
            self.gamma = torch.ones(dim)
            self.beta = torch.zeros(dim)
            self.running_mean = torch.zeros(dim)
            self.running_var = torch.ones(dim)
        def __call__(self, x):
            if self.training:
                if x.ndim == 2:
                    dim = 0
                elif x.ndim == 3:
                    dim = (0, 1)
                xmean = x.mean(dim, keepdim=True)  # batch mean
                xvar = x.var(dim, keepdim=True)  # batch variance
            else:
                xmean = self.running_mean
                xvar = self.running_var
            xhat = (x - xmean) / torch.sqrt(xvar + self.eps)  # normalize to unit variance
            self.out = self.gamma * xhat + self.beta
            if self.training:
                with torch.no_grad():
                    self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * xmean
                    self.running_var = (1 - self.momentum) * self.running_var + self.momentum * xvar
            return self.out
        def parameters(self):
            return [self.gamma, self.beta]
    class Tanh:
        def __call__(self, x):
            self.out = torch.tanh(x)
            return self.out
        def parameters(self):
            return []
    class Embedding:
        def __init__(self, num_embeddings, embedding_dim):
            self.weight = torch.randn((num_embeddings, embedding_dim))
        def __call__(self, IX):
            self.out = self.weight[IX]
            return self.out
        def parameters(self):
            return [self.weight]
    class FlattenConsecutive:
        def __init__(self, n):
            self.n = n
        def __call__(self, x):
            B, T, C = x.shape
            x = x.view(B, T//self.n, C*self.n)
            if x.shape[1] == 1:
                x = x.squeeze(1)
            self.out = x
            return self.out
        def parameters(self):
            return []
    class Sequential:
        def __init__(self, layers):
            self.layers = layers
        def __call__(self, x):
            for layer in self.layers:
                x = layer(x)
            self.out = x
            return self.out
        def parameters(self):
            return [p for layer in self.layers for p in layer.parameters()]

    torch.manual_seed(42)
    n_embd = 24
    n_hidden = 128
    model = Sequential([
        Embedding(vocab_size, n_embd),
        FlattenConsecutive(2), Linear(n_embd * 2, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
        FlattenConsecutive(2), Linear(n_hidden*2, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
        FlattenConsecutive(2), Linear(n_hidden*2, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
        Linear(n_hidden, vocab_size),
    ])
    with torch.no_grad():
        model.layers[-1].weight *= 0.1  # last layer make less confident
    parameters = model.parameters()
    print(sum(p.nelement() for p in parameters))
    for p in parameters:
        p.requires_grad = True

    # (from the video: one batch through, each layer's output shape)
    ix = torch.randint(0, Xtr.shape[0], (4,))
    Xb, Yb = Xtr[ix], Ytr[ix]
    logits = model(Xb)
    print(Xb.shape)
    print(Xb)
    for layer in model.layers:
        print(layer.__class__.__name__, ':', tuple(layer.out.shape))
    e = torch.randn(4, 8, 10)
    explicit = torch.cat([e[:, ::2, :], e[:, 1::2, :]], dim=2)
    print(explicit.shape, (e.view(4, 4, 20) == explicit).all())
    print(model.layers[3].running_mean.shape)

    max_steps = 150
    batch_size = 32
    lossi = []
    for i in range(max_steps):
        ix = torch.randint(0, Xtr.shape[0], (batch_size,))
        Xb, Yb = Xtr[ix], Ytr[ix]  # batch X,Y
        logits = model(Xb)
        loss = F.cross_entropy(logits, Yb)  # loss function
        for p in parameters:
            p.grad = None
        loss.backward()
        lr = 0.1 if i < 100 else 0.01  # step learning rate decay
        for p in parameters:
            p.data += -lr * p.grad
        if i % 25 == 0:
            print(f'{i:7d}/{max_steps:7d}: {loss.item():.4f}')
        lossi.append(loss.log10().item())
    print(torch.tensor(lossi).view(-1, 50).mean(1))
    for layer in model.layers:
        layer.training = False
    @torch.no_grad()
    def split_loss(split):
        x, y = {
            'train': (Xtr, Ytr),
            'val': (Xdev, Ydev),
            'test': (Xte, Yte),
        }[split]
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        print(split, loss.item())
    split_loss('train')
    split_loss('val')
    for _ in range(20):
        out = []
        context = [0] * block_size
        while True:
            logits = model(torch.tensor([context]))
            probs = F.softmax(logits, dim=1)
            ix = torch.multinomial(probs, num_samples=1).item()
            context = context[1:] + [ix]
            out.append(ix)
            if ix == 0:
                break
        print(''.join(itos[i] for i in out))
    for x, y in zip(Xtr[7:15], Ytr[7:15]):
        print(''.join(itos[ix.item()] for ix in x), '-->', itos[y.item()])
    logits = model(Xtr[[7]])
    print(logits.shape)
    try:   # (27 characters in names.txt; the stand-in names have fewer)
        logits = torch.zeros(8, 27)
        for i in range(8):
            logits[i] = model(Xtr[[7+i]])
    except RuntimeError as e:
        print(e)
    logits = torch.zeros(8, vocab_size)
    for i in range(8):
        logits[i] = model(Xtr[[7+i]])
    print(logits.shape)
    print(logits)
    return {"emb": model.layers[0].weight, "bn_mean": model.layers[3].running_mean,
            "bn_var": model.layers[-2 - 1].running_var, "out_w": model.layers[-1].weight}


def build_nanogpt_train_gpt2(torch):
    """karpathy/build-nanogpt train_gpt2.py at a tiny config: CausalSelfAttention with one
    c_attn Linear split three ways and F.scaled_dot_product_attention(is_causal=True), a
    registered tril "bias" buffer, NANOGPT_SCALE_INIT on the projections, MLP with
    GELU(approximate='tanh'), Block, the GPTConfig dataclass, GPT in an nn.ModuleDict with
    wte tied to lm_head, _init_weights through self.apply, configure_optimizers (decayed
    2-d and non-decayed groups, inspect.signature for AdamW's fused), DataLoaderLite, the
    gradient accumulation loop (loss / grad_accum_steps, loss.detach() summed),
    clip_grad_norm_, the warmup-cosine get_lr set in every param_group, and the top-k
    sampling (topk, multinomial, gather, cat) that follows. Offline and on CPU: input.txt
    is the made-up story and tiktoken the stand-in word tokenizer; torch.compile (PyTorch's
    inductor takes seconds), bfloat16 autocast, cuda.synchronize and the timings are left
    out; the sizes are small (2 layers, 2 heads, 32 channels, 12 steps)."""
    nn = torch.nn
    F = torch.nn.functional

    class CausalSelfAttention(nn.Module):
        def __init__(self, config):
            super().__init__()
            assert config.n_embd % config.n_head == 0
            self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd)
            self.c_proj = nn.Linear(config.n_embd, config.n_embd)
            self.c_proj.NANOGPT_SCALE_INIT = 1
            self.n_head = config.n_head
            self.n_embd = config.n_embd
            self.register_buffer("bias", torch.tril(torch.ones(config.block_size, config.block_size))
                                 .view(1, 1, config.block_size, config.block_size))
        def forward(self, x):
            B, T, C = x.size()
            qkv = self.c_attn(x)
            q, k, v = qkv.split(self.n_embd, dim=2)
            k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)
            q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)
            v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # flash attention
            y = y.transpose(1, 2).contiguous().view(B, T, C)
            y = self.c_proj(y)
            return y
    class MLP(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd)
            self.gelu = nn.GELU(approximate='tanh')
            self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd)
            self.c_proj.NANOGPT_SCALE_INIT = 1
        def forward(self, x):
            x = self.c_fc(x)
            x = self.gelu(x)
            x = self.c_proj(x)
            return x
    class Block(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.ln_1 = nn.LayerNorm(config.n_embd)
            self.attn = CausalSelfAttention(config)
            self.ln_2 = nn.LayerNorm(config.n_embd)
            self.mlp = MLP(config)
        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            x = x + self.mlp(self.ln_2(x))
            return x
    @dataclass
    class GPTConfig:
        block_size: int = 32    # (1024 in the file)
        vocab_size: int = 85    # (50257)
        n_layer: int = 2        # (12)
        n_head: int = 2         # (12)
        n_embd: int = 32        # (768)
    class GPT(nn.Module):
        def __init__(self, config):
            super().__init__()
            self.config = config
            self.transformer = nn.ModuleDict(dict(
                wte=nn.Embedding(config.vocab_size, config.n_embd),
                wpe=nn.Embedding(config.block_size, config.n_embd),
                h=nn.ModuleList([Block(config) for _ in range(config.n_layer)]),
                ln_f=nn.LayerNorm(config.n_embd),
            ))
            self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
            self.transformer.wte.weight = self.lm_head.weight
            self.apply(self._init_weights)
        def _init_weights(self, module):
            if isinstance(module, nn.Linear):
                std = 0.02
                if hasattr(module, 'NANOGPT_SCALE_INIT'):
                    std *= (2 * self.config.n_layer) ** -0.5
                torch.nn.init.normal_(module.weight, mean=0.0, std=std)
                if module.bias is not None:
                    torch.nn.init.zeros_(module.bias)
            elif isinstance(module, nn.Embedding):
                torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
        def forward(self, idx, targets=None):
            B, T = idx.size()
            assert T <= self.config.block_size, f"Cannot forward sequence of length {T}, block size is only {self.config.block_size}"
            pos = torch.arange(0, T, dtype=torch.long, device=idx.device)  # shape (T)
            pos_emb = self.transformer.wpe(pos)  # position embeddings of shape (T, n_embd)
            tok_emb = self.transformer.wte(idx)  # token embeddings of shape (B, T, n_embd)
            x = tok_emb + pos_emb
            for block in self.transformer.h:
                x = block(x)
            x = self.transformer.ln_f(x)
            logits = self.lm_head(x)  # (B, T, vocab_size)
            loss = None
            if targets is not None:
                loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
            return logits, loss
        def configure_optimizers(self, weight_decay, learning_rate, device):
            param_dict = {pn: p for pn, p in self.named_parameters()}
            param_dict = {pn: p for pn, p in param_dict.items() if p.requires_grad}
            decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
            nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
            optim_groups = [
                {'params': decay_params, 'weight_decay': weight_decay},
                {'params': nodecay_params, 'weight_decay': 0.0}
            ]
            num_decay_params = sum(p.numel() for p in decay_params)
            num_nodecay_params = sum(p.numel() for p in nodecay_params)
            print(f"num decayed parameter tensors: {len(decay_params)}, with {num_decay_params:,} parameters")
            print(f"num non-decayed parameter tensors: {len(nodecay_params)}, with {num_nodecay_params:,} parameters")
            fused_available = 'fused' in inspect.signature(torch.optim.AdamW).parameters
            use_fused = fused_available and 'cuda' in device
            print(f"using fused AdamW: {use_fused}")
            optimizer = torch.optim.AdamW(optim_groups, lr=learning_rate, betas=(0.9, 0.95), eps=1e-8, fused=use_fused)
            return optimizer

    tiktoken = SimpleNamespace(get_encoding=lambda name: StandInTokenizer())
    class DataLoaderLite:
        def __init__(self, B, T):
            self.B = B
            self.T = T
            text = the_verdict()     # (open('input.txt').read())
            enc = tiktoken.get_encoding('gpt2')
            tokens = enc.encode(text)
            self.tokens = torch.tensor(tokens)
            print(f"loaded {len(self.tokens)} tokens")
            print(f"1 epoch = {len(self.tokens) // (B * T)} batches")
            self.current_position = 0
        def next_batch(self):
            B, T = self.B, self.T
            buf = self.tokens[self.current_position: self.current_position+B*T+1]
            x = (buf[:-1]).view(B, T)  # inputs
            y = (buf[1:]).view(B, T)  # targets
            self.current_position += B * T
            if self.current_position + (B * T + 1) > len(self.tokens):
                self.current_position = 0
            return x, y

    device = "cpu"
    if torch.cuda.is_available():
        device = "cuda"
    elif hasattr(torch.backends, "mps") and torch.backends.mps.is_available():
        device = "mps"
    print(f"using device: {device}")
    torch.manual_seed(1337)
    if torch.cuda.is_available():
        torch.cuda.manual_seed(1337)
    total_batch_size = 128  # (524288)
    B = 4   # micro batch size
    T = 16  # sequence length
    assert total_batch_size % (B * T) == 0, "make sure total_batch_size is divisible by B * T"
    grad_accum_steps = total_batch_size // (B * T)
    print(f"total desired batch size: {total_batch_size}")
    print(f"=> calculated gradient accumulation steps: {grad_accum_steps}")
    train_loader = DataLoaderLite(B=B, T=T)
    torch.set_float32_matmul_precision('high')
    try:
        model = GPT(GPTConfig(vocab_size=96))
        model.to(device)
        print(sum(p.numel() for p in model.parameters()), model.transformer.wte.weight is model.lm_head.weight)
        max_lr = 6e-4
        min_lr = max_lr * 0.1
        warmup_steps = 3
        max_steps = 12
        def get_lr(it):
            if it < warmup_steps:
                return max_lr * (it+1) / warmup_steps
            if it > max_steps:
                return min_lr
            decay_ratio = (it - warmup_steps) / (max_steps - warmup_steps)
            assert 0 <= decay_ratio <= 1
            coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))  # coeff starts at 1 and goes to 0
            return min_lr + coeff * (max_lr - min_lr)
        optimizer = model.configure_optimizers(weight_decay=0.1, learning_rate=6e-4, device=device)
        for step in range(max_steps):
            optimizer.zero_grad()
            loss_accum = 0.0
            for micro_step in range(grad_accum_steps):
                x, y = train_loader.next_batch()
                x, y = x.to(device), y.to(device)
                logits, loss = model(x, y)
                loss = loss / grad_accum_steps
                loss_accum += loss.detach()
                loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            lr = get_lr(step)
            for param_group in optimizer.param_groups:
                param_group['lr'] = lr
            optimizer.step()
            tokens_processed = train_loader.B * train_loader.T * grad_accum_steps
            print(f"step {step:4d} | loss: {loss_accum.item():.6f} | lr {lr:.4e} | norm: {norm:.4f} | tokens: {tokens_processed}")

        model.eval()
        num_return_sequences = 5
        max_length = 30
        enc = tiktoken.get_encoding('gpt2')
        tokens = enc.encode("Hello, I am a language model,")
        tokens = torch.tensor(tokens, dtype=torch.long)
        tokens = tokens.unsqueeze(0).repeat(num_return_sequences, 1)
        x = tokens.to(device)
        torch.manual_seed(42)
        torch.cuda.manual_seed(42)
        while x.size(1) < max_length:
            with torch.no_grad():
                logits, _ = model(x)   # (the file's logits = model(x) is a tuple: its bug)
                logits = logits[:, -1, :]  # (B, vocab_size)
                probs = F.softmax(logits, dim=-1)
                topk_probs, topk_indices = torch.topk(probs, 50, dim=-1)
                ix = torch.multinomial(topk_probs, 1)  # (B, 1)
                xcol = torch.gather(topk_indices, -1, ix)  # (B, 1)
                x = torch.cat((x, xcol), dim=1)
        for i in range(num_return_sequences):
            tokens = [t if t < 85 else 84 for t in x[i, :max_length].tolist()]   # (padded ids)
            decoded = enc.decode(tokens)
            print(">", decoded)
    finally:
        torch.set_float32_matmul_precision('highest')
    return {"wte": model.transformer.wte.weight, "c_attn": model.transformer.h[0].attn.c_attn.weight,
            "exp_avg": optimizer.state[model.lm_head.weight]["exp_avg"]}


def makemore_activations_and_gradients(torch):
    """karpathy/nn-zero-to-hero lectures/makemore/makemore_part3_bn.ipynb: the initial loss
    -log(1/27) and a 4-logit example, the MLP with kaiming-scaled W1 (5/3)/sqrt(fan_in) and a
    batch norm written by hand (bngain, bnbias, bnmean_running/bnstd_running updated under
    no_grad), the step-decay loop with loss.log10(), calibrating the batch norm over the
    training set, split_loss under @torch.no_grad() and sampling with a seeded generator;
    the x @ w standard deviation demo and kaiming_normal_; then the torchified Linear,
    BatchNorm1d and Tanh layers six deep, retain_grad on every output, the update-to-data
    ratios ud, and the diagnostics printed: each Tanh's mean, std and saturation %, its
    output gradient's mean and std, each weight's grad:data ratio, with torch.histogram of
    each (density=True) summed where the lecture plots it. (200,000 steps are 60 and 40
    here; the plots are left out; the gradients' means, printed %+f by the lecture, are
    left out: near 1e-10, their sign is the matrix products' rounding.)"""
    F = torch.nn.functional
    words = names()
    print(words[:8])
    print(len(words))
    chars = sorted(list(set(''.join(words))))
    stoi = {s: i+1 for i, s in enumerate(chars)}
    stoi['.'] = 0
    itos = {i: s for s, i in stoi.items()}
    vocab_size = len(itos)
    print(itos)
    print(vocab_size)
    block_size = 3
    def build_dataset(words):
        X, Y = [], []
        for w in words:
            context = [0] * block_size
            for ch in w + '.':
                ix = stoi[ch]
                X.append(context)
                Y.append(ix)
                context = context[1:] + [ix]  # crop and append
        X = torch.tensor(X)
        Y = torch.tensor(Y)
        print(X.shape, Y.shape)
        return X, Y
    random.seed(42)
    random.shuffle(words)
    n1 = int(0.8*len(words))
    n2 = int(0.9*len(words))
    Xtr, Ytr = build_dataset(words[:n1])
    Xdev, Ydev = build_dataset(words[n1:n2])
    Xte, Yte = build_dataset(words[n2:])
    print(-torch.tensor(1/27.0).log())
    logits = torch.tensor([0.0, 0.0, 5.0, 0.0])
    probs = torch.softmax(logits, dim=0)
    loss = -probs[2].log()
    print(probs, loss)

    n_embd = 10
    n_hidden = 200
    g = torch.Generator().manual_seed(2147483647)
    C = torch.randn((vocab_size, n_embd), generator=g)
    W1 = torch.randn((n_embd * block_size, n_hidden), generator=g) * (5/3)/((n_embd * block_size)**0.5)
    W2 = torch.randn((n_hidden, vocab_size), generator=g) * 0.01
    b2 = torch.randn(vocab_size, generator=g) * 0
    bngain = torch.ones((1, n_hidden))
    bnbias = torch.zeros((1, n_hidden))
    bnmean_running = torch.zeros((1, n_hidden))
    bnstd_running = torch.ones((1, n_hidden))
    parameters = [C, W1, W2, b2, bngain, bnbias]
    print(sum(p.nelement() for p in parameters))
    for p in parameters:
        p.requires_grad = True
    max_steps = 60
    batch_size = 32
    lossi = []
    for i in range(max_steps):
        ix = torch.randint(0, Xtr.shape[0], (batch_size,), generator=g)
        Xb, Yb = Xtr[ix], Ytr[ix]  # batch X,Y
        emb = C[Xb]
        embcat = emb.view(emb.shape[0], -1)
        hpreact = embcat @ W1
        bnmeani = hpreact.mean(0, keepdim=True)
        bnstdi = hpreact.std(0, keepdim=True)
        hpreact = bngain * (hpreact - bnmeani) / bnstdi + bnbias
        with torch.no_grad():
            bnmean_running = 0.999 * bnmean_running + 0.001 * bnmeani
            bnstd_running = 0.999 * bnstd_running + 0.001 * bnstdi
        h = torch.tanh(hpreact)
        logits = h @ W2 + b2
        loss = F.cross_entropy(logits, Yb)
        for p in parameters:
            p.grad = None
        loss.backward()
        lr = 0.1 if i < 40 else 0.01
        for p in parameters:
            p.data += -lr * p.grad
        if i % 10 == 0:
            print(f'{i:7d}/{max_steps:7d}: {loss.item():.4f}')
        lossi.append(loss.log10().item())
    print((h.abs() > 0.99).float().mean(), hpreact.std(), h.view(-1).tolist()[:5])
    with torch.no_grad():
        emb = C[Xtr]
        embcat = emb.view(emb.shape[0], -1)
        hpreact = embcat @ W1
        bnmean = hpreact.mean(0, keepdim=True)
        bnstd = hpreact.std(0, keepdim=True)
    print(bnmean[0, :5], bnmean_running[0, :5])
    print(bnstd[0, :5], bnstd_running[0, :5])
    @torch.no_grad()
    def split_loss(split):
        x, y = {
            'train': (Xtr, Ytr),
            'val': (Xdev, Ydev),
            'test': (Xte, Yte),
        }[split]
        emb = C[x]  # (N, block_size, n_embd)
        embcat = emb.view(emb.shape[0], -1)  # concat into (N, block_size * n_embd)
        hpreact = embcat @ W1
        hpreact = bngain * (hpreact - bnmean_running) / bnstd_running + bnbias
        h = torch.tanh(hpreact)  # (N, n_hidden)
        logits = h @ W2 + b2  # (N, vocab_size)
        loss = F.cross_entropy(logits, y)
        print(split, loss.item())
    split_loss('train')
    split_loss('val')
    g = torch.Generator().manual_seed(2147483647 + 10)
    for _ in range(10):
        out = []
        context = [0] * block_size
        while True:
            emb = C[torch.tensor([context])]  # (1,block_size,n_embd)
            hpreact = emb.view(1, -1) @ W1
            hpreact = bngain * (hpreact - bnmean_running) / bnstd_running + bnbias
            h = torch.tanh(hpreact)
            logits = h @ W2 + b2
            probs = F.softmax(logits, dim=1)
            ix = torch.multinomial(probs, num_samples=1, generator=g).item()
            context = context[1:] + [ix]
            out.append(ix)
            if ix == 0:
                break
        print(''.join(itos[i] for i in out))

    x = torch.randn(1000, 10)
    w = torch.randn(10, 200) / 10**0.5
    y = x @ w
    print(x.mean(), x.std())
    print(y.mean(), y.std())
    print((torch.randn(10000) * 0.2).std(), (5/3) / (30**0.5))
    w = torch.empty(10, 200)
    torch.nn.init.kaiming_normal_(w, mode='fan_in', nonlinearity='tanh')
    print(w.std())

    class Linear:
        def __init__(self, fan_in, fan_out, bias=True):
            self.weight = torch.randn((fan_in, fan_out), generator=g) / fan_in**0.5
            self.bias = torch.zeros(fan_out) if bias else None
        def __call__(self, x):
            self.out = x @ self.weight
            if self.bias is not None:
                self.out += self.bias
            return self.out
        def parameters(self):
            return [self.weight] + ([] if self.bias is None else [self.bias])
    class BatchNorm1d:
        def __init__(self, dim, eps=1e-5, momentum=0.1):
            self.eps = eps
            self.momentum = momentum
            self.training = True
            self.gamma = torch.ones(dim)
            self.beta = torch.zeros(dim)
            self.running_mean = torch.zeros(dim)
            self.running_var = torch.ones(dim)
        def __call__(self, x):
            if self.training:
                xmean = x.mean(0, keepdim=True)  # batch mean
                xvar = x.var(0, keepdim=True)  # batch variance
            else:
                xmean = self.running_mean
                xvar = self.running_var
            xhat = (x - xmean) / torch.sqrt(xvar + self.eps)  # normalize to unit variance
            self.out = self.gamma * xhat + self.beta
            if self.training:
                with torch.no_grad():
                    self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * xmean
                    self.running_var = (1 - self.momentum) * self.running_var + self.momentum * xvar
            return self.out
        def parameters(self):
            return [self.gamma, self.beta]
    class Tanh:
        def __call__(self, x):
            self.out = torch.tanh(x)
            return self.out
        def parameters(self):
            return []
    n_embd = 10
    n_hidden = 100
    g = torch.Generator().manual_seed(2147483647)
    C = torch.randn((vocab_size, n_embd), generator=g)
    layers = [
        Linear(n_embd * block_size, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
        Linear(n_hidden, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
        Linear(n_hidden, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
        Linear(n_hidden, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
        Linear(n_hidden, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
        Linear(n_hidden, vocab_size, bias=False), BatchNorm1d(vocab_size),
    ]
    with torch.no_grad():
        layers[-1].gamma *= 0.1
        for layer in layers[:-1]:
            if isinstance(layer, Linear):
                layer.weight *= 1.0  # 5/3
    parameters = [C] + [p for layer in layers for p in layer.parameters()]
    print(sum(p.nelement() for p in parameters))
    for p in parameters:
        p.requires_grad = True
    max_steps = 200000
    batch_size = 32
    lossi = []
    ud = []
    for i in range(max_steps):
        ix = torch.randint(0, Xtr.shape[0], (batch_size,), generator=g)
        Xb, Yb = Xtr[ix], Ytr[ix]  # batch X,Y
        emb = C[Xb]  # embed the characters into vectors
        x = emb.view(emb.shape[0], -1)  # concatenate the vectors
        for layer in layers:
            x = layer(x)
        loss = F.cross_entropy(x, Yb)  # loss function
        for layer in layers:
            layer.out.retain_grad()  # AFTER_DEBUG: would take out retain_graph
        for p in parameters:
            p.grad = None
        loss.backward()
        lr = 0.1 if i < 150000 else 0.01  # step learning rate decay
        for p in parameters:
            p.data += -lr * p.grad
        if i % 10 == 0:
            print(f'{i:7d}/{max_steps:7d}: {loss.item():.4f}')
        lossi.append(loss.log10().item())
        with torch.no_grad():
            ud.append([((lr*p.grad).std() / p.data.std()).log10().item() for p in parameters])
        if i >= 40:
            break  # AFTER_DEBUG: would take out obviously to run full optimization
    for i, layer in enumerate(layers[:-1]):  # note: exclude the output layer
        if isinstance(layer, Tanh):
            t = layer.out
            print('layer %d (%10s): mean %+.2f, std %.2f, saturated: %.2f%%' % (i, layer.__class__.__name__, t.mean(), t.std(), (t.abs() > 0.97).float().mean()*100))
            hy, hx = torch.histogram(t, density=True)
            print(hx[:-1].detach().shape, hy.detach().sum() * (hx[1] - hx[0]))
    for i, layer in enumerate(layers[:-1]):  # note: exclude the output layer
        if isinstance(layer, Tanh):
            t = layer.out.grad
            # (the lecture prints t.mean() too, %+f: about 1e-10, its sign is rounding noise)
            print('layer %d (%10s): std %e' % (i, layer.__class__.__name__, t.std()))
            hy, hx = torch.histogram(t, density=True)
            print(hy.detach().argmax())
    for i, p in enumerate(parameters):
        t = p.grad
        if p.ndim == 2:
            print('weight %10s | std %e | grad:data ratio %e' % (tuple(p.shape), t.std(), t.std() / p.std()))
            hy, hx = torch.histogram(t, density=True)
            print(hx.shape, hy.shape)
    for i, p in enumerate(parameters):
        if p.ndim == 2:
            print('param %d' % i, [f'{ud[j][i]:.3f}' for j in range(0, len(ud), 10)])
    for layer in layers:
        layer.training = False
    with torch.no_grad():
        emb = C[Xdev]
        x = emb.view(emb.shape[0], -1)
        for layer in layers:
            x = layer(x)
        print('val', F.cross_entropy(x, Ydev).item())
    return {"C": C, "w0": layers[0].weight, "gamma": layers[-1].gamma,
            "rm": layers[1].running_mean, "W1": W1}


def makemore_mlp_lecture(torch):
    """karpathy/nn-zero-to-hero lectures/makemore/makemore_part2_mlp.ipynb: the dataset of
    3-character contexts, a 2-d embedding C indexed by ints, lists and tensors, the
    concatenation three ways (torch.cat of slices, torch.unbind, view) and
    a = torch.arange(18) viewed and its storage, the hidden layer emb.view(-1, 6) @ W1 + b1
    under tanh, the loss by hand (counts / counts.sum(1, keepdims=True),
    -prob[torch.arange(32), Y].log().mean()) against F.cross_entropy, the full-batch loop,
    minibatches, the learning-rate sweep lre = torch.linspace(-3, 0, 1000), 10**lre, the
    80/10/10 split, the 10-d embedding with 200 hidden units and a step decay, the split
    losses and sampling with a seeded Generator. (Steps cut from 200,000 to a few dozen;
    plots left out.)"""
    F = torch.nn.functional
    words = names()
    print(words[:8])
    print(len(words))
    chars = sorted(list(set(''.join(words))))
    stoi = {s: i+1 for i, s in enumerate(chars)}
    stoi['.'] = 0
    itos = {i: s for s, i in stoi.items()}
    print(itos)
    block_size = 3
    X, Y = [], []
    for w in words[:5]:
        print(w)
        context = [0] * block_size
        for ch in w + '.':
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            print(''.join(itos[i] for i in context), '--->', itos[ix])
            context = context[1:] + [ix]  # crop and append
    X = torch.tensor(X)
    Y = torch.tensor(Y)
    print(X.shape, X.dtype, Y.shape, Y.dtype)
    V = len(stoi)
    C = torch.randn((V, 2))
    print(C[5])
    print(F.one_hot(torch.tensor(5), num_classes=V).float() @ C)
    print(C[[5, 6, 7, 7, 7]], C[torch.tensor([5, 6, 7, 7, 7])])
    print(C[X].shape, X[13, 2], C[X][13, 2], C[1])
    emb = C[X]
    print(emb.shape)
    W1 = torch.randn((6, 100))
    b1 = torch.randn(100)
    print(torch.cat([emb[:, 0, :], emb[:, 1, :], emb[:, 2, :]], 1).shape)
    print(torch.cat(torch.unbind(emb, 1), 1).shape)
    a = torch.arange(18)
    print(a.shape, a.view(2, 9), a.view(9, 2), a.view(3, 3, 2))
    print(a.storage())
    print(emb.view(emb.shape[0], 6) == torch.cat(torch.unbind(emb, 1), 1))
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
    print(h, h.shape)
    print((emb.view(-1, 6) @ W1).shape, b1.shape)
    W2 = torch.randn((100, V))
    b2 = torch.randn(V)
    logits = h @ W2 + b2
    print(logits.shape)
    counts = logits.exp()
    prob = counts / counts.sum(1, keepdims=True)
    print(prob.shape, prob[0].sum())
    loss = -prob[torch.arange(X.shape[0]), Y].log().mean()
    print(loss)

    print(X.shape, Y.shape)
    g = torch.Generator().manual_seed(2147483647)
    C = torch.randn((V, 2), generator=g)
    W1 = torch.randn((6, 100), generator=g)
    b1 = torch.randn(100, generator=g)
    W2 = torch.randn((100, V), generator=g)
    b2 = torch.randn(V, generator=g)
    parameters = [C, W1, b1, W2, b2]
    print(sum(p.nelement() for p in parameters))
    emb = C[X]  # (32, 3, 2)
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)  # (32, 100)
    logits = h @ W2 + b2  # (32, 27)
    counts = logits.exp()
    prob = counts / counts.sum(1, keepdims=True)
    loss = -prob[torch.arange(X.shape[0]), Y].log().mean()
    print(loss, F.cross_entropy(logits, Y))
    print(torch.tensor([-100, -3, 0, 100]).exp(), (torch.tensor([-100, -3, 0, 100]) - 100).exp())
    for p in parameters:
        p.requires_grad = True
    for _ in range(10):
        emb = C[X]
        h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
        logits = h @ W2 + b2
        loss = F.cross_entropy(logits, Y)
        for p in parameters:
            p.grad = None
        loss.backward()
        for p in parameters:
            p.data += -0.1 * p.grad
    print(loss.item())
    print(logits.max(1), Y)

    def build_dataset(words):
        X, Y = [], []
        for w in words:
            context = [0] * block_size
            for ch in w + '.':
                ix = stoi[ch]
                X.append(context)
                Y.append(ix)
                context = context[1:] + [ix]  # crop and append
        X = torch.tensor(X)
        Y = torch.tensor(Y)
        print(X.shape, Y.shape)
        return X, Y
    random.seed(42)
    random.shuffle(words)
    n1 = int(0.8*len(words))
    n2 = int(0.9*len(words))
    Xtr, Ytr = build_dataset(words[:n1])
    Xdev, Ydev = build_dataset(words[n1:n2])
    Xte, Yte = build_dataset(words[n2:])

    g = torch.Generator().manual_seed(2147483647)
    C = torch.randn((V, 2), generator=g)
    W1 = torch.randn((6, 300), generator=g)
    b1 = torch.randn(300, generator=g)
    W2 = torch.randn((300, V), generator=g)
    b2 = torch.randn(V, generator=g)
    parameters = [C, W1, b1, W2, b2]
    print(sum(p.nelement() for p in parameters))
    for p in parameters:
        p.requires_grad = True
    lre = torch.linspace(-3, 0, 1000)
    lrs = 10**lre
    lri = []
    lossi = []
    stepi = []
    for i in range(0, 1000, 25):
        ix = torch.randint(0, Xtr.shape[0], (32,))
        emb = C[Xtr[ix]]  # (32, 3, 2)
        h = torch.tanh(emb.view(-1, 6) @ W1 + b1)  # (32, 100)
        logits = h @ W2 + b2  # (32, 27)
        loss = F.cross_entropy(logits, Ytr[ix])
        for p in parameters:
            p.grad = None
        loss.backward()
        lr = lrs[i]
        for p in parameters:
            p.data += -lr * p.grad
        lri.append(lre[i])
        stepi.append(i)
        lossi.append(loss.log10().item())
    print(lrs[:3], lrs[-1], lri[:3], [f'{l:.4f}' for l in lossi[::8]])

    g = torch.Generator().manual_seed(2147483647)
    C = torch.randn((V, 10), generator=g)
    W1 = torch.randn((30, 200), generator=g)
    b1 = torch.randn(200, generator=g)
    W2 = torch.randn((200, V), generator=g)
    b2 = torch.randn(V, generator=g)
    parameters = [C, W1, b1, W2, b2]
    print(sum(p.nelement() for p in parameters))
    for p in parameters:
        p.requires_grad = True
    lossi = []
    stepi = []
    for i in range(20):
        ix = torch.randint(0, Xtr.shape[0], (32,))
        emb = C[Xtr[ix]]  # (32, 3, 10)
        h = torch.tanh(emb.view(-1, 30) @ W1 + b1)  # (32, 200)
        logits = h @ W2 + b2  # (32, 27)
        loss = F.cross_entropy(logits, Ytr[ix])
        for p in parameters:
            p.grad = None
        loss.backward()
        lr = 0.1 if i < 15 else 0.01
        for p in parameters:
            p.data += -lr * p.grad
        stepi.append(i)
        lossi.append(loss.log10().item())
    print(loss.item())
    emb = C[Xtr]  # (32, 3, 2)
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)  # (32, 100)
    logits = h @ W2 + b2  # (32, 27)
    loss = F.cross_entropy(logits, Ytr)
    print(loss)
    emb = C[Xdev]  # (32, 3, 2)
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)  # (32, 100)
    logits = h @ W2 + b2  # (32, 27)
    loss = F.cross_entropy(logits, Ydev)
    print(loss)
    print(C[:, 0].data[:4], C[:, 1].data[:4], C[1, 0].item())
    context = [0] * block_size
    print(C[torch.tensor([context])].shape)
    g = torch.Generator().manual_seed(2147483647 + 10)
    for _ in range(10):
        out = []
        context = [0] * block_size  # initialize with all ...
        while True:
            emb = C[torch.tensor([context])]  # (1,block_size,d)
            h = torch.tanh(emb.view(1, -1) @ W1 + b1)
            logits = h @ W2 + b2
            probs = F.softmax(logits, dim=1)
            ix = torch.multinomial(probs, num_samples=1, generator=g).item()
            context = context[1:] + [ix]
            out.append(ix)
            if ix == 0:
                break
        print(''.join(itos[i] for i in out))
    return {"C": C, "W1": W1, "b2": b2}


# ---- Stanford CS231n assignment 2 PyTorch.ipynb; CS224n assignment 3 parser_model.py --------

def cs231n_pytorch(torch):
    """cs231n/cs231n.github.io assignments/2023/assignment2_colab.zip (Stanford CS231n's
    PyTorch.ipynb, read in students' copies of it): CIFAR-10 through DataLoaders with
    sampler.SubsetRandomSampler for train/val, flatten by view, the barebones two-layer
    network (x.mm(w1) under F.relu) and three-layer ConvNet (F.conv2d with explicit weights
    and padding 2 and 1), random_weight (randn times np.sqrt(2. / fan_in), np.prod of the
    shape) and zero_weight, check_accuracy_part2 and train_part2 (SGD by hand under
    no_grad, w.grad.zero_()), then the Module API (TwoLayerFC and ThreeLayerConvNet with
    nn.init.kaiming_normal_, check_accuracy_part34, train_part34 with optim.SGD) and the
    Sequential API (a Flatten module, Nesterov momentum), the assignment's reference
    answers in the TODOs. Offline: CIFAR-10 is seeded random images as ToTensor gives them,
    normalised by the notebook's means and stds; 128 training images, not 49,000, and a
    hidden layer of 100 units, not 4,000."""
    nn, optim, F = torch.nn, torch.optim, torch.nn.functional
    DataLoader, sampler = torch.utils.data.DataLoader, torch.utils.data.sampler
    NUM_TRAIN = 128
    mean = torch.tensor((0.4914, 0.4822, 0.4465)).view(3, 1, 1)
    std = torch.tensor((0.2023, 0.1994, 0.2010)).view(3, 1, 1)
    class CIFAR10(torch.utils.data.Dataset):
        """dset.CIFAR10 with T.Compose([T.ToTensor(), T.Normalize(means, stds)])."""
        def __init__(self, train):
            self.train = train
            self.images = image_dataset(torch, 192 if train else 64, (3, 32, 32), seed=3 if train else 4)
        def __len__(self):
            return len(self.images)
        def __getitem__(self, i):
            x, y = self.images[i]
            return (x - mean) / std, y
    cifar10_train = CIFAR10(train=True)
    loader_train = DataLoader(cifar10_train, batch_size=64,
                              sampler=sampler.SubsetRandomSampler(range(NUM_TRAIN)))
    cifar10_val = CIFAR10(train=True)
    loader_val = DataLoader(cifar10_val, batch_size=64,
                            sampler=sampler.SubsetRandomSampler(range(NUM_TRAIN, 192)))
    cifar10_test = CIFAR10(train=False)
    loader_test = DataLoader(cifar10_test, batch_size=64)
    USE_GPU = True
    dtype = torch.float32
    if USE_GPU and torch.cuda.is_available():
        device = torch.device('cuda')
    elif USE_GPU and torch.backends.mps.is_available():
        device = torch.device('mps')
    else:
        device = torch.device('cpu')
    print_every = 1
    print('using device:', device)

    def flatten(x):
        N = x.shape[0]  # read in N, C, H, W
        return x.view(N, -1)  # "flatten" the C * H * W values into a single vector per image
    def test_flatten():
        x = torch.arange(12).view(2, 1, 3, 2)
        print('Before flattening: ', x)
        print('After flattening: ', flatten(x))
    test_flatten()
    def two_layer_fc(x, params):
        x = flatten(x)  # shape: [batch_size, C x H x W]
        w1, w2 = params
        x = F.relu(x.mm(w1))
        x = x.mm(w2)
        return x
    def two_layer_fc_test():
        hidden_layer_size = 42
        x = torch.zeros((64, 50), dtype=dtype)  # minibatch size 64, feature dimension 50
        w1 = torch.zeros((50, hidden_layer_size), dtype=dtype)
        w2 = torch.zeros((hidden_layer_size, 10), dtype=dtype)
        scores = two_layer_fc(x, [w1, w2])
        print(scores.size())  # you should see [64, 10]
    two_layer_fc_test()
    def three_layer_convnet(x, params):
        conv_w1, conv_b1, conv_w2, conv_b2, fc_w, fc_b = params
        scores = None
        x = F.relu(F.conv2d(x, conv_w1, conv_b1, padding=2))
        x = F.relu(F.conv2d(x, conv_w2, conv_b2, padding=1))
        scores = flatten(x).mm(fc_w) + fc_b
        return scores
    def three_layer_convnet_test():
        x = torch.zeros((64, 3, 32, 32), dtype=dtype)  # minibatch size 64, image size [3, 32, 32]
        conv_w1 = torch.zeros((6, 3, 5, 5), dtype=dtype)  # [out_channel, in_channel, kernel_H, kernel_W]
        conv_b1 = torch.zeros((6,))  # out_channel
        conv_w2 = torch.zeros((9, 6, 3, 3), dtype=dtype)  # [out_channel, in_channel, kernel_H, kernel_W]
        conv_b2 = torch.zeros((9,))  # out_channel
        fc_w = torch.zeros((9 * 32 * 32, 10))
        fc_b = torch.zeros(10)
        scores = three_layer_convnet(x, [conv_w1, conv_b1, conv_w2, conv_b2, fc_w, fc_b])
        print(scores.size())  # you should see [64, 10]
    three_layer_convnet_test()
    def random_weight(shape):
        if len(shape) == 2:  # FC weight
            fan_in = shape[0]
        else:
            fan_in = np.prod(shape[1:])  # conv weight [out_channel, in_channel, kH, kW]
        w = torch.randn(shape, device=device, dtype=dtype) * np.sqrt(2. / fan_in)
        w.requires_grad = True
        return w
    def zero_weight(shape):
        return torch.zeros(shape, device=device, dtype=dtype, requires_grad=True)
    print(random_weight((3, 5)))
    print(random_weight((2, 3, 1, 2)).type(), zero_weight((2,)))
    def check_accuracy_part2(loader, model_fn, params):
        split = 'val' if loader.dataset.train else 'test'
        print('Checking accuracy on the %s set' % split)
        num_correct, num_samples = 0, 0
        with torch.no_grad():
            for x, y in loader:
                x = x.to(device=device, dtype=dtype)  # move to device, e.g. GPU
                y = y.to(device=device, dtype=torch.int64)
                scores = model_fn(x, params)
                _, preds = scores.max(1)
                num_correct += (preds == y).sum()
                num_samples += preds.size(0)
            acc = float(num_correct) / num_samples
            print('Got %d / %d correct (%.2f%%)' % (num_correct, num_samples, 100 * acc))
    def train_part2(model_fn, params, learning_rate):
        for t, (x, y) in enumerate(loader_train):
            x = x.to(device=device, dtype=dtype)
            y = y.to(device=device, dtype=torch.long)
            scores = model_fn(x, params)
            loss = F.cross_entropy(scores, y)
            loss.backward()
            with torch.no_grad():
                for w in params:
                    w -= learning_rate * w.grad
                    w.grad.zero_()
            if t % print_every == 0:
                print('Iteration %d, loss = %.4f' % (t, loss.item()))
                check_accuracy_part2(loader_val, model_fn, params)
                print()
    hidden_layer_size = 100   # (4000)
    learning_rate = 1e-2
    w1 = random_weight((3 * 32 * 32, hidden_layer_size))
    w2 = random_weight((hidden_layer_size, 10))
    train_part2(two_layer_fc, [w1, w2], learning_rate)
    learning_rate = 3e-3
    channel_1 = 32
    channel_2 = 16
    conv_w1 = random_weight((channel_1, 3, 5, 5))
    conv_b1 = zero_weight((channel_1,))
    conv_w2 = random_weight((channel_2, channel_1, 3, 3))
    conv_b2 = zero_weight((channel_2,))
    fc_w = random_weight((channel_2 * 32 * 32, 10))
    fc_b = zero_weight((10,))
    params = [conv_w1, conv_b1, conv_w2, conv_b2, fc_w, fc_b]
    train_part2(three_layer_convnet, params, learning_rate)

    class TwoLayerFC(nn.Module):
        def __init__(self, input_size, hidden_size, num_classes):
            super().__init__()
            self.fc1 = nn.Linear(input_size, hidden_size)
            nn.init.kaiming_normal_(self.fc1.weight)
            self.fc2 = nn.Linear(hidden_size, num_classes)
            nn.init.kaiming_normal_(self.fc2.weight)
        def forward(self, x):
            x = flatten(x)
            scores = self.fc2(F.relu(self.fc1(x)))
            return scores
    def test_TwoLayerFC():
        input_size = 50
        x = torch.zeros((64, input_size), dtype=dtype)  # minibatch size 64, feature dimension 50
        model = TwoLayerFC(input_size, 42, 10)
        scores = model(x)
        print(scores.size())  # you should see [64, 10]
    test_TwoLayerFC()
    class ThreeLayerConvNet(nn.Module):
        def __init__(self, in_channel, channel_1, channel_2, num_classes):
            super().__init__()
            self.conv1 = nn.Conv2d(in_channel, channel_1, 5, padding=2)
            nn.init.kaiming_normal_(self.conv1.weight)
            self.conv2 = nn.Conv2d(channel_1, channel_2, 3, padding=1)
            nn.init.kaiming_normal_(self.conv2.weight)
            self.fc = nn.Linear(channel_2 * 32 * 32, num_classes)
            nn.init.kaiming_normal_(self.fc.weight)
        def forward(self, x):
            scores = None
            x = F.relu(self.conv1(x))
            x = F.relu(self.conv2(x))
            scores = self.fc(flatten(x))
            return scores
    def test_ThreeLayerConvNet():
        x = torch.zeros((64, 3, 32, 32), dtype=dtype)  # minibatch size 64, image size [3, 32, 32]
        model = ThreeLayerConvNet(in_channel=3, channel_1=12, channel_2=8, num_classes=10)
        scores = model(x)
        print(scores.size())  # you should see [64, 10]
    test_ThreeLayerConvNet()
    def check_accuracy_part34(loader, model):
        if loader.dataset.train:
            print('Checking accuracy on validation set')
        else:
            print('Checking accuracy on test set')
        num_correct = 0
        num_samples = 0
        model.eval()  # set model to evaluation mode
        with torch.no_grad():
            for x, y in loader:
                x = x.to(device=device, dtype=dtype)  # move to device, e.g. GPU
                y = y.to(device=device, dtype=torch.long)
                scores = model(x)
                _, preds = scores.max(1)
                num_correct += (preds == y).sum()
                num_samples += preds.size(0)
            acc = float(num_correct) / num_samples
            print('Got %d / %d correct (%.2f)' % (num_correct, num_samples, 100 * acc))
    def train_part34(model, optimizer, epochs=1):
        model = model.to(device=device)  # move the model parameters to CPU/GPU
        for e in range(epochs):
            for t, (x, y) in enumerate(loader_train):
                model.train()  # put model to training mode
                x = x.to(device=device, dtype=dtype)  # move to device, e.g. GPU
                y = y.to(device=device, dtype=torch.long)
                scores = model(x)
                loss = F.cross_entropy(scores, y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                if t % print_every == 0:
                    print('Iteration %d, loss = %.4f' % (t, loss.item()))
                    check_accuracy_part34(loader_val, model)
                    print()
    hidden_layer_size = 100   # (4000)
    learning_rate = 1e-2
    model = TwoLayerFC(3 * 32 * 32, hidden_layer_size, 10)
    optimizer = optim.SGD(model.parameters(), lr=learning_rate)
    train_part34(model, optimizer)
    learning_rate = 3e-3
    channel_1 = 32
    channel_2 = 16
    model = ThreeLayerConvNet(3, channel_1, channel_2, 10)
    optimizer = optim.SGD(model.parameters(), lr=learning_rate)
    train_part34(model, optimizer)

    class Flatten(nn.Module):
        def forward(self, x):
            return flatten(x)
    hidden_layer_size = 100   # (4000)
    learning_rate = 1e-2
    model = nn.Sequential(
        Flatten(),
        nn.Linear(3 * 32 * 32, hidden_layer_size),
        nn.ReLU(),
        nn.Linear(hidden_layer_size, 10),
    )
    optimizer = optim.SGD(model.parameters(), lr=learning_rate,
                          momentum=0.9, nesterov=True)
    train_part34(model, optimizer)
    channel_1 = 32
    channel_2 = 16
    learning_rate = 1e-2
    model = nn.Sequential(
        nn.Conv2d(3, channel_1, 5, padding=2),
        nn.ReLU(),
        nn.Conv2d(channel_1, channel_2, 3, padding=1),
        nn.ReLU(),
        Flatten(),
        nn.Linear(channel_2 * 32 * 32, 10),
    )
    optimizer = optim.SGD(model.parameters(), lr=learning_rate,
                          momentum=0.9, nesterov=True)
    train_part34(model, optimizer)
    print(model)
    check_accuracy_part34(loader_test, model)
    return {"fc_w": fc_w, "conv_w1": conv_w1, "seq0": model[0].weight, "seq5b": model[5].bias}


def cs224n_parser_model(torch):
    """amanchadha/stanford-cs224n-assignments-2021 a3/parser_model.py and a3/run.py (Stanford
    CS224n's assignment 3 starter, its TODOs filled as the hints say): ParserModel with a
    pretrained embedding matrix as nn.Parameter(torch.tensor(embeddings)), its two layers
    as nn.Parameter weights initialised by nn.init.xavier_uniform_ and biases by
    nn.init.uniform_, embedding_lookup by torch.index_select of the flattened indices then
    view, forward with torch.matmul, F.relu and nn.Dropout; the file's sanity checks
    (zero embeddings, torch.randint(0, 100, (4, 36), dtype=torch.long)); then run.py's
    train_for_epoch (optim.Adam(lr=0.0005), nn.CrossEntropyLoss, torch.from_numpy of the
    minibatch and of its one-hot's nonzero() column, model.train()) and the parser's
    prediction (model.eval(), no_grad, argmax of the logits plus 10000 times the legal
    labels). Offline: the embeddings and the minibatches are seeded NumPy arrays."""
    nn, optim, F = torch.nn, torch.optim, torch.nn.functional

    class ParserModel(nn.Module):
        def __init__(self, embeddings, n_features=36,
                     hidden_size=200, n_classes=3, dropout_prob=0.5):
            super(ParserModel, self).__init__()
            self.n_features = n_features
            self.n_classes = n_classes
            self.dropout_prob = dropout_prob
            self.embed_size = embeddings.shape[1]
            self.hidden_size = hidden_size
            self.embeddings = nn.Parameter(torch.tensor(embeddings))
            self.embed_to_hidden_weight = nn.Parameter(torch.empty(self.n_features * self.embed_size, self.hidden_size))
            nn.init.xavier_uniform_(self.embed_to_hidden_weight)
            self.embed_to_hidden_bias = nn.Parameter(torch.empty(self.hidden_size))
            nn.init.uniform_(self.embed_to_hidden_bias)
            self.dropout = nn.Dropout(self.dropout_prob)
            self.hidden_to_logits_weight = nn.Parameter(torch.empty(self.hidden_size, self.n_classes))
            nn.init.xavier_uniform_(self.hidden_to_logits_weight)
            self.hidden_to_logits_bias = nn.Parameter(torch.empty(self.n_classes))
            nn.init.uniform_(self.hidden_to_logits_bias)
        def embedding_lookup(self, w):
            x = torch.index_select(self.embeddings, 0, w.view(-1))
            x = x.view(w.shape[0], -1)
            return x
        def forward(self, w):
            x = self.embedding_lookup(w)
            h = F.relu(torch.matmul(x, self.embed_to_hidden_weight) + self.embed_to_hidden_bias)
            logits = torch.matmul(self.dropout(h), self.hidden_to_logits_weight) + self.hidden_to_logits_bias
            return logits

    embeddings = np.zeros((100, 30), dtype=np.float32)
    model = ParserModel(embeddings)
    def check_embedding():
        inds = torch.randint(0, 100, (4, 36), dtype=torch.long)
        selected = model.embedding_lookup(inds)
        assert np.all(selected.data.numpy() == 0), "The result of embedding lookup: " \
            + repr(selected) + " contains non-zero elements."
    def check_forward():
        inputs = torch.randint(0, 100, (4, 36), dtype=torch.long)
        out = model(inputs)
        expected_out_shape = (4, 3)
        assert out.shape == expected_out_shape, "The result shape of forward is: " + repr(out.shape) + \
            " which doesn't match expected " + repr(expected_out_shape)
    check_embedding()
    print("Embedding_lookup sanity check passes!")
    # (that copy's own lookup: a list of NumPy rows into torch.Tensor, PyTorch's slow path)
    w = torch.randint(0, 100, (2, 36), dtype=torch.long)
    x = torch.Tensor([torch.index_select(model.embeddings, 0, w[b]).view(-1).detach().numpy()
                      for b in range(w.shape[0])])
    print(x.shape, x.dtype, x.requires_grad)
    check_forward()
    print("Forward sanity check passes!")
    print(model)
    print([(n, tuple(p.shape)) for n, p in model.named_parameters()])

    # run.py, with parser_utils' data standing in: embeddings of 40 words, 300 examples
    rng = np.random.RandomState(0)
    embeddings = rng.normal(0, 0.9, (40, 50)).astype('float32')
    train_x_all = rng.randint(0, 40, (300, 36))
    train_y_all = np.eye(3)[rng.randint(0, 3, 300)]
    model = ParserModel(embeddings, hidden_size=64)
    optimizer = optim.Adam(model.parameters(), lr=0.0005)
    loss_func = nn.CrossEntropyLoss()
    batch_size = 64
    for epoch in range(2):
        print("Epoch {:} out of {:}".format(epoch + 1, 2))
        model.train()
        total, n = 0.0, 0
        for i in range(0, 300, batch_size):
            train_x = train_x_all[i:i + batch_size]
            train_y = train_y_all[i:i + batch_size]
            optimizer.zero_grad()
            loss = 0.
            train_x = torch.from_numpy(train_x).long()
            train_y = torch.from_numpy(train_y.nonzero()[1]).long()
            logits = model(train_x)
            loss = loss_func(logits, train_y)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(train_y)
            n += len(train_y)
        print("Average Train Loss: {}".format(total / n))
        model.eval()
        with torch.no_grad():
            mb_x = torch.from_numpy(train_x_all[:8]).long()
            pred = model(mb_x)
            pred = pred.detach().numpy()
            legal_labels = np.ones((8, 3), dtype=np.float32)
            legal_labels[::2, 2] = 0
            pred = np.argmax(pred + 10000 * legal_labels, 1)
        print("- dev predictions:", pred.tolist())
    return {"emb": model.embeddings, "w": model.embed_to_hidden_weight,
            "b": model.hidden_to_logits_bias}


# ---- d2l-ai/d2l-en: generative adversarial networks, NLP applications -------------------

def d2l_gans(torch):
    """d2l-ai/d2l-en chapter_generative-adversarial-networks (gan.md, dcgan.md, PyTorch
    tabs): Gaussian "real" data torch.normal(0.0, 1, (1000, 2)) @ A + b and its covariance
    A.T @ A, a one-Linear generator and a Tanh MLP discriminator, update_D (fake_X.detach(),
    labels reshaped to the logits' shape) and update_G, train with BCEWithLogitsLoss(
    reduction='sum'), nn.init.normal_ on every parameter and two Adams; then DCGAN: G_block
    (ConvTranspose2d, BatchNorm2d, ReLU) and its shapes, net_G from a 100-d latent to 3x64x64
    under Tanh, LeakyReLU for several alphas, D_block (Conv2d, BatchNorm2d,
    LeakyReLU(inplace=True)), net_D, and its train (Adam betas [0.5, 0.999], 4-d noise, the
    generated images permuted and concatenated into a grid). Offline: the Pokemon sprites
    are seeded random 64x64 images normalised to [-1, 1]; n_G = n_D = 8 (the book's 64) and
    one epoch on 16 images; the plain GAN 2 epochs, not 20; plots and timings left out."""
    nn = torch.nn
    DataLoader = torch.utils.data.DataLoader
    class Accumulator:
        def __init__(self, n):
            self.data = [0.0] * n
        def add(self, *args):
            self.data = [a + float(b) for a, b in zip(self.data, args)]
        def __getitem__(self, idx):
            return self.data[idx]
    def load_array(data_arrays, batch_size, is_train=True):
        dataset = torch.utils.data.TensorDataset(*data_arrays)
        return DataLoader(dataset, batch_size, shuffle=is_train)
    X = torch.normal(0.0, 1, (1000, 2))
    A = torch.tensor([[1, 2], [-0.1, 0.5]])
    b = torch.tensor([1, 2])
    data = torch.matmul(X, A) + b
    print(data[:3], data.dtype)
    print(f'The covariance matrix is\n{torch.matmul(A.T, A)}')
    batch_size = 8
    data_iter = load_array((data,), batch_size)
    net_G = nn.Sequential(nn.Linear(2, 2))
    net_D = nn.Sequential(
        nn.Linear(2, 5), nn.Tanh(),
        nn.Linear(5, 3), nn.Tanh(),
        nn.Linear(3, 1))
    def update_D(X, Z, net_D, net_G, loss, trainer_D):
        """Update discriminator."""
        batch_size = X.shape[0]
        ones = torch.ones((batch_size,), device=X.device)
        zeros = torch.zeros((batch_size,), device=X.device)
        trainer_D.zero_grad()
        real_Y = net_D(X)
        fake_X = net_G(Z)
        fake_Y = net_D(fake_X.detach())
        loss_D = (loss(real_Y, ones.reshape(real_Y.shape)) +
                  loss(fake_Y, zeros.reshape(fake_Y.shape))) / 2
        loss_D.backward()
        trainer_D.step()
        return loss_D
    def update_G(Z, net_D, net_G, loss, trainer_G):
        """Update generator."""
        batch_size = Z.shape[0]
        ones = torch.ones((batch_size,), device=Z.device)
        trainer_G.zero_grad()
        fake_X = net_G(Z)
        fake_Y = net_D(fake_X)
        loss_G = loss(fake_Y, ones.reshape(fake_Y.shape))
        loss_G.backward()
        trainer_G.step()
        return loss_G
    def train(net_D, net_G, data_iter, num_epochs, lr_D, lr_G, latent_dim, data):
        loss = nn.BCEWithLogitsLoss(reduction='sum')
        for w in net_D.parameters():
            nn.init.normal_(w, 0, 0.02)
        for w in net_G.parameters():
            nn.init.normal_(w, 0, 0.02)
        trainer_D = torch.optim.Adam(net_D.parameters(), lr=lr_D)
        trainer_G = torch.optim.Adam(net_G.parameters(), lr=lr_G)
        for epoch in range(num_epochs):
            metric = Accumulator(3)  # loss_D, loss_G, num_examples
            for (X,) in data_iter:
                batch_size = X.shape[0]
                Z = torch.normal(0, 1, size=(batch_size, latent_dim))
                metric.add(update_D(X, Z, net_D, net_G, loss, trainer_D),
                           update_G(Z, net_D, net_G, loss, trainer_G),
                           batch_size)
            Z = torch.normal(0, 1, size=(100, latent_dim))
            fake_X = net_G(Z).detach().numpy()
            loss_D, loss_G = metric[0]/metric[2], metric[1]/metric[2]
            print(f'epoch {epoch + 1}: loss_D {loss_D:.3f}, loss_G {loss_G:.3f}, '
                  f'fake mean {fake_X.mean(axis=0)[0]:.4f} {fake_X.mean(axis=0)[1]:.4f}')
    lr_D, lr_G, latent_dim, num_epochs = 0.05, 0.005, 2, 2
    train(net_D, net_G, data_iter, num_epochs, lr_D, lr_G,
          latent_dim, data[:100].detach().numpy())
    print(net_G[0].weight.data, net_G[0].bias.data)
    gan_G = net_G[0]

    class Pokemon(torch.utils.data.Dataset):
        """ImageFolder('pokemon') with Resize((64, 64)), ToTensor(), Normalize(0.5, 0.5)."""
        def __init__(self):
            self.images = image_dataset(torch, 16, (3, 64, 64), seed=5)
        def __len__(self):
            return len(self.images)
        def __getitem__(self, i):
            x, _ = self.images[i]
            return (x - 0.5) / 0.5, 0
    batch_size = 8
    pokemon = Pokemon()
    data_iter = DataLoader(pokemon, batch_size=batch_size, shuffle=True)
    for X, y in data_iter:
        imgs = X[:20, :, :, :].permute(0, 2, 3, 1) / 2 + 0.5
        print(imgs.shape, imgs.min(), imgs.max())
        break
    class G_block(nn.Module):
        def __init__(self, out_channels, in_channels=3, kernel_size=4, strides=2,
                     padding=1, **kwargs):
            super(G_block, self).__init__(**kwargs)
            self.conv2d_trans = nn.ConvTranspose2d(in_channels, out_channels,
                                                   kernel_size, strides, padding, bias=False)
            self.batch_norm = nn.BatchNorm2d(out_channels)
            self.activation = nn.ReLU()
        def forward(self, X):
            return self.activation(self.batch_norm(self.conv2d_trans(X)))
    x = torch.zeros((2, 3, 16, 16))
    g_blk = G_block(20)
    print(g_blk(x).shape)
    x = torch.zeros((2, 3, 1, 1))
    g_blk = G_block(20, strides=1, padding=0)
    print(g_blk(x).shape)
    n_G = 8   # (64)
    net_G = nn.Sequential(
        G_block(in_channels=100, out_channels=n_G*8,
                strides=1, padding=0),                  # Output: (64 * 8, 4, 4)
        G_block(in_channels=n_G*8, out_channels=n_G*4),  # Output: (64 * 4, 8, 8)
        G_block(in_channels=n_G*4, out_channels=n_G*2),  # Output: (64 * 2, 16, 16)
        G_block(in_channels=n_G*2, out_channels=n_G),    # Output: (64, 32, 32)
        nn.ConvTranspose2d(in_channels=n_G, out_channels=3,
                           kernel_size=4, stride=2, padding=1, bias=False),
        nn.Tanh())  # Output: (3, 64, 64)
    x = torch.zeros((1, 100, 1, 1))
    print(net_G(x).shape)
    alphas = [0, .2, .4, .6, .8, 1]
    x = torch.arange(-2, 1, 0.1)
    Y = [nn.LeakyReLU(alpha)(x).detach().numpy() for alpha in alphas]
    print(x.detach().numpy()[:4], [y[:3] for y in Y])
    class D_block(nn.Module):
        def __init__(self, out_channels, in_channels=3, kernel_size=4, strides=2,
                     padding=1, alpha=0.2, **kwargs):
            super(D_block, self).__init__(**kwargs)
            self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size,
                                    strides, padding, bias=False)
            self.batch_norm = nn.BatchNorm2d(out_channels)
            self.activation = nn.LeakyReLU(alpha, inplace=True)
        def forward(self, X):
            return self.activation(self.batch_norm(self.conv2d(X)))
    x = torch.zeros((2, 3, 16, 16))
    d_blk = D_block(20)
    print(d_blk(x).shape)
    n_D = 8   # (64)
    net_D = nn.Sequential(
        D_block(n_D),  # Output: (64, 32, 32)
        D_block(in_channels=n_D, out_channels=n_D*2),  # Output: (64 * 2, 16, 16)
        D_block(in_channels=n_D*2, out_channels=n_D*4),  # Output: (64 * 4, 8, 8)
        D_block(in_channels=n_D*4, out_channels=n_D*8),  # Output: (64 * 8, 4, 4)
        nn.Conv2d(in_channels=n_D*8, out_channels=1,
                  kernel_size=4, bias=False))  # Output: (1, 1, 1)
    x = torch.zeros((1, 3, 64, 64))
    print(net_D(x).shape)
    def train(net_D, net_G, data_iter, num_epochs, lr, latent_dim,
              device=torch.device('cpu')):
        loss = nn.BCEWithLogitsLoss(reduction='sum')
        for w in net_D.parameters():
            nn.init.normal_(w, 0, 0.02)
        for w in net_G.parameters():
            nn.init.normal_(w, 0, 0.02)
        net_D, net_G = net_D.to(device), net_G.to(device)
        trainer_hp = {'lr': lr, 'betas': [0.5, 0.999]}
        trainer_D = torch.optim.Adam(net_D.parameters(), **trainer_hp)
        trainer_G = torch.optim.Adam(net_G.parameters(), **trainer_hp)
        for epoch in range(1, num_epochs + 1):
            metric = Accumulator(3)  # loss_D, loss_G, num_examples
            for X, _ in data_iter:
                batch_size = X.shape[0]
                Z = torch.normal(0, 1, size=(batch_size, latent_dim, 1, 1))
                X, Z = X.to(device), Z.to(device)
                metric.add(update_D(X, Z, net_D, net_G, loss, trainer_D),
                           update_G(Z, net_D, net_G, loss, trainer_G),
                           batch_size)
            Z = torch.normal(0, 1, size=(21, latent_dim, 1, 1), device=device)
            fake_x = net_G(Z).permute(0, 2, 3, 1) / 2 + 0.5
            imgs = torch.cat(
                [torch.cat([fake_x[i * 7 + j].cpu().detach() for j in range(7)], dim=1)
                 for i in range(len(fake_x)//7)], dim=0)
            loss_D, loss_G = metric[0] / metric[2], metric[1] / metric[2]
            print(imgs.shape, imgs[0, 0])
        print(f'loss_D {loss_D:.3f}, loss_G {loss_G:.3f} on {str(device)}')
    latent_dim, lr, num_epochs = 100, 0.005, 1
    train(net_D, net_G, data_iter, num_epochs, lr, latent_dim)
    # (not the generator's weights: Adam turns gradients of rounding size into whole steps)
    return {"gan_G": gan_G.weight,
            "bn": net_D[1].batch_norm.running_var}


SNLI_WORDS = "a man woman dog child is are plays runs sits sleeps outside inside the park " \
             "street happy sad not with ball red blue".split()


def d2l_nlp_applications(torch):
    """d2l-ai/d2l-en chapter_natural-language-processing-applications (sentiment-analysis-
    and-dataset.md, sentiment-analysis-rnn.md, sentiment-analysis-cnn.md, natural-language-
    inference-and-dataset.md, natural-language-inference-attention.md, PyTorch tabs) with
    the d2l helpers they call (tokenize, truncate_pad, load_array, TokenEmbedding,
    train_batch_ch13 and train_ch13 through nn.DataParallel on the CPU, predict_sentiment):
    the IMDb reviews tokenized, a Vocab of min_freq 5 with '<pad>', padded features, BiRNN
    (a 2-layer bidirectional LSTM on inputs.T, flatten_parameters, xavier_uniform_ over
    _flat_weights_names, the GloVe rows copied in and frozen), corr1d and
    corr1d_multi_in, TextCNN (a frozen constant embedding beside a trained one, Conv1d's in
    a ModuleList, AdaptiveAvgPool1d, squeeze, dropout), SNLIDataset and the decomposable
    attention model (mlp with Flatten(start_dim=1), Attend with bmm and softmax over
    permuted scores, Compare, Aggregate) trained on (premise, hypothesis) lists and
    predict_snli. Offline: the reviews are made-up sentences (SENTIMENT_WORDS), SNLI
    made-up premise/hypothesis pairs, GloVe seeded random 100-d vectors for the words;
    sizes and epochs are small and the DataLoaders use no worker processes."""
    nn, F = torch.nn, torch.nn.functional
    d2l = d2l_library(torch)
    def tokenize(lines, token='word'):
        assert token in ('word', 'char'), 'Unknown token type: ' + token
        return [line.split() if token == 'word' else list(line) for line in lines]
    def truncate_pad(line, num_steps, padding_token):
        if len(line) > num_steps:
            return line[:num_steps]  # Truncate
        return line + [padding_token] * (num_steps - len(line))  # Pad
    def load_array(data_arrays, batch_size, is_train=True):
        dataset = torch.utils.data.TensorDataset(*data_arrays)
        return torch.utils.data.DataLoader(dataset, batch_size, shuffle=is_train)
    def try_all_gpus():
        return [torch.device('cpu')]
    class TokenEmbedding:
        """Token Embedding (glove.6b.100d offline: seeded vectors for the words used)."""
        def __init__(self, embedding_name):
            self.idx_to_token, self.idx_to_vec = self._load_embedding(embedding_name)
            self.unknown_idx = 0
            self.token_to_idx = {token: idx for idx, token in enumerate(self.idx_to_token)}
        def _load_embedding(self, embedding_name):
            idx_to_token, idx_to_vec = ['<unk>'], []
            r = np.random.RandomState(100)
            for token in sorted(set(SENTIMENT_WORDS[0] + SENTIMENT_WORDS[1] + SENTIMENT_FILLER
                                    + SNLI_WORDS + ['so', '.'])):
                idx_to_token.append(token)
                idx_to_vec.append([float(v) for v in r.normal(0, 0.4, 100).round(4)])
            idx_to_vec = [[0] * len(idx_to_vec[0])] + idx_to_vec
            return idx_to_token, torch.tensor(idx_to_vec)
        def __getitem__(self, tokens):
            indices = [self.token_to_idx.get(token, self.unknown_idx) for token in tokens]
            vecs = self.idx_to_vec[torch.tensor(indices)]
            return vecs
        def __len__(self):
            return len(self.idx_to_token)
    def train_batch_ch13(net, X, y, loss, trainer, devices):
        if isinstance(X, list):
            X = [x.to(devices[0]) for x in X]
        else:
            X = X.to(devices[0])
        y = y.to(devices[0])
        net.train()
        trainer.zero_grad()
        pred = net(X)
        l = loss(pred, y)
        l.sum().backward()
        trainer.step()
        train_loss_sum = l.sum()
        train_acc_sum = d2l.accuracy(pred, y)
        return train_loss_sum, train_acc_sum
    def evaluate_accuracy_gpu(net, data_iter, device=None):
        """The book's version, whose X may be a list (of premises and hypotheses)."""
        if isinstance(net, nn.Module):
            net.eval()  # Set the model to evaluation mode
            if not device:
                device = next(iter(net.parameters())).device
        metric = d2l.Accumulator(2)
        with torch.no_grad():
            for X, y in data_iter:
                if isinstance(X, list):
                    X = [x.to(device) for x in X]
                else:
                    X = X.to(device)
                y = y.to(device)
                metric.add(d2l.accuracy(net(X), y), y.numel())
        return metric[0] / metric[1]
    def train_ch13(net, train_iter, test_iter, loss, trainer, num_epochs, devices=try_all_gpus()):
        num_batches = len(train_iter)
        net = nn.DataParallel(net, device_ids=devices).to(devices[0])
        for epoch in range(num_epochs):
            metric = d2l.Accumulator(4)
            for i, (features, labels) in enumerate(train_iter):
                l, acc = train_batch_ch13(net, features, labels, loss, trainer, devices)
                metric.add(l, acc, labels.shape[0], labels.numel())
            test_acc = evaluate_accuracy_gpu(net, test_iter)
            print(f'epoch {epoch + 1}: loss {metric[0] / metric[2]:.3f}, train acc '
                  f'{metric[1] / metric[3]:.3f}, test acc {test_acc:.3f}')
        print(f'{num_batches} batches on {str(devices)}')

    def read_imdb(data_dir, is_train):
        """The aclImdb folders offline: made-up reviews, 'pos' ones then 'neg' ones."""
        r = random.Random(1 if is_train else 2)
        data, labels = [], []
        for label in ('pos', 'neg'):
            for _ in range(60 if is_train else 20):
                words = [r.choice(SENTIMENT_WORDS[label == 'pos'] if r.random() < 0.4
                                  else SENTIMENT_FILLER) for _ in range(r.randint(4, 30))]
                data.append(' '.join(words))
                labels.append(1 if label == 'pos' else 0)
        return data, labels
    data_dir = 'aclImdb'
    train_data = read_imdb(data_dir, is_train=True)
    print('# trainings:', len(train_data[0]))
    for x, y in zip(train_data[0][:3], train_data[1][:3]):
        print('label:', y, 'review:', x[:60])
    train_tokens = tokenize(train_data[0], token='word')
    vocab = d2l.Vocab(train_tokens, min_freq=5, reserved_tokens=['<pad>'])
    print(len(vocab), vocab.idx_to_token[:5])
    num_steps = 20  # sequence length (500)
    train_features = torch.tensor([truncate_pad(
        vocab[line], num_steps, vocab['<pad>']) for line in train_tokens])
    print(train_features.shape)
    train_iter = load_array((train_features, torch.tensor(train_data[1])), 64)
    for X, y in train_iter:
        print('X:', X.shape, ', y:', y.shape)
        break
    print('# batches:', len(train_iter))
    def load_data_imdb(batch_size, num_steps=20):
        train_data = read_imdb(data_dir, True)
        test_data = read_imdb(data_dir, False)
        train_tokens = tokenize(train_data[0], token='word')
        test_tokens = tokenize(test_data[0], token='word')
        vocab = d2l.Vocab(train_tokens, min_freq=5)
        train_features = torch.tensor([truncate_pad(
            vocab[line], num_steps, vocab['<pad>']) for line in train_tokens])
        test_features = torch.tensor([truncate_pad(
            vocab[line], num_steps, vocab['<pad>']) for line in test_tokens])
        train_iter = load_array((train_features, torch.tensor(train_data[1])), batch_size)
        test_iter = load_array((test_features, torch.tensor(test_data[1])), batch_size,
                               is_train=False)
        return train_iter, test_iter, vocab
    batch_size = 64
    train_iter, test_iter, vocab = load_data_imdb(batch_size)

    class BiRNN(nn.Module):
        def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, **kwargs):
            super(BiRNN, self).__init__(**kwargs)
            self.embedding = nn.Embedding(vocab_size, embed_size)
            self.encoder = nn.LSTM(embed_size, num_hiddens, num_layers=num_layers,
                                   bidirectional=True)
            self.decoder = nn.Linear(4*num_hiddens, 2)
        def forward(self, inputs):
            embeddings = self.embedding(inputs.T)
            self.encoder.flatten_parameters()
            outputs, _ = self.encoder(embeddings)
            encoding = torch.cat((outputs[0], outputs[-1]), dim=1)
            outs = self.decoder(encoding)
            return outs
    embed_size, num_hiddens, num_layers, devices = 100, 16, 2, try_all_gpus()
    net = BiRNN(len(vocab), embed_size, num_hiddens, num_layers)
    def init_weights(m):
        if type(m) == nn.Linear:
            nn.init.xavier_uniform_(m.weight)
        if type(m) == nn.LSTM:
            for param in m._flat_weights_names:
                if "weight" in param:
                    nn.init.xavier_uniform_(m._parameters[param])
    net.apply(init_weights)
    glove_embedding = TokenEmbedding('glove.6b.100d')
    embeds = glove_embedding[vocab.idx_to_token]
    print(embeds.shape)
    net.embedding.weight.data.copy_(embeds)
    net.embedding.weight.requires_grad = False
    lr, num_epochs = 0.01, 2
    trainer = torch.optim.Adam(net.parameters(), lr=lr)
    loss = nn.CrossEntropyLoss(reduction="none")
    train_ch13(net, train_iter, test_iter, loss, trainer, num_epochs, devices)
    def predict_sentiment(net, vocab, sentence):
        sentence = torch.tensor(vocab[sentence.split()], device=torch.device('cpu'))
        label = torch.argmax(net(sentence.reshape(1, -1)), dim=1)
        return 'positive' if label == 1 else 'negative'
    print(predict_sentiment(net, vocab, 'this movie is so great'))
    print(predict_sentiment(net, vocab, 'this movie is so bad'))
    birnn_weight = net.encoder.weight_hh_l1_reverse

    def corr1d(X, K):
        w = K.shape[0]
        Y = torch.zeros((X.shape[0] - w + 1))
        for i in range(Y.shape[0]):
            Y[i] = (X[i: i + w] * K).sum()
        return Y
    X, K = torch.tensor([0, 1, 2, 3, 4, 5, 6]), torch.tensor([1, 2])
    print(corr1d(X, K))
    def corr1d_multi_in(X, K):
        return sum(corr1d(x, k) for x, k in zip(X, K))
    X = torch.tensor([[0, 1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 7], [2, 3, 4, 5, 6, 7, 8]])
    K = torch.tensor([[1, 2], [3, 4], [-1, -3]])
    print(corr1d_multi_in(X, K))
    class TextCNN(nn.Module):
        def __init__(self, vocab_size, embed_size, kernel_sizes, num_channels, **kwargs):
            super(TextCNN, self).__init__(**kwargs)
            self.embedding = nn.Embedding(vocab_size, embed_size)
            self.constant_embedding = nn.Embedding(vocab_size, embed_size)
            self.dropout = nn.Dropout(0.5)
            self.decoder = nn.Linear(sum(num_channels), 2)
            self.pool = nn.AdaptiveAvgPool1d(1)
            self.relu = nn.ReLU()
            self.convs = nn.ModuleList()
            for c, k in zip(num_channels, kernel_sizes):
                self.convs.append(nn.Conv1d(2 * embed_size, c, k))
        def forward(self, inputs):
            embeddings = torch.cat((
                self.embedding(inputs), self.constant_embedding(inputs)), dim=2)
            embeddings = embeddings.permute(0, 2, 1)
            encoding = torch.cat([
                torch.squeeze(self.relu(self.pool(conv(embeddings))), dim=-1)
                for conv in self.convs], dim=1)
            outputs = self.decoder(self.dropout(encoding))
            return outputs
    embed_size, kernel_sizes, nums_channels = 100, [3, 4, 5], [16, 16, 16]  # (100 channels)
    devices = try_all_gpus()
    net = TextCNN(len(vocab), embed_size, kernel_sizes, nums_channels)
    def init_weights(module):
        if type(module) in (nn.Linear, nn.Conv1d):
            nn.init.xavier_uniform_(module.weight)
    net.apply(init_weights)
    glove_embedding = TokenEmbedding('glove.6b.100d')
    embeds = glove_embedding[vocab.idx_to_token]
    net.embedding.weight.data.copy_(embeds)
    net.constant_embedding.weight.data.copy_(embeds)
    net.constant_embedding.weight.requires_grad = False
    lr, num_epochs = 0.001, 2
    trainer = torch.optim.Adam(net.parameters(), lr=lr)
    loss = nn.CrossEntropyLoss(reduction="none")
    train_ch13(net, train_iter, test_iter, loss, trainer, num_epochs, devices)
    print(predict_sentiment(net, vocab, 'this movie is so great'))
    print(predict_sentiment(net, vocab, 'this movie is so bad'))
    print(net)
    textcnn_conv = net.convs[0].weight

    def read_snli(data_dir, is_train):
        """snli_1.0_train.txt offline: made-up premises and hypotheses, labels 0-2."""
        r = random.Random(3 if is_train else 4)
        premises, hypotheses, labels = [], [], []
        for _ in range(96 if is_train else 32):
            premises.append(' '.join(r.choice(SNLI_WORDS) for _ in range(r.randint(4, 9))) + ' .')
            hypotheses.append(' '.join(r.choice(SNLI_WORDS) for _ in range(r.randint(3, 7))) + ' .')
            labels.append(r.randint(0, 2))
        return premises, hypotheses, labels
    train_data = read_snli('snli_1.0', is_train=True)
    for x0, x1, y in zip(train_data[0][:3], train_data[1][:3], train_data[2][:3]):
        print('premise:', x0)
        print('hypothesis:', x1)
        print('label:', y)
    test_data = read_snli('snli_1.0', is_train=False)
    for data in [train_data, test_data]:
        print([[row for row in data[2]].count(i) for i in range(3)])
    class SNLIDataset(torch.utils.data.Dataset):
        def __init__(self, dataset, num_steps, vocab=None):
            self.num_steps = num_steps
            all_premise_tokens = tokenize(dataset[0])
            all_hypothesis_tokens = tokenize(dataset[1])
            if vocab is None:
                self.vocab = d2l.Vocab(all_premise_tokens + all_hypothesis_tokens,
                                       min_freq=5, reserved_tokens=['<pad>'])
            else:
                self.vocab = vocab
            self.premises = self._pad(all_premise_tokens)
            self.hypotheses = self._pad(all_hypothesis_tokens)
            self.labels = torch.tensor(dataset[2])
            print('read ' + str(len(self.premises)) + ' examples')
        def _pad(self, lines):
            return torch.tensor([truncate_pad(
                self.vocab[line], self.num_steps, self.vocab['<pad>']) for line in lines])
        def __getitem__(self, idx):
            return (self.premises[idx], self.hypotheses[idx]), self.labels[idx]
        def __len__(self):
            return len(self.premises)
    def load_data_snli(batch_size, num_steps=50):
        train_data = read_snli('snli_1.0', True)
        test_data = read_snli('snli_1.0', False)
        train_set = SNLIDataset(train_data, num_steps)
        test_set = SNLIDataset(test_data, num_steps, train_set.vocab)
        train_iter = torch.utils.data.DataLoader(train_set, batch_size, shuffle=True)
        test_iter = torch.utils.data.DataLoader(test_set, batch_size, shuffle=False)
        return train_iter, test_iter, train_set.vocab
    train_iter, test_iter, vocab = load_data_snli(32, 12)
    print(len(vocab))
    for X, Y in train_iter:
        print(X[0].shape)
        print(X[1].shape)
        print(Y.shape)
        break

    def mlp(num_inputs, num_hiddens, flatten):
        net = []
        net.append(nn.Dropout(0.2))
        net.append(nn.Linear(num_inputs, num_hiddens))
        net.append(nn.ReLU())
        if flatten:
            net.append(nn.Flatten(start_dim=1))
        net.append(nn.Dropout(0.2))
        net.append(nn.Linear(num_hiddens, num_hiddens))
        net.append(nn.ReLU())
        if flatten:
            net.append(nn.Flatten(start_dim=1))
        return nn.Sequential(*net)
    class Attend(nn.Module):
        def __init__(self, num_inputs, num_hiddens, **kwargs):
            super(Attend, self).__init__(**kwargs)
            self.f = mlp(num_inputs, num_hiddens, flatten=False)
        def forward(self, A, B):
            f_A = self.f(A)
            f_B = self.f(B)
            e = torch.bmm(f_A, f_B.permute(0, 2, 1))
            beta = torch.bmm(F.softmax(e, dim=-1), B)
            alpha = torch.bmm(F.softmax(e.permute(0, 2, 1), dim=-1), A)
            return beta, alpha
    class Compare(nn.Module):
        def __init__(self, num_inputs, num_hiddens, **kwargs):
            super(Compare, self).__init__(**kwargs)
            self.g = mlp(num_inputs, num_hiddens, flatten=False)
        def forward(self, A, B, beta, alpha):
            V_A = self.g(torch.cat([A, beta], dim=2))
            V_B = self.g(torch.cat([B, alpha], dim=2))
            return V_A, V_B
    class Aggregate(nn.Module):
        def __init__(self, num_inputs, num_hiddens, num_outputs, **kwargs):
            super(Aggregate, self).__init__(**kwargs)
            self.h = mlp(num_inputs, num_hiddens, flatten=True)
            self.linear = nn.Linear(num_hiddens, num_outputs)
        def forward(self, V_A, V_B):
            V_A = V_A.sum(dim=1)
            V_B = V_B.sum(dim=1)
            Y_hat = self.linear(self.h(torch.cat([V_A, V_B], dim=1)))
            return Y_hat
    class DecomposableAttention(nn.Module):
        def __init__(self, vocab, embed_size, num_hiddens, num_inputs_attend=100,
                     num_inputs_compare=200, num_inputs_agg=400, **kwargs):
            super(DecomposableAttention, self).__init__(**kwargs)
            self.embedding = nn.Embedding(len(vocab), embed_size)
            self.attend = Attend(num_inputs_attend, num_hiddens)
            self.compare = Compare(num_inputs_compare, num_hiddens)
            self.aggregate = Aggregate(num_inputs_agg, num_hiddens, num_outputs=3)
        def forward(self, X):
            premises, hypotheses = X
            A = self.embedding(premises)
            B = self.embedding(hypotheses)
            beta, alpha = self.attend(A, B)
            V_A, V_B = self.compare(A, B, beta, alpha)
            Y_hat = self.aggregate(V_A, V_B)
            return Y_hat
    embed_size, num_hiddens, devices = 100, 200, try_all_gpus()
    net = DecomposableAttention(vocab, embed_size, num_hiddens)
    glove_embedding = TokenEmbedding('glove.6b.100d')
    embeds = glove_embedding[vocab.idx_to_token]
    net.embedding.weight.data.copy_(embeds)
    lr, num_epochs = 0.001, 2
    trainer = torch.optim.Adam(net.parameters(), lr=lr)
    loss = nn.CrossEntropyLoss(reduction="none")
    train_ch13(net, train_iter, test_iter, loss, trainer, num_epochs, devices)
    def predict_snli(net, vocab, premise, hypothesis):
        net.eval()
        premise = torch.tensor(vocab[premise], device=torch.device('cpu'))
        hypothesis = torch.tensor(vocab[hypothesis], device=torch.device('cpu'))
        label = torch.argmax(net([premise.reshape((1, -1)),
                                  hypothesis.reshape((1, -1))]), dim=1)
        return 'entailment' if label == 0 else 'contradiction' if label == 1 \
            else 'neutral'
    print(predict_snli(net, vocab, ['he', 'is', 'good', '.'], ['he', 'is', 'bad', '.']))
    print(predict_snli(net, vocab, ['a', 'dog', 'runs', '.'], ['a', 'dog', 'sleeps', '.']))
    return {"birnn": birnn_weight, "textcnn": textcnn_conv,
            "agg": net.aggregate.linear.weight}


# ---- fastai/course22p2: activations, initialization (with miniai's learner) ---------------

def course22p2_activations_and_init(torch):
    """fastai/course22p2 nbs/10_activations.ipynb and nbs/11_initializing.ipynb with the
    miniai code they export (miniai/learner.py's callback Learner as 09_learner builds it,
    miniai/activations.py, miniai/init.py): set_seed, a CNN of conv/ReLU layers trained
    through TrainCB, DeviceCB and MetricsCB; activation means and stds gathered first by
    hand in a model with lists, then by register_forward_hook through partial in Hook,
    Hooks (a list and a context manager) and HooksCallback, and ActivationStats
    (append_stats: mean, std and abs().histc(40, 0, 10); get_hist with torch.stack, .t(),
    log1p; get_min); then init: the std of x @ a through 50 layers, kaiming_normal_ through
    init_weights with apply, normalised inputs by a BatchTransformCB, GeneralRelu (leaky
    ReLU, minus sub, clamp_max_) with kaiming_normal_(a=leak), LSUV (a hook's mean and std
    corrected in place under no_grad until within 1e-3), and layer and batch normalisation
    written by hand (x.var((0, 2, 3)), registered buffers updated by lerp_) against
    nn.BatchNorm2d. Offline: FashionMNIST is seeded 28x28 images; fastcore, torcheval's
    MulticlassAccuracy and Mean, and matplotlib's plots are small stand-ins or left out
    (the plots' data are summed and printed); the learner's globals() lookup of its
    exceptions is a dict here; 256 training images, a few epochs."""
    nn, F, optim = torch.nn, torch.nn.functional, torch.optim
    init = torch.nn.init
    DataLoader = torch.utils.data.DataLoader
    default_collate = torch.utils.data.default_collate
    tensor = torch.tensor
    partial = functools.partial

    def store_attr(names=None):
        frame = inspect.currentframe().f_back
        argnames = frame.f_code.co_varnames[:frame.f_code.co_argcount]
        self = frame.f_locals[argnames[0]]
        for name in argnames[1:]:
            setattr(self, name, frame.f_locals[name])
    class MulticlassAccuracy:
        """torcheval.metrics.MulticlassAccuracy: update with logits, compute the fraction."""
        def __init__(self): self.reset()
        def reset(self): self.num_correct, self.num_total = torch.tensor(0.), torch.tensor(0.)
        def update(self, input, target):
            self.num_correct += (input.argmax(dim=1) == target).sum()
            self.num_total += target.shape[0]
        def compute(self): return self.num_correct / self.num_total
    class Mean:
        """torcheval.metrics.Mean: a weighted mean of what update gives."""
        def __init__(self): self.reset()
        def reset(self): self.weighted_sum, self.weights = torch.tensor(0., dtype=torch.float64), 0.
        def update(self, input, weight=1.):
            self.weighted_sum += (input * weight).sum()
            self.weights += weight
        def compute(self): return self.weighted_sum / self.weights

    # miniai/learner.py as 09_learner.ipynb writes it
    class DataLoaders:
        def __init__(self, *dls): self.train, self.valid = dls[:2]
    class CancelFitException(Exception): pass
    class CancelBatchException(Exception): pass
    class CancelEpochException(Exception): pass
    cancels = {'Fit': CancelFitException, 'Batch': CancelBatchException, 'Epoch': CancelEpochException}
    class Callback(): order = 0
    def run_cbs(cbs, method_nm, learn=None):
        for cb in sorted(cbs, key=lambda cb: cb.order):   # (attrgetter('order'))
            method = getattr(cb, method_nm, None)
            if method is not None: method(learn)
    def to_cpu(x):
        if isinstance(x, dict): return {k: to_cpu(v) for k, v in x.items()}
        if isinstance(x, list): return [to_cpu(o) for o in x]
        if isinstance(x, tuple): return tuple(to_cpu(list(x)))
        res = x.detach().cpu()
        return res.float() if res.dtype == torch.float16 else res
    class MetricsCB(Callback):
        def __init__(self, *ms, **metrics):
            for o in ms: metrics[type(o).__name__] = o
            self.metrics = metrics
            self.all_metrics = dict(metrics)
            self.all_metrics['loss'] = self.loss = Mean()
        def _log(self, d): print(d)
        def before_fit(self, learn): learn.metrics = self
        def before_epoch(self, learn): [o.reset() for o in self.all_metrics.values()]
        def after_epoch(self, learn):
            log = {k: f'{v.compute():.3f}' for k, v in self.all_metrics.items()}
            log['epoch'] = learn.epoch
            log['train'] = 'train' if learn.model.training else 'eval'
            self._log(log)
        def after_batch(self, learn):
            x, y, *_ = to_cpu(learn.batch)
            for m in self.metrics.values(): m.update(to_cpu(learn.preds), y)
            self.loss.update(to_cpu(learn.loss), weight=len(x))
    def_device = 'cpu'
    def to_device(x, device=def_device):
        if isinstance(x, torch.Tensor): return x.to(device)
        if isinstance(x, dict): return {k: v.to(device) for k, v in x.items()}
        return type(x)(to_device(o, device) for o in x)
    class DeviceCB(Callback):
        def __init__(self, device=def_device): store_attr()
        def before_fit(self, learn):
            if hasattr(learn.model, 'to'): learn.model.to(self.device)
        def before_batch(self, learn): learn.batch = to_device(learn.batch, device=self.device)
    class TrainCB(Callback):
        def __init__(self, n_inp=1): self.n_inp = n_inp
        def predict(self, learn): learn.preds = learn.model(*learn.batch[:self.n_inp])
        def get_loss(self, learn): learn.loss = learn.loss_func(learn.preds, *learn.batch[self.n_inp:])
        def backward(self, learn): learn.loss.backward()
        def step(self, learn): learn.opt.step()
        def zero_grad(self, learn): learn.opt.zero_grad()
    class with_cbs:
        def __init__(self, nm): self.nm = nm
        def __call__(self, f):
            def _f(o, *args, **kwargs):
                try:
                    o.callback(f'before_{self.nm}')
                    f(o, *args, **kwargs)
                    o.callback(f'after_{self.nm}')
                except cancels[self.nm.title()]: pass
                finally: o.callback(f'cleanup_{self.nm}')
            return _f
    class Learner():
        def __init__(self, model, dls=(0,), loss_func=F.mse_loss, lr=0.1, cbs=None, opt_func=optim.SGD):
            cbs = list(cbs or [])
            store_attr()
        @with_cbs('batch')
        def _one_batch(self):
            self.predict()
            self.callback('after_predict')
            self.get_loss()
            self.callback('after_loss')
            if self.training:
                self.backward()
                self.callback('after_backward')
                self.step()
                self.callback('after_step')
                self.zero_grad()
        @with_cbs('epoch')
        def _one_epoch(self):
            for self.iter, self.batch in enumerate(self.dl): self._one_batch()
        def one_epoch(self, training):
            self.model.train(training)
            self.dl = self.dls.train if training else self.dls.valid
            self._one_epoch()
        @with_cbs('fit')
        def _fit(self, train, valid):
            for self.epoch in self.epochs:
                if train: self.one_epoch(True)
                if valid: torch.no_grad()(self.one_epoch)(False)
        def fit(self, n_epochs=1, train=True, valid=True, cbs=None, lr=None):
            cbs = list(cbs or [])
            for cb in cbs: self.cbs.append(cb)
            try:
                self.n_epochs = n_epochs
                self.epochs = range(n_epochs)
                if lr is None: lr = self.lr
                if self.opt_func: self.opt = self.opt_func(self.model.parameters(), lr)
                self._fit(train, valid)
            finally:
                for cb in cbs: self.cbs.remove(cb)
        def __getattr__(self, name):
            if name in ('predict', 'get_loss', 'backward', 'step', 'zero_grad'): return partial(self.callback, name)
            raise AttributeError(name)
        def callback(self, method_nm): run_cbs(self.cbs, method_nm, self)
        @property
        def training(self): return self.model.training
    class TrainLearner(Learner):
        def predict(self): self.preds = self.model(self.batch[0])
        def get_loss(self): self.loss = self.loss_func(self.preds, self.batch[1])
        def backward(self): self.loss.backward()
        def step(self): self.opt.step()
        def zero_grad(self): self.opt.zero_grad()
    class SingleBatchCB(Callback):
        order = 1
        def after_batch(self, learn): raise CancelFitException()
    class BatchTransformCB(Callback):
        def __init__(self, tfm, on_train=True, on_val=True): store_attr()
        def before_batch(self, learn):
            if (self.on_train and learn.training) or (self.on_val and not learn.training):
                learn.batch = self.tfm(learn.batch)

    # 10_activations.ipynb
    def set_seed(seed, deterministic=False):
        torch.use_deterministic_algorithms(deterministic)
        torch.manual_seed(seed)
        random.seed(seed)
        np.random.seed(seed)
    train_images = image_dataset(torch, 256, seed=6)
    valid_images = image_dataset(torch, 64, seed=7)
    bs = 64
    dls = DataLoaders(DataLoader(train_images, bs, shuffle=True, collate_fn=default_collate),
                      DataLoader(valid_images, bs * 2, collate_fn=default_collate))
    xb, yb = next(iter(dls.train))
    print(xb.shape, yb[:10])
    def conv(ni, nf, ks=3, stride=2, act=True):
        res = nn.Conv2d(ni, nf, stride=stride, kernel_size=ks, padding=ks//2)
        if act: res = nn.Sequential(res, nn.ReLU())
        return res
    def cnn_layers():
        return [
            conv(1, 8, ks=5),          # 14x14
            conv(8, 16),               # 7x7
            conv(16, 32),              # 4x4
            conv(32, 64),              # 2x2
            conv(64, 10, act=False),   # 1x1
            nn.Flatten()]
    from_metrics = MetricsCB(accuracy=MulticlassAccuracy())
    cbs = [TrainCB(), DeviceCB(), from_metrics]
    def fit(model, epochs=1, xtra_cbs=None):
        learn = Learner(model, dls, loss_func=F.cross_entropy, lr=0.6, cbs=cbs + (xtra_cbs or []))
        learn.fit(epochs)
        return learn
    set_seed(1)
    learn = fit(nn.Sequential(*cnn_layers()))

    class SequentialModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList(cnn_layers())
            self.act_means = [[] for _ in self.layers]
            self.act_stds = [[] for _ in self.layers]
        def __call__(self, x):
            for i, l in enumerate(self.layers):
                x = l(x)
                self.act_means[i].append(to_cpu(x).mean())
                self.act_stds[i].append(to_cpu(x).std())
            return x
        def __iter__(self): return iter(self.layers)
    set_seed(1)
    model = SequentialModel()
    learn = fit(model)
    print([len(m) for m in model.act_means], [f'{l[-1]:.4f}' for l in model.act_means])
    print([f'{l[0]:.4f}' for l in model.act_stds])

    set_seed(1)
    model = nn.Sequential(*cnn_layers())
    act_means = [[] for _ in model]
    act_stds = [[] for _ in model]
    def append_stats(i, mod, inp, outp):
        act_means[i].append(to_cpu(outp).mean())
        act_stds[i].append(to_cpu(outp).std())
    for i, m in enumerate(model): m.register_forward_hook(partial(append_stats, i))
    fit(model)
    print([f'{l[-1]:.4f}' for l in act_means], [f'{l[-1]:.4f}' for l in act_stds])

    class Hook():
        def __init__(self, m, f): self.hook = m.register_forward_hook(partial(f, self))
        def remove(self): self.hook.remove()
        def __del__(self): self.remove()
    def append_stats(hook, mod, inp, outp):
        if not hasattr(hook, 'stats'): hook.stats = ([], [])
        acts = to_cpu(outp)
        hook.stats[0].append(acts.mean())
        hook.stats[1].append(acts.std())
    set_seed(1)
    model = nn.Sequential(*cnn_layers())
    hooks = [Hook(l, append_stats) for l in model[:5].children()]
    learn = fit(model)
    for h in hooks:
        print(f'{h.stats[0][-1]:.4f} {h.stats[1][-1]:.4f}')
        h.remove()
    class Hooks(list):
        def __init__(self, ms, f): super().__init__([Hook(m, f) for m in ms])
        def __enter__(self, *args): return self
        def __exit__(self, *args): self.remove()
        def __del__(self): self.remove()
        def __delitem__(self, i):
            self[i].remove()
            super().__delitem__(i)
        def remove(self):
            for h in self: h.remove()
    set_seed(1)
    model = nn.Sequential(*cnn_layers())
    with Hooks(model, append_stats) as hooks:
        fit(model)
        print(len(hooks), [f'{h.stats[1][0]:.4f}' for h in hooks])
    class HooksCallback(Callback):
        def __init__(self, hookfunc, mod_filter=lambda x: True, on_train=True, on_valid=False, mods=None):
            store_attr()
            super().__init__()
        def before_fit(self, learn):
            if self.mods: mods = self.mods
            else: mods = [m for m in learn.model.modules() if self.mod_filter(m)]
            self.hooks = Hooks(mods, partial(self._hookfunc, learn))
        def _hookfunc(self, learn, *args, **kwargs):
            if (self.on_train and learn.training) or (self.on_valid and not learn.training): self.hookfunc(*args, **kwargs)
        def after_fit(self, learn): self.hooks.remove()
        def __iter__(self): return iter(self.hooks)
        def __len__(self): return len(self.hooks)
    hc = HooksCallback(append_stats, mod_filter=lambda m: isinstance(m, nn.Conv2d))
    set_seed(1)
    model = nn.Sequential(*cnn_layers())
    fit(model, xtra_cbs=[hc])
    print(len(hc), [len(h.stats[0]) for h in hc])
    def append_stats(hook, mod, inp, outp):
        if not hasattr(hook, 'stats'): hook.stats = ([], [], [])
        acts = to_cpu(outp)
        hook.stats[0].append(acts.mean())
        hook.stats[1].append(acts.std())
        hook.stats[2].append(acts.abs().histc(40, 0, 10))
    def get_hist(h): return torch.stack(h.stats[2]).t().float().log1p()
    def get_min(h):
        h1 = torch.stack(h.stats[2]).t().float()
        return h1[0]/h1.sum(0)
    class ActivationStats(HooksCallback):
        def __init__(self, mod_filter=lambda x: True): super().__init__(append_stats, mod_filter)
    astats = ActivationStats(lambda m: isinstance(m, nn.ReLU))
    set_seed(1)
    model = nn.Sequential(*cnn_layers())
    fit(model, xtra_cbs=[astats])
    for h in astats:
        print(get_hist(h).shape, get_hist(h).sum(), get_min(h))

    # 11_initializing.ipynb
    x = torch.randn(200, 100)
    for i in range(50): x = x @ torch.randn(100, 100)
    print(x[0:5, 0:5])
    x = torch.randn(200, 100)
    for i in range(50): x = x @ (torch.randn(100, 100) * 0.01)
    print(x[0:5, 0:5])
    x = torch.randn(200, 100)
    for i in range(50): x = x @ (torch.randn(100, 100) * 0.1)
    print(x[0:5, 0:5])
    x = torch.randn(200, 100)
    y = torch.randn(200)
    w1 = torch.randn(100, 50) * math.sqrt(2 / 100)
    b1 = torch.zeros(50)
    w2 = torch.randn(50, 1) * math.sqrt(2 / 50)
    b2 = torch.zeros(1)
    def lin(x, w, b): return x @ w + b
    l1 = lin(x, w1, b1)
    print(l1.mean(), l1.std())
    def relu(x): return x.clamp_min(0.)
    l2 = relu(l1)
    print(l2.mean(), l2.std())
    x = torch.randn(200, 100)
    for i in range(50): x = relu(x @ (torch.randn(100, 100) * math.sqrt(2/100)))
    print(x[0:5, 0:5])
    def init_weights(m):
        if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.Conv3d)): init.kaiming_normal_(m.weight)
    set_seed(42)
    model = nn.Sequential(*cnn_layers())
    model.apply(init_weights)
    fit(model, xtra_cbs=[ActivationStats(lambda m: isinstance(m, nn.ReLU))])
    xmean, xstd = xb.mean(), xb.std()
    print(xmean, xstd)
    def _norm(b): return (b[0] - xmean) / xstd, b[1]
    norm = BatchTransformCB(_norm)
    set_seed(42)
    model = nn.Sequential(*cnn_layers())
    model.apply(init_weights)
    learn = fit(model, xtra_cbs=[norm])

    class GeneralRelu(nn.Module):
        def __init__(self, leak=None, sub=None, maxv=None):
            super().__init__()
            self.leak, self.sub, self.maxv = leak, sub, maxv
        def forward(self, x):
            x = F.leaky_relu(x, self.leak) if self.leak is not None else F.relu(x)
            if self.sub is not None: x -= self.sub
            if self.maxv is not None: x.clamp_max_(self.maxv)
            return x
    x = torch.linspace(-5., 5., 100)
    print(GeneralRelu(leak=0.1, sub=0.4)(x)[::20])
    def conv(ni, nf, ks=3, stride=2, act=nn.ReLU, norm=None, bias=True):
        layers = [nn.Conv2d(ni, nf, stride=stride, kernel_size=ks, padding=ks//2, bias=bias)]
        if norm: layers.append(norm(nf))
        if act: layers.append(act())
        return nn.Sequential(*layers)
    def get_model(act=nn.ReLU, nfs=None, norm=None):
        if nfs is None: nfs = [1, 8, 16, 32, 64]
        layers = [conv(nfs[i], nfs[i+1], act=act, norm=norm) for i in range(len(nfs)-1)]
        return nn.Sequential(*layers, conv(nfs[-1], 10, act=None, norm=None, bias=False), nn.Flatten()).to(def_device)
    def init_weights(m, leaky=0.):
        if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.Conv3d, nn.Linear)): init.kaiming_normal_(m.weight, a=leaky)
    act_gr = partial(GeneralRelu, leak=0.1, sub=0.4)
    astats = ActivationStats(lambda m: isinstance(m, GeneralRelu))
    cbs = [TrainCB(), DeviceCB(), from_metrics, norm, astats]
    iw = partial(init_weights, leaky=0.1)
    set_seed(42)
    model = get_model(act_gr).apply(iw)
    learn = fit(model)
    print([f'{h.stats[0][-1]:.4f}' for h in astats])

    def _lsuv_stats(hook, mod, inp, outp):
        acts = to_cpu(outp)
        hook.mean = acts.mean()
        hook.std = acts.std()
    def lsuv_init(m, m_in, xb):
        h = Hook(m, _lsuv_stats)
        with torch.no_grad():
            while model(xb) is not None and (abs(h.std-1) > 1e-3 or abs(h.mean) > 1e-3):
                m_in.bias -= h.mean
                m_in.weight.data /= h.std
        h.remove()
    set_seed(42)
    model = get_model(act_gr)
    relus = [o for o in model.modules() if isinstance(o, GeneralRelu)]
    convs = [o for o in model.modules() if isinstance(o, nn.Conv2d)]
    for ms in zip(relus, convs): print(ms)
    for ms in zip(relus, convs): lsuv_init(*ms, _norm((xb, yb))[0].to(def_device))
    print([f'{c.weight.std():.4f}' for c in convs], [f'{c.bias.mean():.4f}' for c in convs[:4]])
    learn = fit(model)

    class LayerNorm(nn.Module):
        def __init__(self, dummy, eps=1e-5):
            super().__init__()
            self.eps = eps
            self.mult = nn.Parameter(tensor(1.))
            self.add = nn.Parameter(tensor(0.))
        def forward(self, x):
            m = x.mean((1, 2, 3), keepdim=True)
            v = x.var((1, 2, 3), keepdim=True)
            x = (x-m) / ((v+self.eps).sqrt())
            return x*self.mult + self.add
    def get_model(act=nn.ReLU, nfs=None, norm=None):
        if nfs is None: nfs = [1, 8, 16, 32, 64]
        layers = [conv(nfs[i], nfs[i+1], act=act, norm=norm) for i in range(len(nfs)-1)]
        return nn.Sequential(*layers, conv(nfs[-1], 10, act=None, norm=False, bias=True),
                             nn.Flatten()).to(def_device)
    set_seed(42)
    model = get_model(act_gr, norm=LayerNorm).apply(iw)
    learn = fit(model)
    class BatchNorm(nn.Module):
        def __init__(self, nf, mom=0.1, eps=1e-5):
            super().__init__()
            self.mom, self.eps = mom, eps
            self.mults = nn.Parameter(torch.ones(nf, 1, 1))
            self.adds = nn.Parameter(torch.zeros(nf, 1, 1))
            self.register_buffer('vars', torch.ones(1, nf, 1, 1))
            self.register_buffer('means', torch.zeros(1, nf, 1, 1))
        def update_stats(self, x):
            m = x.mean((0, 2, 3), keepdim=True)
            v = x.var((0, 2, 3), keepdim=True)
            self.means.lerp_(m, self.mom)
            self.vars.lerp_(v, self.mom)
            return m, v
        def forward(self, x):
            if self.training:
                with torch.no_grad(): m, v = self.update_stats(x)
            else: m, v = self.means, self.vars
            x = (x-m) / (v+self.eps).sqrt()
            return x*self.mults + self.adds
    set_seed(42)
    model = get_model(act_gr, norm=BatchNorm).apply(iw)
    learn = fit(model)
    print(model[0][1].means.flatten(), model[0][1].vars.flatten())
    set_seed(42)
    model = get_model(act_gr, norm=nn.BatchNorm2d).apply(iw)
    learn = fit(model)
    print(model[0][1].running_mean, model[0][1].running_var)
    return {"bn_means": model[0][1].running_mean, "w0": model[0][0].weight}


PROGRAMS = [basics_tensors, basics_autograd, basics_build_model, basics_optimization,
            blitz_neural_networks, what_is_torch_nn, recipes_state_dict_and_checkpoints,
            learning_with_examples, micrograd_engine_tests, makemore_models, nanogpt_train,
            mingpt_char, backprop_ninja, d2l_preliminaries, d2l_builders_guide, yunjey_basics,
            reinforce_policy_gradient, introyt_tensors, introyt_autograd, introyt_models,
            two_layer_nets, d2l_attention, char_rnn_generation,
            recipes_default_device_and_multiple_models, introyt_training,
            recipes_reasoning_about_shapes, pruning_tutorial, visualizing_gradients,
            custom_function_double_backward, saved_tensors_hooks, optimizer_step_in_backward,
            fused_conv_bn,
            d2l_linear_regression, d2l_linear_classification, d2l_multilayer_perceptrons,
            d2l_convolutions, d2l_modern_cnns, d2l_recurrent, d2l_optimization,
            d2l_modern_rnns, d2l_classic_chapters, d2l_transformers, d2l_cnn_designs,
            d2l_sequences, examples_mnist, examples_mnist_rnn, examples_vae, examples_regression,
            examples_time_sequence_prediction, examples_word_language_model,
            examples_mnist_forward_forward, examples_siamese_network, examples_super_resolution,
            examples_dcgan, blitz_tensors_autograd_cifar10, fgsm_adversarial_examples,
            saving_and_loading_models, module_load_state_dict_tips, yunjey_intermediate,
            yunjey_advanced, char_rnn_classification, transformer_language_model,
            data_loading_face_landmarks, tuning_guide_cpu, examples_gat, seq2seq_translation,
            jcjohnson_pytorch_examples, morvan_basics, morvan_networks,
            nlp_pytorch_and_deep_learning, nlp_embeddings_and_sequence_models, nlp_bilstm_crf,
            udacity_intro_to_pytorch, bentrevett_sentiment_analysis, former_torchies,
            d2l_nlp_pretraining, leaf_tensors_and_parametrizations, knowledge_distillation,
            basics_data_and_transforms, spatial_transformer, morvan_dqn,
            lyeoni_transformer_classifier, aladdin_pytorch_basics,
            llms_appendix_a, llms_ch02_ch03, llms_ch04_ch05,
            dlwpt_tensors_and_learning, dlwpt_autograd_optimizers_and_nn,
            dlwpt_images_and_convolutions,
            ml_book_ch12, ml_book_ch13_part1, ml_book_ch13_part2, ml_book_ch14_cnn, ml_book_ch15_rnn,
            ml_book_ch15_sentiment,
            ml_book_ch16_self_attention, ml_book_ch17_gan, ml_book_ch17_dcgan_wgan,
            ml_book_ch18_gnn, llms_ch06_classification, llms_ch07_instruction_finetuning,
            dlwpt_real_world_data, dlwpt_subclassing_and_datasets,
            course22p2_matmul, course22p2_backprop, course22p2_minibatch_training,
            makemore_wavenet, build_nanogpt_train_gpt2, makemore_activations_and_gradients,
            makemore_mlp_lecture, cs231n_pytorch, cs224n_parser_model, d2l_gans,
            d2l_nlp_applications, course22p2_activations_and_init]

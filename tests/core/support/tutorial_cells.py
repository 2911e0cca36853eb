"""The code cells of the five copies of PyTorch's autograd tutorial that the kit
is built to run unchanged (``import minigrad as torch``), in notebook order.

Transcribed byte for byte from the copies (English, Korean, Chinese; the last
one with assignments), with only these changes, each marked where it happens:

* the one non-English code comment is translated (seed 000);
* seed 002 is a web page whose scraping lost the indentation of the body of
  ``with torch.no_grad():``; it is restored, or the cell would not compile.

Prose such as the ``retain_variables = True`` sentence of seed 002 is not code
and is left out. ``ASSIGNMENT_SOLUTIONS`` are ours: answers to the exercises of
seed 004, run by the same test.
"""

SEED_000 = [  # Korean course notes, English text
    "import torch \n"
    "\n"
    "x = torch.ones(2, 2, requires_grad = True)\n"
    "print(x)",

    "y = x + 2\n"
    "print(y)",

    "print(y.grad_fn)",

    "z = y * y * 3\n"
    "out = z.mean()\n"
    "\n"
    "print(z, out)",

    "# .requires_grad_(...) changes an existing Tensor's requires_grad flag in-place. \n"
    "\n"
    "a = torch.randn(2, 2)\n"
    "a = ((a * 3)/(a - 1))\n"
    "print(a.requires_grad)\n"
    "\n"
    "a.requires_grad_(True)\n"
    "print(a.requires_grad)\n"
    "\n"
    "b = (a * a).sum()\n"
    "print(b.grad_fn)",

    "out.backward()",

    "print(x.grad)",

    "x = torch.randn(3, requires_grad = True)\n"
    "\n"
    "y = x * 2\n"
    "while y.data.norm() < 1000:\n"
    "    y = y * 2\n"
    "\n"
    "print(y)",

    "gradients = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)\n"
    # translated from Korean: "gradient에는 output결과값과 동일한 shape이 들어가야 한다."
    "y.backward(gradients)     # the gradient must have the same shape as the output. \n"
    "\n"
    "print(x.grad)",

    "# to stop autograd from tracking history on Tensors: wrap the code block in with "
    "torch.no_grad():\n"
    "\n"
    "print(x.requires_grad)\n"
    "print((x ** 2).requires_grad)\n"
    "\n"
    "with torch.no_grad():\n"
    "    print((x ** 2).requires_grad)",
]

SEED_001 = [  # English notebook, with the .detach() cell
    "import torch",

    "#Create a tensor and set requires_grad=True to track computation with it\n"
    "X=torch.ones(2,2,requires_grad=True)\n"
    "print(X)",

    "#Tensor operation\n"
    "y=X+2\n"
    "print(y)",

    "#y was created as a result of operation, so it has a grad_fn\n"
    "print(y.grad_fn)",

    "#More operation on y\n"
    "z=y*y*3\n"
    "out=z.mean()\n"
    "print(z, out)",

    "#requires_grad(...) changes to existing Tensor's requires_grad flag-in-plae. "
    "Input flag defaults to false if not given.\n",

    "a=torch.randn(2,2)\n"
    "a=((a*3)/(a-1))\n"
    "print(a.requires_grad)\n"
    "a.requires_grad_(True)\n"
    "print(a.requires_grad)\n"
    "b=(a*a).sum()\n"
    "print(b.grad_fn)",

    "out.backward()",

    "print(X.grad)",

    "# we can stop autograd from tracking history on tensor by 2 ways\n"
    "# 1st way\n"
    "print(X.requires_grad)\n"
    "print((X**2).requires_grad)\n"
    "with torch.no_grad():\n"
    "    print((X**2).requires_grad)",

    "# 2nd way, by calling detach\n"
    "print(X.requires_grad)\n"
    "y=X.detach()\n"
    "print(y.requires_grad)\n"
    "print(X.eq(y).all)",
]

SEED_002 = [  # the pytorch.org tutorial page (an older release: MeanBackward1)
    "import torch",

    "x = torch.ones(2, 2, requires_grad=True)\n"
    "print(x)",

    "print(x.data)",

    "print(x.grad)",

    "print(x.grad_fn) # we've created x ourselves",

    "y = x + 2\n"
    "print(y)",

    "print(y.grad_fn)",

    "z = y * y * 3\n"
    "out = z.mean()\n"
    "print(z, out)",

    "a = torch.randn(2, 2)\n"
    "a = ((a * 3) / (a - 1))\n"
    "print(a.requires_grad)\n"
    "a.requires_grad_(True)\n"
    "print(a.requires_grad)\n"
    "b = (a * a).sum()\n"
    "print(b.grad_fn)",

    "out.backward()\n"
    "print(x.grad)",

    "x = torch.ones(2, 2, requires_grad=True)\n"
    "y = x + 2\n"
    "y.backward(torch.ones(2, 2), retain_graph=True)\n"
    "# the retain_variables flag will prevent the internal buffers from being freed\n"
    "print(x.grad)",

    "z = y * y\n"
    "print(z)",

    "gradient = torch.randn(2, 2)\n"
    "# this would fail if we didn't specify\n"
    "# that we want to retain variables\n"
    "y.backward(gradient)\n"
    "print(x.grad)",

    "print(x.requires_grad)\n"
    "print((x ** 2).requires_grad)\n"
    "with torch.no_grad():\n"
    "    print((x ** 2).requires_grad)",  # indentation restored (lost by the scrape)
]

SEED_003 = [  # Chinese notes (the Chinese is all in markdown cells)
    "import torch",

    "x = torch.ones(2, 2, requires_grad=True)\n"
    "print(x)",

    "y = x + 2\n"
    "print(y)\n"
    "print(y.grad_fn)",

    "z = y * y * 3\n"
    "out = z.mean()\n"
    "print(z, out)",

    "a = torch.randn(2, 2)\n"
    "a = (a * 3) / (a - 1)\n"
    "print(a.requires_grad)\n"
    "a.requires_grad_(True)\n"
    "print(a.requires_grad)\n"
    "b = (a * a).sum()\n"
    "print(b.grad_fn)",

    "# scalar\n"
    "out.backward() # equivalent to out.backward(torch.tensor(1.))\n"
    "# out.backward(torch.tensor(1.))",

    "# gradients d(out)/dx\n"
    "print(x.grad)",

    "x = torch.randn(3, requires_grad=True)\n"
    "y = x * 2\n"
    "while y.data.norm() < 1000:\n"
    "    y = y * 2\n"
    "    \n"
    "print(y)",

    "v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)\n"
    "y.backward(v)\n"
    "print(x.grad)",

    "print(x.requires_grad)\n"
    "print((x ** 2).requires_grad)\n"
    "\n"
    "with torch.no_grad():\n"
    "    print((x ** 2).requires_grad)",
]

SEED_004 = [  # English course notebook with assignments (saved without outputs)
    "import torch",

    "x = torch.ones(2, 2, requires_grad=True)\n"
    "print(x)",

    "y = x + 2\n"
    "print(y)",

    "print(y.grad_fn)",

    "z = y * y * 3\n"
    "out = z.mean()\n"
    "\n"
    "print(z)\n"
    "print(out)",

    "out.backward()",

    "print(x.grad)",

    "x = torch.randn(3, requires_grad=True)\n"
    "\n"
    "y = x * 2\n"
    "while y.data.norm() < 1000:\n"
    "    y = y * 2\n"
    "\n"
    "print(y)",

    "gradients = torch.FloatTensor([0.1, 1.0, 0.0001])\n"
    "y.backward(gradients)\n"
    "\n"
    "print(x.grad)",
]

# Our answers to seed 004's two assignment lists (not part of any seed).
ASSIGNMENT_SOLUTIONS = [
    "import torch",

    "# 1. a Tensor of size (5, 5) that requires grad; 2. the sum of its values\n"
    "t = torch.randn(5, 5, requires_grad=True)\n"
    "print(t.shape, t.size())\n"
    "s = t.sum()\n"
    "print(s.grad_fn)\n"
    "s",

    "# 1. a tensor that requires grad\n"
    "a = torch.tensor([1., 2., 3.], requires_grad=True)\n"
    "# 3. multiplied by 2, 4. summed\n"
    "b = a * 2\n"
    "c = b.sum()\n"
    "# 5. the gradients of all variables (b and c are not leaves: their .grad warns)\n"
    "print(a.grad, b.grad, c.grad)",

    "# 6. backward, keeping the gradients of the non-leaf variables\n"
    "b = a * 2\n"
    "b.retain_grad()\n"
    "c = b.sum()\n"
    "c.retain_grad()\n"
    "c.backward()\n"
    "# 7. print them again\n"
    "print(a.grad, b.grad, c.grad, sep='\\n')",
]

TUTORIALS = [
    ("000_3f329d1011cdc670", SEED_000),
    ("001_8f444aa5be2ed95d", SEED_001),
    ("002_ac8f57969690b9d3", SEED_002),
    ("003_814d55b543067124", SEED_003),
    ("004_f1cab645d9647b2b", SEED_004),
    ("004_assignment_solutions", ASSIGNMENT_SOLUTIONS),
]

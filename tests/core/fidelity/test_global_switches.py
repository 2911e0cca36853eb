"""torch.set_warn_always / is_warn_always_enabled (PyTorch's once-a-process warnings given
every time), torch.set_flush_denormal, torch.get/set_num_interop_threads: what they
return, their errors, and the once-a-process warnings with the switch off and on, against
PyTorch 2.13 in a fresh process each (their state is the process's)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROGRAM = r'''
import json, sys, warnings
import numpy as np
lib = __import__(sys.argv[1])
said = []
def warned(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            call()
        except Exception as error:
            said.append(f"{type(error).__name__}: {error}")
    said.append([str(w.message)[:50] for w in caught])
a, m, eye = lib.ones(3, 3), lib.ones(2, 2), lib.eye(2)
once = [lambda: lib.cross(a, a), lambda: lib.chain_matmul(m, m),
        lambda: lib.asarray(lib.ones(2, requires_grad=True)), lambda: lib.cholesky(eye),
        lambda: lib.meshgrid(lib.ones(2), lib.ones(3)), lambda: graph_kept(lib.ones(2))]
read_only = np.broadcast_to(np.ones(3), (2, 3))
unspent = [lambda: lib.from_numpy(read_only), lambda: lib.meshgrid(a[0], a[0], a[0]),
           lambda: graph_kept(lib.ones(2, 2))]  # (first met with the switch on)
def graph_kept(x):
    x.requires_grad_()
    (x * x).sum().backward(create_graph=True)
for call in once * 2:
    warned(call)
said.append(lib.is_warn_always_enabled())
lib.set_warn_always(True)
said.append(lib.is_warn_always_enabled())
for call in (once + unspent) * 2:
    warned(call)
lib.set_warn_always(False)
for call in (once + unspent) * 2:
    warned(call)
for bad in ("yes", 1, None):
    warned(lambda: lib.set_warn_always(bad))
    warned(lambda: lib.set_flush_denormal(bad))
said += [lib.set_flush_denormal(True), lib.set_flush_denormal(False)]
said.append(lib.get_num_interop_threads())
for n in (0, -1, 1.5, True, "2", 3, 2):
    warned(lambda: lib.set_num_interop_threads(n))
said.append(lib.get_num_interop_threads())
print(json.dumps(said))
'''


def said(library: str) -> list:
    done = subprocess.run([sys.executable, "-c", PROGRAM, library], capture_output=True,
                          text=True, check=True, timeout=120)
    return json.loads(done.stdout)


def test_the_switches_and_once_a_process_warnings_are_pytorchs():
    theirs, ours = said("torch"), said("minigrad")
    assert ours == theirs
    assert [] in theirs and ["Using torch.cross without specifying the dim arg i"] in theirs
    assert theirs.count(["The given NumPy array is not writable, and PyTorch"]) == 3

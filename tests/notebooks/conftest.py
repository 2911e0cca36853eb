"""The lessons' tests run PyTorch on a few small tensors: one thread is the fast
way. With its default (a thread per core), a machine shared with other jobs
makes each tiny op wait for a busy core: lesson 9's training took 27 s, not 2.
Kernels started by the tests (nbclient) inherit OMP_NUM_THREADS."""

import os

os.environ["OMP_NUM_THREADS"] = "1"

import torch  # noqa: E402  (after the variable, so this process reads it too)

torch.set_num_threads(1)

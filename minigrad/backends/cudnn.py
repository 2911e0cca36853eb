"""``torch.backends.cudnn``: NVIDIA's library, which minigrad does not use.

Its flags exist so that reproducibility boilerplate such as
``torch.backends.cudnn.deterministic = True`` runs; they change nothing here.
"""

enabled = True
deterministic = False
benchmark = False


def is_available() -> bool:
    return False

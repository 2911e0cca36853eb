"""``torch.backends.mps``: Apple's GPU backend, which minigrad does not have."""


def is_available() -> bool:
    """False: use the CPU."""
    return False


def is_built() -> bool:
    return False

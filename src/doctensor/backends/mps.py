"""``torch.backends.mps``: Apple's Metal device, which doctensor does not have (as torch on
Linux does not)."""

__all__ = ["is_available", "is_built"]


def is_available():
    return False


def is_built():
    return False

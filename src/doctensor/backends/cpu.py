"""``torch.backends.cpu``: the build of torch's CPU kernels that doctensor reproduces (Note
[CPU capability])."""

from .._exact.capability import cpu_capability

__all__ = ["get_cpu_capability"]


def get_cpu_capability():
    """``'AVX512'`` or ``'AVX2'``, as torch's ``get_cpu_capability()`` names them."""
    return cpu_capability().upper()

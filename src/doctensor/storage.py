"""Storage (a flat buffer on a device) and the version counter shared by aliases.

Note [version counter]
Every in-place write bumps a counter that is shared by all tensors that alias the same
memory *through autograd-visible aliasing*: a tensor, its views and its ``detach()``.
Saved tensors remember the counter's value; backward compares it (Note [saved tensors]).
``.data`` is the one alias that gets a **new** counter, which is why edits through
``.data`` go unnoticed by autograd::

    x ──view──> v          x, v, x.detach() : one counter   (edits are caught)
    x ──.data──> d         d : its own counter              (edits are invisible)
"""

from . import backends
from .device import device as _device

__all__ = ["VersionCounter", "Storage"]


class VersionCounter:
    """A mutable integer shared by aliasing tensors (``Tensor._version`` reads it)."""

    __slots__ = ("value",)

    def __init__(self):
        self.value = 0


class Storage:
    """A flat buffer of one dtype on one device, shared by a tensor and its views.

    ``buffer`` is a 1-D array of the backend (NumPy or CuPy) covering the whole allocation;
    it is derived lazily from the array that first owned the memory.
    """

    __slots__ = ("_owner", "_buffer", "backend", "device", "resizable", "shared")

    def __init__(self, owner, backend, device):
        self._owner = owner
        self._buffer = None
        self.backend = backend
        self.device = device
        self.resizable = True  # False once NumPy shares it: Note [resize_ grows the storage]
        self.shared = False  # set by Tensor.share_memory_ (a flag only: see that method)

    @property
    def buffer(self):
        if self._buffer is None:
            self._buffer = self.backend.flat_buffer(self._owner)
            self._owner = None
        return self._buffer

    def data_ptr(self):
        """Address of the first byte of the allocation."""
        if self._buffer is None and self._owner is not None and self._owner.size:
            return self.backend.data_ptr(self._owner)
        buf = self.buffer
        return self.backend.data_ptr(buf) if buf.size else 0

    def nbytes(self):
        """Size of the allocation in bytes."""
        return self.buffer.nbytes

    def size(self):
        """Like torch's UntypedStorage: the size in bytes."""
        return self.nbytes()

    def element_size(self):
        return 1

    def __len__(self):
        return self.nbytes()

    def __repr__(self):
        return f"<doctensor storage of {self.nbytes()} bytes on {self.device}>"

    def __reduce__(self):
        """Pickle the elements (as a host array) and the device name; pickle's memo keeps one
        storage shared by the tensors pickled with it (``Tensor.__reduce_ex__``)."""
        return (_rebuild_storage, (self.backend.to_host(self.buffer), str(self.device)))


def _rebuild_storage(array, device):
    """A storage holding ``array`` (a host array) on ``device`` (a name): undoes pickling."""
    device = _device(device)
    backend = backends.for_device(device)
    return Storage(array if device.type == "cpu" else backend.from_host(array), backend, device)

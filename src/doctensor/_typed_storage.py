"""``torch.TypedStorage``: the deprecated storage of ``Tensor.storage()``.

An untyped storage (doctensor's ``Storage``) read as elements of one dtype: its length counts
elements, indexing reads and writes Python numbers, and it prints as torch prints it.

    >>> import doctensor as torch
    >>> s = torch.tensor([1, 2]).storage()
    >>> len(s), s[1], s.data_ptr() == s.untyped().data_ptr()
    (2, 2, True)
"""

__all__ = ["TypedStorage", "TYPED_STORAGE_DEPRECATED"]

TYPED_STORAGE_DEPRECATED = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
    "only storage class. This should only matter to you if you are using storages directly.  To "
    "access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()")


class TypedStorage:
    """``storage`` (an untyped storage) read as ``dtype`` elements."""

    __module__ = "torch.storage"
    is_sparse = False

    def __init__(self, storage, dtype):
        self._untyped_storage = storage
        self.dtype = dtype

    def _elements(self):
        buffer = self._untyped_storage.buffer
        if buffer.dtype != self.dtype.np:
            buffer = buffer.view("u1").view(self.dtype.np)
        return buffer

    @property
    def device(self):
        return self._untyped_storage.device

    def untyped(self):
        return self._untyped_storage

    def size(self):
        return len(self._elements())

    __len__ = size

    def element_size(self):
        return self.dtype.itemsize

    def nbytes(self):
        return self._untyped_storage.nbytes()

    def data_ptr(self):
        return self._untyped_storage.data_ptr()

    def is_shared(self):
        return self.device.type == "cuda" or self._untyped_storage.shared

    def type(self):
        cuda = "cuda." if self.device.type == "cuda" else ""
        return f"torch.{cuda}{self.dtype.scalar_name}Storage"

    def tolist(self):
        return self._untyped_storage.backend.to_host(self._elements()).tolist()

    def __iter__(self):
        return iter(self.tolist())

    def __getitem__(self, index):
        """An element as a Python number (a slice: a list of them)."""
        return self._untyped_storage.backend.to_host(self._elements()[index]).tolist()

    def __setitem__(self, index, value):
        self._elements()[index] = value

    def __repr__(self):
        info = (f"[torch.storage.TypedStorage(dtype={self.dtype}, device={self.device}) of size "
                f"{len(self)}]")
        return " " + "\n ".join(str(v) for v in self.tolist()) + "\n" + info

    __str__ = __repr__

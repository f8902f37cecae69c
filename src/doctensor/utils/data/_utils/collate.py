"""How a ``DataLoader`` turns samples into batches (``torch.utils.data._utils.collate``)."""

import collections.abc
import copy

import numpy as np

import doctensor as torch

__all__ = ["default_collate", "default_convert"]


def default_collate(batch):
    """Stack a list of samples into a batch: tensors (and NumPy arrays) along a new first
    dim, numbers into a tensor, strings as they are, and mappings and sequences field by
    field, in their own type (a list for a plain tuple, as torch)."""
    elem = batch[0]
    if isinstance(elem, torch.Tensor):
        return torch.stack(batch, 0)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in "SaUO":
            raise TypeError(_UNSUPPORTED.format(elem.dtype))
        return torch.stack([torch.as_tensor(b) for b in batch], 0)
    if isinstance(elem, np.number | np.bool_):
        return torch.as_tensor(np.array(batch))
    if isinstance(elem, bool | int | float):
        return torch.tensor(batch, dtype=torch.float64 if isinstance(elem, float) else None)
    if isinstance(elem, str | bytes):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        fields = {key: default_collate([d[key] for d in batch]) for key in elem}
        if isinstance(elem, collections.abc.MutableMapping):
            clone = copy.copy(elem)
            clone.update(fields)
            return clone
        try:
            return type(elem)(fields)
        except TypeError:
            return fields
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple keeps its type
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [default_collate(samples) for samples in zip(*batch)]
        if isinstance(elem, tuple):
            return fields
        if isinstance(elem, collections.abc.MutableSequence):
            clone = copy.copy(elem)
            clone[:] = fields
            return clone
        try:
            return type(elem)(fields)
        except TypeError:
            return fields
    raise TypeError(_UNSUPPORTED.format(type(elem)))


_UNSUPPORTED = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or "
                "lists; found {}")


def default_convert(data):
    """NumPy arrays and numbers (inside dicts, tuples and lists too) as tensors: the
    ``collate_fn`` of a ``DataLoader`` with ``batch_size=None``."""
    if isinstance(data, np.ndarray | np.number | np.bool_) and data.dtype.kind not in "OSUV":
        return torch.as_tensor(data)
    if isinstance(data, dict):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*map(default_convert, data))
    if isinstance(data, tuple | list):
        return [default_convert(d) for d in data]
    return data

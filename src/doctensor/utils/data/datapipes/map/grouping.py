"""``batch`` of a ``MapDataPipe``: item ``i`` is the ``i``-th list of ``batch_size``."""

import collections.abc

from .._decorator import functional_datapipe
from ..datapipe import DataChunk, MapDataPipe

__all__ = ["BatcherMapDataPipe"]


@functional_datapipe("batch")
class BatcherMapDataPipe(MapDataPipe):
    """Item ``i`` is ``wrapper_class([datapipe[j] for j in the i-th run of batch_size])``;
    the last one shorter, or out of range with ``drop_last`` (functional name: ``batch``)."""

    def __init__(self, datapipe, batch_size, drop_last=False, wrapper_class=DataChunk):
        if batch_size <= 0:
            raise AssertionError("Batch size is required to be larger than 0!")
        super().__init__()
        self.datapipe = datapipe
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.wrapper_class = wrapper_class

    def __getitem__(self, index):
        batch = []
        try:
            for i in range(index * self.batch_size, (index + 1) * self.batch_size):
                batch.append(self.datapipe[i])
        except IndexError as e:
            if self.drop_last or not batch:
                raise IndexError(f"Index {index} is out of bound.") from e
        return self.wrapper_class(batch)

    def __len__(self):
        if not isinstance(self.datapipe, collections.abc.Sized):
            raise TypeError(f"{type(self).__name__} instance doesn't have valid length")
        if self.drop_last:
            return len(self.datapipe) // self.batch_size
        return (len(self.datapipe) + self.batch_size - 1) // self.batch_size

"""``batch``, ``unbatch`` and ``groupby``: items of an ``IterDataPipe`` put into lists."""

import collections
import collections.abc

from .._decorator import functional_datapipe
from .._fn_checks import check_unpickable_fn
from ..datapipe import DataChunk, IterDataPipe

__all__ = ["BatcherIterDataPipe", "GrouperIterDataPipe", "UnBatcherIterDataPipe"]


@functional_datapipe("batch")
class BatcherIterDataPipe(IterDataPipe):
    """Lists of ``batch_size`` items, as ``wrapper_class`` (``DataChunk``); the last one
    shorter, or dropped with ``drop_last`` (functional name: ``batch``)."""

    def __init__(self, datapipe, batch_size, drop_last=False, wrapper_class=DataChunk):
        if batch_size <= 0:
            raise AssertionError("Batch size is required to be larger than 0!")
        super().__init__()
        self.datapipe = datapipe
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.wrapper_class = wrapper_class

    def __iter__(self):
        batch = []
        for item in self.datapipe:
            batch.append(item)
            if len(batch) == self.batch_size:
                yield self.wrapper_class(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.wrapper_class(batch)

    def __len__(self):
        if not isinstance(self.datapipe, collections.abc.Sized):
            raise TypeError(f"{type(self).__name__} instance doesn't have valid length")
        if self.drop_last:
            return len(self.datapipe) // self.batch_size
        return (len(self.datapipe) + self.batch_size - 1) // self.batch_size


@functional_datapipe("unbatch")
class UnBatcherIterDataPipe(IterDataPipe):
    """The items of the lists, flattened ``unbatch_level`` levels deep (-1: all the way)
    (functional name: ``unbatch``)."""

    def __init__(self, datapipe, unbatch_level=1):
        self.datapipe = datapipe
        self.unbatch_level = unbatch_level

    def __iter__(self):
        for element in self.datapipe:
            yield from self._dive(element, self.unbatch_level)

    def _dive(self, element, level):
        if level < -1:
            raise ValueError("unbatch_level must be -1 or >= 0")
        if level == 0 or (level == -1 and not isinstance(element, list)):
            yield element
        elif isinstance(element, list):  # (a DataChunk is a list)
            for item in element:
                yield from self._dive(item, level if level == -1 else level - 1)
        else:
            raise IndexError(f"unbatch_level {self.unbatch_level} exceeds the depth of the "
                             "DataPipe")


@functional_datapipe("groupby")
class GrouperIterDataPipe(IterDataPipe):
    """Items grouped by ``group_key_fn(item)`` (functional name: ``groupby``).

    A group is yielded as soon as it has ``group_size`` items.  When ``buffer_size`` items
    wait, the largest group leaves (yielded if it has ``guaranteed_group_size`` items,
    dropped with ``drop_remaining``, an error otherwise); at the end every group left is
    yielded, in the order the keys first came.  With ``keep_key``, ``(key, group)``.
    """

    def __init__(self, datapipe, group_key_fn, *, keep_key=False, buffer_size=10000,
                 group_size=None, guaranteed_group_size=None, drop_remaining=False):
        check_unpickable_fn(group_key_fn)
        self.datapipe = datapipe
        self.group_key_fn = group_key_fn
        self.keep_key = keep_key
        self.max_buffer_size = buffer_size
        self.buffer_elements = collections.defaultdict(list)
        self.curr_buffer_size = 0
        self.group_size = group_size
        self.guaranteed_group_size = None
        if group_size is not None and buffer_size is not None:
            if not 0 < group_size <= buffer_size:
                raise AssertionError("group_size must be > 0 and <= buffer_size")
            self.guaranteed_group_size = group_size
        if guaranteed_group_size is not None:
            if group_size is None or not 0 < guaranteed_group_size <= group_size:
                raise AssertionError("guaranteed_group_size must be > 0 and <= group_size and "
                                     "group_size must be set")
            self.guaranteed_group_size = guaranteed_group_size
        self.drop_remaining = drop_remaining
        self.wrapper_class = DataChunk

    def _pop(self, key):
        group = self.buffer_elements.pop(key)
        self.curr_buffer_size -= len(group)
        result = self.wrapper_class(group)
        return (key, result) if self.keep_key else result

    def __iter__(self):
        for item in self.datapipe:
            key = self.group_key_fn(item)
            self.buffer_elements[key].append(item)
            self.curr_buffer_size += 1
            if self.group_size is not None and len(self.buffer_elements[key]) == \
                    self.group_size:
                yield self._pop(key)
            if self.curr_buffer_size == self.max_buffer_size:
                yield from self._remove_biggest(key)
        for key in tuple(self.buffer_elements):
            yield self._pop(key)

    def _remove_biggest(self, key):
        """Make room: the largest group leaves (yielded under ``key``, as torch does)."""
        biggest = max(self.buffer_elements, key=lambda k: len(self.buffer_elements[k]))
        size = len(self.buffer_elements[biggest])
        guaranteed = self.guaranteed_group_size
        if guaranteed is not None and size < guaranteed and not self.drop_remaining:
            raise RuntimeError("Failed to group items", str(self.buffer_elements[biggest]))
        group = self.buffer_elements.pop(biggest)
        self.curr_buffer_size -= size
        if guaranteed is None or size >= guaranteed:
            result = self.wrapper_class(group)
            yield (key, result) if self.keep_key else result

    def reset(self):
        self.curr_buffer_size = 0
        self.buffer_elements = collections.defaultdict(list)

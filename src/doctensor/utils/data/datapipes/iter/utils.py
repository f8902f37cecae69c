"""``IterableWrapper``: any iterable as an ``IterDataPipe``."""

import collections.abc
import copy
import warnings

from ..datapipe import IterDataPipe

__all__ = ["IterableWrapperIterDataPipe"]


class IterableWrapperIterDataPipe(IterDataPipe):
    """The items of ``iterable``; with ``deepcopy`` (the default) each iteration reads a deep
    copy taken when it starts, so in-place changes downstream never reach the source."""

    def __init__(self, iterable, deepcopy=True):
        self.iterable = iterable
        self.deepcopy = deepcopy

    def __iter__(self):
        source = self.iterable
        if self.deepcopy:
            try:
                source = copy.deepcopy(self.iterable)
            except TypeError:
                warnings.warn("The input iterable can not be deepcopied, please be aware of "
                              "in-place modification would affect source data.", stacklevel=2)
        yield from source

    def __len__(self):
        if isinstance(self.iterable, collections.abc.Sized):
            return len(self.iterable)
        raise TypeError(f"{type(self).__name__} instance doesn't have valid length")

"""``concat``, ``zip`` and ``mux``: several ``IterDataPipe`` combined into one."""

import collections.abc

from .._decorator import functional_datapipe
from ..datapipe import IterDataPipe
from .forking import DemultiplexerIterDataPipe, ForkerIterDataPipe

__all__ = ["ConcaterIterDataPipe", "DemultiplexerIterDataPipe", "ForkerIterDataPipe",
           "MultiplexerIterDataPipe", "ZipperIterDataPipe"]


def _sized(pipes):
    return all(isinstance(dp, collections.abc.Sized) for dp in pipes)


def _no_length(datapipe):
    return TypeError(f"{type(datapipe).__name__} instance doesn't have valid length")


@functional_datapipe("concat")
class ConcaterIterDataPipe(IterDataPipe):
    """The items of each pipe, one pipe after the other (functional name: ``concat``)."""

    def __init__(self, *datapipes):
        if not datapipes:
            raise ValueError("Expected at least one DataPipe, but got nothing")
        if not all(isinstance(dp, IterDataPipe) for dp in datapipes):
            raise TypeError("Expected all inputs to be `IterDataPipe`")
        self.datapipes = datapipes

    def __iter__(self):
        for dp in self.datapipes:
            yield from dp

    def __len__(self):
        if not _sized(self.datapipes):
            raise _no_length(self)
        return sum(len(dp) for dp in self.datapipes)


@functional_datapipe("mux")
class MultiplexerIterDataPipe(IterDataPipe):
    """One item of each pipe in turn, while every pipe still has one (functional name:
    ``mux``): a round cut short by an exhausted pipe is not yielded."""

    def __init__(self, *datapipes):
        self.datapipes = datapipes
        self.buffer = []

    def __iter__(self):
        iterators = [iter(dp) for dp in self.datapipes]
        while iterators:
            for it in iterators:
                try:
                    self.buffer.append(next(it))
                except StopIteration:
                    self.buffer.clear()
                    return
            yield from self.buffer
            self.buffer.clear()

    def __len__(self):
        if not _sized(self.datapipes):
            raise _no_length(self)
        return min(len(dp) for dp in self.datapipes) * len(self.datapipes)

    def reset(self):
        self.buffer = []


@functional_datapipe("zip")
class ZipperIterDataPipe(IterDataPipe):
    """Tuples of one item of each pipe, until the shortest ends (functional name: ``zip``)."""

    def __init__(self, *datapipes):
        if not all(isinstance(dp, IterDataPipe) for dp in datapipes):
            raise TypeError("All inputs are required to be `IterDataPipe` for "
                            "`ZipIterDataPipe`.")
        super().__init__()
        self.datapipes = datapipes

    def __iter__(self):
        yield from zip(*[iter(dp) for dp in self.datapipes])

    def __len__(self):
        if not _sized(self.datapipes):
            raise _no_length(self)
        return min(len(dp) for dp in self.datapipes)

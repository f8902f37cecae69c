"""``SequenceWrapper``: a sequence (or mapping) as a ``MapDataPipe``."""

import copy
import warnings

from ..datapipe import MapDataPipe

__all__ = ["SequenceWrapperMapDataPipe"]


class SequenceWrapperMapDataPipe(MapDataPipe):
    """``sequence[index]``; with ``deepcopy`` (the default) of a deep copy taken here."""

    def __init__(self, sequence, deepcopy=True):
        self.sequence = sequence
        if deepcopy:
            try:
                self.sequence = copy.deepcopy(sequence)
            except TypeError:
                warnings.warn("The input sequence can not be deepcopied, please be aware of "
                              "in-place modification would affect source data", stacklevel=2)

    def __getitem__(self, index):
        return self.sequence[index]

    def __len__(self):
        return len(self.sequence)

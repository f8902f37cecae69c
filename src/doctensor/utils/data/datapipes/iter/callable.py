"""``map`` and ``collate``: a function applied to each item of an ``IterDataPipe``."""

import collections.abc

from ..._utils.collate import default_collate
from .._decorator import functional_datapipe
from .._fn_checks import check_unpickable_fn, validate_input_col
from ..datapipe import IterDataPipe

__all__ = ["CollatorIterDataPipe", "MapperIterDataPipe"]


@functional_datapipe("map")
class MapperIterDataPipe(IterDataPipe):
    """``fn(item)`` for each item (functional name: ``map``).

    ``input_col`` picks what ``fn`` receives: the item (None), ``item[input_col]``, or, for
    a list of columns, those columns as separate arguments.  ``output_col`` says where the
    result goes: over the (first) input column (None, the other input columns removed),
    at ``item[output_col]``, or appended (-1).
    """

    def __init__(self, datapipe, fn, input_col=None, output_col=None):
        super().__init__()
        self.datapipe = datapipe
        check_unpickable_fn(fn)
        self.fn = fn
        self.input_col = input_col
        if input_col is None and output_col is not None:
            raise ValueError("`output_col` must be None when `input_col` is None.")
        if isinstance(output_col, (list, tuple)):
            if len(output_col) > 1:
                raise ValueError("`output_col` must be a single-element list or tuple")
            output_col = output_col[0]
        self.output_col = output_col
        validate_input_col(fn, input_col)

    def _apply_fn(self, data):
        if self.input_col is None:
            return self.fn(data)
        many = isinstance(self.input_col, (list, tuple))
        result = (self.fn(*(data[col] for col in self.input_col)) if many
                  else self.fn(data[self.input_col]))
        was_tuple = isinstance(data, tuple)
        data = list(data) if was_tuple else data
        if self.output_col == -1:
            data.append(result)
        elif self.output_col is not None:
            data[self.output_col] = result
        elif many:
            data[self.input_col[0]] = result
            for col in sorted(self.input_col[1:], reverse=True):
                del data[col]
        else:
            data[self.input_col] = result
        return tuple(data) if was_tuple else data

    def __iter__(self):
        for data in self.datapipe:
            yield self._apply_fn(data)

    def __len__(self):
        if isinstance(self.datapipe, collections.abc.Sized):
            return len(self.datapipe)
        raise TypeError(f"{type(self).__name__} instance doesn't have valid length")


@functional_datapipe("collate")
class CollatorIterDataPipe(MapperIterDataPipe):
    """Each item (usually a batch) through a collate function (functional name:
    ``collate``): ``collate_fn`` if given, else ``conversion`` (``default_collate``).
    (torch's dict ``conversion`` for DataFrames needs TorchArrow and is not done here.)"""

    def __init__(self, datapipe, conversion=default_collate, collate_fn=None):
        super().__init__(datapipe, fn=collate_fn if collate_fn is not None else conversion)

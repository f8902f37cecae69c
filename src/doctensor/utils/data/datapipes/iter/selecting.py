"""``filter``: keep the items of an ``IterDataPipe`` a predicate accepts."""

from .._decorator import functional_datapipe
from .._fn_checks import check_unpickable_fn, validate_input_col
from ..datapipe import IterDataPipe

__all__ = ["FilterIterDataPipe"]


@functional_datapipe("filter")
class FilterIterDataPipe(IterDataPipe):
    """The items for which ``filter_fn`` returns True (functional name: ``filter``);
    ``input_col`` picks what it receives, as for ``map``.  It must return a bool."""

    def __init__(self, datapipe, filter_fn, input_col=None):
        super().__init__()
        self.datapipe = datapipe
        check_unpickable_fn(filter_fn)
        self.filter_fn = filter_fn
        self.input_col = input_col
        validate_input_col(filter_fn, input_col)

    def _apply_filter_fn(self, data):
        if self.input_col is None:
            return self.filter_fn(data)
        if isinstance(self.input_col, (list, tuple)):
            return self.filter_fn(*(data[col] for col in self.input_col))
        return self.filter_fn(data[self.input_col])

    def __iter__(self):
        for data in self.datapipe:
            keep = self._apply_filter_fn(data)
            if not isinstance(keep, bool):
                raise ValueError("Boolean output is required for `filter_fn` of "
                                 "FilterIterDataPipe, got", type(keep))
            if keep:
                yield data

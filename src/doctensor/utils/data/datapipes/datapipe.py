"""``torch.utils.data.datapipes.datapipe``: the DataPipe base classes and ``DataChunk``.

A DataPipe is a dataset built by chaining small steps: ``IterableWrapper(range(10))
.map(f).filter(g).batch(4)``.  Each step is a class (``MapperIterDataPipe``) whose
functional name (``map``) is registered by ``functional_datapipe``; ``dp.map`` is looked up
in ``IterDataPipe.functions`` by ``__getattr__``.  A DataPipe prints as its class name.
"""

import abc
import functools
import typing

from ..dataset import Dataset, IterableDataset
from ._hook_iterator import hook_iterator

__all__ = ["DataChunk", "DFIterDataPipe", "IterDataPipe", "MapDataPipe"]

_T_co = typing.TypeVar("_T_co", covariant=True)


class DataChunk(list):
    """A batch: a list that also keeps the items it was made from (``raw_iterator``)."""

    def __init__(self, items):
        items = list(items)
        super().__init__(items)
        self.items = items

    def as_str(self, indent=""):
        return indent + "[" + ", ".join(str(item) for item in self) + "]"

    def __iter__(self):
        yield from super().__iter__()

    def raw_iterator(self):
        yield from self.items


class _DataPipeMeta(abc.ABCMeta):
    """The metaclass of every DataPipe class (torch's ``_DataPipeMeta``)."""


class _IterDataPipeMeta(_DataPipeMeta):
    """Hooks each ``__iter__`` a class defines (Note [single iterator per IterDataPipe])."""

    def __new__(mcs, name, bases, namespace, **kwargs):
        if "__iter__" in namespace:
            hook_iterator(namespace)
        return super().__new__(mcs, name, bases, namespace, **kwargs)


def _missing_attribute(datapipe, name):
    # (torch's message lacks the closing quote)
    return AttributeError(f"'{type(datapipe).__name__}' object has no attribute '{name}")


class _Functional:
    """What ``IterDataPipe`` and ``MapDataPipe`` share: the functional forms, the hooks the
    graph tools set, and printing as the class name."""

    def __getattr__(self, name):
        functions = self._functions_class().functions
        if name not in functions:
            raise _missing_attribute(self, name)
        bound = functools.partial(functions[name], self)
        bound.__doc__ = functions[name].__doc__
        return bound

    @classmethod
    def register_function(cls, function_name, function):
        cls.functions[function_name] = function

    @classmethod
    def register_datapipe_as_function(cls, function_name, cls_to_register):
        if function_name in cls.functions:
            raise Exception(  # noqa: TRY002 - torch's type
                f"Unable to add DataPipe function name {function_name} as it is already taken")

        def class_function(datapipe_class, source_dp, *args, **kwargs):
            return datapipe_class(source_dp, *args, **kwargs)

        function = functools.partial(class_function, cls_to_register)
        function.__doc__ = cls_to_register.__doc__
        cls.functions[function_name] = function

    def __getstate__(self):
        hook = self._functions_class().getstate_hook
        return self.__dict__ if hook is None else hook(self.__dict__)

    def __reduce_ex__(self, *args, **kwargs):
        hook = self._functions_class().reduce_ex_hook
        if hook is not None:
            try:
                return hook(self)
            except NotImplementedError:
                pass
        return super().__reduce_ex__(*args, **kwargs)

    @classmethod
    def set_getstate_hook(cls, hook_fn):
        base = cls._functions_class()
        if base.getstate_hook is not None and hook_fn is not None:
            raise RuntimeError("Attempt to override existing getstate_hook")
        base.getstate_hook = hook_fn

    @classmethod
    def set_reduce_ex_hook(cls, hook_fn):
        base = cls._functions_class()
        if base.reduce_ex_hook is not None and hook_fn is not None:
            raise RuntimeError("Attempt to override existing reduce_ex_hook")
        base.reduce_ex_hook = hook_fn

    def __repr__(self):
        return self.repr_hook(self) if self.repr_hook is not None else type(self).__qualname__

    def __str__(self):
        return self.str_hook(self) if self.str_hook is not None else type(self).__qualname__

    def __dir__(self):
        return list(super().__dir__()) + list(self.functions)


class IterDataPipe(_Functional, IterableDataset, typing.Generic[_T_co],
                   metaclass=_IterDataPipeMeta):
    """An iterable-style DataPipe: a subclass defines ``__iter__`` (and ``reset()``, called
    whenever a new iterator starts).  Only one iterator of a DataPipe is valid at a time
    (Note [single iterator per IterDataPipe])."""

    functions = {}
    reduce_ex_hook = getstate_hook = str_hook = repr_hook = None
    _valid_iterator_id = None

    @staticmethod
    def _functions_class():
        return IterDataPipe

    def __iter__(self):
        return self

    @classmethod
    def register_datapipe_as_function(cls, function_name, cls_to_register,
                                      enable_df_api_tracing=False):
        # (the DataFrame tracing torch can switch on needs torcharrow: not done here)
        super().register_datapipe_as_function(function_name, cls_to_register)

    def reset(self):
        """Forget any state of a previous iteration (nothing by default)."""


class DFIterDataPipe(IterDataPipe):
    """An ``IterDataPipe`` of DataFrames."""

    def _is_dfpipe(self):
        return True


class MapDataPipe(_Functional, Dataset, typing.Generic[_T_co], metaclass=_DataPipeMeta):
    """A map-style DataPipe: a subclass defines ``__getitem__`` (and usually ``__len__``)."""

    functions = {}
    reduce_ex_hook = getstate_hook = str_hook = repr_hook = None

    @staticmethod
    def _functions_class():
        return MapDataPipe


class _DataPipeSerializationWrapper:
    """What a ``DataLoader`` keeps of the DataPipe it was given (torch's wrapper)."""

    def __init__(self, datapipe):
        self._datapipe = datapipe

    def __len__(self):
        try:
            return len(self._datapipe)
        except Exception as e:
            raise TypeError(f"{type(self).__name__} instance doesn't have valid length") from e


class _IterDataPipeSerializationWrapper(_DataPipeSerializationWrapper, IterDataPipe):
    def __init__(self, datapipe):
        super().__init__(datapipe)
        self._datapipe_iter = None

    def __iter__(self):
        self._datapipe_iter = iter(self._datapipe)
        return self

    def __next__(self):
        if self._datapipe_iter is None:
            raise AssertionError(
                "Iterator has not been initialized; call __iter__() before __next__()")
        return next(self._datapipe_iter)


class _MapDataPipeSerializationWrapper(_DataPipeSerializationWrapper, MapDataPipe):
    def __getitem__(self, idx):
        return self._datapipe[idx]

"""``torch.utils.data.datapipes._decorator``: registering functional forms, determinism and
type validation.

Note [DataPipe types]: torch 2.13 no longer gives DataPipe classes a ``type`` (its
metaclass returns before setting one), so the validators that read ``datapipe.type`` fail
with the DataPipe's ``AttributeError`` as soon as they have a DataPipe to check; that is
what they do here too.
"""

import functools
import inspect
import typing

from .datapipe import IterDataPipe, MapDataPipe, _DataPipeMeta

__all__ = ["functional_datapipe", "guaranteed_datapipes_determinism", "non_deterministic",
           "argument_validation", "runtime_validation_disabled", "runtime_validation"]


class functional_datapipe:
    """Class decorator: ``@functional_datapipe("map")`` makes ``dp.map(...)`` build the
    class with ``dp`` as its first argument."""

    def __init__(self, name, enable_df_api_tracing=False):
        self.name = name
        self.enable_df_api_tracing = enable_df_api_tracing

    def __call__(self, cls):
        if issubclass(cls, IterDataPipe):
            if not isinstance(cls, _DataPipeMeta):
                raise TypeError("`functional_datapipe` can only decorate IterDataPipe")
            IterDataPipe.register_datapipe_as_function(self.name, cls)
        elif issubclass(cls, MapDataPipe):
            MapDataPipe.register_datapipe_as_function(self.name, cls)
        return cls


_determinism = False


class guaranteed_datapipes_determinism:
    """Refuse non-deterministic DataPipes while this object lives (or inside ``with``)."""

    def __init__(self):
        global _determinism
        self.prev, _determinism = _determinism, True

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc_value, traceback):
        global _determinism
        _determinism = self.prev


class non_deterministic:
    """Mark an ``IterDataPipe`` class as non-deterministic (``@non_deterministic``), or as
    non-deterministic for the arguments where ``fn(*args, **kwargs)`` is True
    (``@non_deterministic(fn)``)."""

    cls = None

    def __init__(self, arg):
        if isinstance(arg, type):
            if not issubclass(arg, IterDataPipe):
                raise TypeError("Only `IterDataPipe` can be decorated with `non_deterministic`"
                                f", but {arg.__name__} is found")
            self.cls = arg
        elif callable(arg):
            self.deterministic_fn = arg
        else:
            raise TypeError(f"{arg} can not be decorated by non_deterministic")

    def __call__(self, *args, **kwargs):
        if self.cls is not None:
            if _determinism:
                raise TypeError(
                    f"{self.cls.__name__} is non-deterministic, but you set "
                    "'guaranteed_datapipes_determinism'. You can turn off determinism for this "
                    "DataPipe if that is acceptable for your application")
            return self.cls(*args, **kwargs)
        if not (isinstance(args[0], type) and issubclass(args[0], IterDataPipe)):
            raise TypeError(f"Only `IterDataPipe` can be decorated, but {args[0].__name__} "
                            "is found")
        self.cls = args[0]
        return self.deterministic_wrapper_fn

    def deterministic_wrapper_fn(self, *args, **kwargs):
        nondeterministic = self.deterministic_fn(*args, **kwargs)
        if not isinstance(nondeterministic, bool):
            raise TypeError("deterministic_fn of `non_deterministic` decorator is required to "
                            f"return a boolean value, but {type(nondeterministic)} is found")
        if _determinism and nondeterministic:
            raise TypeError(
                f"{self.cls.__name__} is non-deterministic with the inputs, but you set "
                "'guaranteed_datapipes_determinism'. You can turn off determinism for this "
                "DataPipe if that is acceptable for your application")
        return self.cls(*args, **kwargs)


def argument_validation(f):
    """Check, at each call of ``f``, every argument annotated with a DataPipe class: it
    must be an ``IterDataPipe`` of that type (Note [DataPipe types])."""
    signature = inspect.signature(f)
    hints = typing.get_type_hints(f)

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        for name, value in signature.bind(*args, **kwargs).arguments.items():
            hint = hints.get(name)
            if not isinstance(hint, _DataPipeMeta):
                continue
            if not isinstance(value, IterDataPipe):
                raise TypeError(f"Expected argument '{name}' as a IterDataPipe, but found "
                                f"{type(value)}")
            if not value.type.issubtype(hint.type):
                raise TypeError(f"Expected type of argument '{name}' as a subtype of hint "
                                f"{hint.type}, but found {value.type}")
        return f(*args, **kwargs)

    return wrapper


_runtime_validation_enabled = True


class runtime_validation_disabled:
    """Switch ``runtime_validation`` off while this object lives (or inside ``with``)."""

    def __init__(self):
        global _runtime_validation_enabled
        self.prev, _runtime_validation_enabled = _runtime_validation_enabled, False

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc_value, traceback):
        global _runtime_validation_enabled
        _runtime_validation_enabled = self.prev


def runtime_validation(f):
    """Decorate an ``__iter__``: check each item it yields against the DataPipe's type
    (Note [DataPipe types])."""
    if f.__name__ != "__iter__":
        raise TypeError(f"Can not decorate function {f.__name__} with 'runtime_validation'")

    @functools.wraps(f)
    def wrapper(self):
        checking = _runtime_validation_enabled  # (read once, when iteration starts)
        for item in f(self):
            if checking and not self.type.issubtype_of_instance(item):
                raise RuntimeError(f"Expected an instance as subtype of {self.type}, but "
                                   f"found {item}({type(item)})")
            yield item

    return wrapper

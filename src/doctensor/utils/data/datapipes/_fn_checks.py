"""Checks of the functions handed to DataPipes (``map``, ``filter``, ``groupby``, ...)."""

import functools
import inspect
import warnings


def check_unpickable_fn(fn):
    """A non-callable is refused; a lambda or a local function is warned about (pickle
    cannot carry it to a worker process)."""
    if not callable(fn):
        raise TypeError(f"A callable function is expected, but {type(fn)} is provided.")
    if isinstance(fn, functools.partial):
        fn = fn.func
    if _is_local(fn):
        warnings.warn("Local function is not supported by pickle, please use regular python "
                      "function or functools.partial instead.", stacklevel=3)
    elif getattr(fn, "__name__", None) == "<lambda>":
        warnings.warn("Lambda function is not supported by pickle, please use regular python "
                      "function or functools.partial instead.", stacklevel=3)


def _is_local(fn):
    if hasattr(fn, "__code__"):
        return bool(fn.__code__.co_flags & inspect.CO_NESTED)
    qualname = getattr(fn, "__qualname__", None) or getattr(type(fn), "__qualname__", "")
    return "<locals>" in qualname


def validate_input_col(fn, input_col):
    """Check that ``fn`` takes as many positional arguments as ``input_col`` names columns
    (one for a single column) and no keyword-only argument without a default."""
    try:
        parameters = list(inspect.signature(fn).parameters.values())
    except ValueError:  # a builtin without a signature: nothing to check
        return
    size = len(input_col) if isinstance(input_col, (list, tuple)) else 1
    kind = inspect.Parameter
    positional = [p for p in parameters
                  if p.kind in (kind.POSITIONAL_ONLY, kind.POSITIONAL_OR_KEYWORD)]
    var_positional = any(p.kind is kind.VAR_POSITIONAL for p in parameters)
    required_keywords = [p for p in parameters
                         if p.kind is kind.KEYWORD_ONLY and p.default is p.empty]
    target = fn.func if isinstance(fn, functools.partial) else fn
    name = getattr(target, "__name__", repr(target))
    if required_keywords:
        raise ValueError(f"The function {name} takes {len(required_keywords)} non-default "
                         "keyword-only parameters, which is not allowed.")
    if len(parameters) < size:
        if not var_positional:
            raise ValueError(f"The function {name} takes {len(parameters)} parameters, but "
                             f"{size} are required.")
    elif (len(positional) > size and any(p.default is p.empty for p in positional[size:])) \
            or (len(positional) < size and not var_positional):
        raise ValueError(f"The function {name} takes {len(positional)} positional parameters, "
                         f"but {size} are required.")

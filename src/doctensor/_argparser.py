"""torch's Python argument parser, consulted only when a call has failed.

torch parses every call of a native function against its signatures (``_signatures``) before
anything runs, and a call that matches none raises a TypeError worded by the parser::

    zeros(): argument 'dtype' must be torch.dtype, not str
    add(): argument 'other' (position 1) must be Tensor, not str
    sum() received an invalid combination of arguments - got (str), but expected one of: ...

doctensor's functions check their arguments as they go, with no parser in front of them (a
parser on every call would cost every valid call).  ``checked`` wraps a function so that only
a call that *raised* is parsed: when the arguments match no signature, torch's TypeError
replaces the exception; otherwise the exception stands.  The parse follows torch's
``python_arg_parser.cpp`` (``Signature.parse``, ``Parser.diagnose``) and its error listing
``invalid_arguments.cpp`` (``_invalid_combination``), quirks included.

    >>> import doctensor as torch
    >>> torch.ones(2).add("a")
    Traceback (most recent call last):
    TypeError: add(): argument 'other' (position 1) must be Tensor, not str

A call that doctensor would carry out and torch's parser refuses (``triu(True)``) is made to
fail where the argument is used, by a class test that costs a valid call a few nanoseconds
(``x.__class__ is not int``: ``_strides.as_int``, ``reduction.check_keepdim``); the wrapper
then words the parser's error.  ``called_error`` words the errors of the calls that torch's
Python code makes (``Tensor.split`` calls ``split`` or ``split_with_sizes``: ``CALLED``).
"""

import functools
import operator
import os
import sys
import warnings
from types import FunctionType

import numpy as np

from ._dtypes import dtype as _dtype
from ._signatures import CALLED, FUNCTIONS, METHODS
from ._strides import memory_format as _memory_format
from ._tensor_base import TensorBase
from ._typeinfo import layout as _layout
from .device import device as _device
from .size import Size

__all__ = ["checked", "check_methods", "check_functions", "check_keywords", "called_error",
           "NUMBERS_AS_TENSORS"]

# the type names torch prints for a parameter's type (FunctionParameter::type_name)
_SHOWN = {"Tensor": "Tensor", "Scalar": "Number", "int64_t": "int", "SymInt": "int",
          "double": "float", "complex": "complex", "TensorList": "tuple of Tensors",
          "c10::List<::std::optional<Tensor>>": "tuple of Tensors", "IntArrayRef": "tuple of ints",
          "SymIntArrayRef": "tuple of ints", "ArrayRef<double>": "tuple of floats",
          "Generator": "torch.Generator", "bool": "bool", "PyObject*": "object",
          "ScalarType": "torch.dtype", "Layout": "torch.layout", "MemoryFormat":
          "torch.memory_format", "Device": "torch.device", "c10::string_view": "str",
          "Dimname": "name", "DimnameList": "tuple of names", "ScalarList": "tuple of Scalars"}
# functions whose Tensor parameters take Python numbers too (should_allow_numbers_as_tensors)
NUMBERS_AS_TENSORS = {f"{n}{s}" for n in ("add", "div", "divide", "mul", "multiply", "sub",
                                            "subtract", "true_divide", "floor_divide")
                       for s in ("", "_", "_out")} | {"to", "_to_copy", "copy_"}
_NUMPY_NAMES = {"dim": ("axis",), "keepdim": ("keepdims",), "input": ("x", "a", "x1"),
                "other": ("x2",)}
# Python-visible names of torch's C types (tp_name), for doctensor's stand-ins
_C_TYPES = ((_dtype, "torch.dtype"), (_device, "torch.device"), (_layout, "torch.layout"),
            (_memory_format, "torch.memory_format"), (Size, "torch.Size"))
_HEAPTYPE = 1 << 9


def type_name(value):
    """The name torch prints for ``value``'s type: CPython's ``tp_name``."""
    for cls, name in _C_TYPES:
        if isinstance(value, cls):
            return name
    cls = type(value)
    if cls.__module__ == "doctensor.ops.random_ops":
        return "torch._C.Generator"
    if cls.__module__ == "builtins" or cls.__flags__ & _HEAPTYPE:
        return cls.__name__
    return f"{cls.__module__}.{cls.__name__}"  # a C type: numpy.float64, numpy.ndarray


class ArgumentError(Exception):
    """torch's TypeError for a call that matches no signature (its message)."""


class _Unworded(Exception):
    """A call whose listing torch's own code fails to write (a C++ exception): left as it
    failed in doctensor."""


# -- what each parameter type accepts (FunctionParameter::check) ------------------------------

def _is_long(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_double(v):
    return isinstance(v, (int, float, np.number, np.bool_))


def _is_scalar(v):
    return isinstance(v, (int, float, complex))


def _is_index(v):
    """An int (not a bool) or anything with an ``__index__`` that gives one."""
    if isinstance(v, bool):
        return False
    try:
        operator.index(v)
    except Exception:  # noqa: BLE001 - whatever __index__ raises, v is no index
        return False
    return True


def _is_integral(t, with_bool):
    return t.dtype.category == 1 or with_bool and t.dtype.category == 0  # (0: bool)


def _is_int_or_symint(v):
    if _is_long(v):
        return True
    if isinstance(v, TensorBase) and v.numel() == 1 and _is_integral(v, with_bool=True):
        return True
    return _is_index(v)


def _is_int_list(v, size):
    if isinstance(v, (tuple, list)):
        return not v or _is_int_or_symint(v[0])
    return size > 0 and _is_int_or_symint(v)


def _is_dimname(v):
    return v is None or isinstance(v, str)


def _tensor_list(v, argnum):
    if not isinstance(v, (tuple, list)):
        return False
    for i, item in enumerate(v):
        if not isinstance(item, TensorBase):
            raise ArgumentError(f"expected Tensor as element {i} in argument {argnum}, but got "
                                f"{type_name(item)}")
    return True


def _accepts(param, v, argnum):
    kind = param.kind
    if kind == "Tensor":
        return isinstance(v, TensorBase) or param.numbers_as_tensors and _is_scalar(v)
    if kind in ("Scalar", "complex", "double"):
        if kind == "Scalar" and _is_scalar(v) or kind != "double" and isinstance(v, complex):
            return True
        if _is_double(v):
            return True
        return isinstance(v, TensorBase) and not v.requires_grad and v.dim() == 0
    if kind == "int64_t":
        return _is_long(v) or (isinstance(v, TensorBase) and _is_integral(v, with_bool=False)
                               and not v.requires_grad and v.dim() == 0)
    if kind == "SymInt":
        return _is_int_or_symint(v)
    if kind in ("IntArrayRef", "SymIntArrayRef"):
        return _is_int_list(v, param.size)
    if kind in ("TensorList", "c10::List<::std::optional<Tensor>>"):
        return _tensor_list(v, argnum)
    if kind == "ScalarType":
        return isinstance(v, _dtype) or v in (float, int, bool, complex)
    if kind == "Device":
        return _is_long(v) or isinstance(v, (str, _device))
    return {
        "bool": lambda: isinstance(v, bool),  # (not NumPy's bool: torch 2.13 refuses it)
        "Layout": lambda: isinstance(v, _layout),
        "MemoryFormat": lambda: isinstance(v, _memory_format),
        "Generator": lambda: type(v).__name__ == "Generator",
        "c10::string_view": lambda: isinstance(v, str),
        "Dimname": lambda: _is_dimname(v),
        "DimnameList": lambda: isinstance(v, (tuple, list)) and (not v or _is_dimname(v[0]))
        or param.size == 1 and _is_dimname(v),
        "ScalarList": lambda: isinstance(v, (tuple, list)) and all(map(_is_scalar, v)),
        "ArrayRef<double>": lambda: isinstance(v, (tuple, list)) and (
            not v or _is_double(v[0]) or isinstance(v[0], complex)),
        "PyObject*": lambda: True,
    }[kind]()


# -- signatures --------------------------------------------------------------------------------

class Param:
    """One parameter of a signature: ``Type[size]? name=default``."""

    def __init__(self, text, keyword_only, numbers_as_tensors):
        kind, _, rest = text.partition(" ")
        self.allow_none = kind.endswith("?")
        kind = kind.rstrip("?")
        self.size = 0
        if "[" in kind:
            kind, size = kind[:-1].split("[")
            self.size = int(size)
        self.kind = kind
        self.name, eq, self.default = rest.partition("=")
        self.optional = bool(eq)
        self.allow_none = self.allow_none or self.default == "None"
        self.keyword_only = keyword_only
        self.numbers_as_tensors = numbers_as_tensors and kind == "Tensor"
        self.names = (self.name, *_NUMPY_NAMES.get(self.name, ()))

    def shown(self):
        text = f"{_SHOWN[self.kind]} {self.name}"
        return f"{text} = {self.default}" if self.optional else text


class Signature:
    """One overload, parsed as torch's FunctionSignature parses it."""

    def __init__(self, text):
        self.name, _, rest = text.partition("(")
        body, _, flag = rest.rpartition(")")
        self.hidden = flag in ("|deprecated", "|hidden")
        self.deprecated = flag == "|deprecated"
        numbers = self.name in NUMBERS_AS_TENSORS
        self.params, keyword_only = [], False
        for part in body.split(", ") if body else ():
            if part == "*":
                keyword_only = True
            else:
                self.params.append(Param(part, keyword_only, numbers))
        self.min_args = sum(not p.optional for p in self.params)
        self.max_args = len(self.params)
        self.max_pos_args = sum(not p.keyword_only for p in self.params)

    def shown(self):
        """torch's FunctionSignature::toString."""
        parts, star = [], False
        for p in self.params:
            if p.keyword_only and not star:
                parts.append("*")
                star = True
            parts.append(p.shown())
        return f"({', '.join(parts)})"

    def _extra_args(self, nargs):
        if self.min_args != self.max_pos_args:
            return (f"{self.name}() takes from {self.min_args} to {self.max_pos_args} "
                    f"positional arguments but {nargs} were given")
        s = "" if self.max_pos_args == 1 else "s"
        return (f"{self.name}() takes {self.max_pos_args} positional argument{s} but {nargs} "
                f"{'was' if nargs == 1 else 'were'} given")

    def _missing(self, i):
        names = [f'"{p.name}"' for p in self.params[i:] if not p.optional]
        s = "s" if len(names) == 1 else ""  # (sic: torch's plural is the wrong way round)
        return f"{self.name}() missing {len(names)} required positional argument{s}: " + \
            ", ".join(names)

    def _extra_kwargs(self, kwargs, nargs):
        for key in kwargs:
            index = next((i for i, p in enumerate(self.params) if p.name == key), -1)
            if index < 0:
                return f"{self.name}() got an unexpected keyword argument '{key}'"
            if index < nargs:
                return f"{self.name}() got multiple values for argument '{key}'"
        return "invalid keyword arguments"

    def parse(self, args, kwargs, loud):
        """The arguments bound to each parameter (None for a default), or None where they do
        not match; ``loud``: raise torch's ArgumentError instead of returning None."""
        def fail(message):
            if loud:
                raise ArgumentError(message)
        nargs = len(args)
        first = self.params[0] if self.params else None
        varargs = self.max_pos_args == 1 and first.kind in ("IntArrayRef", "SymIntArrayRef") \
            and _is_int_list(args, first.size)
        if nargs > self.max_pos_args and not varargs:
            return fail(self._extra_args(nargs))
        bound, pos, remaining = [], 0, len(kwargs)
        for i, p in enumerate(self.params):
            keyword = pos >= nargs
            if not keyword:
                if p.keyword_only:
                    return fail(self._extra_args(nargs))
                value, found = args[pos], True
            else:
                key = next((n for n in p.names if n in kwargs), None)
                found = key is not None
                value = kwargs[key] if found else None
            if not found and p.optional or found and value is None and p.allow_none:
                bound.append(None)
            elif not found:
                return fail(self._missing(i))
            elif _accepts(p, value, i):
                bound.append(value)
            elif varargs and pos == 0 and not keyword:
                bound.append(tuple(args))  # permute(1, 2) reads as permute((1, 2))
                pos = nargs
                continue
            elif keyword:
                return fail(f"{self.name}(): argument '{p.name}' must be {_SHOWN[p.kind]}, "
                            f"not {type_name(value)}")
            elif p.kind in ("IntArrayRef", "SymIntArrayRef") and isinstance(value, (tuple, list)):
                return fail(f"{self.name}(): argument '{p.name}' (position {pos + 1}) must "
                            f"be {_SHOWN[p.kind]}, but found element of type "
                            f"{type_name(value[0])} at pos 0")
            else:
                return fail(f"{self.name}(): argument '{p.name}' (position {pos + 1}) must "
                            f"be {_SHOWN[p.kind]}, not {type_name(value)}")
            if not keyword:
                pos += 1
            elif found:
                remaining -= 1
        if remaining > 0:
            return fail(self._extra_kwargs(kwargs, nargs))
        return bound

    def unpack_error(self, bound):
        """The error torch raises unpacking arguments that parsed: a device string it cannot
        read, a size whose later elements are no ints (None if none)."""
        for p, value in zip(self.params, bound):
            if p.kind == "Device" and isinstance(value, str):
                try:
                    _device(value)
                except RuntimeError as e:
                    return e
        for p, value in zip(self.params, bound):
            if p.kind in ("IntArrayRef", "SymIntArrayRef") and isinstance(value, (tuple, list)):
                for i, item in enumerate(value):
                    if not (isinstance(item, bool) or _is_int_or_symint(item)):
                        return TypeError(
                            f"{self.name}(): argument '{p.name}' failed to unpack the object at "
                            f"pos {i + 1} with error \"type must be tuple of ints,but got "
                            f"{type_name(item)}\"")
        return None


# Note [deprecated overloads]
# torch's parser still takes the overloads of deprecated.yaml, old code's way of passing the
# numbers first: ``p.add_(-lr, grad)``, ``x.addcmul_(0.5, t1, t2)``, ``torch.addmm(beta, c,
# alpha, a, b)``.  It warns once per process (one TORCH_WARN_ONCE for them all) and calls the
# current overload.  doctensor's functions have the current parameters only (the numbers
# keyword-only), so such a call fails on them before it runs; ``checked``'s wrapper then binds
# the arguments to the deprecated signature and calls again, the numbers by name.
_DEPRECATION_WARNED = []


class Parser:
    """The signatures of one function or method (torch's PythonArgParser)."""

    def __init__(self, texts):
        signatures = [Signature(t) for t in texts]
        self.signatures = [s for s in signatures if not s.deprecated] + \
            [s for s in signatures if s.deprecated]
        self.name = signatures[0].name

    def deprecated_call(self, args, kwargs):
        """Note [deprecated overloads]: for arguments that match a deprecated overload and no
        other, torch's warning (once per process) and the arguments of the same call in the
        current overload: the tensors by position, the numbers by name; else None."""
        for signature in self.signatures:
            bound = signature.parse(args, kwargs, loud=False)
            if bound is not None:
                break
        else:
            return None
        if not signature.deprecated:
            return None
        if not _DEPRECATION_WARNED:
            _DEPRECATION_WARNED.append(True)
            current = "\n\t".join(self.name + s.shown() for s in self.signatures if not s.hidden)
            warnings.warn(f"This overload of {self.name} is deprecated:\n\t{self.name}"
                          f"{signature.shown()}\nConsider using one of the following signatures "
                          f"instead:\n\t{current} (Triggered internally at "
                          f"/__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:1841.)",
                          UserWarning, stacklevel=3)
        values = [(p, v) for p, v in zip(signature.params, bound) if v is not None]
        return ([v for p, v in values if p.kind == "Tensor" and not p.keyword_only],
                {p.name: v for p, v in values if p.kind != "Tensor" or p.keyword_only})

    def diagnose(self, args, kwargs):
        """The error torch raises for this call's arguments (None where they parse)."""
        try:
            return self._diagnose(args, kwargs)
        except ArgumentError as e:
            return TypeError(str(e))
        except _Unworded:
            return None

    def _diagnose(self, args, kwargs):
        if len(self.signatures) == 1:
            only = self.signatures[0]
            return only.unpack_error(only.parse(args, kwargs, loud=True))
        for signature in self.signatures:
            bound = signature.parse(args, kwargs, loud=False)
            if bound is not None:
                return signature.unpack_error(bound)
        n = len(args) + len(kwargs)
        plausible = [s for s in self.signatures
                     if s.min_args <= n <= s.max_args and not s.hidden]
        if len(plausible) == 1:
            plausible[0].parse(args, kwargs, loud=True)
        options = [s.shown() for s in self.signatures if not s.hidden]
        return TypeError(_invalid_combination(f"{self.name}()", args, kwargs, options))


# -- the listing of a call that matches no overload (invalid_arguments.cpp) --------------------

class _Option:
    """A shown signature as invalid_arguments.cpp re-reads it: its arguments split at ", ",
    each named by its last word (so ``bool keepdim = False`` is named ``False`` and ``*``
    counts as an argument)."""

    def __init__(self, shown):
        self.shown = shown
        self.arguments = []
        for arg in shown[1:-1].split(", "):
            kind, _, name = arg.rpartition(" ")
            self.arguments.append((name, kind if kind else arg))
        self.variadic = "..." in shown

    def count_matches(self, args, kwargs):
        n = len(args) + len(kwargs)
        return n == len(self.arguments) or self.variadic and n > len(self.arguments)

    def unmatched_kwargs(self, kwargs):
        start = max(len(self.arguments) - len(kwargs), 0)
        names = {name for name, _ in self.arguments[start:]}
        return [k for k in kwargs if k not in names]


def _matches(kind, value):
    name = type_name(value)
    if kind == "float":
        return name in ("float", "int", "long")
    if kind == "int":
        return name in ("int", "long")
    return name == kind


def _described(value):
    if isinstance(value, (tuple, list)):
        inner = ", ".join(type_name(v) for v in value)
        if isinstance(value, tuple):
            return f"{type_name(value)} of ({inner}{',' if len(value) == 1 else ''})"
        return f"{type_name(value)} of [{inner}]"
    return type_name(value)


def _marks():
    """torch marks mismatching arguments in red on a terminal (file descriptors 1 and 2), else
    between ``!``."""
    tty = os.isatty(1) and os.isatty(2)
    return ("\33[31;1m", "\33[0m", "\33[32;1m", "\33[0m") if tty else ("!", "!", "", "")


def _formatted(option, args, kwargs):
    red, reset_red, green, reset_green = _marks()
    parts = []
    for i in range(len(args) + len(kwargs)):
        is_kwarg = i >= len(args)
        if is_kwarg:
            name = option.arguments[i][0]
            if name not in kwargs:
                raise _Unworded(name)
            value = kwargs[name]
        else:
            value = args[i]
        if i < len(option.arguments):
            ok = _matches(option.arguments[i][1], value)
        else:
            ok = option.variadic and _matches(option.arguments[-1][1], value)
        text = (f"{option.arguments[i][0]}=" if is_kwarg else "") + _described(value)
        parts.append(f"{green}{text}{reset_green}" if ok else f"{red}{text}{reset_red}")
    return f"({', '.join(parts)}{', ' if kwargs and not args else ''})"  # (sic: as _plain)


def _plain(args, kwargs):
    parts = [type_name(v) for v in args] + [f"{k}={type_name(v)}" for k, v in kwargs.items()]
    text = ", ".join(parts)
    if not args and kwargs:
        text += ", "  # (sic: torch trims the last ", " only when there are positional ones)
    return f"({text})"


def _invalid_combination(fname, args, kwargs, options):
    message = f"{fname} received an invalid combination of arguments - "
    if len(options) == 1:
        option = _Option(options[0])
        unmatched = option.unmatched_kwargs(kwargs) if kwargs else []
        if unmatched:
            return message + "got unrecognized keyword arguments: " + ", ".join(unmatched)
        got = _formatted(option, args, kwargs) if option.count_matches(args, kwargs) else \
            _plain(args, kwargs)
        return message + f"got {got}, but expected {option.shown}"
    message += f"got {_plain(args, kwargs)}, but expected one of:\n"
    for shown in options:
        option = _Option(shown)
        message += f" * {shown}\n"
        if option.count_matches(args, kwargs):
            unmatched = option.unmatched_kwargs(kwargs) if kwargs else []
            if unmatched:
                message += ("      didn't match because some of the keywords were incorrect: "
                            + ", ".join(unmatched) + "\n")
            else:
                message += ("      didn't match because some of the arguments have invalid "
                            f"types: {_formatted(option, args, kwargs)}\n")
    return message


def check_keywords(fname, *params):
    """torch's parser on the arguments that a Python function of torch passes on by keyword
    (``Tensor.unique`` calls ``_unique2(input, sorted=..., return_inverse=...)``): the
    TypeError for the first of ``params`` (``("Type name", value)`` pairs, in the signature's
    order, or ``("Type name", value, position)`` for one passed by position) of a type it
    does not take.  None passes where the type is optional (``int64_t? dim``)."""
    for text, value, *position in params:
        param = Param(text, keyword_only=True, numbers_as_tensors=False)
        if not (value is None and param.allow_none or _accepts(param, value, 0)):
            where = f" (position {position[0]})" if position else ""
            raise TypeError(f"{fname}(): argument '{param.name}'{where} must be "
                            f"{_SHOWN[param.kind]}, not {type_name(value)}")


def called_error(name, *args, **kwargs):
    """The TypeError torch's parser raises where torch's Python code calls the function
    ``name`` (``CALLED``) with ``args`` and ``kwargs`` (None where they parse):
    ``Tensor.split(True)`` calls ``split(self, True, 0)``."""
    return Parser(CALLED[name]).diagnose(args, kwargs)


# -- the hook ----------------------------------------------------------------------------------

def _no_arguments(name, args, kwargs):
    if kwargs:
        return TypeError(f"TensorBase.{name}() takes no keyword arguments")
    if args:
        return TypeError(f"TensorBase.{name}() takes no arguments ({len(args)} given)")
    return None


def checked(fn, name, texts, method):
    """``fn`` (the method or function ``name`` with torch's signatures ``texts``), with
    torch's parser error in place of whatever a call with arguments that match no signature
    raised.  A valid call pays one function call and nothing else.  Only a user's call is
    parsed: doctensor calls its own functions in its own conventions (``torch.batch_norm``
    with fewer arguments than torch's), and its failures there are the user's call's to
    word."""
    parser = Parser(texts) if texts else None

    def diagnose(args, kwargs):
        if method:
            args = args[1:]  # (self)
        if parser is None:
            return _no_arguments(name, args, kwargs)
        return parser.diagnose(args, kwargs)

    def current(args, kwargs):
        if parser is None or not parser.signatures[-1].deprecated:
            return None
        call = parser.deprecated_call(args[1:] if method else args, kwargs)
        if call is None:
            return None
        return ((args[0], *call[0]) if method else tuple(call[0])), call[1]

    return functools.wraps(fn)(_wrapper(fn, diagnose, current))


# Note [a frame warnings skip]: the wrapper ``checked`` returns is one more frame between the
# user's code and doctensor's, and doctensor's warnings count frames (``stacklevel``) to point
# at the user's line.  CPython's warnings skip, while they count, the frames of importlib's
# bootstrap: frames whose file name holds "importlib" and "_bootstrap".  The wrapper is
# compiled under such a name, so that it is not counted.
_WRAPPER = """
def wrapper(fn, diagnose, current):
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            if sys._getframe(1).f_globals.get("__name__", "").startswith("doctensor."):
                raise
            # (a deprecated overload fails on fn's own parameters, before fn runs)
            again = current(args, kwargs) if isinstance(e, TypeError) else None
            error = None if again is not None else diagnose(args, kwargs)
            if again is None and error is None:
                raise
        if again is not None:
            return fn(*again[0], **again[1])
        raise error
    return call
"""
_FRAMES = {"sys": sys}
exec(compile(_WRAPPER, "<doctensor._argparser.checked (a frame warnings skip as "  # noqa: S102
             "importlib._bootstrap's)>", "exec"), _FRAMES)
_wrapper = _FRAMES["wrapper"]


def check_methods(cls):
    """Wrap the methods of ``cls`` that torch parses (``METHODS``) with ``checked``; not those
    ``_dispatch.binary`` made (``mul``: Note [fast path]), which check their operand."""
    fast = cls.__add__.__code__
    for name, texts in METHODS.items():
        fn = getattr(cls, name, None)
        if isinstance(fn, FunctionType) and fn.__code__ is not fast:
            method = checked(fn, name, texts, method=True)
            method.__qualname__ = f"{cls.__name__}.{name}"  # (pickle finds an alias by it)
            setattr(cls, name, method)


def check_functions(namespace, home):
    """Wrap the functions of the module dict ``namespace`` that torch parses (``FUNCTIONS``),
    in ``namespace`` and in the module ``home`` they come from (one object, where pickle and
    the API reference look for it)."""
    for name, texts in FUNCTIONS.items():
        fn = namespace.get(name)
        if isinstance(fn, FunctionType):
            namespace[name] = function = checked(fn, name, texts, method=False)
            if getattr(home, name, None) is fn:
                setattr(home, name, function)
                function.__module__, function.__qualname__ = home.__name__, name

"""The text of ``repr(tensor)``, character for character as torch 2.13 prints it.

This module mirrors ``torch/_tensor_str.py`` but works on plain NumPy arrays, so the Tensor
class only has to pass its values, dtype, device text and autograd facts to ``tensor_repr``.
The print options (``set_printoptions``, ``get_printoptions``, ``printoptions``) live here.

A repr is built in four steps:

1. decide whether to summarise (``numel > threshold``) and which indices of each dimension
   are displayed (Note [summarised elements]);
2. build one ``_Formatter`` from the elements torch looks at: int or bool width, or for
   floating types the int_mode / sci_mode flags and the common width;
3. lay the formatted elements out in nested brackets, wrapping 1-D rows at ``linewidth``;
4. append the suffixes (``device=``, ``size=``, ``dtype=``, ``grad_fn=`` or
   ``requires_grad=True``) with torch's line-joining rule (Note [suffix joining]).

Only the displayed elements are turned into Python numbers, so a summarised tensor of
millions of elements prints at once.
"""

import contextlib
import dataclasses
import math

import numpy as np

from doctensor import _dtypes

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "tensor_repr",
           "parameter_repr"]

_PREFIX = "tensor("


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrintOptions()

_PROFILES = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """Set the options for printing tensors, as ``torch.set_printoptions`` does.

    A known ``profile`` (``"default"``, ``"short"``, ``"full"``) is applied first, an unknown
    one is ignored; then every other argument that is not None overrides. ``sci_mode`` is
    always assigned, so a call that omits it goes back to automatic notation.

    Args:
        precision: digits after the decimal point (default 4).
        threshold: more elements than this are summarised (default 1000; may be ``inf``).
        edgeitems: items shown at each end of a summarised dimension (default 3).
        linewidth: characters per line before wrapping (default 80).
        profile: ``"default"``, ``"short"`` or ``"full"``.
        sci_mode: True or False forces scientific notation on or off; None chooses.

    Example:
        >>> set_printoptions(precision=2)
        >>> tensor_repr(np.array([1.12345], np.float32), _dtypes.float32)
        'tensor([1.12])'
        >>> set_printoptions(profile="default")
    """
    for name, value in _PROFILES.get(profile, {}).items():
        setattr(PRINT_OPTS, name, value)
    overrides = {"precision": precision, "threshold": threshold, "edgeitems": edgeitems,
                 "linewidth": linewidth}
    for name, value in overrides.items():
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    """The current print options as a dict that ``set_printoptions(**d)`` accepts."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs):
    """Change the print options inside a ``with`` block, restoring all of them afterwards.

    Example:
        >>> with printoptions(precision=1):
        ...     print(tensor_repr(np.array(0.25), _dtypes.float64))
        tensor(0.2, dtype=torch.float64)
    """
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


# Note [summarised elements]
# When a tensor is summarised, a dimension longer than 2*e (e = edgeitems) shows its first e
# and last e entries and a "..." between them; the formatter is built from the displayed
# elements only, i.e. from the Cartesian product of the displayed indices of every dimension:
#
#     shape (5, 9), e = 1:   rows {0, 4} x columns {0, 8}   ->   [[a, ..., b],
#                                                                  ...,
#                                                                  [c, ..., d]]
#
# With e = 0 a summarised tensor prints "[...]" and no element at all. (torch's formatter
# then sees every element of a 1-D tensor, as it slices ``t[-0:]``, but with a single item
# on the only line the formatter's width cannot show, so we do not reproduce that.)

def _displayed_indices(shape, summarize, edgeitems):
    """Per dimension: the displayed indices, and whether a "..." stands among them."""
    indices, cut = [], []
    for size in shape:
        is_cut = summarize and size > 2 * edgeitems
        shown = np.r_[0:edgeitems, size - edgeitems:size] if is_cut else np.arange(size)
        indices.append(shown)
        cut.append(is_cut)
    return indices, cut


class _Formatter:
    """Formats the elements of one tensor with a common width, as torch's ``_Formatter``.

    Args:
        values: flat NumPy array of the displayed elements (float64 for floating types).
        floating: whether the tensor has a floating dtype.
    """

    def __init__(self, values, floating):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        if floating:
            self._init_floating(values)
        else:
            self.width = max([1] + [len(str(v)) for v in values.tolist()])

    def _init_floating(self, values):
        finite = values[np.isfinite(values) & (values != 0)]
        if finite.size == 0:
            return
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        magnitudes = np.abs(finite)
        lo, hi = float(magnitudes.min()), float(magnitudes.max())
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode
        self.width = max([1] + [len(self._text(v)) for v in finite.tolist()])

    def _text(self, value):
        """The unpadded text of one element."""
        if not self.floating:
            return str(value)
        if self.sci_mode:
            return format(value, f".{PRINT_OPTS.precision}e")
        if self.int_mode:
            text = format(value, ".0f")
            return text if math.isinf(value) or math.isnan(value) else text + "."
        return format(value, f".{PRINT_OPTS.precision}f")

    def format(self, value):
        """The text of one element, right-aligned to the common width (never truncated)."""
        return self._text(value).rjust(self.width)


def _vector_str(items, cut, indent, width):
    """One bracketed 1-D row of formatted strings, ``per_line`` of them to a line.

    ``per_line`` counts ``width + 2`` columns per item; a summarised row shows " ..." (with a
    space, counted as one item) between its ends, or only "..." when edgeitems is 0.
    """
    e = PRINT_OPTS.edgeitems
    if cut:
        items = items[:e] + [" ..." if e else "..."] + items[len(items) - e:]
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / (width + 2)))
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(strings, cut, indent, width):
    """Lay out nested lists of formatted strings; ``cut[d]`` marks dimensions with a "...".

    Rows of a k-D tensor are joined by "," and k-1 newlines, so 3-D blocks are separated by
    a blank line; each level indents by one more column.
    """
    if not isinstance(strings, list):
        return strings
    if len(cut) == 1:
        return _vector_str(strings, cut[0], indent, width)
    rows = [_nested_str(row, cut[1:], indent + 1, width) for row in strings]
    if cut[0]:
        rows.insert(PRINT_OPTS.edgeitems, "...")
    return "[" + ("," + "\n" * (len(cut) - 1) + " " * (indent + 1)).join(rows) + "]"


def _map_nested(fn, nested):
    """Apply ``fn`` to every leaf of the nested lists that ``ndarray.tolist()`` returns."""
    if isinstance(nested, list):
        return [_map_nested(fn, item) for item in nested]
    return fn(nested)


def _body(values, dtype, indent):
    """The bracketed text of a non-empty tensor's values (steps 1 to 3 of the module doc)."""
    summarize = values.size > PRINT_OPTS.threshold
    indices, cut = _displayed_indices(values.shape, summarize, PRINT_OPTS.edgeitems)
    displayed = values[np.ix_(*indices)] if values.ndim else values
    if dtype.is_complex:
        return _complex_body(displayed, cut, indent)
    if dtype.is_floating_point:
        displayed = displayed.astype(np.float64)  # exact, also for float16 and bfloat16
    formatter = _Formatter(displayed.reshape(-1), dtype.is_floating_point)
    strings = _map_nested(formatter.format, displayed.tolist())
    return _nested_str(strings, cut, indent, formatter.width)


# Note [complex elements]
# torch formats a complex tensor's real parts and imaginary parts with a formatter each (each
# its own int_mode, sci_mode and width).  An element is its real text, right-aligned, then its
# imaginary text with a "j" and no padding ("+" added unless it starts with a sign, so -0.
# shows as "1.-0.j"); a row counts real width + imaginary width + 1 (the "j") per element.

def _complex_body(displayed, cut, indent):
    parts = displayed.astype(np.complex128)
    real = _Formatter(parts.real.reshape(-1), True)
    imag = _Formatter(parts.imag.reshape(-1), True)

    def text(value):
        re_text = real.format(value.real)
        im_text = (imag.format(value.imag) + "j").lstrip()
        return re_text + (im_text if im_text[0] in "+-" else "+" + im_text)
    strings = _map_nested(text, parts.tolist())
    return _nested_str(strings, cut, indent, real.width + imag.width + 1)


def _suffixes(values, dtype, device, grad_fn, requires_grad):
    """The suffixes in torch's order: device, size, dtype, grad_fn or requires_grad."""
    suffixes = []
    if device is not None:
        suffixes.append(f"device='{device}'")
    default = _dtypes.get_default_dtype()
    complex_default = _dtypes.get_default_complex_dtype()
    if values.size == 0:
        if values.ndim != 1:
            suffixes.append(f"size={tuple(values.shape)}")
        if dtype is not default:
            suffixes.append(f"dtype=torch.{dtype.name}")
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={tuple(values.shape)}")
        if dtype not in (default, complex_default, _dtypes.int64, _dtypes.bool_):
            suffixes.append(f"dtype=torch.{dtype.name}")
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    return suffixes


# Note [suffix joining]
# torch measures the last line as ``len(s) - s.rfind("\n") + 1``: two more than its length
# (one more than the characters after the newline, plus one; with no newline rfind gives -1).
# A suffix goes on a new line, indented by len("tensor(") = 7, when that measure plus the
# suffix plus 2 would exceed linewidth. We reproduce the overcount, as torch prints it.

def _join_suffixes(text, suffixes):
    """Append ``suffixes`` to ``text`` by torch's rule (Note [suffix joining]) and close it."""
    indent = len(_PREFIX)
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    return "".join(parts) + ")"


def node_name(grad_fn):
    """A grad_fn as a repr names it: its type's name (a C++ node of torch's, ``CppFunction``,
    by the last part of its ``name()``)."""
    name = type(grad_fn).__name__
    return grad_fn.name().rsplit("::", 1)[-1] if name == "CppFunction" else name


def tensor_repr(values, dtype, *, device=None, grad_fn=None, requires_grad=False,
                tangent=None):
    """``repr`` of a tensor, exactly as torch 2.13 prints it under the current options.

    Args:
        values: NumPy array of the tensor's values (any strides; float16 as ``np.float16``).
        dtype: the doctensor dtype; decides the element format and the ``dtype=`` suffix.
        device: None for cpu, else the device text, e.g. ``"cuda:0"``.
        grad_fn: the grad_fn's class name, e.g. ``"MulBackward0"``, or None.
        requires_grad: shown as ``requires_grad=True`` when there is no grad_fn.
        tangent: a dual tensor's tangent, as text (``format(tangent, "")``), or None.

    Returns:
        The text of ``repr(t)``, e.g. ``tensor([1.0000e-04, 1.0000e+00])``.

    Example:
        >>> tensor_repr(np.array([1.0, -0.5], np.float32), _dtypes.float32,
        ...             grad_fn="MulBackward0")
        'tensor([ 1.0000, -0.5000], grad_fn=<MulBackward0>)'
    """
    values = np.asarray(values)
    body = _body(values, dtype, len(_PREFIX)) if values.size else "[]"
    suffixes = _suffixes(values, dtype, device, grad_fn, requires_grad)
    if tangent is not None:
        suffixes.append(f"tangent={tangent}")
    return _join_suffixes(_PREFIX + body, suffixes)


def parameter_repr(values, dtype, *, device=None, grad_fn=None, requires_grad=True):
    """``repr`` of an ``nn.Parameter``: ``"Parameter containing:\\n"`` + the tensor's repr.

    Example:
        >>> print(parameter_repr(np.array([-0.5, 0.25], np.float32), _dtypes.float32))
        Parameter containing:
        tensor([-0.5000,  0.2500], requires_grad=True)
    """
    return "Parameter containing:\n" + tensor_repr(
        values, dtype, device=device, grad_fn=grad_fn, requires_grad=requires_grad)

"""Pictures of live tensors, as SVG text: the autograd graph and who shares which storage.

Both functions read only what PyTorch itself exposes (``grad_fn``, ``next_functions``,
``variable``, ``_saved_*``, ``untyped_storage()``, ``storage_offset()``, ``stride()``,
``_version``), so they draw real ``torch`` tensors just as well. No Graphviz: the layout is a
simple layered one, written here. Both return a ``Picture``: SVG text (a ``str``) that
Jupyter shows as a picture when it is a cell's last expression::

    draw_graph(loss, params={"x": x})
    draw_storage(("x", x), ("row", x[1]))

In a sphinx-gallery script add ``# sphinx_gallery_capture_repr_block = ('_repr_html_',)`` to
the code block (the site captures no reprs otherwise); a MyST-NB page shows it as it is, or
through ``IPython.display.SVG(...)``.
"""

import hashlib
import itertools
from xml.sax.saxutils import escape

__all__ = ["draw_graph", "draw_storage", "Picture"]

FONT = 12
CHAR_W = 7.2  # monospace advance at FONT px (0.6 em)
PALETTE = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3"]
# torch's nodes list their ``_saved_*`` attributes in dir(); nodes that do not may have these
_SAVED_FALLBACK = ("_saved_self", "_saved_other", "_saved_result", "_saved_mat1", "_saved_mat2")


class Picture(str):
    """SVG text that Jupyter and sphinx-gallery (``_repr_html_``) display as a picture."""

    def _repr_svg_(self):
        return str(self)

    def _repr_html_(self):
        return f'<div class="dt-diagram">{self}</div>'


class _Svg:
    """Collects SVG elements; ``picture()`` gives the document."""

    def __init__(self):
        self.parts, self.lines = [], []  # lines are drawn first, under the boxes
        self.width = self.height = 0

    def rect(self, x, y, w, h, fill="#fff", stroke="#333", rx=0):
        self.parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
                          f'rx="{rx}" fill="{fill}" stroke="{stroke}"/>')
        self._grow(x + w, y + h)

    def text(self, x, y, s, size=FONT, fill="#222", anchor="middle", bold=False):
        weight = ' font-weight="bold"' if bold else ""
        self.parts.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
                          f'text-anchor="{anchor}"{weight}>{escape(s)}</text>')
        # 10% to spare: a browser's monospace font may be a little wider than 0.6 em
        self._grow(x + (len(s) * CHAR_W * 1.1 * size / FONT if anchor == "start" else 0), y + 4)

    def line(self, x1, y1, x2, y2):
        self.lines.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                          'stroke="#555" marker-end="url(#ARROW)"/>')

    def _grow(self, x, y):
        self.width, self.height = max(self.width, x), max(self.height, y)

    def picture(self):
        w, h = self.width + 10, self.height + 10
        body = "\n".join([*self.lines, *self.parts])
        # a page may inline several pictures: each gets its own marker id
        arrow = "arrow-" + hashlib.sha1(body.encode()).hexdigest()[:10]
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
                f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="monospace" '
                'style="max-width: 100%; height: auto">'
                f'<defs><marker id="{arrow}" viewBox="0 0 10 10" refX="10" refY="5" '
                'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
                '<path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>')
        body = body.replace("url(#ARROW)", f"url(#{arrow})")
        return Picture("\n".join([head, body, "</svg>"]))


def _shape(t):
    return "[" + ", ".join(str(n) for n in t.shape) + "]"


def _saved(fn):
    """``name: [shape]`` for each tensor a node saved for backward (or why it is unusable)."""
    names = sorted({n for n in dir(fn) if n.startswith("_saved_")} | set(_SAVED_FALLBACK))
    lines = []
    for name in names:
        try:
            value = getattr(fn, name, None)
        except RuntimeError as e:  # unpacking checks the version counter (Note [saved tensors])
            why = "modified in place!" if "inplace" in str(e) else "freed"
            lines.append(f"saved {name[7:]}: {why}")
            continue
        if hasattr(value, "_version") and hasattr(value, "shape"):
            lines.append(f"saved {name[7:]}: {_shape(value)}")
    return lines


# --- the autograd graph -------------------------------------------------------------------

def draw_graph(tensor, params=None, name="output", saved=True):
    """The backward graph of ``tensor``: its ``grad_fn`` down to the ``AccumulateGrad`` leaves.

    Arrows point the way gradients flow (from the output to the leaves), as
    ``next_functions`` do. Each node shows the tensors it saved for backward.

    Args:
        tensor: the output (for example a loss).
        params: optional ``{name: leaf tensor}`` to label ``AccumulateGrad`` boxes.
        name: the label of the output box.
        saved: list saved tensors under each node (after a backward they read "freed").

    Returns:
        Picture: the SVG document (a ``str``).
    """
    leaf_names = {id(t): n for n, t in (params or {}).items()}
    root = tensor.grad_fn  # None for a leaf: only the tensor's own box is drawn
    rows = _layers(root) if root is not None else []

    head = f"{name}: {_shape(tensor)}" + ("" if tensor.requires_grad else " (no grad)")
    # lay out first (x may go below 0), then shift everything right so the picture starts at 10
    boxes = [(None, 0.0, 10, [head], "#e8f0fe")]  # (node, x, y, lines, fill)
    above = {id(root): [_box_width([head]) / 2]}  # node -> the x centres of boxes above it
    top = 10 + _box_height(1) + 30
    for row in rows:
        # each box goes under the mean of its parents (all in rows above): straight chains,
        # few crossings
        x, tallest = -float("inf"), 0
        for fn in sorted(row, key=lambda fn: _mean(above[id(fn)])):
            # the name repr shows: torch's name() may be qualified (torch::autograd::...)
            lines = [type(fn).__name__] + (_saved(fn) if saved else [])
            if hasattr(fn, "variable"):
                var = fn.variable
                lines.append(f"{leaf_names.get(id(var), 'leaf')}: {_shape(var)}")
            fill = "#e6f4ea" if hasattr(fn, "variable") else "#fff"
            w = _box_width(lines)
            x = max(x, _mean(above[id(fn)]) - w / 2)
            boxes.append((fn, x, top, lines, fill))
            for nxt, _nr in fn.next_functions:
                if nxt is not None:
                    above.setdefault(id(nxt), []).append(x + w / 2)
            x += w + 20
            tallest = max(tallest, _box_height(len(lines)))
        top += tallest + 40
    shift = 10 - min(x for _, x, _, _, _ in boxes)
    svg, pos = _Svg(), {}
    for fn, x, y, lines, fill in boxes:
        w = _box(svg, x + shift, y, lines, fill=fill, bold_first=True)
        pos[id(fn)] = (x + shift + w / 2, y, y + _box_height(len(lines)))
    for fn in [None, *(fn for row in rows for fn in row)]:
        cx, _, bottom = pos[id(fn)]
        for nxt in [root] if fn is None else [n for n, _nr in fn.next_functions]:
            if nxt is not None:
                nx, ny, _ = pos[id(nxt)]
                svg.line(cx, bottom, nx, ny)
    return svg.picture()


def _mean(xs):
    return sum(xs) / len(xs)


def _layers(root):
    """The graph's nodes in rows: each node one row below the lowest node pointing to it."""
    nodes, parents, stack = {id(root): root}, {id(root): 0}, [root]
    while stack:  # find every node, and count the edges into each
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:
                continue
            if id(nxt) not in nodes:
                nodes[id(nxt)], parents[id(nxt)] = nxt, 0
                stack.append(nxt)
            parents[id(nxt)] += 1
    depth, ready = {id(root): 0}, [root]
    while ready:  # topological order (Kahn): a node is placed once all its parents are
        fn = ready.pop()
        for nxt, _ in fn.next_functions:
            if nxt is None:
                continue
            depth[id(nxt)] = max(depth.get(id(nxt), 0), depth[id(fn)] + 1)
            parents[id(nxt)] -= 1
            if not parents[id(nxt)]:
                ready.append(nxt)
    rows = [[] for _ in range(max(depth.values()) + 1)]
    for key, fn in nodes.items():
        rows[depth[key]].append(fn)
    return rows


def _box_width(lines):
    return max(len(s) for s in lines) * CHAR_W + 16


def _box_height(n):
    return n * (FONT + 4) + 10


def _box(svg, x, y, lines, fill="#fff", bold_first=False):
    w = _box_width(lines)
    svg.rect(x, y, w, _box_height(len(lines)), fill=fill, rx=6)
    for i, s in enumerate(lines):
        svg.text(x + w / 2, y + 5 + (i + 1) * (FONT + 4) - 3, s,
                 size=FONT if i == 0 else FONT - 1, bold=bold_first and i == 0,
                 fill="#222" if i == 0 else "#c00" if s.endswith("!") else "#555")
    return w


# --- storage sharing ----------------------------------------------------------------------

MAX_CELLS = 48  # cells drawn per buffer
MAX_ELEMENTS = 4096  # per tensor
CELL = 34


def draw_storage(*named, **tensors):
    """Which tensors share which storage: each buffer as a row of cells, each tensor's window.

    Tensors are grouped by ``untyped_storage().data_ptr()``. Under each buffer, a tensor's
    row marks the cells it reads (``storage_offset()`` plus ``stride()`` steps), numbered in
    the tensor's own (row-major) order, with its shape, stride, offset and ``_version``.

    Args:
        *named: ``(name, tensor)`` pairs.
        **tensors: more tensors by keyword, after the pairs.

    Returns:
        Picture: the SVG document (a ``str``).
    """
    items = list(named) + list(tensors.items())
    groups = {}
    for label, t in items:
        if t.numel() > MAX_ELEMENTS:
            raise ValueError(f"draw_storage draws small tensors; {label} has {t.numel()} "
                             f"elements (at most {MAX_ELEMENTS})")
        groups.setdefault(t.untyped_storage().data_ptr(), []).append((label, t))
    svg, y, colors = _Svg(), 10, itertools.count()
    for k, members in enumerate(groups.values()):
        y = _draw_buffer(svg, y, k, members, colors) + 20
    return svg.picture()


def _cells_of(t, cell_size):
    """Buffer cell index of each element of ``t``, in row-major order."""
    scale = t.element_size() // cell_size
    idx = [t.storage_offset()]
    for size, stride in zip(t.shape, t.stride()):
        idx = [i + j * stride for i in idx for j in range(size)]
    return [i * scale for i in idx]


def _draw_buffer(svg, y, k, members, colors):
    storage = members[0][1].untyped_storage()
    cell_size = min(t.element_size() for _, t in members)
    n = storage.nbytes() // cell_size
    shown = min(n, MAX_CELLS)
    device = members[0][1].device
    cells = f"{n} cell" + "s" * (n != 1)
    svg.text(10, y + 12, f"storage {chr(65 + k)}: {cells} × {cell_size} bytes, on {device}",
             anchor="start", bold=True)
    y += 20
    values = {}
    for _, t in members:
        flat = _flatten(t.tolist())
        values.update(zip(_cells_of(t, cell_size), flat))
    x0 = 10
    for i in range(shown):
        v = values.get(i)
        svg.rect(x0 + i * CELL, y, CELL, 24, fill="#f5f5f5" if v is None else "#fff")
        svg.text(x0 + i * CELL + CELL / 2, y + 16, "·" if v is None else _fmt(v), size=10)
        svg.text(x0 + i * CELL + CELL / 2, y + 36, str(i), size=9, fill="#888")
    if n > shown:
        svg.text(x0 + shown * CELL + 6, y + 16, f"… {n - shown} more", anchor="start")
    y += 44
    beside = shown <= 16  # short buffers: the description goes to the right of the cells
    for label, t in members:
        color = PALETTE[next(colors) % len(PALETTE)]
        for order, cell in enumerate(_cells_of(t, cell_size)):
            if cell < shown:
                svg.rect(x0 + cell * CELL + 2, y, CELL - 4, 20, fill=color, rx=3)
                svg.text(x0 + cell * CELL + CELL / 2, y + 14, str(order), size=10, fill="#fff")
        desc = (f"{label}: shape {_shape(t)} stride {tuple(t.stride())} "
                f"offset {t.storage_offset()} _version {t._version}")
        if beside:
            svg.text(x0 + shown * CELL + 12, y + 14, desc, anchor="start", fill=color)
            y += 28
        else:
            svg.text(x0, y + 36, desc, anchor="start", fill=color)
            y += 50
    return y


def _flatten(v):
    if not isinstance(v, list):
        return [v]
    return [x for item in v for x in _flatten(item)]


def _fmt(v):
    """A value in at most 5 characters: ``3.``, ``0.768``, ``-0.10``, ``1e+05``."""
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 1e4:
            return f"{v:.0f}."
        fits = [s for s in (f"{v:#.3g}", f"{v:.2f}", f"{v:.1f}") if len(s) <= 5 and "e" not in s]
        return fits[0] if fits and float(fits[0]) != 0 else f"{v:.0e}"
    return str(v)[:5]

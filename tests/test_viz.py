"""``doctensor.viz``: well-formed SVG that names what torch names, for doctensor and torch."""

import xml.etree.ElementTree as ET

import pytest

import doctensor
from doctensor.viz import draw_graph, draw_storage

SVG_NS = "{http://www.w3.org/2000/svg}"


def texts(svg):
    root = ET.fromstring(svg)  # raises on malformed XML
    assert root.tag == SVG_NS + "svg"
    return [el.text for el in root.iter(SVG_NS + "text")]


def libraries():
    """doctensor always; real torch when installed (viz uses only torch's public API)."""
    yield doctensor
    try:
        import torch
    except ImportError:
        return
    yield torch


@pytest.fixture(params=list(libraries()), ids=lambda m: m.__name__)
def lib(request):
    return request.param


def test_graph_of_mul_sum(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    found = texts(draw_graph((x * 2).sum(), params={"x": x}))
    assert found[0] == "output: []"
    for name in ("SumBackward0", "MulBackward0", "AccumulateGrad", "x: [3]"):
        assert name in found
    assert "saved self: [3]" not in found  # x * 2 saves the scalar, never x


def test_graph_lists_saved_tensors_and_shared_leaves(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    loss = (x * w).exp().sum() + x.sum()
    found = texts(draw_graph(loss, params={"x": x, "w": w}, name="loss"))
    assert found.count("AccumulateGrad") == 2  # x is used twice but has one AccumulateGrad
    assert {"ExpBackward0", "saved result: [2]", "saved self: [2]", "saved other: [2]",
            "x: [2]", "w: [2]", "loss: []"} <= set(found)


def test_graph_marks_a_saved_tensor_modified_in_place(lib):
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    out.detach().zero_()
    found = texts(draw_graph(out))
    assert "SigmoidBackward0" in found
    assert "saved result: modified in place!" in found


def test_graph_of_a_leaf_and_of_a_plain_tensor(lib):
    assert texts(draw_graph(lib.ones(2, requires_grad=True))) == ["output: [2]"]
    assert texts(draw_graph(lib.ones(2))) == ["output: [2] (no grad)"]


def test_storage_groups_tensors_by_buffer(lib):
    x = lib.arange(6.0).view(2, 3)
    svg = draw_storage(("x", x), ("x.t()", x.t()), ("copy", x.t().contiguous()))
    found = texts(svg)
    headers = [t for t in found if t.startswith("storage ")]
    assert headers == ["storage A: 6 cells × 4 bytes, on cpu",
                       "storage B: 6 cells × 4 bytes, on cpu"]
    assert "x.t(): shape [3, 2] stride (1, 3) offset 0 _version 0" in found
    assert "copy: shape [3, 2] stride (2, 1) offset 0 _version 0" in found


def test_storage_shows_offsets_versions_and_keywords(lib):
    x = lib.zeros(4)
    row = x[1:3]
    row.add_(1)
    found = texts(draw_storage(("x", x), data=x.data, row=row))
    assert "x: shape [4] stride (1,) offset 0 _version 1" in found
    assert "data: shape [4] stride (1,) offset 0 _version 0" in found  # .data: own counter
    assert "row: shape [2] stride (1,) offset 1 _version 1" in found
    assert found.count("1.") == 2 and found.count("0.") == 2  # the buffer's values


def test_pictures_display_in_jupyter_and_sphinx_gallery():
    picture = draw_storage(x=doctensor.ones(2))
    assert isinstance(picture, str)
    assert picture._repr_svg_() == str(picture)
    assert picture._repr_html_().startswith('<div class="dt-diagram"><svg ')


def test_graph_after_backward_says_freed_unless_saved_is_off(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp().sum()
    y.backward()
    assert "saved result: freed" in texts(draw_graph(y))
    assert not [t for t in texts(draw_graph(y, saved=False)) if "freed" in t or "saved" in t]


def test_storage_refuses_big_tensors_and_cuts_long_buffers():
    with pytest.raises(ValueError, match="big has 5000 elements"):
        draw_storage(big=doctensor.zeros(5000))
    found = texts(draw_storage(x=doctensor.zeros(100)[10:20]))
    assert "… 52 more" in found
    assert "x: shape [10] stride (1,) offset 10 _version 0" in found


def test_cell_values_fit_their_cells():
    from doctensor.viz import _fmt

    values = {3.0: "3.", 0.4963: "0.496", 1.4963: "1.50", -0.1043: "-0.10", -0.7752: "-0.78",
              0.00123: "1e-03", 123456.7: "1e+05", 7: "7", True: "True"}
    assert {v: _fmt(v) for v in values} == values
    found = texts(draw_storage(one=doctensor.tensor([-0.1043])))
    assert found[:2] == ["storage A: 1 cell × 4 bytes, on cpu", "-0.10"]


def test_graph_boxes_sit_under_their_parents(lib):
    """A chain is drawn straight down; siblings keep the order of their parents (no crossing)."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    root = ET.fromstring(draw_graph((x.exp() * w.sin()).sum(), params={"x": x, "w": w}))
    lines = [(float(el.get("x1")), float(el.get("x2"))) for el in root.iter(SVG_NS + "line")]
    assert sum(abs(x1 - x2) < 0.5 for x1, x2 in lines) == 5  # all but the edge to sin()
    centre = {el.text: float(el.get("x")) for el in root.iter(SVG_NS + "text")}
    assert centre["ExpBackward0"] < centre["SinBackward0"]
    assert centre["x: [2]"] < centre["w: [2]"]

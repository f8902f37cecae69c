"""The site's own Sphinx extensions (docs/_ext), piece by piece, without building the site.

``search_zh`` (the Chinese search index), ``bilingual`` (one span per language in titles),
``source_links`` (which doctensor objects an example uses; the layers), ``frontpage`` (every
gallery page states its question) and ``exactness`` (the recorded data behind its page).
The built site is checked in a browser by tests/browser.
"""

import ast
import json
import re
import sys
from pathlib import Path

import pytest
from docutils import nodes

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
sys.path.insert(1, str(ROOT / "src"))

import bilingual  # noqa: E402
import exactness  # noqa: E402
import search_zh  # noqa: E402
import source_links  # noqa: E402

GALLERY = sorted((ROOT / "gallery").glob("plot_*.py"))


def test_search_splits_chinese_into_overlapping_pairs_and_keeps_english_words():
    assert search_zh.split("版本计数器") == ["版本", "本计", "计数", "数器"]
    assert search_zh.split("叶子节点与 requires_grad，视图") == [
        "叶子", "子节", "节点", "点与", "requires_grad", "视图"]
    assert search_zh.split("单") == ["单"]  # one character stays (word_filter drops it)
    lang = search_zh.SearchBigrams({})
    assert lang.stem("Versions") == "version" and lang.stem("视图") == "视图"
    assert not lang.word_filter("the") and not lang.word_filter("单")
    assert "window.Stemmer = EnglishStemmer;" in lang.js_stemmer_code
    assert "var splitQuery" in lang.js_splitter_code


@pytest.mark.parametrize("text, pair", [
    ("文章与示例 / Articles and examples", ("文章与示例", "Articles and examples")),
    ("Build / 构建", ("构建", "Build")),
    ("clone() 与 detach() / clone() and detach()", ("clone() 与 detach()", "clone() and detach()")),
    ("a / b", None),  # no Chinese side
    ("视图 / 张量", None),  # two Chinese sides
    ("只有中文", None),
])
def test_bilingual_titles_split_at_the_separator(text, pair):
    assert bilingual.split_text(text) == pair


def test_bilingual_nodes_keep_inline_markup_on_its_side():
    children = [nodes.Text("叶子张量与 "), nodes.literal("", "no_grad"),
                nodes.Text(" / Leaves and "), nodes.literal("", "no_grad")]
    zh, sep, en = bilingual.bilingual(children, ("勘误：", "Erratum: "))
    assert zh["classes"] == ["dt-zh"] and zh["lang"] == "zh" and sep["classes"] == ["dt-sep"]
    assert zh.astext() == "勘误：叶子张量与 no_grad"
    assert en.astext() == "Erratum: Leaves and no_grad"
    assert isinstance(en.children[-1], nodes.literal)


def test_the_examples_doctensor_objects_are_found_with_their_source():
    script = ("import doctensor as torch\n"
              "x = torch.ones(2, requires_grad=True)\n"
              "y = x.clone().detach()\n"
              "layer = torch.nn.Linear(2, 1)\n"
              "print(y.grad, x.data, layer.weight)\n")
    found = {shown: (module, qualname) for shown, module, qualname
             in source_links.implementations(script)}
    assert found["Tensor.clone"] == ("doctensor.tensor", "Tensor.clone")
    assert found["Tensor.grad"] == ("doctensor.tensor", "Tensor.grad")  # a property's getter
    assert found["torch.nn.Linear"][1] == "Linear"
    assert found["torch.ones"][0].startswith("doctensor.")
    assert "Tensor.weight" not in found  # not a doctensor object: left out


def test_every_layer_exists_and_has_its_paragraph():
    layers = source_links.layers()
    assert len(layers) > 5
    for layer in layers:
        for module in layer:
            path = ROOT / "src" / Path(*module.split("."))
            assert path.is_dir() or path.with_suffix(".py").exists(), module
    told = re.findall(r"^\.\. layer:: (\S+)$", (ROOT / "docs" / "architecture.rst").read_text(
        encoding="utf-8"), re.M)
    assert [next(i for i, layer in enumerate(layers) if m in layer) for m in told] == \
        list(range(len(layers))), "one '.. layer::' per layer, top to bottom"


@pytest.mark.parametrize("path", GALLERY, ids=[p.stem for p in GALLERY])
def test_every_gallery_page_states_its_question_in_both_languages(path):
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    m = re.search(r"^\.\. question:: (.*(?:\n   .*)*)", doc, re.M)
    assert m, "a '.. question::' under the title (docs/_ext/frontpage.py)"
    assert bilingual.split_text(re.sub(r"\s*\n\s*", " ", m.group(1)))


def test_the_recorded_exactness_data_is_complete_and_renders():
    data = json.loads(exactness.RECORD.read_text(encoding="utf-8"))
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", data["date"])
    assert data["census"].startswith("namespace") and "api coverage" in data["census"]
    assert all(len(c) == 5 and c[0] == c[1] + c[2] + c[3] for c in data["families"].values())
    page = exactness.report(data, live=False)
    text = "\n".join(n.astext() for n in page)
    assert f"Recorded on {data['date']}" in text
    assert str(sum(c[0] for c in data["families"].values())) in text


def test_exactness_data_is_the_tests_own():
    """The live collection (needs torch, like the op table) agrees with its own counts."""
    pytest.importorskip("torch")
    data = exactness.collect()
    assert sum(c[3] for c in data["families"].values()) == sum(
        rows for rows, _, _ in data["tolerances"].values())

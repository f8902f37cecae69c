"""``docs/_ext/cjk.py``: a line break inside Chinese prose must not render as a space."""

import sys
from pathlib import Path

import pytest
from docutils.core import publish_doctree

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

import cjk  # noqa: E402


@pytest.mark.parametrize("before, after, joined", [
    ("享", "内", True),  # two ideographs
    ("，", "x", True),  # after full-width punctuation
    ("x", "。", True),  # before it
    ("”", "的", True),  # a Chinese quote next to an ideograph
    ("的", "x", False),  # ideograph and Latin: a space, as in mixed typesetting
    ("a", "b", False),
    ("”", "a", False),  # "A"-width quotes are CJK only between CJK characters
    ("", "的", False),
])
def test_which_breaks_vanish(before, after, joined):
    assert cjk.joins(before, after) is joined


def _joined(rst):
    doc = publish_doctree(rst, settings_overrides={"report_level": 5})
    for block in list(doc.findall(cjk.nodes.TextElement)):
        if not isinstance(block, (cjk.nodes.Inline, *cjk._UNTOUCHED)):
            cjk.join_cjk_lines(block)
    return doc


def test_paragraphs_join_across_inline_markup_but_literal_blocks_do_not():
    doc = _joined("共享\n内存，\n``x`` 与\n``y``\n相同。\nEnglish\nwords 和\n中文。\n\n"
                  "::\n\n   代码\n   保持\n")
    para, block = doc.children
    assert para.astext() == "共享内存，x 与\ny\n相同。English\nwords 和中文。"
    assert block.astext() == "代码\n保持"

"""Sphinx extension: a Chinese paragraph broken across source lines gets no stray spaces.

reST and Markdown keep a paragraph's line breaks in its text, and a browser shows each one
as a space: ``共享\\n内存`` reads "共享 内存". This transform drops such a break, with the
indentation around it, where the characters on both sides are CJK (ideographs, kana,
full-width punctuation, Chinese quotes and dashes), or where one side is full-width
punctuation (``，\\n``x`` `` reads "，x"). A break between a CJK character and a Latin
word or an inline literal stays a space, as in mixed Chinese-English typesetting.

Literal blocks, inline literals, math and raw nodes are left alone. It runs when a page is
read, so the search index sees the joined text too.
"""

from __future__ import annotations

import re
import unicodedata

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

_BREAK_RE = re.compile(r"[ \t]*\n[ \t]*")
_CJK_PUNCT_AMBIGUOUS = "“”‘’—…·"  # East Asian width "A": CJK only between CJK characters
_UNTOUCHED = (nodes.FixedTextElement, nodes.literal, nodes.math, nodes.raw, nodes.comment)


def _wide(c: str) -> bool:
    return unicodedata.east_asian_width(c) in "WF"


def _cjk(c: str) -> bool:
    return _wide(c) or c in _CJK_PUNCT_AMBIGUOUS


def _wide_punct(c: str) -> bool:
    return _wide(c) and unicodedata.category(c).startswith("P")


def joins(before: str, after: str) -> bool:
    """Whether a line break between these two characters should vanish."""
    if not before or not after:
        return False
    return (_cjk(before) and _cjk(after)) or _wide_punct(before) or _wide_punct(after)


def join_cjk_lines(block: nodes.Element) -> None:
    """Drop the line breaks between CJK characters in one paragraph-like node."""
    texts = [t for t in block.findall(nodes.Text)]
    for i, text in enumerate(texts):
        if "\n" not in text or any(isinstance(a, _UNTOUCHED) for a in _ancestors(text, block)):
            continue
        s = str(text)

        def replace(m: re.Match, i=i, s=s) -> str:
            before = s[m.start() - 1] if m.start() else _last_char(texts[:i])
            after = s[m.end()] if m.end() < len(s) else _first_char(texts[i + 1:])
            return "" if joins(before, after) else m.group()

        new = _BREAK_RE.sub(replace, s)
        if new != s:
            text.parent.replace(text, nodes.Text(new))


def _ancestors(node: nodes.Node, stop: nodes.Node):
    node = node.parent
    while node is not None and node is not stop:
        yield node
        node = node.parent
    yield stop


def _last_char(texts) -> str:
    for t in reversed(texts):
        if str(t).rstrip():
            return str(t).rstrip()[-1]
    return ""


def _first_char(texts) -> str:
    for t in texts:
        if str(t).lstrip():
            return str(t).lstrip()[0]
    return ""


class JoinCJKLines(SphinxTransform):
    """Run ``join_cjk_lines`` on every paragraph-like node of a page."""

    default_priority = 700  # after the parsing transforms; before the search index is built

    def apply(self, **kwargs) -> None:
        for block in list(self.document.findall(nodes.TextElement)):
            if isinstance(block, (nodes.Inline, *_UNTOUCHED)):
                continue  # inline nodes are handled with their paragraph
            join_cjk_lines(block)


def setup(app: Sphinx) -> dict:
    app.add_transform(JoinCJKLines)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}

"""Sphinx extension: a search index that finds Chinese words without a dictionary.

Sphinx's own ``zh`` search needs ``jieba`` to index Chinese at all (without it no Chinese
word is indexed), and in Sphinx 9 its ``language_data.js`` ends with ``window.Stemmer =
ChineseStemmer``, a class that does not exist: the search page throws and never answers.

This language indexes every run of CJK characters as its overlapping two-character pieces
(版本计数 -> 版本, 本计, 计数) and Latin words as Sphinx's English search does (stemmed). The
query is split the same way in the browser (``splitQuery`` below), and Sphinx's search asks
for every piece, so a Chinese query finds the pages that contain all its pieces. The JS
stemmer is the English one, bound to the name ``Stemmer`` that ``searchtools.js`` uses.
"""

from __future__ import annotations

import re
from pathlib import Path

import snowballstemmer
import sphinx.search
from sphinx.application import Sphinx
from sphinx.search import SearchLanguage
from sphinx.search._stopwords.en import ENGLISH_STOPWORDS

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TERM_RE = re.compile(rf"[{_CJK}]+|[^\W{_CJK}]+")
_MINIFIED = Path(sphinx.search.__file__).parent / "minified-js"

# The browser's twin of SearchBigrams.split (the default splitQuery keeps a CJK run whole).
_SPLITTER = r"""
var splitQuery = (query) => {
  const cjk = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
  const runs = new RegExp(`[${cjk}]+|(?:(?![${cjk}])[\\p{L}\\p{N}_])+`, "gu");
  const terms = [];
  for (const run of query.match(runs) || []) {
    if (new RegExp(`^[${cjk}]`).test(run) && run.length > 1) {
      for (let i = 0; i + 2 <= run.length; i++) terms.push(run.slice(i, i + 2));
    } else {
      terms.push(run);
    }
  }
  return terms;
};
"""


def bigrams(run: str) -> list[str]:
    """The overlapping two-character pieces of a CJK run (a single character stays)."""
    return [run[i:i + 2] for i in range(len(run) - 1)] or [run]


def split(text: str) -> list[str]:
    """Latin words whole, CJK runs as bigrams: what both the index and the query use."""
    terms = []
    for run in _TERM_RE.findall(text):
        terms += bigrams(run) if re.match(rf"[{_CJK}]", run) else [run]
    return terms


class SearchBigrams(SearchLanguage):
    lang = "zh"
    language_name = "Chinese (bigrams)"
    stopwords = ENGLISH_STOPWORDS
    js_splitter_code = _SPLITTER
    js_stemmer_code = "\n".join((
        (_MINIFIED / "base-stemmer.js").read_text(encoding="utf-8"),
        (_MINIFIED / "english-stemmer.js").read_text(encoding="utf-8"),
        "window.Stemmer = EnglishStemmer;",
    ))

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        self.stemmer = snowballstemmer.stemmer("english")

    def split(self, input: str) -> list[str]:
        return split(input)

    def stem(self, word: str) -> str:
        return word if re.match(rf"[{_CJK}]", word) else self.stemmer.stemWord(word.lower())

    def word_filter(self, word: str) -> bool:
        return len(word) > 1 and not word.isdigit() and word not in self.stopwords


def setup(app: Sphinx) -> dict:
    sphinx.search.languages["zh"] = SearchBigrams
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}

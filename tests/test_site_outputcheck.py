"""Unit tests of the expected-output parser, normaliser and runner (docs/_ext/outputcheck.py)."""

import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

import outputcheck  # noqa: E402


def _script(tmp_path, body: str) -> Path:
    path = tmp_path / "plot_t.py"
    path.write_text('"""\nT / T\n=====\n"""\n\n' + textwrap.dedent(body), encoding="utf-8")
    return path


def test_normalize_strips_trailing_space_and_outer_blank_lines_only():
    assert outputcheck.normalize("\n\n  a  \n\tb\n\n c\n\n") == "  a\n        b\n\n c"


def test_paths_normalizer_keeps_the_basename():
    text = "/work/main/gallery/plot_1.py:12: UserWarning: x (at /pytorch/aten/T.h:494.)"
    assert outputcheck.normalize(text, ("paths",)) == "plot_1.py:12: UserWarning: x (at T.h:494.)"
    assert outputcheck.normalize("a/b and 1/2", ("paths",)) == "a/b and 1/2"


def test_unknown_names_are_errors():
    with pytest.raises(ValueError, match="normalize"):
        outputcheck.check_options({"normalize": "everything"})
    with pytest.raises(ValueError, match="requires"):
        outputcheck.check_options({"requires": "tpu"})
    with pytest.raises(ValueError, match="unknown option"):
        outputcheck.check_options({"ignore": ""})


def test_find_directives_reads_options_and_dedents_like_docutils():
    rst = textwrap.dedent("""\
        Some text.

        .. expected-output::
           :requires: cuda
           :normalize: paths

           tensor([[1, 2],
                   [3, 4]])

        After.
        """)
    [(line, options, body)] = outputcheck.find_directives(rst)
    assert line == 2 and options == {"requires": "cuda", "normalize": "paths"}
    assert body == "tensor([[1, 2],\n        [3, 4]])"


def test_parse_script_pairs_each_directive_with_the_code_block_before_it(tmp_path):
    path = _script(tmp_path, """\
        # %%
        print(1)

        # %%
        # .. expected-output::
        #
        #    1

        x = 2

        # %%
        # Text.
        #
        # .. expected-output::
        #    :normalize: paths
        #
        #    2
        print(x)
        """)
    script = outputcheck.parse_script(path)
    assert not script.errors
    assert [(e.block, e.line, e.text, e.normalize) for e in script.expected] == [
        (1, 10, "1", ()), (2, 19, "2", ("paths",))]
    assert len(script.code_blocks) == 3  # print(x) follows the second directive


def test_format_errors_name_their_line(tmp_path):
    path = _script(tmp_path, """\
        # %%
        # .. expected-output::
        #
        #    nothing before me

        print(1)

        # %%
        # .. expected-output::
        #    :normalize: whitespace
        #
        #    1
        #
        # .. expected-output::
        #
        #    1 again
        """)
    script = outputcheck.parse_script(path)
    messages = [(e.line, e.message) for e in script.errors]
    assert messages[0] == (7, "expected-output must be in the text cell right after a code cell")
    assert messages[1][0] == 14 and "whitespace" in messages[1][1]
    assert messages[2] == (19, "a second expected-output for code block 1")
    assert script.lines == [7, 14, 19]


def test_run_script_mirrors_sphinx_gallery(tmp_path):
    path = _script(tmp_path, """\
        import warnings

        print("out")
        warnings.warn("careful")
        print("after")
        1 + 1  # a bare expression prints nothing (capture_repr=())

        # %%
        # .. expected-output::
        #    :normalize: paths
        #
        #    out
        #    plot_t.py:9: UserWarning: careful
        #      warnings.warn("careful")
        #    after

        # %%
        raise ValueError("stop")

        # %%
        print("never")
        """)
    script = outputcheck.parse_script(path)
    run = outputcheck.run_script(script)
    assert run.outputs[0].startswith(f"out\n{path}:9: UserWarning: careful\n")
    assert run.error_block == 2 and run.error.rstrip().endswith("ValueError: stop")
    assert len(run.outputs) == 2
    problems, _ = outputcheck.check_run(script, run, "plot_t.py")
    assert len(problems) == 1 and "code block 2 raised" in problems[0]


def test_a_picture_block_keeps_its_repr_apart_from_the_output(tmp_path):
    path = _script(tmp_path, """\
        class Picture:
            def _repr_html_(self):
                return "<svg/>"

        print("before")
        Picture()  # no capture_repr_block here: nothing is kept

        # %%
        # A picture.

        # sphinx_gallery_capture_repr_block = ('_repr_html_',)
        Picture()
        """)
    run = outputcheck.run_script(outputcheck.parse_script(path))
    assert run.outputs == ["before\n", ""]
    assert run.reprs == {2: "<svg/>"}
    assert run.error is None


def test_a_difference_is_a_unified_diff_naming_file_line_and_block(tmp_path):
    exp = outputcheck.Expected("tensor(1.)\ntensor(2.)", line=42, block=3)
    assert exp.diff("tensor(1.)  \ntensor(2.)\n\n", "g/p.py", "p.py") is None
    diff = exp.diff("tensor(1.)\ntensor(5.)\n", "g/p.py", "page x")
    assert diff.splitlines()[:2] == ["--- expected (g/p.py:42)", "+++ got (page x, code block 3)"]
    assert "-tensor(2.)\n+tensor(5.)" in diff


def test_myst_directives(tmp_path):
    md = ("x\n\n```{expected-output}\n:requires: cuda\n\ncuda:0\n```\n\n"
          "::::{expected-output}\na\n::::\n")
    assert outputcheck.find_myst_directives(md) == [(2, {"requires": "cuda"}, "cuda:0"),
                                                   (8, {}, "a")]


def test_doctensor_is_torch_aliases_and_restores():
    torch = pytest.importorskip("torch")
    before = sys.modules.get("doctensor")
    with outputcheck.doctensor_is_torch():
        import doctensor
        import doctensor.nn.functional as F

        assert doctensor is torch and F is torch.nn.functional
    assert sys.modules.get("doctensor") is before

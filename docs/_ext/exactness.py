"""Sphinx extension and script: the "How exact is doctensor" page, from the tests' own data.

``.. exactness-report::`` shows

* the op table (``tests/op_rows_*.py``, the rows ``tests/test_core_ops.py`` runs against
  torch 2.13): per family, how many rows compare bit for bit (no tolerance) and how many
  within a stated tolerance, and which records have a tolerance, with it;
* the API census (``../shared/tools/api_census.py``, through ``census.table()``): which of
  torch's public names doctensor has.

Both need torch 2.13 importable (the tests' environment). The build runs this file as a
script with a Python that has torch (``DOCTENSOR_TORCH_PYTHON``, else ``.nox/tests/bin/python``
when it exists); without one, the page shows the data recorded in ``exactness.json`` (next
to this file), with its date. ``python docs/_ext/exactness.py --record`` (with torch)
rewrites that record.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORD = Path(__file__).with_name("exactness.json")


# --- the data (runs where torch is importable) ---------------------------------------------

def collect() -> dict:
    """The op table summed up (per family; per record with a tolerance) and the census table."""
    sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "src"), str(Path(__file__).parent)]
    import blas_error
    import census
    import op_table

    families, tolerances, records = {}, {}, set()
    for module in op_table.ROW_MODULES:
        counts = families.setdefault(module.__name__.removeprefix("op_rows_"),
                                     [0, 0, 0, 0, 0])
        for row in module.ROWS:
            tol = row.rtol or row.atol
            # zero tolerance stated; none stated (the dtype's default: _oracle.tol); a stated one
            kind = 3 if tol else 1 if (row.rtol, row.atol) == (0, 0) else 2
            counts[0] += 1
            counts[kind] += 1
            counts[4] += bool(getattr(row, "xfail", None))
            records.add(row.record or row.name)
            if tol:
                rows, rtol, atol = tolerances.get(row.record or row.name, (0, 0.0, 0.0))
                tolerances[row.record or row.name] = (rows + 1, max(rtol, row.rtol or 0.0),
                                                      max(atol, row.atol or 0.0))
    return {"date": datetime.date.today().isoformat(), "records": len(records),
            "families": families, "tolerances": tolerances, "blas": blas_error.measure(),
            "blas_bound": blas_error.SCALE_BOUND,
            "census": census.table(sys.executable) if census.CENSUS.exists()
            else json.loads(RECORD.read_text(encoding="utf-8"))["census"]}


def torch_python() -> str | None:
    candidate = os.environ.get("DOCTENSOR_TORCH_PYTHON") or str(ROOT / ".nox/tests/bin/python")
    return candidate if Path(candidate).exists() else None


def load() -> tuple[dict, bool]:
    """(data, live): computed now when a Python with torch exists, else the recorded data."""
    python = torch_python()
    if python:
        done = subprocess.run([python, __file__, "--json"], capture_output=True, text=True,
                              cwd=ROOT, timeout=300)
        if done.returncode == 0:
            return json.loads(done.stdout), True
        from sphinx.util import logging  # load() runs inside a build

        logging.getLogger(__name__).info(
            "[exactness] %s could not collect the data; the page shows the record:\n%s",
            python, done.stderr[-2000:])
    return json.loads(RECORD.read_text(encoding="utf-8")), False


# --- the page -----------------------------------------------------------------------------

def _table(header: list[str], body: list[list[str]], classes=()):
    from docutils import nodes

    table = nodes.table(classes=["dt-table", *classes])
    group = nodes.tgroup(cols=len(header))
    table += group
    group.extend(nodes.colspec(colwidth=1) for _ in header)
    thead, tbody = nodes.thead(), nodes.tbody()
    for target, rows in ((thead, [header]), (tbody, body)):
        for cells in rows:
            row = nodes.row()
            for cell in cells:
                row += nodes.entry("", nodes.paragraph("", cell))
            target += row
    group += thead
    group += tbody
    return table


def report(data: dict, live: bool) -> list:
    from bilingual import bilingual
    from docutils import nodes

    def para(text, classes=()):
        return nodes.paragraph("", "", *bilingual([nodes.Text(text)]), classes=list(classes))

    families, tolerances = data["families"], data["tolerances"]
    total, exact, default, stated = (sum(c[k] for c in families.values()) for k in range(4))
    out = [para(f"操作表共 {total} 行，覆盖 {data['records']} 条运算记录：{exact} 行逐位比较"
                f"（误差为零），{default} 行在数据类型的默认误差内比较（float32 为 1e-6，"
                "float64 为 1e-12，float16 为 1e-3；整数和布尔值逐位），并比较打印出的 repr，"
                f"{stated} 行在写明的误差内比较。每一行在 CPU 和 CUDA 两种设备、每种数据类型和"
                "每个样本上运行，与 PyTorch 2.13 比较值、类型、形状、步长、grad_fn、repr、报错和"
                "梯度。 / "
                f"The op table has {total} rows over {data['records']} op records: {exact} "
                f"compare bit for bit (zero tolerance), {default} within their dtype's default "
                "tolerance (float32 1e-6, float64 1e-12, float16 1e-3; integers and bool bit "
                f"for bit) and by their printed repr, {stated} within a stated tolerance. "
                "Every row runs on both devices (CPU, CUDA), every dtype and every sample, and "
                "is compared with PyTorch 2.13: values, dtype, shape, strides, grad_fn, repr, "
                "errors and gradients.")]
    out.append(_table(["family / 家族", "rows / 行", "bit-exact / 逐位", "default / 默认误差",
                       "stated / 写明误差", "xfail"],
                      [[f, *map(str, c)] for f, c in sorted(families.items())]))
    out.append(para("下表列出带误差的运算记录及其最大误差。多数是矩阵乘法、卷积和 FFT："
                    "它们在 PyTorch 中由 BLAS 等库按另一种顺序求和，结果在最后几位上不同。 / "
                    "The records compared within a tolerance, with the largest one stated. "
                    "Most are matrix products, convolutions and FFTs: PyTorch computes them "
                    "with BLAS and friends, summing in another order, so the last bits differ."))
    out.append(_table(["record / 记录", "rows / 行", "rtol", "atol"], [
        [record, str(rows), f"{rtol:g}", f"{atol:g}"]
        for record, (rows, rtol, atol) in sorted(tolerances.items())], classes=["dt-tolerances"]))
    out += blas_report(data, para)
    when = (f"构建时由 api_census.py 计算（{data['date']}）。 / Computed at build time by "
            f"api_census.py ({data['date']})." if live else
            f"记录于 {data['date']}（这次构建没有可用的 torch，未能重新计算）。 / Recorded on "
            f"{data['date']} (this build found no working torch to compute it afresh).")
    out += [nodes.rubric("", "", *bilingual([nodes.Text("API 覆盖 / API coverage")])),
            para("doctensor 有 torch 2.13 公开 API 中的哪些名字（不含量化、稀疏、分布式和编译器"
                 "内部）。 / Which of torch 2.13's public API names doctensor has (leaving out "
                 "quantization, sparse layouts, distributed and compiler internals)."),
            para(when, classes=["dt-census-date"]),
            nodes.literal_block(data["census"], data["census"])]
    return out


def blas_report(data: dict, para) -> list:
    """The measured distance of float32 ``F.linear`` from torch's (``tests/blas_error.py``)."""
    from bilingual import bilingual
    from docutils import nodes

    bound = data["blas_bound"]
    rows = [[" x ".join(map(str, r["shape"])), f"{100 * r['differ']:.1f}%",
             f"{r['median_ulp']:g}", str(r["max_ulp"]), f"{r['max_scaled']:.2f}"]
            for r in data["blas"]]
    return [nodes.rubric("", "", *bilingual([nodes.Text("矩阵乘法：测得的差距 / Matrix "
                                                         "products: the measured distance")])),
            para("float32 的 F.linear（x @ W.T + b）在 doctensor 中由 OpenBLAS 计算，在 "
                 "PyTorch 中由 MKL 计算；两者都按各自的分块顺序累加内维，所以最后几位不同，"
                 "无法逐位复现（MKL 的顺序取决于它运行时选择的内核）。下表是同一组输入在两边"
                 "的差距：不同元素的比例、ulp 距离的中位数和最大值（输出接近 0 时 ulp 会很大），"
                 "以及最大差距除以误差尺度 eps·(|x|@|W|.T+|b|)（eps = 2^-24）。测试 "
                 f"tests/test_blas_bounds.py 断言后者不超过 {bound:g}。 / "
                 "float32 F.linear (x @ W.T + b) runs on OpenBLAS in doctensor and on MKL in "
                 "PyTorch; each sums the inner dimension in its own blocked order, so the last "
                 "bits differ and cannot be reproduced bit for bit (MKL's order depends on the "
                 "kernel it picks at run time). The table shows, for the same inputs on both "
                 "sides: the share of output elements that differ, the median and largest "
                 "distance in ulps (large where an output is near 0), and the largest "
                 "difference divided by the error scale eps·(|x|@|W|.T+|b|) (eps = 2^-24). "
                 f"tests/test_blas_bounds.py asserts the last one is at most {bound:g}."),
            _table(["批量 x 输入 x 输出 / batch x in x out", "differ / 不同",
                    "median ulp / 中位 ulp", "max ulp / 最大 ulp", "max / eps·scale"], rows)]


def setup(app) -> dict:
    from sphinx.util.docutils import SphinxDirective

    class ExactnessReport(SphinxDirective):
        def run(self):
            data, live = load()
            if not live:
                self.env.note_dependency(str(RECORD))
            return report(data, live)

    app.add_directive("exactness-report", ExactnessReport)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    collected = collect()
    if "--record" in sys.argv:
        RECORD.write_text(json.dumps(collected, ensure_ascii=False, indent=1) + "\n",
                          encoding="utf-8")
    else:
        print(json.dumps(collected, ensure_ascii=False))

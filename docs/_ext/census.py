"""The API census: how much of torch 2.13's public API doctensor has, as the README shows it.

The numbers come from ``../shared/tools/api_census.py`` (it needs torch 2.13 and doctensor
importable: the ``tests`` environment), never by hand: ``nox -s census`` rewrites the README's
block between the two ``census`` markers, and ``tests/test_readme_census.py`` fails when the
block is not what the census prints today.
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CENSUS = ROOT.parent / "shared" / "tools" / "api_census.py"
README = ROOT / "README.md"
BLOCK = re.compile(r"(<!-- census: begin -->\n)(.*?)(<!-- census: end -->)", re.S)


def table(python=sys.executable):
    """The census table (namespace, torch's names, doctensor's, coverage) as it prints it."""
    done = subprocess.run([python, str(CENSUS)], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def readme_block():
    """The census table as the README holds it now."""
    return BLOCK.search(README.read_text(encoding="utf-8")).group(2)


def render(text):
    return f"```\n{text}\n```\n"


def write_readme():
    """Replace the README's census block with today's table."""
    text = README.read_text(encoding="utf-8")
    block = render(table())
    README.write_text(BLOCK.sub(lambda m: m.group(1) + block + m.group(3), text),
                      encoding="utf-8")


if __name__ == "__main__":
    write_readme()
    print(readme_block())

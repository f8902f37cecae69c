"""The README's "what is covered" table is the census of today's code, not a hand-kept copy
(``docs/_ext/census.py``; ``nox -s census`` rewrites it)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "_ext"))
import census  # noqa: E402  (docs/_ext, just added to sys.path)


@pytest.mark.skipif(not census.CENSUS.exists(), reason="../shared/tools/api_census.py absent")
def test_readme_census_is_current():
    assert census.readme_block() == census.render(census.table()), \
        "README.md's census table is stale: run `nox -s census`"

"""float32 matrix products: doctensor (OpenBLAS) within the stated bound of torch 2.13 (MKL)."""

import blas_error
import pytest


@pytest.mark.parametrize("seed", range(3))
def test_linear_within_the_stated_bound(seed):
    """Every output element of F.linear for the site's and the bench's nn.Linear shapes is
    within ``SCALE_BOUND`` float32 epsilons of the product's scale from torch's."""
    for row in blas_error.measure(seed=seed):
        assert row["max_scaled"] <= blas_error.SCALE_BOUND, row


def test_tiny_inner_dimensions_are_exact():
    """Inner dimensions of 2 and 3 (the site's Linear(2, 1), Linear(3, 1)) match bit for bit:
    too short for the two libraries' blockings to differ."""
    for row in blas_error.measure(blas_error.SHAPES[:2]):
        assert row["differ"] == 0, row

"""torch.utils.data against torch 2.13: batches, their types, shuffling, and the default
generator's state after each pass (a seeded training loop stays torch's, bit for bit)."""

import pytest
import torch  # noqa: F401  (the oracle)
from _oracle import same_outcome

import doctensor  # noqa: F401


def _data(T):
    T.manual_seed(0)
    return T.utils.data, T.arange(10.0).view(5, 2), T.arange(5)


SCENARIOS = {
    "shuffled": lambda T, D, x, y: [
        [(type(b).__name__, b) for b in D.DataLoader(D.TensorDataset(x, y), 2, True)],
        len(D.DataLoader(D.TensorDataset(x, y), 2, True)), T.rand(1)],
    "in_order": lambda T, D, x, y: [list(D.DataLoader(D.TensorDataset(x, y), batch_size=2)),
                                    T.rand(1)],
    "drop_last": lambda T, D, x, y: [
        list(dl := D.DataLoader(D.TensorDataset(x, y), 2, shuffle=True, drop_last=True)),
        len(dl), T.rand(1)],
    "draws_at_iter": lambda T, D, x, y: [
        T.rand(1) if (it := iter(D.DataLoader(D.TensorDataset(x, y), 3, True))) else None,
        next(it), T.rand(1)],
    "own_generator": lambda T, D, x, y: [
        list(D.DataLoader(D.TensorDataset(x, y), 2, True,
                          generator=(g := T.Generator()).manual_seed(3) and g)), T.rand(1)],
    "epochs": lambda T, D, x, y: [list(D.DataLoader(D.TensorDataset(x, y), 4, shuffle=True))
                                  for _ in range(3)],
    "collate": lambda T, D, x, y: [list(D.DataLoader([1.5, 2.5, 3.5], batch_size=2)),
                                   list(D.DataLoader([(1, 2.0), (3, 4.0)], batch_size=2)),
                                   list(D.DataLoader([{"a": T.ones(2), "b": 3}] * 3, 2))],
    "dataset": lambda T, D, x, y: [D.TensorDataset(x, y)[1], len(D.TensorDataset(x, y))],
    "size_mismatch": lambda T, D, x, y: D.TensorDataset(x, T.arange(4)),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_data_loading_like_torch(name):
    same_outcome(lambda T: SCENARIOS[name](T, *_data(T)))

"""torch.utils.data against torch 2.13: batches, their types, shuffling, and the default
generator's state after each pass (a seeded training loop stays torch's, bit for bit)."""

import os
import random
import warnings

import numpy as np
import pytest
import torch
from _oracle import both, raised, same_outcome

import doctensor


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
    "strings": lambda T, D, x, y: [
        list(D.DataLoader([("a", 1), ("b", 2), ("c", 3)], batch_size=2)),
        list(D.DataLoader(["a", "b"], batch_size=2))],
    "ragged": lambda T, D, x, y: list(D.DataLoader([[1, 2], [3]], batch_size=2)),
    "random_split": lambda T, D, x, y: [
        [list(part) for part in D.random_split(range(10), [0.3, 0.7])],
        [list(part) for part in D.random_split(range(7), [0.5, 0.25, 0.25])],
        [list(part) for part in D.random_split(D.TensorDataset(x, y), [2, 3],
                                               generator=T.Generator().manual_seed(5))],
        T.rand(1)],
    "random_split_wrong_sum": lambda T, D, x, y: D.random_split(range(10), [3, 6]),
    "random_split_bad_fraction": lambda T, D, x, y: D.random_split(range(4), [1.5, -0.5]),
    "with_replacement": lambda T, D, x, y: [
        list(D.RandomSampler(range(5), replacement=True, num_samples=70)),
        list(D.DataLoader(D.TensorDataset(x, y), 2,
                          sampler=D.RandomSampler(x, replacement=True))), T.rand(1)],
    "sampler_arguments": lambda T, D, x, y: [
        raised(lambda: D.RandomSampler(x, replacement=1)),
        raised(lambda: D.RandomSampler(x, num_samples=0)),
        raised(lambda: D.BatchSampler(range(3), 0, False)),
        raised(lambda: D.BatchSampler(range(3), 2, None))],
    "subset_random_sampler": lambda T, D, x, y: [
        list(D.SubsetRandomSampler([10, 20, 30, 40])),
        list(D.DataLoader(D.TensorDataset(x, y), 2, sampler=D.SubsetRandomSampler([0, 2, 4]))),
        T.rand(1)],
    "weighted": lambda T, D, x, y: [
        list(D.WeightedRandomSampler([0.1, 0.9, 0.4, 0.0, 2.0], 12)),
        list(D.DataLoader(D.TensorDataset(x, y), 2,
                          sampler=D.WeightedRandomSampler(T.tensor([1.0, 3.0, 0, 0, 1]), 5))),
        raised(lambda: D.WeightedRandomSampler([1.0], 0)),
        raised(lambda: D.WeightedRandomSampler([1.0], 2, replacement=None)),
        raised(lambda: D.WeightedRandomSampler([[1.0]], 2)), T.rand(1)],
    "subset_and_concat": lambda T, D, x, y: [
        (sub := D.Subset(D.TensorDataset(x, y), [4, 0, 2]))[1], len(sub),
        list(D.DataLoader(sub, 2)),
        (cat := D.TensorDataset(x, y) + D.TensorDataset(x * 10, y))[7], cat[-1], len(cat),
        cat.cumulative_sizes, raised(lambda: cat[-11]), list(D.DataLoader(cat, 4))],
    "concat_nothing": lambda T, D, x, y: D.ConcatDataset([]),
    "dataset": lambda T, D, x, y: [D.TensorDataset(x, y)[1], len(D.TensorDataset(x, y))],
    "size_mismatch": lambda T, D, x, y: D.TensorDataset(x, T.arange(4)),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_data_loading_like_torch(name):
    same_outcome(lambda T: SCENARIOS[name](T, *_data(T)))


# -- workers (Note [emulated workers]): torch forks processes, doctensor emulates them -------


class _Noisy:
    """A dataset whose samples draw from torch's, Python's and NumPy's generators, and say
    which worker fetched them."""

    def __init__(self, T, n=7):
        self.T, self.n = T, n

    def __getitem__(self, i):
        info = self.T.utils.data.get_worker_info()
        who = repr(None if info is None else (info.id, info.num_workers, info.seed, info.rng,
                                              info.worker_method, type(info.dataset).__name__))
        return self.T.rand(2), float(np.random.rand()), random.random(), who, i

    def __len__(self):
        return self.n


def _after(T):
    """Where the main process's three generators stand."""
    return T.rand(1), float(np.random.rand()), random.random()


def _noisy_loader(T, **kw):
    T.manual_seed(0)
    random.seed(1)
    np.random.seed(2)
    return T.utils.data.DataLoader(_Noisy(T), **kw)


_current = [None]  # the library a scenario runs under


def _seed_numpy_from_torch(worker_id):  # the usual worker_init_fn: the worker's torch seed
    np.random.seed(_current[0].initial_seed() % 2**32)


WORKER_SCENARIOS = {
    "two_workers_shuffled": lambda T: [
        list(dl := _noisy_loader(T, batch_size=2, shuffle=True, num_workers=2)), len(dl),
        _after(T)],
    "three_workers_in_order": lambda T: [
        list(_noisy_loader(T, batch_size=2, num_workers=3)), _after(T)],
    "no_auto_batching": lambda T: [
        list(_noisy_loader(T, batch_size=None, num_workers=2)), _after(T)],
    "worker_init_fn": lambda T: [
        list(_noisy_loader(T, batch_size=3, num_workers=2,
                           worker_init_fn=_seed_numpy_from_torch)), _after(T)],
    "prefetch_factor_one": lambda T: [
        list(_noisy_loader(T, batch_size=1, num_workers=2, prefetch_factor=1,
                           shuffle=True)), _after(T)],
    "persistent_epochs": lambda T: [
        [list(dl) for dl in [_noisy_loader(T, batch_size=2, shuffle=True, num_workers=2,
                                           persistent_workers=True)] for _ in range(3)],
        _after(T)],
    "fresh_workers_each_epoch": lambda T: [
        [list(dl) for dl in [_noisy_loader(T, batch_size=4, num_workers=2)] for _ in range(2)],
        _after(T)],
    "draws_at_iter_with_workers": lambda T: [
        _noisy_loader(T, batch_size=2, shuffle=True, num_workers=2) and None,
        T.rand(1) if (it := iter(_noisy_loader(T, batch_size=2, shuffle=True,
                                                 num_workers=2))) else None,
        next(it), T.rand(1)],
    "main_process_info": lambda T: T.utils.data.get_worker_info(),
}


@pytest.mark.parametrize("name", sorted(WORKER_SCENARIOS))
def test_workers_like_torch(name):
    def run(T):
        _current[0] = T
        return WORKER_SCENARIOS[name](T)
    same_outcome(run)


_ARGUMENT_ERRORS = {
    "negative_workers": dict(num_workers=-1),
    "negative_timeout": dict(timeout=-1),
    "prefetch_without_workers": dict(prefetch_factor=2),
    "negative_prefetch": dict(num_workers=1, prefetch_factor=-1),
    "persistent_without_workers": dict(persistent_workers=True),
    "context_without_workers": dict(multiprocessing_context="fork"),
    "sampler_and_shuffle": dict(sampler=[0, 1], shuffle=True),
    "batch_sampler_and_size": dict(batch_sampler=[[0, 1]], batch_size=2),
    "batch_sampler_and_drop_last": dict(batch_sampler=[[0, 1]], drop_last=True),
    "no_batching_and_drop_last": dict(batch_size=None, drop_last=True),
}


@pytest.mark.parametrize("name", sorted(_ARGUMENT_ERRORS))
def test_loader_argument_errors_like_torch(name):
    ours, theirs = same_outcome(
        lambda T: T.utils.data.DataLoader([1.0, 2.0], **_ARGUMENT_ERRORS[name]))
    assert type(theirs).__name__ == "Raised"  # the case is an error in torch


def test_loader_fields_fixed_after_init_like_torch():
    def run(T):
        dl = T.utils.data.DataLoader([1.0, 2.0], num_workers=1)
        dl.num_workers = 0  # allowed
        dl.batch_size = 3
    ours, theirs = same_outcome(run)
    assert "should not be set" in theirs.message


def test_worker_numpy_seed_is_torchs():
    from torch.utils.data._utils.worker import _generate_state

    from doctensor.utils.data import _numpy_seed
    for base in (0, 1, 2**32 - 1, 2**32, 2**63 - 1, 6348623174563):
        for worker in (0, 1, 7):
            assert _numpy_seed(base, worker) == _generate_state(base, worker)


class _Failing:
    def __getitem__(self, i):
        if i == 3:
            raise ValueError("sample 3 is broken")
        if i == 5:
            raise KeyError("five")
        return float(i)

    def __len__(self):
        return 6


@pytest.mark.parametrize("index, kind", [(3, "ValueError"), (5, "KeyError")])
def test_worker_error_reraised_like_torch(index, kind):
    def run(T):
        return list(T.utils.data.DataLoader(_Failing(), sampler=[0, index], num_workers=2))
    ours, theirs = both(run)
    for error in (ours, theirs):
        assert error.type == kind
        head = error.message.splitlines()[:2]
        assert head == [f"Caught {kind} in DataLoader worker process 1.",
                        "Original Traceback (most recent call last):"], error.message
        assert error.message.rstrip().endswith(
            "sample 3 is broken" if index == 3 else "KeyError: 'five'")


def _warning_texts(T, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        list(T.utils.data.DataLoader([1.0, 2.0], **kw))
    return [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize("kw", [dict(pin_memory=True), dict(pin_memory=True,
                                                             pin_memory_device="cuda"),
                                dict(num_workers=len(os.sched_getaffinity(0)) + 1)],
                         ids=["pin_memory", "pin_memory_device", "too_many_workers"])
def test_loader_warnings_like_torch(kw):
    ours, theirs = _warning_texts(doctensor, **kw), _warning_texts(torch, **kw)
    assert theirs and ours == theirs

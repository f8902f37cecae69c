"""torch.utils.data, more of it, against torch 2.13: iterable-style datasets (sharded through
``get_worker_info`` in the emulated workers), ``StackDataset``, ``DistributedSampler``, and
torch's module layout (``torch.utils.data.dataloader`` and its siblings)."""

import collections
import importlib
import math
import random
import warnings

import numpy as np
import pytest
import torch
from _oracle import both, raised, same_outcome

import doctensor


class _Stream:
    """An ``IterableDataset`` of ``range(start, end)``: each worker reads its own slice (the
    sharding of torch's docs), with a random draw per sample from the worker's generators."""

    def __new__(cls, T, start, end, noisy=False, shard=True):
        class Stream(T.utils.data.IterableDataset):
            def __iter__(self):
                info = T.utils.data.get_worker_info()
                lo, hi = start, end
                if info is not None and shard:
                    per = math.ceil((end - start) / info.num_workers)
                    lo = start + info.id * per
                    hi = min(lo + per, end)
                for i in range(lo, hi):
                    yield (i, T.rand(1), float(np.random.rand()), random.random()) if noisy \
                        else i

            def __len__(self):
                return end - start

        return Stream()


_Pair = collections.namedtuple("_Pair", "a b")


class _List(list):
    pass


class _Range:
    """torch's documented second way to shard: ``worker_init_fn`` configures each worker's
    copy of the dataset."""

    def __new__(cls, T, start, end):
        class Range(T.utils.data.IterableDataset):
            def __init__(self):
                self.start, self.end = start, end

            def __iter__(self):
                return iter(range(self.start, self.end))

        return Range()


def _split_range(worker_id):
    info = _current[0].utils.data.get_worker_info()
    dataset = info.dataset
    per = math.ceil((dataset.end - dataset.start) / info.num_workers)
    dataset.start += worker_id * per
    dataset.end = min(dataset.start + per, dataset.end)


class _Counting:
    """A map-style dataset that changes itself: each worker counts in its own copy."""

    def __init__(self):
        self.calls = 0

    def __getitem__(self, i):
        self.calls += 1
        return i, self.calls

    def __len__(self):
        return 6


_current = [None]


def _seeded(T):
    T.manual_seed(0)
    random.seed(1)
    np.random.seed(2)
    return T.utils.data


def _after(T):
    return T.rand(1), float(np.random.rand()), random.random()


SCENARIOS = {
    "iterable_batches": lambda T, D: [list(D.DataLoader(_Stream(T, 3, 10), batch_size=3)),
                                      _after(T)],
    "iterable_drop_last": lambda T, D: [
        list(dl := D.DataLoader(_Stream(T, 3, 10), batch_size=3, drop_last=True)), len(dl)],
    "iterable_no_batching": lambda T, D: list(D.DataLoader(_Stream(T, 0, 4), batch_size=None)),
    "iterable_len": lambda T, D: [len(D.DataLoader(_Stream(T, 0, 7), batch_size=2)),
                                  len(D.DataLoader(_Stream(T, 0, 7), batch_size=None))],
    "iterable_two_workers": lambda T, D: [
        list(D.DataLoader(_Stream(T, 0, 11, noisy=True), batch_size=2, num_workers=2)),
        _after(T)],
    "iterable_three_workers_uneven": lambda T, D: [
        list(D.DataLoader(_Stream(T, 0, 8), batch_size=2, num_workers=3, prefetch_factor=1)),
        list(D.DataLoader(_Stream(T, 0, 8), batch_size=None, num_workers=3))],
    "iterable_unsharded_replicas": lambda T, D: list(
        D.DataLoader(_Stream(T, 0, 3, shard=False), batch_size=2, num_workers=2)),
    "iterable_persistent": lambda T, D: [
        [list(dl) for dl in [D.DataLoader(_Stream(T, 0, 6, noisy=True), batch_size=2,
                                          num_workers=2, persistent_workers=True)]
         for _ in range(2)], _after(T)],
    "iterable_rejects_shuffle": lambda T, D: D.DataLoader(_Stream(T, 0, 3), shuffle=True),
    "iterable_rejects_sampler": lambda T, D: D.DataLoader(_Stream(T, 0, 3), sampler=[0, 1]),
    "iterable_rejects_batch_sampler": lambda T, D: D.DataLoader(_Stream(T, 0, 3),
                                                                batch_sampler=[[0]]),
    "iterable_shuffle_false": lambda T, D: list(D.DataLoader(_Stream(T, 0, 3), shuffle=False)),
    "iterable_worker_init_fn_shards": lambda T, D: [
        list(D.DataLoader(ds := _Range(T, 3, 12), batch_size=2, num_workers=3,
                          worker_init_fn=_split_range)), (ds.start, ds.end)],
    "map_dataset_copied_per_worker": lambda T, D: [
        list(D.DataLoader(ds := _Counting(), batch_size=None, num_workers=2)), ds.calls,
        list(D.DataLoader(ds, batch_size=2)), ds.calls],
    "chain": lambda T, D: [list(ch := D.ChainDataset([_Stream(T, 0, 2), _Stream(T, 5, 7)])),
                           len(ch), list(_Stream(T, 0, 2) + _Stream(T, 9, 10)),
                           list(D.DataLoader(ch, batch_size=3))],
    "chain_of_map_dataset": lambda T, D: list(D.ChainDataset([[1, 2]])),
    "concat_of_iterable": lambda T, D: D.ConcatDataset([_Stream(T, 0, 2)]),
    "abstract_iterable": lambda T, D: D.IterableDataset(),
    "abstract_sampler": lambda T, D: iter(D.Sampler()),
    "stack": lambda T, D: [
        (st := D.StackDataset(T.arange(4.0), D.TensorDataset(T.ones(4, 2))))[1], len(st),
        list(D.DataLoader(st, batch_size=3)),
        (sd := D.StackDataset(x=T.arange(3), y=[10, 20, 30]))[2],
        sd.__getitems__([0, 2]), list(D.DataLoader(sd, batch_size=2, shuffle=True)),
        st.__getitems__([3, 0])],
    "stack_errors": lambda T, D: [
        raised(lambda: D.StackDataset()), raised(lambda: D.StackDataset([1], x=[1])),
        raised(lambda: D.StackDataset([1, 2], [1])),
        raised(lambda: D.StackDataset(x=[1, 2], y=[1]))],
    "distributed": lambda T, D: [
        [list(D.DistributedSampler(range(10), num_replicas=3, rank=r, shuffle=False))
         for r in range(3)],
        [list(D.DistributedSampler(range(10), num_replicas=3, rank=r, drop_last=True))
         for r in range(3)],
        [list(D.DistributedSampler(range(2), num_replicas=5, rank=r, seed=7))
         for r in range(5)],
        len(D.DistributedSampler(range(10), num_replicas=4, rank=0, drop_last=True)),
        T.rand(1)],
    "distributed_epochs": lambda T, D: [
        [list(s) for s in [D.DistributedSampler(range(9), num_replicas=2, rank=1, seed=3)]
         for epoch in range(3) if s.set_epoch(epoch) is None],
        list(D.DataLoader(D.TensorDataset(T.arange(8.0)), batch_size=2,
                          sampler=D.DistributedSampler(range(8), num_replicas=2, rank=0)))],
    "distributed_errors": lambda T, D: [
        raised(lambda: D.DistributedSampler(range(4), num_replicas=2, rank=2)),
        raised(lambda: D.DistributedSampler(range(4), num_replicas=2, rank=-1)),
        raised(lambda: D.DistributedSampler(range(4)))],
    "random_split_generator": lambda T, D: [
        [p.indices for p in D.random_split(range(30), [0.5, 0.3, 0.2],
                                           generator=T.Generator().manual_seed(42))],
        [p.indices for p in D.random_split(range(17), [4, 13])], T.rand(1)],
    "collate_convert": lambda T, D: [
        D.default_collate([(1, np.float32(2.0)), (3, np.float32(4.5))]),
        D.default_collate([{"a": np.arange(3)}, {"a": np.arange(3)}]),
        D.default_convert([np.arange(2), {"b": np.float64(1.5)}, "s"])],
    "collate_container_types": lambda T, D: [
        D.default_collate([_Pair(1, 2.0), _Pair(3, 4.0)]),
        D.default_collate([b"a", b"b"]),
        D.default_collate([collections.OrderedDict(a=1, b=2.0)] * 2),
        type(D.default_collate([collections.OrderedDict(a=1)] * 2)).__name__,
        D.default_collate([collections.defaultdict(int, a=1)] * 2),
        (batch := D.default_collate([_List([1, 2]), _List([3, 4])]), type(batch).__name__),
        D.default_collate([(1, 2), (3, 4)]),
        raised(lambda: D.default_collate([np.array(["a"]), np.array(["b"])])),
        raised(lambda: D.default_collate([np.array([1], dtype=object)])),
        raised(lambda: D.default_collate([[1, 2], [3]])),
        raised(lambda: D.default_collate([None]))],
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_more_data_loading_like_torch(name):
    def run(T):
        _current[0] = T
        return SCENARIOS[name](T, _seeded(T))
    same_outcome(run)


def test_iterable_length_warning_like_torch():
    def texts(T):
        loader = T.utils.data.DataLoader(_Stream(T, 0, 4, shard=False), batch_size=1,
                                         num_workers=2)
        len(loader)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            list(loader)
        return [str(w.message).replace(repr(loader.dataset), "<dataset>") for w in caught]
    ours, theirs = texts(doctensor), texts(torch)
    assert len(theirs) == 4 and ours == theirs


@pytest.mark.parametrize("module, names", [
    ("dataloader", ["DataLoader", "default_collate", "default_convert", "get_worker_info"]),
    ("dataset", ["Dataset", "IterableDataset", "TensorDataset", "StackDataset",
                 "ConcatDataset", "ChainDataset", "Subset", "random_split"]),
    ("sampler", ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler",
                 "WeightedRandomSampler", "BatchSampler"]),
    ("distributed", ["DistributedSampler"]),
    ("_utils.collate", ["default_collate", "default_convert"]),
    ("_utils.worker", ["get_worker_info"]),
])
def test_module_layout_like_torch(module, names):
    for lib in (torch, doctensor):
        mod = importlib.import_module(f"{lib.__name__}.utils.data.{module}")
        for name in names:
            assert getattr(mod, name) is getattr(lib.utils.data, name), (lib, module, name)


def _breaking_stream(T):
    class Breaking(T.utils.data.IterableDataset):
        def __iter__(self):
            info = T.utils.data.get_worker_info()
            for i in range(3):
                if info.id == 1 and i == 1:
                    raise ValueError("stream 1 broke")
                yield i
    return Breaking()


def test_iterable_worker_error_reraised_like_torch():
    ours, theirs = both(lambda T: list(T.utils.data.DataLoader(_breaking_stream(T),
                                                               num_workers=2)))
    for error in (ours, theirs):
        assert error.type == "ValueError"
        assert error.message.splitlines()[:2] == [
            "Caught ValueError in DataLoader worker process 1.",
            "Original Traceback (most recent call last):"], error.message
        assert error.message.rstrip().endswith("ValueError: stream 1 broke")

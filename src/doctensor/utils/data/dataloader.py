"""``torch.utils.data.dataloader``: the ``DataLoader`` of training loops."""

import collections
import itertools
import os
import warnings

import doctensor as torch

from . import graph_settings
from ._utils.collate import default_collate, default_convert
from ._utils.worker import _seeded, _Worker, get_worker_info
from .datapipes.datapipe import (
    IterDataPipe,
    MapDataPipe,
    _IterDataPipeSerializationWrapper,
    _MapDataPipeSerializationWrapper,
)
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, _draw_seed

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]


def _check_worker_count(num_workers):
    """torch's warning when a loader asks for more workers than the CPUs it may use."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if num_workers > cpus:
        warnings.warn(
            f"This DataLoader will create {num_workers} worker processes in total. Our "
            f"suggested max number of worker in current system is {cpus}, which is smaller "
            "than what this DataLoader is going to create. Please be aware that excessive "
            "worker creation might get DataLoader running slow or even freeze, lower the "
            "worker number to avoid potential slowness/freeze if necessary.", stacklevel=3)


class DataLoader:
    """Batches of a dataset, in order or shuffled, collated by ``collate_fn``; of an
    ``IterableDataset``, batches in the order it yields (each worker iterating its own copy).

    With ``num_workers > 0`` the workers are emulated in this process (Note [emulated
    workers]): batches, their order and every random number are torch's.  ``pin_memory``
    pins nothing (torch's warning when no accelerator is found); ``timeout`` and
    ``multiprocessing_context`` are checked and kept.

    A DataPipe is kept wrapped (torch's ``_IterDataPipeSerializationWrapper``); for an
    ``IterDataPipe``, ``shuffle`` turns its shufflers on or off (Note [DataPipes in a
    DataLoader]).
    """

    _FIXED = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
              "persistent_workers")

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="",
                 in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in "
                             "multiprocessing.let num_workers > 0 to enable multiprocessing, "
                             "otherwise set prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueError("multiprocessing_context can only be used with multi-process "
                             f"loading (num_workers > 0), but got num_workers={num_workers}")
        iterable = isinstance(dataset, IterableDataset)
        if iterable:
            if isinstance(dataset, IterDataPipe):
                if shuffle is not None:  # (torch drops the pipe returned: see the Note)
                    graph_settings.apply_shuffle_settings(dataset, shuffle=shuffle)
                shuffle = None
            _check_iterable_options(shuffle, sampler, batch_sampler)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if iterable:
            sampler = _InfiniteConstantSampler()
        elif sampler is None:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last = _wrapped(dataset), batch_size, drop_last
        self.sampler, self.batch_sampler, self.generator = sampler, batch_sampler, generator
        self.num_workers, self.prefetch_factor = num_workers, prefetch_factor
        self.pin_memory, self.pin_memory_device = pin_memory, pin_memory_device
        self.timeout, self.worker_init_fn, self.in_order = timeout, worker_init_fn, in_order
        self.multiprocessing_context = multiprocessing_context
        self.collate_fn = collate_fn or (default_collate if batch_sampler is not None
                                         else default_convert)
        self.persistent_workers = persistent_workers
        self._iterator = None
        self._iterable = iterable
        self._IterableDataset_len_called = None  # len(dataset) once len(loader) was asked
        self._initialized = True
        _check_worker_count(num_workers)

    def __setattr__(self, name, value):
        if name in self._FIXED and self.__dict__.get("_initialized"):
            raise ValueError(f"{name} attribute should not be set after "
                             f"{type(self).__name__} is initialized")
        super().__setattr__(name, value)

    def __iter__(self):
        if not (self.persistent_workers and self.num_workers):
            return _Pass(self)
        if self._iterator is None:
            self._iterator = _Pass(self)
        else:
            self._iterator.restart()
        return self._iterator

    @property
    def _index_sampler(self):
        """What a pass iterates: batches of indices, or single indices without batching."""
        return self.batch_sampler if self.batch_sampler is not None else self.sampler

    def __len__(self):
        if not self._iterable:
            return len(self._index_sampler)
        length = self._IterableDataset_len_called = len(self.dataset)
        if self.batch_size is None:
            return length
        return length // self.batch_size if self.drop_last else -(-length // self.batch_size)


# Note [DataPipes in a DataLoader]: as in torch, a DataLoader given an IterDataPipe
#   - at construction, with ``shuffle`` not None, calls ``apply_shuffle_settings`` on the
#     pipe: its shufflers are switched on or off in place (when it has none and shuffle is
#     True, torch warns and builds a shuffled pipe it then does not use: nothing shuffles);
#   - at each pass draws a shared seed from the loader's generator before the base seed and
#     seeds every shuffler of the pipe from a generator seeded with it
#     (``apply_random_seed``), then shards it as instance 0 of 1 (one process);
#   - with workers: each worker, once its generators are seeded, seeds its copy of the pipe
#     the same way (so all workers shuffle alike) and shards it as instance ``id`` of
#     ``num_workers``, before ``worker_init_fn``; the pass then draws one more shared seed
#     for the main process's pipe, and a persistent worker gets each later pass's one.
# A MapDataPipe is only sharded.


def _wrapped(dataset):
    """What a ``DataLoader`` keeps of its dataset: a DataPipe in torch's wrapper."""
    if isinstance(dataset, IterDataPipe):
        return _IterDataPipeSerializationWrapper(dataset)
    if isinstance(dataset, MapDataPipe):
        return _MapDataPipeSerializationWrapper(dataset)
    return dataset


def _check_iterable_options(shuffle, sampler, batch_sampler):
    """An ``IterableDataset`` decides its own order: torch refuses shuffling and samplers."""
    if shuffle not in (False, None):
        raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle option, "
                         f"but got shuffle={shuffle}")
    if sampler is not None:
        raise ValueError("DataLoader with IterableDataset: expected unspecified sampler "
                         f"option, but got sampler={sampler}")
    if batch_sampler is not None:
        raise ValueError("DataLoader with IterableDataset: expected unspecified batch_sampler "
                         f"option, but got batch_sampler={batch_sampler}")


class _InfiniteConstantSampler(Sampler):
    """``None`` forever: the "indices" of an ``IterableDataset`` (only their count in a
    batch matters)."""

    def __iter__(self):
        return itertools.repeat(None)


_EXHAUSTED = object()  # what fetching from an exhausted IterableDataset gives


class _Stream:
    """The iterator of an ``IterableDataset`` one worker (or the main process) reads
    (torch's ``_IterableDatasetFetcher``): once it ends, every fetch is ``_EXHAUSTED``."""

    def __init__(self, loader, dataset):
        self.loader, self.samples, self.ended = loader, iter(dataset), False

    def fetch(self, index):
        if self.ended:
            return _EXHAUSTED
        if self.loader.batch_sampler is None:
            sample = next(self.samples, _EXHAUSTED)
            self.ended = sample is _EXHAUSTED
            return sample if self.ended else self.loader.collate_fn(sample)
        batch = list(itertools.islice(self.samples, len(index)))
        self.ended = len(batch) < len(index)
        if not batch or (self.loader.drop_last and self.ended):
            return _EXHAUSTED
        return self.loader.collate_fn(batch)


class _Pass:
    """One pass over a ``DataLoader`` (torch's loader iterators); with persistent workers,
    every pass (``restart``) keeps the workers and their generators.

    With workers, batch ``k`` of the pass is task ``k``: its indices are drawn when the task
    is sent (``prefetch_factor`` per worker ahead), to the next worker in turn that has not
    yet exhausted its ``IterableDataset`` replica; a task of a worker that has is skipped.
    """

    def __init__(self, loader):
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn("pin_memory_device is deprecated, the current accelerator will be "
                          "used as the device,ignore pin_memory_device="
                          f"'{loader.pin_memory_device}'.", stacklevel=3)
        if loader.pin_memory and not torch.cuda.is_available():
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=3)
        self.loader = loader
        dataset = loader.dataset
        self.pipe = isinstance(dataset, IterDataPipe)
        shared_seed = _draw_seed(loader.generator) if self.pipe else None
        if self.pipe:
            graph_settings.apply_random_seed(dataset, _seeded(shared_seed))
        base_seed = _draw_seed(loader.generator)  # drawn by every pass, workers or not
        _check_worker_count(loader.num_workers)
        if isinstance(dataset, (IterDataPipe, MapDataPipe)) and not loader.num_workers:
            graph_settings.apply_sharding(dataset, 1, 0)
        self.workers = [_Worker(loader, w, base_seed, shared_seed)
                        for w in range(loader.num_workers)]
        self.restart(first=True)

    def restart(self, first=False):
        """Start a pass (persistent workers: the next one, with the same workers)."""
        loader = self.loader
        if self.pipe and self.workers:  # a new shared seed (Note [DataPipes in a DataLoader])
            seed = _draw_seed(loader.generator)
            for dataset in [loader.dataset] + [w.dataset for w in self.workers if not first]:
                graph_settings.apply_random_seed(dataset, _seeded(seed))
        self.indices = iter(loader._index_sampler)
        self.yielded, self.len_called = 0, loader._IterableDataset_len_called
        self.active = [True] * len(self.workers)
        self.turns = itertools.cycle(range(len(self.workers)))
        self.stream = _Stream(loader, loader.dataset) if loader._iterable and not self.workers \
            else None
        for worker in self.workers:  # each worker iterates its own replica
            with worker:
                worker.stream = _Stream(loader, worker.dataset) if loader._iterable else None
        self.ahead = collections.deque()  # (worker, indices) of the tasks sent
        for _ in range(loader.prefetch_factor * len(self.workers) if self.workers else 0):
            self._send()

    def _send(self):
        """torch's ``_try_put_index``: the next indices, to the next active worker."""
        index = next(self.indices, _EXHAUSTED)
        if index is _EXHAUSTED or not any(self.active):
            return
        worker = next(w for w in self.turns if self.active[w])
        self.ahead.append((worker, index))

    def __iter__(self):
        return self

    def __next__(self):
        data = self._next_data()
        self.yielded += 1
        if self.len_called is not None and self.yielded > self.len_called:
            message = (f"Length of IterableDataset {self.loader.dataset} was reported to be "
                       f"{self.len_called}(when accessing len(dataloader)), but "
                       f"{self.yielded} samples have been fetched. ")
            if self.workers:
                message += ("For multiprocessing data-loading, this could be caused by not "
                            "properly configuring the IterableDataset replica at each worker. "
                            "Please see https://pytorch.org/docs/stable/data.html#torch.utils."
                            "data.IterableDataset for examples.")
            warnings.warn(message, stacklevel=2)
        return data

    def _next_data(self):
        if not self.workers:
            data = self._fetch(next(self.indices), self.stream,
                               self.loader.dataset)
            if data is _EXHAUSTED:
                raise StopIteration
            return data
        while self.ahead:
            w, index = self.ahead.popleft()
            if not self.active[w]:
                continue
            worker = self.workers[w]
            with worker:
                data = self._fetch(index, worker.stream, worker.dataset)
            if data is _EXHAUSTED:
                self.active[w] = False
            self._send()  # the indices of a later batch
            if data is not _EXHAUSTED:
                return data
        raise StopIteration

    def _fetch(self, index, stream, dataset):
        """A batch (or a sample) of ``dataset``, or of an iterable dataset's ``stream``."""
        loader = self.loader
        if stream is not None:
            return stream.fetch(index)
        if loader.batch_sampler is None:
            return loader.collate_fn(dataset[index])
        if getattr(dataset, "__getitems__", None):
            return loader.collate_fn(dataset.__getitems__(index))
        return loader.collate_fn([dataset[i] for i in index])

    def __len__(self):
        return len(self.loader)

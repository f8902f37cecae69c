"""``torch.utils.data``: datasets, samplers and the ``DataLoader`` of training loops.

Shuffling draws from the default generator exactly as torch 2.13 does, so a seeded run
shuffles the same way and leaves the generator in the same state: each pass over a
``DataLoader`` first draws a base seed (torch's worker seed, drawn even without workers),
and a ``RandomSampler`` then draws the seed of the generator its permutation comes from.
Worker processes are emulated in this process, each with torch's generator states (Note
[emulated workers]).
"""

import bisect
import collections
import dataclasses
import itertools
import math
import os
import random
import traceback
import warnings

import numpy as np

import doctensor as torch

__all__ = ["Dataset", "TensorDataset", "ConcatDataset", "Subset", "random_split", "Sampler",
           "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
           "BatchSampler", "DataLoader", "default_collate", "default_convert", "get_worker_info",
           "WorkerInfo"]


class Dataset:
    """Anything with ``__getitem__`` (and usually ``__len__``)."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class TensorDataset(Dataset):
    """Sample ``i`` is ``tuple(t[i] for t in tensors)``; the tensors share their first size."""

    def __init__(self, *tensors):
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    """The samples of several datasets, one after the other."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, index):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        return self.datasets[which][index - (self.cumulative_sizes[which - 1] if which else 0)]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset, indices):
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __getitems__(self, indices):
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[i] for i in indices])
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    """Split ``dataset`` into ``Subset`` objects of the given lengths (or fractions of its
    length, the remainder dealt one by one from the first), along one ``randperm`` of
    ``generator`` (the default generator when None)."""
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        for i, fraction in enumerate(lengths):
            if not 0 <= fraction <= 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        counts = [math.floor(n * fraction) for fraction in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        for i, count in enumerate(counts):
            if count == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an "
                              "empty dataset.", stacklevel=2)
        lengths = counts
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = torch.randperm(sum(lengths), generator=generator).tolist()
    ends = list(itertools.accumulate(lengths))
    return [Subset(dataset, order[end - length:end]) for end, length in zip(ends, lengths)]


class Sampler:
    """Yields dataset indices."""


class SequentialSampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


def _draw_seed(generator=None):
    """torch's ``int(torch.empty((), dtype=torch.int64).random_().item())``."""
    return int(torch.empty((), dtype=torch.int64).random_(generator=generator).item())


class RandomSampler(Sampler):
    """A new random permutation of the indices each pass; with ``replacement``, independent
    draws (torch's ``randint``, 32 at a time)."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got "
                            f"replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = torch.Generator()
            generator.manual_seed(_draw_seed())
        if self.replacement:
            for size in [32] * (self.num_samples // 32) + [self.num_samples % 32]:
                yield from torch.randint(high=n, size=(size,), dtype=torch.int64,
                                         generator=generator).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from torch.randperm(n, generator=generator).tolist()
        yield from torch.randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given ``indices`` in a new random order each pass."""

    def __init__(self, indices, generator=None):
        self.indices, self.generator = indices, generator

    def __iter__(self):
        for i in torch.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


def _check_count(name, value):
    """torch's check of a sampler's size argument: a positive int (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{name} should be a positive integer value, but got {name}={value}")


def _check_flag(name, value):
    if not isinstance(value, bool):
        raise ValueError(f"{name} should be a boolean value, but got {name}={value}")


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``
    (``torch.multinomial`` of float64 weights)."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        _check_count("num_samples", num_samples)
        _check_flag("replacement", replacement)
        weights = torch.as_tensor(weights, dtype=torch.double)
        if weights.dim() != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights.shape)}")
        self.weights, self.num_samples = weights, num_samples
        self.replacement, self.generator = replacement, generator

    def __iter__(self):
        yield from torch.multinomial(self.weights, self.num_samples, self.replacement,
                                     generator=self.generator).tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Lists of ``batch_size`` indices from ``sampler`` (the last one shorter, or dropped)."""

    def __init__(self, sampler, batch_size, drop_last):
        _check_count("batch_size", batch_size)
        _check_flag("drop_last", drop_last)
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        batch = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


def default_collate(batch):
    """Stack a list of samples into a batch: tensors (and NumPy arrays) along a new first
    dim, numbers into a tensor, and tuples, lists and dicts field by field (a list of
    batches for tuples and lists, as torch)."""
    elem = batch[0]
    if isinstance(elem, torch.Tensor):
        return torch.stack(batch, 0)
    if isinstance(elem, np.ndarray):
        return torch.stack([torch.as_tensor(b) for b in batch], 0)
    if isinstance(elem, bool | int | float):
        return torch.tensor(batch, dtype=torch.float64 if isinstance(elem, float) else None)
    if isinstance(elem, str):
        return batch
    if isinstance(elem, dict):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple | list):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(samples) for samples in zip(*batch)]  # tuples, as torch
    raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, "
                    f"dicts or lists; found {type(elem)}")


@dataclasses.dataclass(frozen=True)
class WorkerInfo:
    """What ``get_worker_info()`` tells a dataset inside a worker (torch's fields)."""

    id: int
    num_workers: int
    seed: int  # the base seed + id
    dataset: object
    rng: object = None
    worker_method: str = "multiprocessing"


_worker_info = None


def get_worker_info():
    """The ``WorkerInfo`` of the worker running this code; None in the main process."""
    return _worker_info


def _numpy_seed(base_seed, worker_id):
    """The four 32-bit words torch seeds a worker's NumPy with: NumPy's SeedSequence hash
    of (worker_id, base_seed's low and high words, 0), mixed and finalised as torch does."""
    mask, shift = 0xFFFFFFFF, 16
    multiplier = 0x43B0D7E5

    def hashed(value):
        nonlocal multiplier
        value = ((value ^ multiplier) & mask) * ((multiplier * 0x931E8875) & mask) & mask
        multiplier = multiplier * 0x931E8875 & mask
        return value ^ (value >> shift)

    pool = [hashed(v) for v in (worker_id, base_seed & mask, base_seed >> 32, 0)]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                mixed = (0xCA01F9DD * pool[dst] - 0x4973F715 * hashed(pool[src])) & mask
                pool[dst] = mixed ^ (mixed >> shift)
    words, multiplier = [], 0x8B51F9DD
    for value in pool:
        value = ((value ^ multiplier) & mask) * ((multiplier * 0x58F38DED) & mask) & mask
        multiplier = multiplier * 0x58F38DED & mask
        words.append(value ^ (value >> shift))
    return words


class _Worker:
    """One of torch's worker processes, emulated in this process.

    Note [emulated workers]: torch forks ``num_workers`` processes; worker ``w`` seeds
    Python's ``random`` and torch with ``base_seed + w`` and NumPy with ``_numpy_seed``, runs
    ``worker_init_fn(w)``, then fetches batches w, w + num_workers, ... of each pass.  Here a
    worker is those three generator states: the main process's are set aside while a worker
    fetches, and its own put back in, so every random draw in a dataset gives torch's numbers
    and the main process's generators move exactly as torch's.  (Unlike a forked copy, the
    dataset object is shared: a dataset that changes itself in ``__getitem__`` sees that.)
    """

    def __init__(self, loader, worker_id, base_seed):
        self.info = WorkerInfo(worker_id, loader.num_workers, base_seed + worker_id,
                               loader.dataset)
        self.states = None
        with self:
            random.seed(self.info.seed)
            torch.manual_seed(self.info.seed)
            np.random.seed(_numpy_seed(base_seed, worker_id))
            if loader.worker_init_fn is not None:
                loader.worker_init_fn(worker_id)

    def __enter__(self):
        global _worker_info
        self.main = _worker_info, torch.get_rng_state(), random.getstate(), np.random.get_state()
        if self.states is not None:
            torch.set_rng_state(self.states[0])
            random.setstate(self.states[1])
            np.random.set_state(self.states[2])
        _worker_info = self.info

    def __exit__(self, kind, error, trace):
        global _worker_info
        self.states = torch.get_rng_state(), random.getstate(), np.random.get_state()
        _worker_info, main_torch, main_random, main_numpy = self.main
        torch.set_rng_state(main_torch)
        random.setstate(main_random)
        np.random.set_state(main_numpy)
        if error is not None:  # torch re-raises a worker's error with its traceback as text
            message = (f"Caught {kind.__name__} in DataLoader worker process {self.info.id}.\n"
                       f"Original {''.join(traceback.format_exception(kind, error, trace))}")
            if kind is KeyError:
                message = _KeyErrorMessage(message)
            try:
                wrapped = kind(message)
            except Exception:
                raise RuntimeError(message) from None
            raise wrapped from None


class _KeyErrorMessage(str):
    """A message that a KeyError prints as it is (a KeyError prints its argument's repr)."""

    def __repr__(self):
        return self


def default_convert(data):
    """NumPy arrays and numbers (inside dicts, tuples and lists too) as tensors: the
    ``collate_fn`` of a ``DataLoader`` with ``batch_size=None``."""
    if isinstance(data, np.ndarray | np.number | np.bool_) and data.dtype.kind not in "OSUV":
        return torch.as_tensor(data)
    if isinstance(data, dict):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*map(default_convert, data))
    if isinstance(data, tuple | list):
        return [default_convert(d) for d in data]
    return data


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
    """Batches of a dataset, in order or shuffled, collated by ``collate_fn``.

    With ``num_workers > 0`` the workers are emulated in this process (Note [emulated
    workers]): batches, their order and every random number are torch's.  ``pin_memory``
    pins nothing (torch's warning when no accelerator is found); ``timeout`` and
    ``multiprocessing_context`` are checked and kept.
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
        if sampler is None:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.sampler, self.batch_sampler, self.generator = sampler, batch_sampler, generator
        self.num_workers, self.prefetch_factor = num_workers, prefetch_factor
        self.pin_memory, self.pin_memory_device = pin_memory, pin_memory_device
        self.timeout, self.worker_init_fn, self.in_order = timeout, worker_init_fn, in_order
        self.multiprocessing_context = multiprocessing_context
        self.collate_fn = collate_fn or (default_collate if batch_sampler is not None
                                         else default_convert)
        self.persistent_workers = persistent_workers
        self._iterator = None
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
        return len(self._index_sampler)


class _Pass:
    """One pass over a ``DataLoader`` (torch's loader iterators); with persistent workers,
    every pass (``restart``) keeps the workers and their generators."""

    def __init__(self, loader):
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn("pin_memory_device is deprecated, the current accelerator will be "
                          "used as the device,ignore pin_memory_device="
                          f"'{loader.pin_memory_device}'.", stacklevel=3)
        if loader.pin_memory and not torch.cuda.is_available():
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=3)
        self.loader = loader
        self.indices = iter(loader._index_sampler)
        base_seed = _draw_seed(loader.generator)  # drawn by every pass, workers or not
        _check_worker_count(loader.num_workers)
        self.workers = [_Worker(loader, w, base_seed) for w in range(loader.num_workers)]
        self._prime()

    def restart(self):
        """The next pass of persistent workers."""
        self.indices = iter(self.loader._index_sampler)
        self._prime()

    def _prime(self):
        """Workers are handed their first batches of indices at once (the sampler's draws
        happen then, as in torch)."""
        self.sent = 0
        self.ahead = collections.deque()
        if self.workers:
            self.ahead.extend(itertools.islice(self.indices, self.loader.prefetch_factor *
                                               len(self.workers)))

    def __iter__(self):
        return self

    def __next__(self):
        if not self.workers:
            return self._fetch(next(self.indices))
        if not self.ahead:
            raise StopIteration
        index = self.ahead.popleft()
        worker = self.workers[self.sent % len(self.workers)]
        self.sent += 1
        with worker:
            data = self._fetch(index)
        self.ahead.extend(itertools.islice(self.indices, 1))  # the index of a later batch
        return data

    def _fetch(self, index):
        loader = self.loader
        if loader.batch_sampler is None:
            return loader.collate_fn(loader.dataset[index])
        if getattr(loader.dataset, "__getitems__", None):
            return loader.collate_fn(loader.dataset.__getitems__(index))
        return loader.collate_fn([loader.dataset[i] for i in index])

    def __len__(self):
        return len(self.loader)

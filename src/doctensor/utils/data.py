"""``torch.utils.data``: datasets, samplers and the ``DataLoader`` of training loops.

Shuffling draws from the default generator exactly as torch 2.13 does, so a seeded run
shuffles the same way and leaves the generator in the same state: each pass over a
``DataLoader`` first draws a base seed (torch's worker seed, drawn even without workers),
and a ``RandomSampler`` then draws the seed of the generator its permutation comes from.
"""

import numpy as np

import doctensor as torch

__all__ = ["Dataset", "TensorDataset", "Sampler", "SequentialSampler", "RandomSampler",
           "BatchSampler", "DataLoader", "default_collate"]


class Dataset:
    """Anything with ``__getitem__`` (and usually ``__len__``)."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


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
    """A new random permutation of the indices each pass (without replacement)."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        if replacement:
            raise NotImplementedError("doctensor's RandomSampler samples without replacement")
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = torch.Generator()
            generator.manual_seed(_draw_seed())
        for _ in range(self.num_samples // n):
            yield from torch.randperm(n, generator=generator).tolist()
        yield from torch.randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Lists of ``batch_size`` indices from ``sampler`` (the last one shorter, or dropped)."""

    def __init__(self, sampler, batch_size, drop_last):
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
        return [default_collate(list(samples)) for samples in zip(*batch, strict=True)]
    raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, "
                    f"dicts or lists; found {type(elem)}")


class DataLoader:
    """Batches of a dataset, in order or shuffled, collated by ``collate_fn``.

    Runs in the calling process (``num_workers`` must be 0).
    """

    def __init__(self, dataset, batch_size=1, shuffle=False, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, drop_last=False, generator=None):
        if num_workers:
            raise NotImplementedError("doctensor's DataLoader runs without worker processes")
        if sampler is None:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        if batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.sampler, self.batch_sampler = sampler, batch_sampler
        self.num_workers, self.generator = num_workers, generator
        self.collate_fn = collate_fn or default_collate

    def __iter__(self):
        indices = iter(self.batch_sampler)
        _draw_seed(self.generator)  # torch's base seed for workers, drawn by every pass
        return (self.collate_fn([self.dataset[i] for i in batch]) for batch in indices)

    def __len__(self):
        return len(self.batch_sampler)

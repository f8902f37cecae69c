"""``torch.utils.data.distributed``: each of ``num_replicas`` processes reads its share."""

import math

import doctensor as torch

from .sampler import Sampler

__all__ = ["DistributedSampler"]


class DistributedSampler(Sampler):
    """The indices of replica ``rank`` out of ``num_replicas``: every ``num_replicas``-th
    index from ``rank`` on, of one order (a ``randperm`` seeded with ``seed + epoch``, or
    ``0, 1, ...``) padded by repeating its start to a multiple of ``num_replicas`` (or cut to
    one, with ``drop_last``).

    doctensor has no process groups: ``num_replicas`` and ``rank`` must be given (torch's
    error for a default process group that was never initialised otherwise).
    """

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0,
                 drop_last=False):
        if num_replicas is None or rank is None:
            raise ValueError("Default process group has not been initialized, please make "
                             "sure to call init_process_group.")
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval "
                             f"[0, {num_replicas - 1}]")
        self.dataset, self.num_replicas, self.rank = dataset, num_replicas, rank
        self.epoch, self.drop_last, self.shuffle, self.seed = 0, drop_last, shuffle, seed
        n = len(dataset)
        if drop_last and n % num_replicas:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            generator = torch.Generator()
            generator.manual_seed(self.seed + self.epoch)
            order = torch.randperm(n, generator=generator).tolist()
        else:
            order = list(range(n))
        if self.drop_last:
            order = order[:self.total_size]
        else:
            padding = self.total_size - n
            order += (order * math.ceil(padding / n))[:padding] if padding > n else order[:padding]
        return iter(order[self.rank:self.total_size:self.num_replicas])

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        """Shuffle differently in the next pass (each epoch its own seed)."""
        self.epoch = epoch

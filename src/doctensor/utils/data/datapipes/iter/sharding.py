"""``sharding_filter``: every n-th item, so that n workers (or processes) split a pipe."""

import collections.abc
import enum

from .._decorator import functional_datapipe
from ..datapipe import IterDataPipe

__all__ = ["SHARDING_PRIORITIES", "ShardingFilterIterDataPipe"]


class SHARDING_PRIORITIES(enum.IntEnum):
    DEFAULT = 1
    DISTRIBUTED = 2
    MULTIPROCESSING = 3


class _ShardingIterDataPipe(IterDataPipe):
    """A pipe that ``graph_settings.apply_sharding`` configures."""

    def apply_sharding(self, num_of_instances, instance_id, sharding_group):
        raise NotImplementedError


@functional_datapipe("sharding_filter")
class ShardingFilterIterDataPipe(_ShardingIterDataPipe):
    """Items ``i`` with ``i % num_of_instances == instance_id`` (functional name:
    ``sharding_filter``).  Sharding groups combine, the highest priority varying fastest: with 2
    processes (``DISTRIBUTED``) of 3 workers (``MULTIPROCESSING``) each, worker ``w`` of
    process ``p`` is instance ``w + 3 * p`` of 6."""

    def __init__(self, source_datapipe, sharding_group_filter=None):
        super().__init__()
        self.source_datapipe = source_datapipe
        self.sharding_group_filter = sharding_group_filter
        self.groups = {}
        self.num_of_instances, self.instance_id = 1, 0

    def apply_sharding(self, num_of_instances, instance_id,
                       sharding_group=SHARDING_PRIORITIES.DEFAULT):
        if instance_id >= num_of_instances:
            raise ValueError(f"instance_id({instance_id}) should be smaller than "
                             f"num_of_instances({num_of_instances})")
        default = SHARDING_PRIORITIES.DEFAULT
        mixing = (self.groups and default not in self.groups if sharding_group == default
                  else default in self.groups)
        if mixing:
            raise RuntimeError("ShardingFilter cannot mix DEFAULT and non DEFAULT groups")
        self.groups[sharding_group] = (num_of_instances, instance_id)
        self._update_num_of_instances()

    def _update_num_of_instances(self):
        self.num_of_instances, self.instance_id = 1, 0
        for key in sorted(self.groups, reverse=True):
            if self.sharding_group_filter is None or key == self.sharding_group_filter:
                count, index = self.groups[key]
                self.instance_id += self.num_of_instances * index
                self.num_of_instances *= count

    def __iter__(self):
        for i, item in enumerate(self.source_datapipe):
            if i % self.num_of_instances == self.instance_id:
                yield item

    def __len__(self):
        if isinstance(self.source_datapipe, collections.abc.Sized):
            n = len(self.source_datapipe)
            return n // self.num_of_instances + (self.instance_id < n % self.num_of_instances)
        raise TypeError(f"{type(self).__name__} instance doesn't have valid length")

"""``torch.utils.data``: datasets, samplers and the ``DataLoader`` of training loops.

Shuffling draws from the default generator exactly as torch 2.13 does, so a seeded run
shuffles the same way and leaves the generator in the same state: each pass over a
``DataLoader`` first draws a base seed (torch's worker seed, drawn even without workers),
and a ``RandomSampler`` then draws the seed of the generator its permutation comes from.
Worker processes are emulated in this process, each with torch's generator states (Note
[emulated workers]).  The modules are torch's: ``dataset``, ``sampler``, ``dataloader``,
``distributed`` and ``_utils``; the DataPipes (``IterDataPipe``, ``MapDataPipe``, their
decorators) live in ``datapipes``, their graph tools in ``graph`` and ``graph_settings``.
"""

from . import (  # noqa: F401  (torch.utils.data._utils, .graph, ...)
    _utils,
    dataloader,
    datapipes,
    dataset,
    distributed,
    graph,
    graph_settings,
    sampler,
)
from ._utils.collate import default_collate, default_convert
from ._utils.worker import WorkerInfo, _numpy_seed, get_worker_info  # noqa: F401
from .dataloader import DataLoader
from .datapipes._decorator import (
    argument_validation,
    functional_datapipe,
    guaranteed_datapipes_determinism,
    non_deterministic,
    runtime_validation,
    runtime_validation_disabled,
)
from .datapipes.datapipe import DataChunk, DFIterDataPipe, IterDataPipe, MapDataPipe
from .dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .distributed import DistributedSampler
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "StackDataset", "ConcatDataset",
           "ChainDataset", "Subset", "random_split", "Sampler", "SequentialSampler",
           "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler", "BatchSampler",
           "DistributedSampler", "DataLoader", "default_collate", "default_convert",
           "get_worker_info", "WorkerInfo", "dataset", "sampler", "dataloader", "distributed",
           "IterDataPipe", "MapDataPipe", "DFIterDataPipe", "DataChunk", "functional_datapipe",
           "guaranteed_datapipes_determinism", "non_deterministic", "argument_validation",
           "runtime_validation", "runtime_validation_disabled"]

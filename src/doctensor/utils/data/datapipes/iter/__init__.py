"""``torch.utils.data.datapipes.iter``: the iterable-style DataPipes, by their short names.

(torch's file-reading pipes, ``FileLister``, ``FileOpener``, ``StreamReader`` and
``RoutedDecoder``, are not here.)
"""

from .callable import CollatorIterDataPipe as Collator
from .callable import MapperIterDataPipe as Mapper
from .combinatorics import SamplerIterDataPipe as Sampler
from .combinatorics import ShufflerIterDataPipe as Shuffler
from .combining import ConcaterIterDataPipe as Concater
from .combining import DemultiplexerIterDataPipe as Demultiplexer
from .combining import ForkerIterDataPipe as Forker
from .combining import MultiplexerIterDataPipe as Multiplexer
from .combining import ZipperIterDataPipe as Zipper
from .grouping import BatcherIterDataPipe as Batcher
from .grouping import GrouperIterDataPipe as Grouper
from .grouping import UnBatcherIterDataPipe as UnBatcher
from .selecting import FilterIterDataPipe as Filter
from .sharding import ShardingFilterIterDataPipe as ShardingFilter
from .utils import IterableWrapperIterDataPipe as IterableWrapper

__all__ = ["Batcher", "Collator", "Concater", "Demultiplexer", "Filter", "Forker", "Grouper",
           "IterableWrapper", "Mapper", "Multiplexer", "Sampler", "ShardingFilter", "Shuffler",
           "UnBatcher", "Zipper"]

"""``DataLoader`` workers, emulated in this process (``torch.utils.data._utils.worker``)."""

import copy
import dataclasses
import random
import traceback

import numpy as np

import doctensor as torch

__all__ = ["WorkerInfo", "get_worker_info"]


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


def _seeded(seed):
    """A new ``Generator`` seeded with ``seed`` (what a DataPipe's seeds are drawn from)."""
    generator = torch.Generator()
    generator.manual_seed(seed)
    return generator


def _set_up_datapipe(dataset, shared_seed, worker_id, num_workers):
    """A worker's copy of a DataPipe: seeded with the shared seed (an ``IterDataPipe``) and
    sharded as instance ``worker_id`` (Note [DataPipes in a DataLoader])."""
    from .. import graph_settings  # (here: the DataPipe modules import this package)
    from ..datapipes.datapipe import IterDataPipe, MapDataPipe

    if isinstance(dataset, IterDataPipe):
        graph_settings.apply_random_seed(dataset, _seeded(shared_seed))
    if isinstance(dataset, (IterDataPipe, MapDataPipe)):
        graph_settings.apply_sharding(dataset, num_workers, worker_id)


def _forked(dataset):
    """A worker's own copy of ``dataset`` (Note [emulated workers])."""
    try:
        return copy.deepcopy(dataset)
    except Exception:  # noqa: BLE001 - any failure to copy: the worker shares the original
        return dataset


class _Worker:
    """One of torch's worker processes, emulated in this process.

    Note [emulated workers]: torch forks ``num_workers`` processes; worker ``w`` seeds
    Python's ``random`` and torch with ``base_seed + w`` and NumPy with ``_numpy_seed``, runs
    ``worker_init_fn(w)``, then fetches batches w, w + num_workers, ... of each pass.  Here a
    worker is those three generator states: the main process's are set aside while a worker
    fetches, and its own put back in, so every random draw in a dataset gives torch's numbers
    and the main process's generators move exactly as torch's.  A forked worker also has its
    own copy of the dataset (which ``worker_init_fn`` may configure, torch's way of sharding
    an ``IterableDataset``): here a deep copy, taken when the worker starts; a dataset that
    cannot be deep-copied is shared, so what its worker changes in it, the others see.
    """

    def __init__(self, loader, worker_id, base_seed, shared_seed=None):
        self.dataset = _forked(loader.dataset)
        self.info = WorkerInfo(worker_id, loader.num_workers, base_seed + worker_id,
                               self.dataset)
        self.states = None
        with self:
            random.seed(self.info.seed)
            torch.manual_seed(self.info.seed)
            np.random.seed(_numpy_seed(base_seed, worker_id))
            _set_up_datapipe(self.dataset, shared_seed, worker_id, loader.num_workers)
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

"""``torch.utils.data.graph_settings``: settings applied across a DataPipe graph (Note
[DataPipe graph]): shuffling on or off, seeds, and sharding."""

import inspect
import warnings

import doctensor as torch

from .datapipes.iter.sharding import SHARDING_PRIORITIES, _ShardingIterDataPipe
from .graph import traverse_dps

__all__ = ["apply_random_seed", "apply_sharding", "apply_shuffle_seed",
           "apply_shuffle_settings", "get_all_graph_pipes"]


def get_all_graph_pipes(graph):
    """Every DataPipe of ``graph``, once each, parents before children."""
    pipes, seen = [], set()

    def visit(subgraph):
        for key, (datapipe, children) in subgraph.items():
            if key not in seen:
                seen.add(key)
                pipes.append(datapipe)
                visit(children)

    visit(graph)
    return pipes


def _has_methods(datapipe, *names):
    return all(inspect.ismethod(getattr(datapipe, name, None)) for name in names)


def _is_sharding_datapipe(datapipe):
    return isinstance(datapipe, _ShardingIterDataPipe) or _has_methods(datapipe,
                                                                        "apply_sharding")


def apply_sharding(datapipe, num_of_instances, instance_id,
                   sharding_group=SHARDING_PRIORITIES.DEFAULT):
    """Call ``apply_sharding`` of each sharding DataPipe (``sharding_filter``) in the graph;
    two on one branch are an error."""

    def visit(graph, applied):
        for dp, subgraph in graph.values():
            here = applied
            if _is_sharding_datapipe(dp):
                if applied is not None:
                    raise RuntimeError(
                        "Sharding twice on a single pipeline is likely unintended and will "
                        f"cause data loss. Sharding already applied to {applied} while trying "
                        f"to apply to {dp}")
                if len(inspect.signature(dp.apply_sharding).parameters) < 3:
                    dp.apply_sharding(num_of_instances, instance_id)
                else:
                    dp.apply_sharding(num_of_instances, instance_id,
                                      sharding_group=sharding_group)
                here = dp
            visit(subgraph, here)

    visit(traverse_dps(datapipe), None)
    return datapipe


def _is_shuffle_datapipe(datapipe):
    return _has_methods(datapipe, "set_shuffle", "set_seed")


def apply_shuffle_settings(datapipe, shuffle=None):
    """``set_shuffle(shuffle)`` on every shuffling DataPipe (None: nothing); with
    ``shuffle=True`` and none in the graph, a ``shuffle()`` is added at the end (warned)."""
    if shuffle is None:
        return datapipe
    shufflers = [dp for dp in get_all_graph_pipes(traverse_dps(datapipe))
                 if _is_shuffle_datapipe(dp)]
    if not shufflers and shuffle:
        warnings.warn("`shuffle=True` was set, but the datapipe does not contain a `Shuffler`. "
                      "Adding one at the end. Be aware that the default buffer size might not "
                      "be sufficient for your task.", stacklevel=2)
        datapipe = datapipe.shuffle()
        shufflers = [datapipe]
    for shuffler in shufflers:
        shuffler.set_shuffle(shuffle)
    return datapipe


def apply_shuffle_seed(datapipe, rng):
    warnings.warn("`apply_shuffle_seed` is deprecated since 1.12 and will be removed in the "
                  "future releases. Please use `apply_random_seed` instead.", FutureWarning,
                  stacklevel=2)
    return apply_random_seed(datapipe, rng)


def apply_random_seed(datapipe, rng):
    """``set_seed`` on every DataPipe that has one, each with an int64 drawn from ``rng``
    (a ``Generator``), in graph order."""
    for dp in get_all_graph_pipes(traverse_dps(datapipe)):
        if _has_methods(dp, "set_seed"):
            dp.set_seed(int(torch.empty((), dtype=torch.int64).random_(generator=rng).item()))
    return datapipe

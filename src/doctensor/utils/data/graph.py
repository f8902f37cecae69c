"""``torch.utils.data.graph``: the graph of a DataPipe and the DataPipes it reads from.

Note [DataPipe graph]: ``traverse_dps(dp)`` is ``{id(dp): (dp, subgraph)}`` where the
subgraph holds, the same way, each DataPipe found in ``dp``'s state (``__getstate__``,
normally its ``__dict__``): its values that are DataPipes, or DataPipes inside lists,
tuples, sets and dicts (keys and values), in the order pickle would visit them.  A DataPipe
is listed once per parent, and never below itself (a cycle stops)::

    src = IterableWrapper(range(4)); a, b = src.fork(2); z = a.zip(b)
    traverse_dps(z) == {id(z): (z, {id(a): (a, {id(c): (c, {id(src): (src, {})})}),
                                    id(b): (b, {id(c): (c, {id(src): (src, {})})})})}

(``c``, the fork's container).  torch finds the same DataPipes by pickling the state with
hooks; objects other than these containers are not searched here (torch pickles them too).
"""

import collections
import warnings

from .datapipes.datapipe import IterDataPipe, MapDataPipe

__all__ = ["traverse", "traverse_dps"]

DataPipe = IterDataPipe | MapDataPipe
DataPipeGraph = dict[int, tuple[DataPipe, "DataPipeGraph"]]
_CONTAINERS = (list, tuple, set, frozenset, collections.deque)


def _found_in(value, found, skip):
    """Append to ``found`` the DataPipes in ``value`` (not looking inside them)."""
    if isinstance(value, (IterDataPipe, MapDataPipe)):
        if id(value) not in skip:
            skip.add(id(value))
            found.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _found_in(key, found, skip)
            _found_in(item, found, skip)
    elif isinstance(value, _CONTAINERS):
        for item in value:
            _found_in(item, found, skip)


def _connected_datapipes(datapipe, skip):
    """The DataPipes in ``datapipe``'s state, not those in ``skip`` (its ancestors)."""
    found = []
    _found_in(datapipe.__getstate__(), found, skip)
    return found


def traverse_dps(datapipe):
    """The graph of ``datapipe`` (Note [DataPipe graph])."""
    return _traverse(datapipe, set())


def traverse(datapipe, only_datapipe=None):
    """Deprecated form of ``traverse_dps``.  (torch's ``only_datapipe=False`` pickles every
    value of the states, failing on a lambda; here it finds what ``traverse_dps`` finds.)"""
    message = ("`traverse` function is deprecated and will be removed after 1.13. Please use "
               "`traverse_dps` instead.")
    if not only_datapipe:
        message += (" And, the behavior will be changed to the equivalent of "
                    "`only_datapipe=True`.")
    warnings.warn(message, FutureWarning, stacklevel=2)
    return _traverse(datapipe, set())


def _traverse(datapipe, ancestors):
    if not isinstance(datapipe, (IterDataPipe, MapDataPipe)):
        raise RuntimeError(f"Expected `IterDataPipe` or `MapDataPipe`, but {type(datapipe)} "
                           "is found")
    if id(datapipe) in ancestors:
        return {}
    ancestors = ancestors | {id(datapipe)}
    subgraph = {}
    for child in _connected_datapipes(datapipe, set(ancestors)):
        subgraph.update(_traverse(child, ancestors))
    return {id(datapipe): (datapipe, subgraph)}

"""``fork`` and ``demux``: one ``IterDataPipe`` read by several child pipes.

Note [child DataPipes]: the children share a container that reads the source once and
buffers what some children have not read yet.  They share one iterator number too (Note
[single iterator per IterDataPipe]): the first child to start a new round of iterators
takes a new number for all (resetting the container, with a warning if some child had not
finished); a child that joins the round later takes the same number without a reset.
"""

import abc
import collections
import copy as copy_module
import warnings

from .._decorator import functional_datapipe
from .._fn_checks import check_unpickable_fn
from ..datapipe import IterDataPipe

__all__ = ["DemultiplexerIterDataPipe", "ForkerIterDataPipe"]


class _ContainerTemplate(abc.ABC):
    """What a child DataPipe's container provides."""

    @abc.abstractmethod
    def get_next_element_by_instance(self, instance_id): ...

    @abc.abstractmethod
    def is_every_instance_exhausted(self): ...

    @abc.abstractmethod
    def reset(self): ...

    @abc.abstractmethod
    def get_length_by_instance(self, instance_id): ...


class _ChildDataPipe(IterDataPipe):
    """Child ``instance_id`` of a container (Note [child DataPipes])."""

    _is_child_datapipe = True

    def __init__(self, main_datapipe, instance_id):
        if not isinstance(main_datapipe, _ContainerTemplate):
            raise AssertionError("main_datapipe must implement _ContainerTemplate")
        self.main_datapipe = main_datapipe
        self.instance_id = instance_id

    def __iter__(self):
        return self.main_datapipe.get_next_element_by_instance(self.instance_id)

    def __len__(self):
        return self.main_datapipe.get_length_by_instance(self.instance_id)

    def _set_main_datapipe_valid_iterator_id(self):
        main = self.main_datapipe
        if main._valid_iterator_id is None:
            main._valid_iterator_id = 0
        elif main._valid_iterator_id == self._valid_iterator_id:
            main._valid_iterator_id += 1
            if not main.is_every_instance_exhausted():
                warnings.warn("Some child DataPipes are not exhausted when __iter__ is called. "
                              "We are resetting the buffer and each child DataPipe will read "
                              "from the start again.", UserWarning, stacklevel=2)
            main.reset()
        self._valid_iterator_id = main._valid_iterator_id
        return self._valid_iterator_id

    def _check_valid_iterator_id(self, iterator_id):
        return iterator_id == self._valid_iterator_id == self.main_datapipe._valid_iterator_id


def _warn_unlimited(buffer_size, name):
    if buffer_size < 0:
        warnings.warn(f"Unlimited buffer size is set for `{name}`, please be aware of OOM at "
                      "random places", UserWarning, stacklevel=3)


def _children(container, num_instances):
    return [_ChildDataPipe(container, i) for i in range(num_instances)]


def _check_instances(num_instances):
    if num_instances < 1:
        raise ValueError(f"Expected `num_instances` larger than 0, but {num_instances} is "
                         "found")


@functional_datapipe("fork")
class ForkerIterDataPipe(IterDataPipe):
    """``num_instances`` child pipes that each yield every item (functional name: ``fork``);
    a child may run at most ``buffer_size`` items ahead of the slowest (-1: no limit).
    ``copy`` (None, ``"shallow"``, ``"deep"``) copies what each child yields."""

    def __new__(cls, datapipe, num_instances, buffer_size=1000, copy=None):
        _check_instances(num_instances)
        if num_instances == 1:
            return datapipe
        container = _ForkerIterDataPipe(datapipe, num_instances, buffer_size, copy)
        return _children(container, num_instances)


class _ForkerIterDataPipe(IterDataPipe, _ContainerTemplate):
    """The container of ``fork``'s children: one buffer of the items read from the source
    that the slowest child has not yet read."""

    def __init__(self, datapipe, num_instances, buffer_size=1000, copy=None):
        self.main_datapipe = datapipe
        self.num_instances = num_instances
        self.buffer_size = buffer_size
        _warn_unlimited(buffer_size, "fork")
        copies = {None: lambda x: x, "shallow": copy_module.copy, "deep": copy_module.deepcopy}
        if copy not in copies:
            raise ValueError(f"Unknown copy method `{copy}` requested, choose one of None, "
                             "`shallow` or `deep`.")
        self.copy_fn = copies[copy]
        self.reset()

    def __len__(self):
        return len(self.main_datapipe)

    def get_next_element_by_instance(self, instance_id):
        if self._datapipe_iterator is None and self._child_stop[instance_id]:
            self._datapipe_iterator = iter(self.main_datapipe)
            self._child_stop = [False] * self.num_instances
        try:
            while not self._child_stop[instance_id]:
                self.child_pointers[instance_id] += 1
                pointer = self.child_pointers[instance_id]
                if self.end_ptr is not None and pointer == self.end_ptr:
                    self._child_stop[instance_id] = True
                    break
                if self.buffer and pointer <= self.leading_ptr:
                    value = self.buffer[pointer - self.slowest_ptr - 1]
                else:
                    self.leading_ptr = pointer
                    try:
                        value = next(self._datapipe_iterator)
                    except StopIteration:
                        self._child_stop[instance_id] = True
                        self._datapipe_iterator = None
                        self.end_ptr = self.leading_ptr
                        continue
                    self.buffer.append(value)
                if pointer == self.slowest_ptr + 1 and self.slowest_ptr < min(self.child_pointers):
                    self.slowest_ptr = min(self.child_pointers)
                    self.buffer.popleft()
                if 0 <= self.buffer_size < self.leading_ptr - self.slowest_ptr:
                    raise BufferError(f"ForkerIterDataPipe buffer overflow,buffer size "
                                      f"{self.buffer_size} is insufficient.")
                yield self.copy_fn(value)
        finally:
            self._child_stop[instance_id] = True
            if all(self._child_stop):
                self._datapipe_iterator = None
                self.buffer.clear()

    def is_every_instance_exhausted(self):
        return self.end_ptr is not None and all(self._child_stop)

    def get_length_by_instance(self, instance_id):
        return len(self.main_datapipe)

    def reset(self):
        self._datapipe_iterator = None
        self.buffer = collections.deque()
        self.child_pointers = [0] * self.num_instances
        self.slowest_ptr = self.leading_ptr = 0
        self.end_ptr = None
        self._child_stop = [True] * self.num_instances


@functional_datapipe("demux")
class DemultiplexerIterDataPipe(IterDataPipe):
    """``num_instances`` child pipes; child ``k`` yields the items with
    ``classifier_fn(item) == k`` (None: dropped with ``drop_none``, else an error)
    (functional name: ``demux``).  Items waiting for a slower child count against
    ``buffer_size`` (-1: no limit)."""

    def __new__(cls, datapipe, num_instances, classifier_fn, drop_none=False,
                buffer_size=1000):
        _check_instances(num_instances)
        check_unpickable_fn(classifier_fn)
        container = _DemultiplexerIterDataPipe(datapipe, num_instances, classifier_fn,
                                               drop_none, buffer_size)
        return _children(container, num_instances)


class _DemultiplexerIterDataPipe(IterDataPipe, _ContainerTemplate):
    """The container of ``demux``'s children: a buffer per child."""

    def __init__(self, datapipe, num_instances, classifier_fn, drop_none, buffer_size):
        self.main_datapipe = datapipe
        self.num_instances = num_instances
        self.buffer_size = buffer_size
        _warn_unlimited(buffer_size, "demux")
        self.classifier_fn = classifier_fn
        self.drop_none = drop_none
        self.reset()

    def _find_next(self, instance_id):
        """The next item of the source for this child; others' items go to their buffers."""
        while True:
            if self.main_datapipe_exhausted or self._child_stop[instance_id]:
                raise StopIteration
            value = next(self._datapipe_iterator)
            label = self.classifier_fn(value)
            if label is None and self.drop_none:
                continue
            if label is None or not 0 <= label < self.num_instances:
                raise ValueError(f"Output of the classification fn should be between 0 and "
                                 f"{self.num_instances - 1}. {label} is returned.")
            if label == instance_id:
                return value
            self.child_buffers[label].append(value)
            self.current_buffer_usage += 1
            if 0 <= self.buffer_size < self.current_buffer_usage:
                raise BufferError(f"DemultiplexerIterDataPipe buffer overflow, buffer size "
                                  f"{self.buffer_size} is insufficient.")

    def get_next_element_by_instance(self, instance_id):
        if self._datapipe_iterator is None and self._child_stop[instance_id]:
            self._datapipe_iterator = iter(self.main_datapipe)
            self.main_datapipe_exhausted = False
            self._child_stop = [False] * self.num_instances
        try:
            while not self._child_stop[instance_id]:
                if self.child_buffers[instance_id]:
                    self.current_buffer_usage -= 1
                    yield self.child_buffers[instance_id].popleft()
                    continue
                try:
                    value = self._find_next(instance_id)
                except StopIteration:
                    self._child_stop[instance_id] = True
                    self.main_datapipe_exhausted = True
                    self._datapipe_iterator = None
                    continue
                yield value
        finally:
            self._child_stop[instance_id] = True
            if all(self._child_stop):
                self._datapipe_iterator = None
            self.child_buffers[instance_id].clear()

    def is_every_instance_exhausted(self):
        return self.main_datapipe_exhausted and all(self._child_stop)

    def get_length_by_instance(self, instance_id):
        raise TypeError

    def reset(self):
        self._datapipe_iterator = None
        self.current_buffer_usage = 0
        self.child_buffers = [collections.deque() for _ in range(self.num_instances)]
        self._child_stop = [True] * self.num_instances
        self.main_datapipe_exhausted = False

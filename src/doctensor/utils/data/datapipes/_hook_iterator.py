"""The hook every ``IterDataPipe.__iter__`` runs through: one valid iterator per DataPipe.

Note [single iterator per IterDataPipe]: each DataPipe counts the iterators made from it
(``_valid_iterator_id``: None, then 0, 1, ...).  Starting a new iterator takes the next
number and calls ``reset()``; an older iterator that is read again finds its number stale
and raises.  When ``__iter__`` is a generator function the number is taken at the first
``next`` (a generator's body starts there), otherwise when ``iter()`` is called.  An error
from inside a pipe's ``__iter__`` gets one line naming the pipe and its arguments (the
innermost pipe only)::

    dp = IterableWrapper(range(3))
    it1 = iter(dp); next(it1)      # it1 takes number 0
    it2 = iter(dp); next(it2)      # it2 takes number 1: it1 is now stale
    next(it1)                      # RuntimeError: This iterator has been invalidated ...

The children of ``fork``/``demux`` share one number, kept by their container.
"""

import functools
import inspect

_FEEDBACK = ("\nFor feedback regarding this single iterator per IterDataPipe constraint, feel "
             "free to comment on this issue: https://github.com/pytorch/data/issues/45.")
_THROWN = "thrown by __iter__ of"


def _simple_name(obj):
    return obj.__name__ if inspect.isfunction(obj) else repr(obj)


def _input_args(datapipe):
    """``name=value, ...`` of the pipe's attributes named like its constructor's parameters,
    in alphabetical order (torch's ``inspect.getmembers`` order)."""
    params = set(inspect.signature(type(datapipe)).parameters)
    return ", ".join(f"{name}={_simple_name(value)}"
                     for name, value in inspect.getmembers(datapipe) if name in params)


def _pipe_message(datapipe):
    return f"{type(datapipe).__name__}({_input_args(datapipe)})"


def _check_valid(datapipe, iterator_id):
    if getattr(datapipe, "_is_child_datapipe", False):
        if not datapipe._check_valid_iterator_id(iterator_id):
            raise RuntimeError("This iterator has been invalidated, because a new iterator has "
                               "been created from one of the ChildDataPipes of "
                               f"{_pipe_message(datapipe.main_datapipe)}." + _FEEDBACK)
    elif datapipe._valid_iterator_id != iterator_id:
        raise RuntimeError("This iterator has been invalidated because another iterator has "
                           "been created from the same IterDataPipe: "
                           f"{_pipe_message(datapipe)}\nThis may be caused by multiple "
                           "references to the same IterDataPipe. We recommend using "
                           "`.fork()` if that is necessary." + _FEEDBACK)


def _new_iterator_id(datapipe):
    """Take the next iterator number (Note [single iterator per IterDataPipe]) and reset."""
    if getattr(datapipe, "_is_child_datapipe", False):
        return datapipe._set_main_datapipe_valid_iterator_id()
    previous = datapipe._valid_iterator_id
    datapipe._valid_iterator_id = 0 if previous is None else previous + 1
    datapipe.reset()
    return datapipe._valid_iterator_id


def _name_the_pipe(error, datapipe):
    """Add torch's line naming the pipe whose ``__iter__`` raised ``error`` (once)."""
    line = f"\nThis exception is {_THROWN} {_pipe_message(datapipe)}"
    if not error.args or not isinstance(error.args[0], str):
        error.args = (line,)
    elif _THROWN not in error.args[0] and "single iterator per IterDataPipe constraint" \
            not in error.args[0]:
        error.args = (error.args[0] + line,) + error.args[1:]


class _CheckedIterator:
    """The iterator returned by a non-generator ``__iter__``, checked at every ``next``."""

    def __init__(self, iterator, datapipe, iterator_id):
        self.iterator, self.datapipe, self.iterator_id = iterator, datapipe, iterator_id

    def __iter__(self):
        return self

    def __next__(self):
        _check_valid(self.datapipe, self.iterator_id)
        return next(self.iterator)

    def __getattr__(self, name):
        return getattr(self.iterator, name)


def hook_iterator(namespace):
    """Wrap the ``__iter__`` of a class body (Note [single iterator per IterDataPipe])."""
    func = namespace["__iter__"]
    if inspect.isgeneratorfunction(func):
        @functools.wraps(func)
        def checked_generator(datapipe, *args, **kwargs):
            body = func(datapipe, *args, **kwargs)
            iterator_id = _new_iterator_id(datapipe)
            try:
                item = next(body)
                while True:
                    yield item
                    _check_valid(datapipe, iterator_id)
                    item = next(body)
            except StopIteration:
                return
            except Exception as e:
                _name_the_pipe(e, datapipe)
                raise

        namespace["__iter__"] = checked_generator
        return

    @functools.wraps(func)
    def checked_iter(datapipe, *args, **kwargs):
        iterator = func(datapipe, *args, **kwargs)
        return _CheckedIterator(iterator, datapipe, _new_iterator_id(datapipe))

    namespace["__iter__"] = checked_iter

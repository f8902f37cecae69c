"""``torch.futures``: a ``Future`` holds a value (or an error) that some work will produce.

``set_result`` (or ``set_exception``) completes it once; ``wait()`` blocks until then and
returns the value (or raises the error); ``then(callback)`` chains a new future that gets
``callback(fut)``'s result. Callbacks run in the thread that completes the future, right
away if it is already complete, as torch runs them::

    >>> fut = torch.futures.Future()
    >>> doubled = fut.then(lambda f: f.wait() * 2)
    >>> fut.set_result(21)
    >>> doubled.wait()
    42
"""

import sys
import threading
import traceback

__all__ = ["Future", "collect_all", "wait_all"]


class Future:
    """A value (or an error) that becomes available once, to any number of waiters."""

    def __init__(self, *, devices=None):
        for d in devices or ():
            if getattr(d, "index", None) is None:
                raise ValueError(f"Expected devices to have indices, got {d}")
        self._lock = threading.Condition()
        self._completed = False
        self._value = self._error = None
        self._callbacks = []

    def done(self):
        """Whether the future is complete (with a value or an error)."""
        return self._completed

    def wait(self):
        """Block until complete; the value, or raise the error."""
        with self._lock:
            self._lock.wait_for(lambda: self._completed)
        return self.value()

    def value(self):
        """The value of a complete future (or raise its error), without waiting."""
        if not self._completed:
            raise RuntimeError("Future.value() called before the Future completed")
        if self._error is not None:
            raise self._error
        return self._value

    def then(self, callback):
        """A new future completed with ``callback(self)`` once this one completes; an error
        in the callback completes it with a RuntimeError naming that error."""
        child = Future()

        def run(fut):
            try:
                result = callback(fut)
            except Exception as error:  # noqa: BLE001 - handed to the child future
                child.set_exception(RuntimeError(_callback_error(error)))
            else:
                child.set_result(result)
        self.add_done_callback(run)
        return child

    def add_done_callback(self, callback):
        """Call ``callback(self)`` on completion (now if complete). Its errors are reported
        on stderr and otherwise ignored, as torch does."""
        with self._lock:
            if not self._completed:
                self._callbacks.append(callback)
                return
        _run_reporting_errors(callback, self)

    def set_result(self, result):
        """Complete with ``result`` (once only), waking waiters and running callbacks."""
        self._complete(result, None)

    def set_exception(self, result):
        """Complete with the error ``result``: ``wait()`` and ``value()`` raise it."""
        assert isinstance(result, Exception), \
            f"{result} is of type {type(result)}, not an Exception."
        self._complete(None, result)

    def _complete(self, value, error):
        with self._lock:
            if self._completed:
                raise RuntimeError("Attempting to mark a completed Future as complete again. "
                                   "Note that a Future can only be marked completed once.")
            self._value, self._error, self._completed = value, error, True
            callbacks, self._callbacks = self._callbacks, []
            self._lock.notify_all()
        for callback in callbacks:
            _run_reporting_errors(callback, self)


def _callback_error(error):
    """torch's text for an error raised in a callback: the error, then where (innermost
    frame first)."""
    frames = traceback.extract_tb(error.__traceback__)[1:]  # (from the callback down)
    where = "".join(f"  {f.filename}({f.lineno}): {f.name}\n" for f in reversed(frames))
    return (f"Got the following error when running the callback: {type(error).__name__}: "
            f"{error}\n\nAt:\n{where}")


def _run_reporting_errors(callback, fut):
    try:
        callback(fut)
    except Exception as error:  # noqa: BLE001 - reported, not raised (torch logs it)
        print(_callback_error(error), file=sys.stderr)


def collect_all(futures):
    """A future completed with the list ``futures`` once all of them are complete (with the
    first error among them, in list order, if any failed)."""
    for fut in futures:
        if not isinstance(fut, Future):
            raise TypeError(f"collect_all(): expected a list of Futures, got {fut!r}")
    combined = Future()
    remaining = [len(futures)]
    lock = threading.Lock()

    def one_done(_):
        with lock:
            remaining[0] -= 1
            if remaining[0]:
                return
        errors = [f._error for f in futures if f._error is not None]
        if errors:
            combined.set_exception(errors[0])
        else:
            combined.set_result(list(futures))
    if not futures:
        combined.set_result([])
    for fut in futures:
        fut.add_done_callback(one_done)
    return combined


def wait_all(futures):
    """Wait for all ``futures``; their values (or raise the first error)."""
    return [fut.wait() for fut in collect_all(futures).wait()]

"""``torch.save`` / ``torch.load`` in torch 2.13's own file format, both ways.

The format
==========

A checkpoint is a ZIP archive (stored, not compressed) whose records sit in one top folder
(the file's name without its extension, or ``archive`` for a file object)::

    archive/data.pkl                 the saved object, pickled (protocol 2)
    archive/.format_version          "1"
    archive/.storage_alignment       "64": each storage's bytes start at a multiple of 64
    archive/byteorder                "little"
    archive/data/0, data/1, ...      the raw bytes of each storage, in the order first met
    archive/version                  "3"
    archive/.data/serialization_id   40 digits naming this save

Tensors are not pickled with their bytes: the pickle calls
``torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks)``
whose ``storage`` is a *persistent id*, ``('storage', torch.FloatStorage, '0', 'cpu',
numel)``, naming the record ``data/0``.  Tensors that share a storage (a tensor and its
views) name the same record, so they share memory again after loading.  dtypes without a
legacy storage class (uint16/32/64) use ``_rebuild_tensor_v3`` with ``UntypedStorage`` and
the dtype as an argument.

Saving writes torch's names for doctensor's objects (``doctensor.X`` is pickled as
``torch.X``); loading maps them back.  State dicts, optimizer states and containers of
tensors move between the libraries; a whole module saved by torch loads into doctensor's
class of the same name (``weights_only=False``), not the other way (torch's modules expect
their own private fields).

``_use_new_zipfile_serialization=False`` gives torch's legacy format instead: one stream of
pickles (a magic number, the protocol version 1001, the system's sizes, the object with
6-item persistent ids, the sorted storage keys), then each storage as an int64 count of
elements and its bytes.  ``mmap=True`` maps a zip checkpoint's records copy-on-write instead
of reading them (the 64-byte alignment keeps every dtype aligned).

Loading safely (Note [weights_only])
====================================

Unpickling can call any function a file names, so by default ``load`` (like torch since 2.6)
uses a restricted unpickler: a file may name only the globals in ``_allowed_globals`` (tensor
rebuild functions, dtypes, storage classes, ``torch.Size``, ``torch.device``,
``Parameter``, ``OrderedDict`` and a few builtins) or those the user allows with
``add_safe_globals`` / ``safe_globals``.  Every global a pickle uses passes through
``find_class``, so nothing else can be called; and, as torch's unpickler, it reads only
protocol 2's opcodes (``_check_opcodes``).  The errors are torch's, word for word.
``weights_only=False`` loads anything: only for files you trust.
"""

import _compat_pickle
import collections
import contextlib
import hashlib
import importlib
import io
import os
import pickle
import pickletools
import secrets
import struct
import sys
import warnings
import zipfile

import numpy as np

import doctensor as torch
from doctensor import backends
from doctensor._typed_storage import TypedStorage
from doctensor.storage import Storage

__all__ = ["save", "load", "add_safe_globals", "safe_globals", "get_safe_globals",
           "clear_safe_globals", "get_unsafe_globals_in_checkpoint"]

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in "
    "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to "
    "`False` will likely succeed, but it can result in arbitrary code execution. Do it only "
    "if you got the file from a trusted source.")
DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default "
    "with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")
_ALIGNMENT = 64
_BLOCKED_MODULES = ("sys", "os", "posix", "nt")


# -- torch's names for doctensor's objects --------------------------------------------------


class _Global:
    """A stand-in for the torch global ``module.name`` (what a pickle names, not an object)."""

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __reduce__(self):
        return self.name  # pickled by _TorchPickler.save_global

    def __call__(self, *args):  # (pickle wants a reduce's function to be callable)
        raise TypeError(f"{self.module}.{self.name} is torch's, named in a pickle only")


_REBUILD_V2 = _Global("torch._utils", "_rebuild_tensor_v2")
_REBUILD_V3 = _Global("torch._utils", "_rebuild_tensor_v3")
_REBUILD_PARAMETER = _Global("torch._utils", "_rebuild_parameter")
_REBUILD_PARAMETER_WITH_STATE = _Global("torch._utils", "_rebuild_parameter_with_state")
_REBUILD_FROM_TYPE = _Global("torch._tensor", "_rebuild_from_type_v2")
_SIZE = _Global("torch", "Size")
_DEVICE = _Global("torch", "device")
_UNTYPED_STORAGE = _Global("torch.storage", "UntypedStorage")
# dtypes with a legacy storage class (torch.FloatStorage ...): the others use UntypedStorage
_LEGACY_STORAGE = {d: _Global("torch", f"{d.scalar_name}Storage") for d in (
    torch.float16, torch.float32, torch.float64, torch.bfloat16, torch.complex64,
    torch.complex128, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
    torch.bool)}


def _torch_module(module):
    """``doctensor.x.y`` -> ``torch.x.y`` (other modules unchanged)."""
    if module == "doctensor" or module.startswith("doctensor."):
        return "torch" + module[len("doctensor"):]
    return module


# -- saving ---------------------------------------------------------------------------------


class _StorageRef:
    """A storage being saved: pickled as torch's persistent id, its bytes go to ``data/key``."""

    def __init__(self, storage, key, dtype):
        self.storage, self.key, self.dtype = storage, key, dtype

    def persistent_id(self):
        device = self.storage.device
        location = "cpu" if device.type == "cpu" else f"{device.type}:{device.index or 0}"
        legacy = _LEGACY_STORAGE.get(self.dtype)
        if legacy is None:
            return ("storage", _UNTYPED_STORAGE, self.key, location, self.storage.nbytes())
        return ("storage", legacy, self.key, location,
                self.storage.nbytes() // self.dtype.itemsize)


class _TorchPickler(pickle._Pickler):
    """A pickler writing torch's pickle of doctensor objects (Note [weights_only] describes
    what ``load`` accepts back): tensors through ``_StorageRef`` persistent ids, doctensor's
    globals under torch's names.  (The pure-Python pickler: its ``save_global`` can name
    modules that are not imported here.)"""

    def __init__(self, file, protocol, legacy=False):
        super().__init__(file, protocol)
        self.legacy = legacy  # legacy persistent ids have a 6th item (view metadata: None)
        self.refs = {}  # id(storage) -> _StorageRef, in the order first met
        self.keep = []  # the storages, alive while their ids are keys

    def persistent_id(self, obj):
        """Storages (a tensor's ``_StorageRef``, or one saved itself) become persistent ids."""
        if isinstance(obj, TypedStorage):
            obj = self.storage_ref(obj.untyped(), obj.dtype)
        elif isinstance(obj, Storage):
            obj = self.storage_ref(obj, torch.uint8)
        elif type(obj) is not _StorageRef:
            return None
        return obj.persistent_id() + (None,) if self.legacy else obj.persistent_id()

    def storage_ref(self, storage, dtype):
        ref = self.refs.get(id(storage))
        if ref is None:
            ref = self.refs[id(storage)] = _StorageRef(storage, str(len(self.refs)), dtype)
            self.keep.append(storage)
        elif ref.dtype is not dtype:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same "
                               "data as different types")
        return ref

    def reducer_override(self, obj):
        if isinstance(obj, torch.nn.Parameter):
            return self.reduce_parameter(obj)
        if isinstance(obj, torch.Tensor):
            return self.reduce_tensor(obj)
        if isinstance(obj, torch.dtype):
            return obj.name  # a global: save_global
        if isinstance(obj, torch.Size):
            return (_SIZE, (tuple(obj),))
        if isinstance(obj, torch.device):
            return (_DEVICE, (obj.type,) if obj.index is None else (obj.type, obj.index))
        return NotImplemented

    def reduce_tensor(self, t):
        args = (self.storage_ref(t.untyped_storage(), t.dtype), t.storage_offset(),
                tuple(t.shape), t.stride(), t.requires_grad, collections.OrderedDict())
        rebuild = _REBUILD_V2
        if t.dtype not in _LEGACY_STORAGE:
            rebuild, args = _REBUILD_V3, args + (t.dtype,)
        attrs = _attributes(t)
        if type(t) is torch.Tensor and not attrs:
            return (rebuild, args)
        return (_REBUILD_FROM_TYPE, (rebuild, type(t), args, attrs))

    def reduce_parameter(self, p):
        hooks, attrs = collections.OrderedDict(), _attributes(p)
        if attrs:
            return (_REBUILD_PARAMETER_WITH_STATE, (p.data, p.requires_grad, hooks, attrs))
        return (_REBUILD_PARAMETER, (p.data, p.requires_grad, hooks))

    def save_global(self, obj, name=None):
        if isinstance(obj, _Global):
            module, name = obj.module, obj.name
        elif isinstance(obj, torch.dtype) or obj is torch.Tensor:
            module, name = "torch", obj.name if isinstance(obj, torch.dtype) else "Tensor"
        else:
            module = getattr(obj, "__module__", None) or "__main__"
            if _torch_module(module) == module:
                return super().save_global(obj, name)
            module, name = _torch_module(module), name or obj.__qualname__
        self.write(pickle.GLOBAL + f"{module}\n{name}\n".encode())
        self.memoize(obj)


def _attributes(t):
    """The attributes a user set on a tensor (doctensor's own fields start with ``_``)."""
    return {k: v for k, v in t.__dict__.items() if not k.startswith("_")}


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Save ``obj`` (tensors, state dicts, optimizer states, modules ...) to ``f`` in torch's
    format (see the module docstring): ``torch.load`` reads it.

    ``f`` is a path (``str`` or ``os.PathLike``: written atomically, see ``_save_to_path``)
    or a writable, seekable binary file object (``io.BytesIO``, an open file).
    ``_use_new_zipfile_serialization=False`` writes torch's legacy format (``_write_legacy``).
    ``pickle_module`` is ignored: doctensor always writes with its own pickler.
    """
    data = io.BytesIO()
    pickler = _TorchPickler(data, pickle_protocol, legacy=not _use_new_zipfile_serialization)
    pickler.dump(obj)
    refs = list(pickler.refs.values())

    def write(fh, name):
        if _use_new_zipfile_serialization:
            _write_archive(fh, name, data.getvalue(), refs, _disable_byteorder_record)
        else:
            _write_legacy(fh, data.getvalue(), refs, pickle_protocol)

    if isinstance(f, (str, os.PathLike)):
        _save_to_path(os.fspath(f), write)
    else:
        write(f, "archive")


def _save_to_path(path, write):
    """Write to a new file in ``path``'s directory, then rename it over ``path``: an error or
    a kill mid-save leaves the previous file intact (``os.replace`` is atomic)."""
    target = os.path.realpath(path)
    folder, base = os.path.split(target)
    tmp = os.path.join(folder, f".{base}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "xb") as fh:
            write(fh, os.path.splitext(os.path.basename(path))[0])
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def _host_bytes(storage):
    host = np.ascontiguousarray(storage.backend.to_host(storage.buffer))
    return memoryview(host.reshape(-1).view(np.uint8))


def _write_archive(fh, name, pickled, refs, no_byteorder):
    start = fh.tell()
    with zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_STORED) as z:
        def record(path, data):
            z.writestr(_aligned(z, start, fh, f"{name}/{path}"), data)
        record("data.pkl", pickled)
        record(".format_version", b"1")
        record(".storage_alignment", str(_ALIGNMENT).encode())
        if not no_byteorder:
            record("byteorder", sys.byteorder.encode())
        for ref in refs:
            info = _aligned(z, start, fh, f"{name}/data/{ref.key}")
            data = _host_bytes(ref.storage)
            with z.open(info, "w", force_zip64=data.nbytes >= 2**31) as w:
                w.write(data)
        record("version", b"3\n")
        digest = hashlib.sha1(pickled).digest() + b"".join(
            struct.pack("<Q", ref.storage.nbytes()) for ref in refs)
        record(".data/serialization_id",
               str(int.from_bytes(hashlib.sha1(digest).digest(), "little") % 10**40)
               .zfill(40).encode())


_MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
_PROTOCOL_VERSION = 1001


def _write_legacy(fh, pickled, refs, protocol):
    """torch's legacy format: pickles of the magic number, the protocol version and the
    system's sizes, the object (storages as 6-item persistent ids), the sorted storage keys;
    then for each key its element count (int64) and bytes."""
    for header in (_MAGIC_NUMBER, _PROTOCOL_VERSION,
                   {"protocol_version": _PROTOCOL_VERSION, "little_endian": sys.byteorder ==
                    "little", "type_sizes": {"short": 2, "int": 4, "long": 4}}):
        pickle.dump(header, fh, protocol)
    fh.write(pickled)
    by_key = {ref.key: ref for ref in refs}
    pickle.dump(sorted(by_key), fh, protocol)
    for key in sorted(by_key):
        ref = by_key[key]
        fh.write(struct.pack("<q", ref.persistent_id()[4]))
        fh.write(_host_bytes(ref.storage))


def _aligned(z, start, fh, path):
    """A ZipInfo for ``path`` whose data will start at a multiple of 64 bytes (padding in the
    local header's extra field, as torch's writer pads)."""
    info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    header_end = fh.tell() - start + 30 + len(path.encode()) + 4
    pad = -header_end % _ALIGNMENT
    info.extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
    return info


# -- the allowed globals and the safe-globals API (Note [weights_only]) ----------------------


class _StorageType:
    """A storage class named in a file (``torch.FloatStorage``): the dtype its bytes hold."""

    def __init__(self, dtype):
        self.dtype = dtype


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       metadata=None):
    return torch.Tensor._rebuild(torch.Tensor, storage.untyped(), storage.dtype.name,
                                 storage_offset, size, stride, requires_grad)


def _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       dtype, metadata=None):
    return torch.Tensor._rebuild(torch.Tensor, storage.untyped(), dtype.name, storage_offset,
                                 size, stride, requires_grad)


def _rebuild_tensor(storage, storage_offset, size, stride):
    return _rebuild_tensor_v2(storage, storage_offset, size, stride, False, None)


def _rebuild_parameter(data, requires_grad, backward_hooks):
    return torch.nn.Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    param = torch.nn.Parameter(data, requires_grad)
    _set_state(param, state)
    return param


def _rebuild_from_type_v2(func, new_type, args, state):
    t = func(*args)
    if type(t) is not new_type:
        t = t.as_subclass(new_type)
    _set_state(t, state)
    return t


def _set_state(obj, state):
    if isinstance(state, tuple):  # (dict, slots)
        state = {**(state[0] or {}), **(state[1] or {})}
    for k, v in (state or {}).items():
        setattr(obj, k, v)


def _allowed_globals():
    """What a weights-only load may name: torch's full names -> doctensor's objects."""
    allowed = {
        "collections.OrderedDict": collections.OrderedDict,
        "collections.Counter": collections.Counter,
        "torch.nn.parameter.Parameter": torch.nn.Parameter,
        "torch.Size": torch.Size,
        "torch.Tensor": torch.Tensor,
        "torch.device": torch.device,
        "_codecs.encode": _codecs_encode,
        "builtins.bytearray": bytearray,
        "builtins.set": set,
        "builtins.complex": complex,
        "torch.storage.UntypedStorage": _StorageType(torch.uint8),
        "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2,
    }
    for dtype, glob in _LEGACY_STORAGE.items():
        allowed[f"torch.{glob.name}"] = _StorageType(dtype)
    for dtype in torch._dtypes.ALL:
        allowed[f"torch.{dtype.name}"] = dtype
    for fn in (_rebuild_tensor, _rebuild_tensor_v2, _rebuild_tensor_v3, _rebuild_parameter,
               _rebuild_parameter_with_state):
        allowed[f"torch._utils.{fn.__name__}"] = fn
    return allowed


def _codecs_encode(obj, encoding="utf-8", errors="strict"):
    import codecs
    return codecs.encode(obj, encoding, errors)


_ALLOWED = {}  # filled on first use (doctensor.nn is not imported yet when this module is)
_user_safe_globals = set()


def _allowed():
    if not _ALLOWED:
        _ALLOWED.update(_allowed_globals())
    return _ALLOWED


def _user_allowed():
    """The user's safe globals by full name (``module.qualname``, or the name given)."""
    out = {}
    for g in _user_safe_globals:
        if isinstance(g, tuple):
            if len(g) != 2:
                raise ValueError("Expected tuple of length 2 (global, str of callable full "
                                 f"path), but got tuple of length: {len(g)}")
            if type(g[1]) is not str:
                raise TypeError("Expected second item in tuple to be str of callable full "
                                f"path, but got: {type(g[1])}")
            out[g[1]] = g[0]
        else:
            out[f"{g.__module__}.{g.__qualname__}"] = g
    return out


def add_safe_globals(safe_globals):
    """Allow weights-only loads to name these functions or classes (or ``(obj, "full.name")``
    pairs): only for globals you trust."""
    global _user_safe_globals
    _user_safe_globals = _user_safe_globals | set(safe_globals)


def get_safe_globals():
    """The globals added with ``add_safe_globals``."""
    return list(_user_safe_globals)


def clear_safe_globals():
    """Forget every global added with ``add_safe_globals``."""
    global _user_safe_globals
    _user_safe_globals = set()


class safe_globals:
    """Context manager: ``add_safe_globals(safe_globals)`` inside the block only."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        add_safe_globals(self.safe_globals)

    def __exit__(self, *exc):
        global _user_safe_globals
        _user_safe_globals = _user_safe_globals - set(self.safe_globals)


def get_unsafe_globals_in_checkpoint(f):
    """The globals (``module.name``) a checkpoint's pickle names that a weights-only load would
    refuse (read without unpickling anything)."""
    with _open(f) as fh:
        if not zipfile.is_zipfile(fh):
            raise ValueError("Expected input to be a checkpoint returned by torch.save")
        fh.seek(0)
        with zipfile.ZipFile(fh) as z:
            found = _globals_in_pickle(z.read(_prefix(z) + "data.pkl"))
    return list(found - set(_allowed()) - set(_user_allowed()))


def _globals_in_pickle(data):
    names = set()
    strings = []
    for op, arg, _ in pickletools.genops(data):
        if op.name == "GLOBAL":
            names.add(".".join(_fix_name(*arg.split(" ", 1))))
        elif op.name == "STACK_GLOBAL" and len(strings) >= 2:
            names.add(".".join(_fix_name(*strings[-2:])))
        if isinstance(arg, str):
            strings.append(arg)
    return names


def _fix_name(module, name):
    """Python 2 names in protocol-2 pickles (``__builtin__.set``) -> Python 3 names."""
    if (module, name) in _compat_pickle.NAME_MAPPING:
        return _compat_pickle.NAME_MAPPING[(module, name)]
    return _compat_pickle.IMPORT_MAPPING.get(module, module), name


# the opcodes torch's weights-only unpickler reads (protocol 2 and the memo); others it refuses
_OPCODES = frozenset(
    "GLOBAL NEWOBJ REDUCE BUILD APPEND APPENDS SETITEM SETITEMS MARK TUPLE TUPLE1 TUPLE2 TUPLE3 "
    "NONE NEWFALSE NEWTRUE EMPTY_TUPLE EMPTY_LIST EMPTY_DICT EMPTY_SET BININT BININT1 BININT2 "
    "BINFLOAT BINUNICODE SHORT_BINSTRING BINPERSID BINGET LONG_BINGET BINPUT LONG_BINPUT LONG1 "
    "PROTO STOP".split())


def _check_opcodes(fh):
    """Refuse, as torch does, a pickle using an opcode outside ``_OPCODES`` (read ahead
    without running anything; a malformed pickle is left to the unpickler's own error)."""
    start = fh.tell()
    try:
        for op, _, _ in pickletools.genops(fh):
            if op.name not in _OPCODES:
                raise pickle.UnpicklingError(f"Unsupported operand {op.code.encode('latin-1')[0]}")
    except ValueError:
        pass
    fh.seek(start)


def _refusal(module, name):
    """torch's UnpicklingError for a global a weights-only load may not name."""
    full = f"{module}.{name}"
    if module in _BLOCKED_MODULES:
        return pickle.UnpicklingError(
            f"Trying to load unsupported GLOBAL {full} whose module {module} is blocked.")
    if full.startswith("builtins"):
        rest = full[len("builtins"):]
        full = rest[1:] if rest.startswith(".") else "builtins" + rest
    return pickle.UnpicklingError(
        f"Unsupported global: GLOBAL {full} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{full}])` or the "
        f"`torch.serialization.safe_globals([{full}])` context manager to allowlist this "
        "global if you trust this class/function.")


def _weights_only_message(message):
    """torch.load's explanation around a weights-only refusal, word for word."""
    if "was not an allowed global by default." in message:
        return ("Weights only load failed. This file can still be loaded, to do so you have two "
                "options, \033[1mdo those steps only if you trust the source of the "
                f"checkpoint\033[0m. \n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with "
                "`weights_only=True` please check the recommended steps in the following error "
                "message.\n\tWeightsUnpickler error: " + message + DOCS_MESSAGE)
    text = f"Weights only load failed. {UNSAFE_MESSAGE}\n"
    if "is blocked" not in message:
        text += ("Please file an issue with the following so that we can make "
                 "`weights_only=True` compatible with your use case: WeightsUnpickler error: ")
    return text + "\n\n" + message + DOCS_MESSAGE


# -- loading --------------------------------------------------------------------------------


class _Unpickler(pickle.Unpickler):
    """Unpickles ``data.pkl``: storages come from the archive's records (``persistent_load``);
    ``find_class`` is the one door to globals (Note [weights_only])."""

    def __init__(self, file, storages, weights_only, **kwargs):
        super().__init__(file, **kwargs)
        self.file, self.storages, self.weights_only = file, storages, weights_only

    def load(self):
        if self.weights_only:
            _check_opcodes(self.file)
        return super().load()

    def find_class(self, module, name):
        module, name = _fix_name(module, name)
        full = f"{module}.{name}"
        if self.weights_only:
            if module in _BLOCKED_MODULES:
                raise _refusal(module, name)
            found = _allowed().get(full, _user_allowed().get(full))
            if found is None:
                raise _refusal(module, name)
            return found
        if full in _allowed():
            return _allowed()[full]
        if module == "torch" or module.startswith("torch."):
            target = importlib.import_module("doctensor" + module[len("torch"):])
            for part in name.split("."):
                target = getattr(target, part)
            return target
        return super().find_class(module, name)

    def persistent_load(self, pid):
        """A ``('storage', storage class, key, location, numel[, None])`` id: the storage."""
        if (self.storages is None or type(pid) is not tuple or len(pid) not in (5, 6)
                or pid[0] != "storage" or not isinstance(pid[1], _StorageType)
                or not isinstance(pid[4], int) or pid[4:] not in ((pid[4],), (pid[4], None))):
            raise pickle.UnpicklingError("unsupported persistent id encountered")
        _, storage_type, key, location, numel = pid[:5]
        dtype = storage_type.dtype
        return TypedStorage(self.storages(str(key), str(location), dtype, numel), dtype)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    """Load an object saved by ``save`` or by torch 2.13's ``torch.save`` from ``f`` (a path,
    ``pathlib.Path`` or a readable binary file object).

    Args:
        map_location: where storages go: None (where they were saved), a device or its name,
            a dict ``{saved location: new location}``, or a callable ``(storage, location)``
            returning a storage, or None for the default.
        weights_only: True (the default, as torch's): only tensors, containers, numbers and
            the globals of Note [weights_only]; False loads anything (trusted files only).
        mmap: map the file's storages (CPU, read-only file, copy on write) instead of reading
            them: needs a path.
        pickle_module: as torch, giving one turns ``weights_only`` off by default; doctensor
            unpickles with its own unpickler all the same.
        pickle_load_args: ``encoding`` ("utf-8" by default) and the like, for the unpickler.

    A file whose pickle names a global outside Note [weights_only] raises torch's
    ``pickle.UnpicklingError``; a truncated file torch's ``RuntimeError`` (and a record whose
    CRC-32 is wrong, doctensor's).
    """
    if weights_only is None:
        weights_only = pickle_module is None
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    if pickle_load_args and weights_only:
        warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    pickle_load_args.setdefault("encoding", "utf-8")
    with _open(f) as fh:
        start = fh.tell()
        is_zip = fh.read(4) == b"PK\x03\x04"
        fh.seek(start)
        if mmap and not is_zip:
            name = f"{f}, " if isinstance(f, str) else ""
            raise RuntimeError(
                "mmap can only be used with files saved with `torch.save("
                f"{name}_use_new_zipfile_serialization=True), please torch.save your "
                "checkpoint with this option in order to use mmap.")
        if mmap and not isinstance(f, (str, os.PathLike)):
            raise ValueError("f must be a file path in order to use the mmap argument")
        try:
            if is_zip:
                with _zip_reader(fh) as z:
                    return _load_archive(z, os.fspath(f) if mmap else None, map_location,
                                         weights_only, pickle_load_args)
            return _load_legacy(fh, map_location, weights_only, pickle_load_args)
        except pickle.UnpicklingError as e:
            if weights_only:
                raise pickle.UnpicklingError(_weights_only_message(str(e))) from None
            raise


@contextlib.contextmanager
def _zip_reader(fh):
    """The archive, with torch's message for a broken one (and doctensor's when a record's
    CRC-32 is wrong: torch does not check it and loads the corrupt bytes)."""
    start = fh.tell()
    size = fh.seek(0, io.SEEK_END) - start
    fh.seek(start)
    try:
        with zipfile.ZipFile(fh) as z:
            yield z
    except zipfile.BadZipFile as e:
        if "CRC" in str(e):
            raise RuntimeError(f"doctensor.load: the checkpoint is corrupt: {e}") from None
        why = "not a ZIP archive" if size < 22 else "failed finding central directory"
        raise RuntimeError(
            f"PytorchStreamReader failed reading zip archive: {why}. "
            "This is an internal miniz error. If you are seeing this error, there is a high "
            "likelihood that your checkpoint file is corrupted. This can happen if the "
            "checkpoint was not saved properly, was transferred incorrectly, or the file was "
            "modified after saving.") from None


def _open(f):
    """A ``with``-able file: a path is opened (and closed), a file object is left open."""
    if isinstance(f, (str, os.PathLike)):
        return open(f, "rb")
    return contextlib.nullcontext(f)


def _prefix(z):
    for name in z.namelist():
        if name.endswith("data.pkl"):
            return name[:-len("data.pkl")]
    raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")


def _load_archive(z, mmap_path, map_location, weights_only, pickle_load_args):
    prefix = _prefix(z)
    little = (prefix + "byteorder" not in z.namelist()
              or z.read(prefix + "byteorder") == b"little")
    loaded = {}

    def storage(key, location, dtype, numel):
        if key not in loaded:
            raw = _read_record(z, z.getinfo(f"{prefix}data/{key}"), mmap_path)
            if raw.size != numel * dtype.itemsize:
                raise RuntimeError(
                    f"record size ({raw.size} bytes) does not match expected size "
                    f"({numel * dtype.itemsize} bytes = {numel * dtype.itemsize} elements * 1 "
                    "bytes/element) for dtype Byte")
            host = raw.view(dtype.np)
            if little != (sys.byteorder == "little"):
                host = host.byteswap()
            loaded[key] = _place(host, location, map_location)
        return loaded[key]

    pickled = z.read(prefix + "data.pkl")
    if weights_only and pickled[:1] == pickle.PROTO and pickled[1:2] != b"\x02":
        warnings.warn(
            f"Detected pickle protocol {pickled[1]} in the checkpoint, which was not the default "
            "pickle protocol used by `torch.load` (2). The weights_only Unpickler might not "
            "support all instructions implemented by this protocol, please file an issue for "
            "adding support if you encounter this.", stacklevel=4)
    return _Unpickler(io.BytesIO(pickled), storage, weights_only, **pickle_load_args).load()


def _load_legacy(fh, map_location, weights_only, pickle_load_args):
    """Read torch's legacy format (see ``_write_legacy``): storages are made empty while the
    object is unpickled, and filled from the bytes that follow it."""
    def unpickle(storage=None):
        return _Unpickler(fh, storage, weights_only, **pickle_load_args).load()

    start = fh.tell()
    if not fh.read(1):
        raise EOFError  # (torch's, with no message)
    fh.seek(start)
    if unpickle() != _MAGIC_NUMBER:
        raise RuntimeError("Invalid magic number; corrupt file?")
    version = unpickle()
    if version != _PROTOCOL_VERSION:
        raise RuntimeError(f"Invalid protocol version: {version}")
    sys_info = unpickle()
    little = not isinstance(sys_info, dict) or sys_info.get("little_endian", True)
    pending = {}

    def storage(key, location, dtype, numel):
        if key not in pending:
            pending[key] = _place(np.zeros(numel, dtype.np), location, map_location), dtype
        return pending[key][0]

    result = unpickle(storage)
    for key in unpickle():
        if key not in pending:
            raise RuntimeError(f"storage key {key!r} not found in deserialized_objects")
        placed, dtype = pending[key]
        count = fh.read(8)
        numel = struct.unpack("<q", count)[0] if len(count) == 8 else -1
        raw = fh.read(max(numel, 0) * dtype.itemsize)
        if numel * dtype.itemsize != placed.nbytes() or len(raw) != placed.nbytes():
            raise RuntimeError(f"doctensor.load: the checkpoint is truncated or corrupt "
                               f"(storage {key!r})")
        host = np.frombuffer(raw, dtype.np)
        if little != (sys.byteorder == "little"):
            host = host.byteswap()
        placed.buffer[...] = placed.backend.from_host(host)
    return result


def _read_record(z, info, mmap_path):
    """A record's bytes as a uint8 array: read (CRC checked), or mapped copy-on-write."""
    if mmap_path is None or info.compress_type != zipfile.ZIP_STORED:
        return np.frombuffer(bytearray(z.read(info)), dtype=np.uint8)
    with open(mmap_path, "rb") as fh:
        fh.seek(info.header_offset + 26)
        name_len, extra_len = struct.unpack("<HH", fh.read(4))
    start = info.header_offset + 30 + name_len + extra_len
    if info.file_size == 0:
        return np.zeros(0, np.uint8)
    mapped = np.memmap(mmap_path, dtype=np.uint8, mode="c", offset=start,
                       shape=(info.file_size,))
    return mapped.view(np.ndarray)  # (a plain array: ops give no memmap results)


def _place(host, location, map_location):
    """A Storage of ``host`` on the device ``map_location`` chooses for ``location``."""
    cpu = Storage(host, backends.for_device(torch.device("cpu")), torch.device("cpu"))
    if callable(map_location):
        result = map_location(cpu, location)
        if result is not None:
            return result
        target = location
    elif isinstance(map_location, dict):
        target = map_location.get(location, location)
    else:
        target = location if map_location is None else map_location
    device = torch.device(target)
    if device.type == "cpu":
        return cpu
    backend = backends.for_device(device)
    return Storage(backend.from_host(host), backend, device)

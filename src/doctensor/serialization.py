"""``torch.save`` / ``torch.load`` in doctensor's own file format (no pickle, no code).

Format (version 1)
==================

A file is a ZIP archive (stored, not compressed) with

* ``doctensor/header.json``: UTF-8 JSON ``{"format": "doctensor", "version": 1,
  "storages": [...], "tensors": [...], "root": ...}``;
* ``doctensor/storages/<i>``: the raw bytes of storage ``i`` (little-endian, C order).

Each storage record is ``{"dtype": "float32", "numel": n, "device": "cpu"}``; each tensor
record is ``{"storage": i, "offset": o, "shape": [...], "stride": [...],
"requires_grad": bool, "parameter": bool}``, so tensors that share memory when saved (a
tensor and its views) share memory again when loaded, as with torch.

``root`` encodes the saved object as JSON: strings, booleans, ``null`` and lists stand for
themselves; other values are one-key objects: ``{"int": "12"}``, ``{"float": "0.1"}``
(``repr`` text, so ``inf``/``nan`` and every bit survive), ``{"tuple": [...]}``,
``{"dict": [[key, value], ...]}`` (keys of any supported type, order kept),
``{"odict": [...]}`` (an ``OrderedDict``), ``{"size": [...]}``, ``{"dtype": "float32"}``,
``{"device": "cuda:0"}`` and ``{"tensor": i}``.

Loading never executes anything from the file: only these tags are understood, every
tensor's extent is checked against its storage, and the ZIP's CRC-32 checks catch corrupt
bytes; a truncated or corrupt file raises ``RuntimeError`` naming the problem.
"""

import io
import json
import os
import zipfile
from collections import OrderedDict

import numpy as np

import doctensor as torch

__all__ = ["save", "load"]

FORMAT = "doctensor"
VERSION = 1
_HEADER = "doctensor/header.json"
_STORAGE = "doctensor/storages/{}"
_DTYPES = ("float16", "float32", "float64", "uint8", "int8", "int16", "int32", "int64", "bool")


# -- saving --------------------------------------------------------------------------------


class _Writer:
    def __init__(self):
        self.storages = []  # (host bytes, record)
        self.storage_ids = {}  # id(storage) -> index
        self.tensors = []
        self.tensor_ids = {}  # id(tensor) -> index
        self.keep = []  # keeps saved objects alive so that ids stay unique

    def tensor(self, t):
        if id(t) in self.tensor_ids:
            return self.tensor_ids[id(t)]
        self.keep.append(t)
        storage = t.untyped_storage()
        if id(storage) not in self.storage_ids:
            self.keep.append(storage)
            buffer = np.asarray(storage.backend.to_host(storage.buffer))
            flat = np.ascontiguousarray(buffer).view(np.uint8)
            itemsize = t.element_size()
            record = {"dtype": t.dtype.name, "numel": flat.nbytes // itemsize,
                      "device": str(t.device)}
            self.storage_ids[id(storage)] = len(self.storages)
            self.storages.append((flat.astype("<u1").tobytes(), record, t.dtype))
        index = len(self.tensors)
        self.tensor_ids[id(t)] = index
        self.tensors.append({
            "storage": self.storage_ids[id(storage)], "offset": t.storage_offset(),
            "shape": list(t.shape), "stride": list(t.stride()),
            "requires_grad": bool(t.requires_grad),
            "parameter": isinstance(t, torch.nn.Parameter)})
        return index

    def encode(self, obj):
        if obj is None or isinstance(obj, (bool, str)):
            return obj
        if isinstance(obj, int):
            return {"int": str(obj)}
        if isinstance(obj, float):
            return {"float": repr(obj)}
        if isinstance(obj, torch.Tensor):
            return {"tensor": self.tensor(obj)}
        if isinstance(obj, torch.Size):
            return {"size": list(obj)}
        if isinstance(obj, torch.dtype):
            return {"dtype": obj.name}
        if isinstance(obj, torch.device):
            return {"device": str(obj)}
        if isinstance(obj, list):
            return [self.encode(v) for v in obj]
        if isinstance(obj, tuple) and type(obj) is tuple:
            return {"tuple": [self.encode(v) for v in obj]}
        if isinstance(obj, dict) and type(obj) in (dict, OrderedDict):
            tag = "odict" if isinstance(obj, OrderedDict) else "dict"
            return {tag: [[self.encode(k), self.encode(v)] for k, v in obj.items()]}
        raise TypeError(f"doctensor.save cannot store an object of type {type(obj).__name__}: "
                        "only tensors, numbers, strings, None, lists, tuples, dicts, "
                        "torch.Size, dtypes and devices (the format holds no code)")


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True):
    """Save ``obj`` (tensors, state dicts, optimizer states ...) to the path or file ``f``.

    See the module docstring for the format.
    """
    writer = _Writer()
    root = writer.encode(obj)
    header = {"format": FORMAT, "version": VERSION,
              "storages": [record for _, record, _ in writer.storages],
              "tensors": writer.tensors, "root": root}
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            _write(fh, header, writer)
    else:
        _write(f, header, writer)


def _write(fh, header, writer):
    with zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_STORED) as z:
        z.writestr(_HEADER, json.dumps(header))
        for i, (data, _, _) in enumerate(writer.storages):
            z.writestr(_STORAGE.format(i), data)


# -- loading -------------------------------------------------------------------------------


def _fail(name, why):
    raise RuntimeError(f"doctensor.load: {name} is not a valid doctensor file (truncated or "
                       f"corrupt): {why}")


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **pickle_load_args):
    """Load an object saved by ``save`` from the path or file ``f``.

    ``map_location`` (a device, a device string, or None for the saved device) says where
    tensors go.  A truncated or corrupt file raises ``RuntimeError``.
    """
    name = repr(os.fspath(f)) if isinstance(f, (str, os.PathLike)) else "the file"
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            data = fh.read()
    else:
        data = f.read()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            try:
                header = json.loads(z.read(_HEADER).decode("utf-8"))
            except KeyError:
                _fail(name, "no doctensor header (was it written by doctensor.save?)")
            storages = _read_storages(z, header, name)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError,
            UnicodeDecodeError) as e:
        _fail(name, str(e) or type(e).__name__)
    tensors = _make_tensors(header, storages, name, map_location)
    return _decode(header.get("root"), tensors, name)


def _read_storages(z, header, name):
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        _fail(name, "unknown format")
    if header.get("version") != VERSION:
        _fail(name, f"unsupported format version {header.get('version')!r}")
    out = []
    records = header.get("storages")
    if not isinstance(records, list):
        _fail(name, "bad storage table")
    for i, rec in enumerate(records):
        if not isinstance(rec, dict) or rec.get("dtype") not in _DTYPES or \
                not isinstance(rec.get("numel"), int) or rec["numel"] < 0:
            _fail(name, f"bad record for storage {i}")
        raw = z.read(_STORAGE.format(i))  # checks the CRC-32
        dt = np.dtype(rec["dtype"]).newbyteorder("<")
        if len(raw) != rec["numel"] * dt.itemsize:
            _fail(name, f"storage {i} has {len(raw)} bytes, expected "
                        f"{rec['numel'] * dt.itemsize}")
        out.append(np.frombuffer(raw, dtype=dt).astype(dt.newbyteorder("="), copy=True))
    return out


def _make_tensors(header, storages, name, map_location):
    records = header.get("tensors")
    if not isinstance(records, list):
        _fail(name, "bad tensor table")
    owners = [torch.from_numpy(s) for s in storages]
    out = []
    for i, rec in enumerate(records):
        try:
            s, offset = rec["storage"], rec["offset"]
            shape, stride = tuple(rec["shape"]), tuple(rec["stride"])
            ok = isinstance(s, int) and 0 <= s < len(storages) and isinstance(offset, int) \
                and len(shape) == len(stride) and all(
                    isinstance(v, int) and v >= 0 for v in shape + stride + (offset,))
        except (KeyError, TypeError):
            ok = False
        if ok:
            numel = int(np.prod(shape)) if shape else 1
            last = offset + sum((n - 1) * st for n, st in zip(shape, stride)) if numel else 0
            ok = numel == 0 or last < storages[s].size
        if not ok:
            _fail(name, f"bad record for tensor {i}")
        t = owners[s].as_strided(shape, stride, offset).detach()
        device = map_location if map_location is not None else \
            header["storages"][s].get("device", "cpu")
        if callable(device):
            device = "cpu"
        if str(device) != "cpu":
            t = t.to(device)
        if rec.get("parameter"):
            t = torch.nn.Parameter(t, requires_grad=bool(rec.get("requires_grad")))
        elif rec.get("requires_grad"):
            t.requires_grad_(True)
        out.append(t)
    return out


def _decode(node, tensors, name):
    if node is None or isinstance(node, (bool, str)):
        return node
    if isinstance(node, list):
        return [_decode(v, tensors, name) for v in node]
    if not isinstance(node, dict) or len(node) != 1:
        _fail(name, "bad object record")
    (tag, value), = node.items()
    try:
        if tag == "int":
            return int(value)
        if tag == "float":
            return float(value)
        if tag == "tensor":
            return tensors[value]
        if tag == "tuple":
            return tuple(_decode(v, tensors, name) for v in value)
        if tag in ("dict", "odict"):
            pairs = [(_decode(k, tensors, name), _decode(v, tensors, name)) for k, v in value]
            return OrderedDict(pairs) if tag == "odict" else dict(pairs)
        if tag == "size":
            return torch.Size(int(v) for v in value)
        if tag == "dtype":
            if value not in _DTYPES:
                _fail(name, f"unknown dtype {value!r}")
            return getattr(torch, value)
        if tag == "device":
            return torch.device(value)
    except (TypeError, ValueError, IndexError):
        pass
    _fail(name, f"bad object record {tag!r}")

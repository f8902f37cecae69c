"""torch.save / torch.load: round trips (compared with torch's own round trip) and the
rejection of truncated, corrupt or foreign files.  doctensor's format is its own (a ZIP with
a JSON header and raw bytes, see ``doctensor/serialization.py``): nothing in it is executed."""

import io
import json
import zipfile
from collections import OrderedDict

import pytest
from _oracle import doctensor, same_outcome


def _round_trip(T, obj):
    buf = io.BytesIO()
    T.save(obj, buf)
    buf.seek(0)
    return T.load(buf)


def test_tensors_and_containers():
    def fn(T):
        x = T.arange(12.0).reshape(3, 4)
        obj = {"x": x, "row": x[1], "t": x.t(), "ints": T.tensor([1, 2], dtype=T.int32),
               "b": T.tensor([True, False]), "d": T.ones(2, dtype=T.float64),
               "scalar": T.tensor(3.5), "empty": T.zeros(0, 3), 7: (1, 2.5, None, "s"),
               "list": [T.ones(1), {"nested": float("inf")}], "size": T.Size([2, 3]),
               "dtype": T.float16, "g": T.ones(2, requires_grad=True),
               "p": T.nn.Parameter(T.zeros(2))}
        back = _round_trip(T, obj)
        back["row"][0] = 100.0  # views share memory again after loading
        return (back, back["x"], back["t"].stride(), type(back["p"]).__name__,
                back["p"].requires_grad, back["g"].requires_grad, back["g"].is_leaf)
    same_outcome(fn, rtol=0, atol=0)


def _net(T):
    return T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.BatchNorm1d(4),
                           T.nn.Linear(4, 2))


def test_model_and_optimizer_state_round_trip():
    def fn(T):
        T.manual_seed(0)
        model = _net(T)
        opt = T.optim.Adam(model.parameters(), lr=0.01)
        (model(T.randn(5, 3)) ** 2).sum().backward()
        opt.step()
        sd = _round_trip(T, model.state_dict())
        osd = _round_trip(T, opt.state_dict())
        fresh = _net(T)
        result = fresh.load_state_dict(sd)
        opt2 = T.optim.Adam(fresh.parameters())
        opt2.load_state_dict(osd)
        return (type(sd).__name__, list(sd), sd, repr(result), osd["param_groups"],
                opt2.state_dict()["state"], list(fresh.parameters()))
    same_outcome(fn, reprs=False, rtol=1e-6, atol=1e-6)


def test_save_to_a_path(tmp_path):
    def fn(T):
        path = tmp_path / f"{T.__name__}.pt"
        T.save({"w": T.ones(2, 2) * 3}, path)
        return T.load(path), T.load(str(path), map_location="cpu")
    same_outcome(fn)


def _saved_bytes(obj=None):
    buf = io.BytesIO()
    doctensor.save(obj if obj is not None else {"w": doctensor.arange(100.0)}, buf)
    return buf.getvalue()


@pytest.mark.parametrize("cut", [0, 10, 100, -30, -1])
def test_truncated_files_are_rejected(cut):
    data = _saved_bytes()
    data = data[:cut] if cut > 0 else data[:len(data) + cut] if cut else b""
    with pytest.raises(RuntimeError, match="not a valid doctensor file"):
        doctensor.load(io.BytesIO(data))


def test_corrupt_tensor_bytes_are_rejected():
    data = bytearray(_saved_bytes())
    i = data.index(b"doctensor/storages/0") + 60  # inside the stored bytes (after the name)
    data[i] ^= 0xFF
    with pytest.raises(RuntimeError, match="not a valid doctensor file"):
        doctensor.load(io.BytesIO(bytes(data)))


def _rewrite_header(edit):
    src = zipfile.ZipFile(io.BytesIO(_saved_bytes()))
    header = json.loads(src.read("doctensor/header.json"))
    edit(header)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("doctensor/header.json", json.dumps(header))
        for name in src.namelist():
            if name != "doctensor/header.json":
                z.writestr(name, src.read(name))
    out.seek(0)
    return out


@pytest.mark.parametrize("edit", [
    lambda h: h.update(format="pickle"),
    lambda h: h.update(version=99),
    lambda h: h["tensors"][0].update(shape=[1000]),  # reads past the storage
    lambda h: h["tensors"][0].update(offset=-1),
    lambda h: h["tensors"][0].update(storage=5),
    lambda h: h["storages"][0].update(dtype="object"),
    lambda h: h["storages"][0].update(numel=99),
    lambda h: h.update(root={"call": "os.system"}),
    lambda h: h.update(root={"tensor": 9}),
])
def test_bad_headers_are_rejected(edit):
    with pytest.raises(RuntimeError, match="not a valid doctensor file"):
        doctensor.load(_rewrite_header(edit))


def test_foreign_files_are_rejected():
    torch_file = io.BytesIO()
    import torch
    torch.save({"w": torch.ones(2)}, torch_file)
    torch_file.seek(0)
    with pytest.raises(RuntimeError, match="no doctensor header"):
        doctensor.load(torch_file)
    with pytest.raises(RuntimeError, match="not a valid doctensor file"):
        doctensor.load(io.BytesIO(b"\x80\x04\x95 pickle bytes"))


def test_unsupported_objects_are_refused_at_save():
    with pytest.raises(TypeError, match="cannot store an object of type"):
        doctensor.save({"f": lambda: 0}, io.BytesIO())
    with pytest.raises(TypeError, match="cannot store an object of type"):
        doctensor.save(doctensor.nn.Linear(2, 2), io.BytesIO())


def test_format_is_documented_json_and_bytes():
    z = zipfile.ZipFile(io.BytesIO(_saved_bytes(OrderedDict(a=doctensor.ones(2)))))
    header = json.loads(z.read("doctensor/header.json"))
    assert header["format"] == "doctensor" and header["version"] == 1
    assert header["root"] == {"odict": [["a", {"tensor": 0}]]}
    assert header["storages"] == [{"dtype": "float32", "numel": 2, "device": "cpu"}]
    assert z.read("doctensor/storages/0") == b"\x00\x00\x80\x3f" * 2

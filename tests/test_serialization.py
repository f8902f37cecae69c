"""torch.save / torch.load: round trips compared with torch's own round trip, and what the
format holds.  doctensor writes and reads torch 2.13's format (``doctensor/serialization.py``);
tests/test_serialization_torch.py moves checkpoints between the two libraries."""

import io
import pickletools
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
def test_truncated_files_are_rejected_as_torch_rejects_them(cut):
    def fn(T):
        buf = io.BytesIO()
        T.save({"w": T.arange(100.0)}, buf)
        data = buf.getvalue()
        return T.load(io.BytesIO(data[:cut] if cut >= 0 else data[:len(data) + cut]))
    same_outcome(fn)


def test_corrupt_tensor_bytes_are_rejected():
    data = bytearray(_saved_bytes())
    data[data.index(b"archive/data/0") + 100] ^= 0xFF  # inside the stored bytes
    with pytest.raises(RuntimeError, match="checkpoint is corrupt: Bad CRC-32"):
        doctensor.load(io.BytesIO(bytes(data)))


def test_modules_and_functions_pickle_as_torch_pickles_them():
    def fn(T):
        buf = io.BytesIO()
        T.save({"net": T.nn.Linear(2, 2), "f": print}, buf)
        buf.seek(0)
        with zipfile.ZipFile(buf) as z:
            pickled = z.read("archive/data.pkl")
        return sorted({arg for op, arg, _ in pickletools.genops(pickled)
                       if op.name == "GLOBAL" and ("Linear" in arg or arg == "builtins print")})
    same_outcome(fn)


def test_format_is_torchs():
    z = zipfile.ZipFile(io.BytesIO(_saved_bytes(OrderedDict(a=doctensor.ones(2)))))
    assert z.namelist() == ["archive/data.pkl", "archive/.format_version",
                            "archive/.storage_alignment", "archive/byteorder", "archive/data/0",
                            "archive/version", "archive/.data/serialization_id"]
    ops = [(op.name, arg) for op, arg, _ in pickletools.genops(z.read("archive/data.pkl"))]
    assert ("GLOBAL", "torch._utils _rebuild_tensor_v2") in ops
    assert ("GLOBAL", "torch FloatStorage") in ops and ("BINPERSID", None) in ops
    assert z.read("archive/data/0") == b"\x00\x00\x80\x3f" * 2
    assert z.read("archive/version") == b"3\n" and z.read("archive/byteorder") == b"little"
    assert len(z.read("archive/.data/serialization_id")) == 40

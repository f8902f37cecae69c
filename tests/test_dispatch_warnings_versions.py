"""What the op table does not compare, for behaviours the one dispatch (issue 14) settled:
the warnings torch gives (in-place writes into an expanded tensor, var/std without degrees of
freedom) and the version counters of the norm layers, against torch 2.13."""

import warnings

import pytest
import torch

import doctensor


def _warned(lib, fn):
    """(result of ``fn(lib)`` or its error, [(category name, message)] it warned)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(lib)
        except RuntimeError as e:
            out = ("RuntimeError", str(e))
    return out, [(w.category.__name__, str(w.message)) for w in caught]


def _expanded(lib):
    return lib.zeros(1).expand(3, 4)


def _set(t, index, value):
    t[index] = value
    return t


WRITES = {
    "masked_fill_": lambda T: _expanded(T).masked_fill_(T.ones(3, 4, dtype=T.bool), 1.0),
    "masked_fill_tensor": lambda T: _expanded(T).masked_fill_(T.ones(3, 4, dtype=T.bool),
                                                              T.tensor(1.0)),
    "index_fill_": lambda T: _expanded(T).index_fill_(0, T.tensor([0]), 1.0),
    "setitem_index": lambda T: _set(_expanded(T), T.tensor([0]), 1.0),
    "tril_": lambda T: _expanded(T).tril_(1),
    "fill_": lambda T: _expanded(T).fill_(2.0),
    "fill_tensor": lambda T: _expanded(T).fill_(T.tensor(2.0)),
    "zero_": lambda T: _expanded(T).zero_(),
    "add_": lambda T: _expanded(T).add_(1),
    "copy_": lambda T: _expanded(T).copy_(T.ones(3, 4)),
    "resize_": lambda T: _expanded(T).resize_(2, 3).shape,
}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_writing_into_an_expanded_tensor_warns_or_refuses_as_torch(name):
    """Note [writing into an expand]: refused, written through, or written with torch's
    deprecation warning (its text, word for word)."""
    ours, theirs = (_warned(lib, WRITES[name]) for lib in (doctensor, torch))
    assert ours[1] == theirs[1]
    if isinstance(theirs[0], tuple):
        assert ours[0] == theirs[0]
    elif name == "resize_":
        assert tuple(ours[0]) == tuple(theirs[0])
    else:
        assert ours[0].tolist() == theirs[0].tolist()


@pytest.mark.parametrize("call", ["var", "std", "var_dim", "var_correction", "var_ok"])
def test_degrees_of_freedom_warning_is_torchs(call):
    def fn(T):
        x = T.ones(3)
        return {"var": lambda: T.ones(1).var(), "std": lambda: T.ones(2, 1).std(1),
                "var_dim": lambda: T.tensor(2.0).var(0),
                "var_correction": lambda: x.var(correction=3),
                "var_ok": lambda: x.var(correction=2)}[call]()
    ours, theirs = (_warned(lib, fn) for lib in (doctensor, torch))
    assert ours[1] == theirs[1]
    assert ours[0].isnan().tolist() == theirs[0].isnan().tolist()


@pytest.mark.parametrize("layer", ["BatchNorm1d", "LayerNorm", "GroupNorm"])
def test_norm_layers_versions_after_construction_and_a_training_step(layer):
    """torch's layers reset their parameters and running stats in place (one bump each); its
    batch_norm kernel then updates the running stats without a bump."""
    def versions(T):
        T.manual_seed(0)
        make = {"BatchNorm1d": lambda: T.nn.BatchNorm1d(3), "LayerNorm": lambda: T.nn.LayerNorm(3),
                "GroupNorm": lambda: T.nn.GroupNorm(1, 3)}[layer]
        m = make()
        before = [(n, t._version) for n, t in [*m.named_parameters(), *m.named_buffers()]]
        m(T.randn(4, 3))
        after = [(n, t._version) for n, t in [*m.named_parameters(), *m.named_buffers()]]
        return before, after, [t.detach().tolist() for _, t in m.named_buffers()]
    assert versions(doctensor) == versions(torch)

"""``torch.device``: a device type and an optional index (``cpu``, ``cuda:0``)."""

__all__ = ["device"]

# how ``with device(...)`` reads and sets the factories' default device: filled in by
# doctensor.functions (its set_default_device; this module sits below it)
DEFAULT_DEVICE_HOOKS = {}
_ENTERED = []  # the defaults the open ``with device(...)`` blocks replaced, innermost last


class device:
    """A device such as ``device('cpu')`` or ``device('cuda:0')``, compared by type and index."""

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int) and index is None:
            type, index = "cuda", type
        elif ":" in type:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was "
                                   f"passed explicitly: {type}")
            type, _, idx = type.partition(":")
            if not idx.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}:{idx}'")
            index = int(idx)
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        if type not in ("cpu", "cuda", "meta"):
            raise RuntimeError(
                "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
                "fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type "
                f"at start of device string: {type}")
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "index", index)

    def __setattr__(self, name, value):
        raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __reduce__(self):
        return (device, (self.type, self.index))

    def __enter__(self):
        """``with torch.device('cuda'):`` factories inside the block default to this device
        (``set_default_device`` until the block ends)."""
        _ENTERED.append(DEFAULT_DEVICE_HOOKS["get"]())
        DEFAULT_DEVICE_HOOKS["set"](self)
        return self

    def __exit__(self, *exc_info):
        DEFAULT_DEVICE_HOOKS["set"](_ENTERED.pop())


CPU = device("cpu")
CUDA0 = device("cuda", 0)


def as_device(d):
    """Normalise a user's device argument: a tensor lives on ``cpu`` or ``cuda:<index>``."""
    if d is None or d is CPU or d is CUDA0:
        return d
    d = device(d)
    if d.type == "cpu":
        return CPU
    if d.type == "cuda" and (d.index is None or d.index == 0):
        return CUDA0
    return d

"""``torch.backends.cuda``: the CUDA switches torch keeps (TF32 and reduced-precision
matmuls, the attention kernels allowed), recorded as torch records them; doctensor's
products never use TF32 or reduced precision, and its attention has one kernel."""

__all__ = ["is_built", "matmul", "flash_sdp_enabled", "enable_flash_sdp",
           "mem_efficient_sdp_enabled", "enable_mem_efficient_sdp", "math_sdp_enabled",
           "enable_math_sdp", "cudnn_sdp_enabled", "enable_cudnn_sdp"]


def is_built():
    """Whether ``cuda`` tensors run on a real GPU here (CuPy); the emulated device is not
    CUDA."""
    from . import cuda_mode
    return cuda_mode() == "cupy"


class _Matmul:
    """``torch.backends.cuda.matmul``: its three switches, checked as torch checks them."""

    _VALUES = {"allow_tf32": False, "allow_fp16_reduced_precision_reduction": True,
               "allow_bf16_reduced_precision_reduction": True}

    def __getattr__(self, name):
        if name in self._VALUES:
            return self._VALUES[name]
        raise AttributeError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name not in self._VALUES:
            raise AttributeError(f"Unknown attribute {name}")
        if name == "allow_tf32" and value.__class__ is not bool:
            raise RuntimeError(f"set_allow_tf32_cublas expects a bool, but got "
                               f"{type(value).__name__}")
        if name != "allow_tf32":
            value = _reduced_precision(name, value)
        self._VALUES[name] = value


def _reduced_precision(name, value):
    """A reduced-precision switch: a bool, or (allowed, allow split-K) as torch takes it."""
    if value.__class__ is bool:
        return value
    if not isinstance(value, (tuple, list)) or any(v.__class__ is not bool for v in value):
        raise TypeError(f"{name} expects a bool or a tuple/list of bools, but got {type(value)}")
    if not value:
        raise TypeError(f"{name} expects at least one boolean argument")
    if len(value) > 2:
        raise TypeError(f"{name} expects at most two boolean arguments")
    if value[0] and len(value) == 2 and not value[1]:
        raise RuntimeError("allow_splitk=False is not supported when reduced precision "
                           "reductions are enabled")
    return value[0]


matmul = _Matmul()


def _sdp_switch(kind):
    """The pair ``<kind>_sdp_enabled()`` / ``enable_<kind>_sdp(enabled)`` over one flag."""
    flag = [True]

    def enabled():
        return flag[0]

    def enable(enabled):
        flag[0] = enabled

    enabled.__name__, enable.__name__ = f"{kind}_sdp_enabled", f"enable_{kind}_sdp"
    enabled.__doc__ = f"Whether scaled_dot_product_attention may use the {kind} kernel."
    enable.__doc__ = f"Allow or forbid the {kind} kernel (recorded only)."
    return enabled, enable


flash_sdp_enabled, enable_flash_sdp = _sdp_switch("flash")
mem_efficient_sdp_enabled, enable_mem_efficient_sdp = _sdp_switch("mem_efficient")
math_sdp_enabled, enable_math_sdp = _sdp_switch("math")
cudnn_sdp_enabled, enable_cudnn_sdp = _sdp_switch("cudnn")

"""``torch.autograd``: ``backward``, ``grad``, grad modes, custom ``Function`` and tools."""

from . import forward_ad, functional, graph  # noqa: F401  (torch.autograd.functional, ...)
from .anomaly_mode import (
    detect_anomaly,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_detect_anomaly,
)
from .api import backward, grad
from .flags import (
    is_multithreading_enabled,
    is_tensor_like,
    is_view_replay_enabled,
    set_multithreading_enabled,
)
from .function import Function, FunctionCtx, once_differentiable
from .grad_mode import (
    enable_grad,
    enforce_grad_layout_policy,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .graph import Node, SavedTensor
from .variable import Variable

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled",
           "inference_mode", "is_inference_mode_enabled", "Function", "FunctionCtx",
           "once_differentiable", "Node", "SavedTensor", "detect_anomaly", "set_detect_anomaly",
           "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "gradcheck", "gradgradcheck",
           "GradcheckError", "functional", "graph", "forward_ad", "Variable",
           "is_multithreading_enabled", "set_multithreading_enabled", "is_view_replay_enabled",
           "is_tensor_like", "enforce_grad_layout_policy"]

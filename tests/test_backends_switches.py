"""The switches of torch.backends (cudnn, cuda, mps, cpu) and torch's deterministic-algorithms
mode, as the seeding boilerplate of teaching code sets and reads them, against torch 2.13
(CPU build): defaults, values kept, torch's errors for bad values, ``flags`` restoring."""

import pytest
from _oracle import same_outcome

import doctensor

_MATMUL = ("allow_tf32", "allow_fp16_reduced_precision_reduction",
           "allow_bf16_reduced_precision_reduction")


def _restoring(scenario):
    """``scenario(T)`` with every switch put back afterwards (they are process-wide)."""
    def run(T):
        cudnn, matmul, cuda = T.backends.cudnn, T.backends.cuda.matmul, T.backends.cuda
        saved = ([getattr(cudnn, k) for k in ("enabled", "benchmark", "deterministic",
                                              "allow_tf32")],
                 [getattr(matmul, k) for k in _MATMUL],
                 cuda.flash_sdp_enabled(), T.get_deterministic_debug_mode())
        try:
            return scenario(T)
        finally:
            for k, v in zip(("enabled", "benchmark", "deterministic", "allow_tf32"), saved[0]):
                setattr(cudnn, k, v)
            for k, v in zip(_MATMUL, saved[1]):
                setattr(matmul, k, v)
            cuda.enable_flash_sdp(saved[2])
            T.set_deterministic_debug_mode(saved[3])
    return run


def test_defaults():
    def scenario(T):
        c, m = T.backends.cudnn, T.backends.cuda
        return (c.enabled, c.benchmark, c.deterministic, c.allow_tf32, c.benchmark_limit,
                c.is_available(), c.version(), T.backends.mps.is_available(),
                T.backends.mps.is_built(), T.backends.cpu.get_cpu_capability(), m.is_built(),
                m.matmul.allow_tf32, m.matmul.allow_fp16_reduced_precision_reduction,
                m.matmul.allow_bf16_reduced_precision_reduction, m.flash_sdp_enabled(),
                m.mem_efficient_sdp_enabled(), m.math_sdp_enabled(), m.cudnn_sdp_enabled(),
                T.are_deterministic_algorithms_enabled(),
                T.is_deterministic_algorithms_warn_only_enabled(),
                T.get_deterministic_debug_mode())
    same_outcome(scenario)


def test_the_usual_seeding_block():
    def scenario(T):
        T.manual_seed(0)
        T.backends.cudnn.deterministic = True
        T.backends.cudnn.benchmark = False
        T.use_deterministic_algorithms(True)
        T.backends.cuda.matmul.allow_tf32 = True
        T.backends.cuda.enable_flash_sdp(False)
        return (T.backends.cudnn.deterministic, T.backends.cudnn.benchmark,
                T.are_deterministic_algorithms_enabled(), T.backends.cuda.matmul.allow_tf32,
                T.backends.cuda.flash_sdp_enabled(), T.rand(3))
    same_outcome(_restoring(scenario))


@pytest.mark.parametrize("name", ["enabled", "benchmark", "deterministic", "allow_tf32"])
@pytest.mark.parametrize("value", ["yes", 1, None, 1.5])
def test_cudnn_switches_take_bools_only(name, value):
    def scenario(T):
        setattr(T.backends.cudnn, name, value)
    same_outcome(_restoring(scenario))


@pytest.mark.parametrize("name, value", [
    ("allow_tf32", "yes"), ("allow_tf32", 1), ("allow_fp16_reduced_precision_reduction", 1),
    ("allow_fp16_reduced_precision_reduction", (True, False)),
    ("allow_bf16_reduced_precision_reduction", (False, True)),
    ("allow_bf16_reduced_precision_reduction", [True]),
    ("allow_fp16_reduced_precision_reduction", ()),
    ("allow_fp16_reduced_precision_reduction", (True, True, True)), ("no_such_switch", True)])
def test_matmul_switches(name, value):
    def scenario(T):
        setattr(T.backends.cuda.matmul, name, value)
        return getattr(T.backends.cuda.matmul, name)
    same_outcome(_restoring(scenario))


def test_cudnn_flags_restore_the_switches():
    def scenario(T):
        c = T.backends.cudnn
        with c.flags(enabled=False, deterministic=True):
            inside = (c.enabled, c.benchmark, c.deterministic, c.allow_tf32)
        return inside, (c.enabled, c.benchmark, c.deterministic, c.allow_tf32)
    same_outcome(_restoring(scenario))


@pytest.mark.parametrize("call", [
    lambda T: T.use_deterministic_algorithms(True, warn_only=True),
    lambda T: T.use_deterministic_algorithms(False),
    lambda T: T.use_deterministic_algorithms("yes"),
    lambda T: T.use_deterministic_algorithms(1),
    lambda T: T.use_deterministic_algorithms(True, warn_only=1),
    lambda T: T.set_deterministic_debug_mode("warn"),
    lambda T: T.set_deterministic_debug_mode("error"),
    lambda T: T.set_deterministic_debug_mode(0),
    lambda T: T.set_deterministic_debug_mode(3),
    lambda T: T.set_deterministic_debug_mode("loud"),
    lambda T: T.set_deterministic_debug_mode(1.5),
])
def test_deterministic_mode(call):
    def scenario(T):
        call(T)
        return (T.are_deterministic_algorithms_enabled(),
                T.is_deterministic_algorithms_warn_only_enabled(),
                T.get_deterministic_debug_mode())
    same_outcome(_restoring(scenario))


def test_cpu_capability_is_the_reproduced_build():
    from doctensor._exact.capability import cpu_capability
    assert doctensor.backends.cpu.get_cpu_capability() == cpu_capability().upper()

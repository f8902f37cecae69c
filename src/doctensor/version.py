"""``torch.version``: what this build is.

doctensor is not built against CUDA, HIP or XPU (a real GPU is reached through CuPy, which
brings its own CUDA), so those are None, as in torch's CPU wheels.
"""

__all__ = ["__version__", "cuda", "hip", "xpu", "rocm", "debug", "git_version"]

__version__ = "0.1.0"  # doctensor's own version (torch.__version__ is the same string)
cuda = None
hip = None
xpu = None
rocm = None
debug = False
git_version = None

"""``torch.fft``: discrete Fourier transforms, each naming an op declared in ``ops/``."""

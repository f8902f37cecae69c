"""The discrete Fourier transforms of ``torch.fft``."""

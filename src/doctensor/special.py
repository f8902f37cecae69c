"""``torch.special``: special functions, each naming an op declared in ``ops/``."""

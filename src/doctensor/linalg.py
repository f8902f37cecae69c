"""``torch.linalg``: linear algebra functions, each naming an op declared in ``ops/``."""

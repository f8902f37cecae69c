"""Shapes, joining and splitting beyond ``views`` and ``joining``: stacks, splits, rotations,
``repeat_interleave``, ``take``, the scatter-into (``*_scatter``) family."""

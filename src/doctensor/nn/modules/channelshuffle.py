"""``ChannelShuffle``: the channels of ``groups`` groups interleaved (ShuffleNet)."""

from .. import functional as F
from .module import Module

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    """``(N, g C', *)`` with channels grouped ``(g, C')`` -> regrouped ``(C', g)``."""

    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"

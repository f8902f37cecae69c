"""``torch.nn.utils.rnn``: ``pad_sequence``."""

import doctensor as torch

__all__ = ["pad_sequence"]


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Sequences of different lengths (dim 0) stacked into one tensor, padded with
    ``padding_value`` after them (or before, ``padding_side='left'``): shaped
    ``(longest, batch, ...)`` or, with ``batch_first``, ``(batch, longest, ...)``.  Each
    sequence is copied into a slice of the result, as torch does (its grad_fn is CopySlices)."""
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got "
                         f"{padding_side}.")
    longest = max(len(s) for s in sequences)
    batch = (len(sequences), longest) if batch_first else (longest, len(sequences))
    first = sequences[0]
    out = torch.full(batch + tuple(first.shape[1:]), padding_value, dtype=first.dtype,
                     device=first.device)
    for i, seq in enumerate(sequences):
        start = longest - len(seq) if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, len(seq)).copy_(seq)
        else:
            out.narrow(0, start, len(seq)).select(1, i).copy_(seq)
    return out

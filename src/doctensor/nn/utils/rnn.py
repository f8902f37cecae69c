"""``torch.nn.utils.rnn``: padding and packing batches of sequences of different lengths."""

from collections import namedtuple

import doctensor as torch

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence",
           "pad_sequence", "unpad_sequence", "pack_sequence", "unpack_sequence"]


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


# -- packed sequences ---------------------------------------------------------------------------

class PackedSequence(namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices",
                                                    "unsorted_indices"])):
    """Sequences of different lengths stored time step by time step without padding.

    ``data`` holds, for each time step, the elements of the sequences still running (longest
    first); ``batch_sizes[t]`` says how many.  ``sorted_indices`` (if the batch was sorted by
    length) maps positions in ``data`` to the caller's batch order, ``unsorted_indices`` back.

        >>> p = pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5]), torch.tensor([6])])
        >>> p.data, p.batch_sizes
        (tensor([1, 4, 6, 2, 5, 3]), tensor([3, 2, 1]))
    """

    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        elif batch_sizes.device.type != "cpu":
            raise ValueError(
                "batch_sizes should always be on CPU. Instances of PackedSequence should never "
                "be created manually. They should be instantiated by functions like "
                "pack_sequence and pack_padded_sequences in nn.utils.rnn. "
                "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """``data`` converted as ``Tensor.to``; the indices follow it to its device
        (``batch_sizes`` stays on the CPU)."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        sorted_indices, unsorted_indices = (
            None if t is None else t.to(data.device)
            for t in (self.sorted_indices, self.unsorted_indices))
        return type(self)(data, self.batch_sizes, sorted_indices, unsorted_indices)

    def cpu(self):
        return self.to(device="cpu")

    def cuda(self, device=None):
        return self.to(device="cuda" if device is None else device)

    def double(self):
        return self.to(dtype=torch.float64)

    def float(self):
        return self.to(dtype=torch.float32)

    def half(self):
        return self.to(dtype=torch.float16)

    def long(self):
        return self.to(dtype=torch.int64)

    def int(self):
        return self.to(dtype=torch.int32)

    @property
    def is_cuda(self):
        return self.data.is_cuda


def invert_permutation(permutation):
    """The permutation that undoes ``permutation`` (None stays None)."""
    if permutation is None:
        return None
    output = torch.empty_like(permutation)
    output.scatter_(0, permutation, torch.arange(0, permutation.numel(),
                                                 device=permutation.device))
    return output


def _pack(input, lengths, batch_first):
    """torch's ``_pack_padded_sequence``: the checks, then one block per run of equal lengths
    (shortest first), each block the time steps ``[prev, l)`` of the ``batch - i`` longest
    sequences, flattened to rows and concatenated, under torch's one node
    ``PackPaddedSequenceBackward0`` (Note [fused nodes])."""
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if lengths.dim() != 1 or lengths.device.type != "cpu":
        raise RuntimeError("'lengths' argument should be a 1D CPU int64 tensor, but got "
                           f"{lengths.dim()}D {lengths.device} Long tensor")
    lengths = lengths.tolist()
    batch = input.size(0 if batch_first else 1)
    if len(lengths) != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{len(lengths)} (batch_size={batch})")
    if lengths[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    if any(a < b for a, b in zip(lengths, lengths[1:])):
        raise RuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
            "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
            "pack_sequence to sidestep this requirement if you do not need ONNX "
            "exportability.")
    runs = []  # (first step, end step, sequences running)
    prev = 0
    for i, length in enumerate(reversed(lengths)):
        if length > prev:
            runs.append((prev, length, batch - i))
            prev = length

    def compose(input):
        if batch_first:
            input = input.transpose(0, 1)
        return torch.cat([input[start:end, :running].contiguous().view(-1, *input.shape[2:])
                          for start, end, running in runs])

    data = torch._nn.run_fused(torch._nn.pack_padded_op, compose, (input,),
                               batch_first=batch_first, input_sym_sizes=tuple(input.shape))
    batch_sizes = [running for start, end, running in runs for _ in range(end - start)]
    return data, torch.tensor(batch_sizes, dtype=torch.int64)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded batch (``T x B x *``, or ``B x T x *`` with ``batch_first``) whose
    sequences have the given ``lengths``.  With ``enforce_sorted=False`` the batch is sorted
    by decreasing length first (``sorted_indices`` records the order)."""
    if not isinstance(lengths, torch.Tensor):
        lengths = torch.as_tensor(lengths, dtype=torch.int64, device="cpu")
    else:
        lengths = lengths.to(dtype=torch.int64)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = _pack(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _pad(data, batch_sizes, batch_first, padding_value, total_length):
    """torch's ``_pad_packed_sequence``: a ``full`` tensor into which each run of time steps
    with the same batch size is copied as one block; the lengths read off ``batch_sizes``."""
    sizes = batch_sizes.tolist()
    out = torch.full((total_length, sizes[0]) + tuple(data.shape[1:]), padding_value,
                     dtype=data.dtype, device=data.device)
    offset, start = 0, 0
    for t in range(1, len(sizes) + 1):
        if t == len(sizes) or sizes[t] != sizes[start]:
            n = sizes[start] * (t - start)
            block = data.narrow(0, offset, n).view(t - start, sizes[start], *data.shape[1:])
            out[start:t, :sizes[start]].copy_(block)
            offset, start = offset + n, t
    lengths = [sum(1 for b in sizes if b > i) for i in range(sizes[0])]
    return (out.transpose(0, 1) if batch_first else out), torch.tensor(lengths)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The inverse of ``pack_padded_sequence``: (padded batch, lengths), in the caller's
    batch order; ``total_length`` pads the time dimension further."""
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being "
                f"{max_seq_length}")
        max_seq_length = total_length
    padded, lengths = _pad(sequence.data, sequence.batch_sizes, batch_first, padding_value,
                           max_seq_length)
    if sequence.unsorted_indices is not None:
        return (padded.index_select(0 if batch_first else 1, sequence.unsorted_indices),
                lengths[sequence.unsorted_indices.cpu()])
    return padded, lengths


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences in a padded batch (``padded_sequences`` is transposed in place
    when not ``batch_first``, as torch does)."""
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    idx = torch.arange(padded_sequences.shape[1], device=lengths.device)
    return [seq[idx < length] for seq, length in zip(padded_sequences, lengths)]


def pack_sequence(sequences, enforce_sorted=True):
    """``pack_padded_sequence(pad_sequence(sequences), lengths)``."""
    lengths = torch.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences in a ``PackedSequence``."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)

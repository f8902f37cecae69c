"""Statistics, scans and searching: medians, modes, quantiles, running extrema, histograms,
``searchsorted`` and ``bucketize``."""

"""More elementwise functions: trigonometric and hyperbolic functions, the special functions
(gamma family, erfinv, logit, xlogy, sinc, ...) and the binary functions torch has beyond
arithmetic (hypot, copysign, logaddexp, gcd, ...), declared like ``pointwise``'s records."""

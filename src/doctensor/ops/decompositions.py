"""Linear-algebra decompositions and solvers: determinants, inverses, solves, Cholesky, QR,
SVD, eigen-decompositions, least squares, matrix functions."""

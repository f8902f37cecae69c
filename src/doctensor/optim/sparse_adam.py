"""SparseAdam: Adam for sparse gradients.  doctensor has no sparse tensors, so every
gradient is dense and ``step`` raises torch's error for dense gradients."""

from .optimizer import Optimizer, check_betas

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """Adam restricted to the rows a sparse gradient touches (``nn.Embedding(sparse=True)``).

    Only the parts torch runs before it needs a sparse gradient exist here: the checks of
    the hyperparameters and parameters, and the error for a dense gradient.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        if hasattr(lr, "numel") and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        check_betas(betas)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))
        complex_params = [[i, j] for i, group in enumerate(self.param_groups)
                          for j, p in enumerate(group["params"]) if p.is_complex()]
        if complex_params:
            raise ValueError(f"Complex params at indices {complex_params}: SparseAdam does not "
                             "support complex parameters")

    def step(self, closure=None):
        """Raises for the first parameter with a (necessarily dense) gradient."""
        loss = self._closure_loss(closure)
        if any(p.grad is not None for group in self.param_groups for p in group["params"]):
            raise RuntimeError("SparseAdam does not support dense gradients, please consider "
                               "Adam instead")
        return loss

"""``torch.optim``: optimizers (each update written plainly, with torch's ops in torch's
order, under ``no_grad``), learning-rate schedulers (``lr_scheduler``) and weight averaging
(``swa_utils``).

Every optimizer runs torch's single-tensor algorithm, torch's default on the CPU;
``foreach=True`` is accepted and runs it too (torch's multi-tensor kernels round some
updates differently).
"""

from . import lr_scheduler, swa_utils
from .adadelta import Adadelta
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adamax import Adamax
from .asgd import ASGD
from .lbfgs import LBFGS
from .muon import Muon
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam
from .stateless import swap_in_optimizer_params_and_state

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax",
           "NAdam", "RAdam", "ASGD", "Rprop", "Adafactor", "SparseAdam", "LBFGS", "Muon",
           "lr_scheduler", "swa_utils", "swap_in_optimizer_params_and_state"]

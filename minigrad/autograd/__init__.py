"""Automatic differentiation: grad mode, graph nodes, the engine, custom
Functions, ``grad``, ``gradcheck`` and ``gradgradcheck`` (and ``Variable``, the legacy
wrapper). ``profiler`` times ops and nodes; ``forward_ad`` is forward mode (dual tensors); ``functional`` (jacobian, hessian, vjp, ...) is
written on minigrad's public API, as ``nn`` is: ``minigrad/__init__.py`` imports it last.

``backward_steps`` is the engine's walk made visible: it yields each step
of a backward pass (which node ran, what gradient it received, what it sent
along each edge) without changing any ``.grad``.
"""

from . import forward_ad, graph, profiler  # noqa: F401
from .anomaly import detect_anomaly, set_detect_anomaly  # noqa: F401
from .engine import BackwardStep, backward_steps, execution_order  # noqa: F401
from .formula import FORMULAS, Formula, formula_for  # noqa: F401
from .function import Function, FunctionCtx  # noqa: F401
from .differentiate import backward, grad  # noqa: F401
from .grad_mode import enable_grad, no_grad, set_grad_enabled  # noqa: F401
from .grad_mode import grad_mode_setting as is_grad_enabled  # noqa: F401 (as set; see grad_mode)
from .inference import inference_mode, is_inference_mode_enabled  # noqa: F401
from .gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: F401
from .node import AccumulateGrad, Node  # noqa: F401
from .variable import Variable  # noqa: F401

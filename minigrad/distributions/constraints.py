"""What a distribution's parameters and samples must satisfy, with PyTorch's names and
printing (``Simplex()``, ``GreaterThan(lower_bound=0.0)``); ``check(value)`` is a bool
tensor, one entry per event."""

from __future__ import annotations

import minigrad

__all__ = ["Constraint", "real", "real_vector", "positive", "nonnegative", "unit_interval",
           "boolean", "simplex", "nonnegative_integer", "positive_integer", "greater_than",
           "greater_than_eq", "less_than", "interval", "half_open_interval", "integer_interval",
           "multinomial", "independent", "one_hot", "positive_definite", "lower_cholesky",
           "is_dependent", "dependent_property", "MixtureSameFamilyConstraint"]


class Constraint:
    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def _bounds(self) -> str:
        return ""

    def __repr__(self) -> str:
        return f"{type(self).__name__[1:]}({self._bounds()})"


class _Real(Constraint):
    def check(self, value):
        return value == value  # (False for NaN)


class _IndependentConstraint(Constraint):
    def __init__(self, base, reinterpreted_batch_ndims: int):
        self.base, self.reinterpreted_batch_ndims = base, reinterpreted_batch_ndims
        self.event_dim = base.event_dim + reinterpreted_batch_ndims

    def check(self, value):
        result = self.base.check(value)
        return result.reshape(result.shape[:result.dim() - self.reinterpreted_batch_ndims]
                              + (-1,)).all(-1)

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base!r}, {self.reinterpreted_batch_ndims})"


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < value

    def _bounds(self) -> str:
        return f"lower_bound={self.lower_bound}"


class _GreaterThanEq(_GreaterThan):
    def check(self, value):
        return self.lower_bound <= value


class _LessThan(Constraint):
    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return value < self.upper_bound

    def _bounds(self) -> str:
        return f"upper_bound={self.upper_bound}"


class _Interval(Constraint):
    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def _bounds(self) -> str:
        return f"lower_bound={self.lower_bound}, upper_bound={self.upper_bound}"


class _HalfOpenInterval(_Interval):
    def check(self, value):
        return (self.lower_bound <= value) & (value < self.upper_bound)


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)


class _IntegerGreaterThan(_GreaterThan):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (value >= self.lower_bound)


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return (value >= 0).all(-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _OneHot(Constraint):
    is_discrete, event_dim = True, 1

    def check(self, value):
        is_boolean = (value == 0) | (value == 1)
        is_normalized = value.sum(-1).eq(1)
        return is_boolean.all(-1) & is_normalized


class _LowerCholesky(Constraint):
    event_dim = 2

    def check(self, value):
        value_tril = value.tril()
        lower_triangular = (value_tril == value).view(value.shape[:-2] + (-1,)).min(-1)[0]
        positive_diagonal = (value.diagonal(dim1=-2, dim2=-1) > 0).min(-1)[0]
        return lower_triangular & positive_diagonal


class _PositiveDefinite(Constraint):
    """Square, symmetric (to ``atol=1e-6``) and with a Cholesky factor."""
    event_dim = 2

    def check(self, value):
        if value.dim() < 2 or value.shape[-2] != value.shape[-1]:
            return minigrad.full(value.shape[:-2], False, dtype=minigrad.bool)
        symmetric = minigrad.isclose(value, value.mT, atol=1e-6).all(-2).all(-1)
        if not symmetric.all():
            return symmetric
        return minigrad.linalg.cholesky_ex(value).info.eq(0)


class _Multinomial(Constraint):
    is_discrete, event_dim = True, 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return (value >= 0).all(-1) & (value.sum(-1) <= self.upper_bound)


class MixtureSameFamilyConstraint(Constraint):
    """The component distribution's constraint, checked with the component dim put back."""

    def __init__(self, base_constraint):
        self.base_constraint = base_constraint

    @property
    def is_discrete(self) -> bool:
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:
        return self.base_constraint.event_dim

    def check(self, value):
        result = self.base_constraint.check(value.unsqueeze(-1 - self.event_dim))
        if value.dim() < self.event_dim:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        num_dim_to_keep = value.dim() - self.event_dim
        return result.reshape(result.shape[:num_dim_to_keep] + (-1,)).all(-1)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({self.base_constraint!r})"


class _Dependent(Constraint):
    """A constraint that depends on the parameters: not checked on its own."""


class dependent_property(property):  # noqa: N801 (PyTorch's name)
    """A ``support`` computed from the parameters (a property that is also a constraint)."""

    def __init__(self, fn=None, *, is_discrete=False, event_dim=0):
        super().__init__(fn)
        self.is_discrete, self.event_dim = is_discrete, event_dim

    def __call__(self, fn):
        return dependent_property(fn, is_discrete=self.is_discrete, event_dim=self.event_dim)


def is_dependent(constraint) -> bool:
    return isinstance(constraint, _Dependent)


real = _Real()
real_vector = _IndependentConstraint(real, 1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
positive_integer = _IntegerGreaterThan(1)
one_hot = _OneHot()
lower_cholesky = _LowerCholesky()
positive_definite = _PositiveDefinite()
independent, greater_than_eq = _IndependentConstraint, _GreaterThanEq
unit_interval = _Interval(0.0, 1.0)
boolean = _Boolean()
simplex = _Simplex()
nonnegative_integer = _IntegerGreaterThan(0)
greater_than, less_than, interval = _GreaterThan, _LessThan, _Interval
half_open_interval, integer_interval, multinomial = _HalfOpenInterval, _IntegerInterval, _Multinomial

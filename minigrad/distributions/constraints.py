"""What a distribution's parameters and samples must satisfy, with PyTorch's names and
printing (``Simplex()``, ``GreaterThan(lower_bound=0.0)``); ``check(value)`` is a bool
tensor, one entry per event."""

from __future__ import annotations

import minigrad

__all__ = ["Constraint", "real", "real_vector", "positive", "nonnegative", "unit_interval",
           "boolean", "simplex", "nonnegative_integer", "positive_integer", "greater_than",
           "greater_than_eq", "less_than", "interval", "half_open_interval", "integer_interval",
           "multinomial", "independent", "one_hot", "positive_definite", "lower_cholesky",
           "is_dependent", "dependent_property", "MixtureSameFamilyConstraint", "cat", "stack",
           "corr_cholesky", "square", "symmetric", "positive_semidefinite", "lower_triangular",
           "dependent"]


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
    def __init__(self, base_constraint, reinterpreted_batch_ndims: int):
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        self.event_dim = base_constraint.event_dim + reinterpreted_batch_ndims

    @property
    def is_discrete(self) -> bool:
        return self.base_constraint.is_discrete

    def check(self, value):
        result = self.base_constraint.check(value)
        return result.reshape(result.shape[:result.dim() - self.reinterpreted_batch_ndims]
                              + (-1,)).all(-1)

    def __repr__(self) -> str:
        return (f"IndependentConstraint({self.base_constraint!r}, "
                f"{self.reinterpreted_batch_ndims})")


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
    """A constraint that depends on the parameters: not checked on its own
    (``constraints.dependent(is_discrete=True, event_dim=1)`` states what is known)."""

    def __init__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        self._is_discrete, self._event_dim = is_discrete, event_dim

    @property
    def is_discrete(self) -> bool:
        if self._is_discrete is NotImplemented:
            raise NotImplementedError(".is_discrete cannot be determined statically")
        return self._is_discrete

    @property
    def event_dim(self) -> int:
        if self._event_dim is NotImplemented:
            raise NotImplementedError(".event_dim cannot be determined statically")
        return self._event_dim

    def __call__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        if is_discrete is NotImplemented:
            is_discrete = self._is_discrete
        if event_dim is NotImplemented:
            event_dim = self._event_dim
        return _Dependent(is_discrete=is_discrete, event_dim=event_dim)

    def check(self, x):
        raise ValueError("Cannot determine validity of dependent constraint")


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value):
        return (value.tril() == value).view(value.shape[:-2] + (-1,)).min(-1)[0]


class _CorrCholesky(Constraint):
    """Lower Cholesky factors of correlation matrices: rows of unit length."""
    event_dim = 2

    def check(self, value):
        tol = minigrad.finfo(value.dtype).eps * value.size(-1) * 10  # (PyTorch's fudge factor)
        row_norm = minigrad.linalg.norm(value.detach(), dim=-1)
        unit_row_norm = (row_norm - 1.0).abs().le(tol).all(dim=-1)
        return _LowerCholesky().check(value) & unit_row_norm


class _Square(Constraint):
    event_dim = 2

    def check(self, value):
        return minigrad.full(size=value.shape[:-2], fill_value=(value.shape[-2] == value.shape[-1]),
                             dtype=minigrad.bool)


class _Symmetric(_Square):
    def check(self, value):
        square_check = super().check(value)
        if not square_check.all():
            return square_check
        return minigrad.isclose(value, value.mT, atol=1e-6).all(-2).all(-1)


class _PositiveSemidefinite(_Symmetric):
    def check(self, value):
        sym_check = super().check(value)
        if not sym_check.all():
            return sym_check
        return minigrad.linalg.eigvalsh(value).ge(0).all(-1)


class _Cat(Constraint):
    """``cseq[i]`` on the i-th block of ``lengths[i]`` entries along ``dim`` (as cat)."""

    def __init__(self, cseq, dim=0, lengths=None):
        if not all(isinstance(c, Constraint) for c in cseq):
            raise AssertionError("All elements of cseq must be Constraint instances")
        self.cseq = list(cseq)
        self.lengths = [1] * len(self.cseq) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.cseq):
            raise AssertionError(
                f"lengths ({len(self.lengths)}) must match cseq ({len(self.cseq)})")
        self.dim = dim

    @property
    def is_discrete(self) -> bool:
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self) -> int:
        return max(c.event_dim for c in self.cseq)

    def check(self, value):
        if not (-value.dim() <= self.dim < value.dim()):
            raise AssertionError(f"dim {self.dim} out of range for value with {value.dim()} "
                                 "dimensions")
        checks, start = [], 0
        for constr, length in zip(self.cseq, self.lengths):
            checks.append(constr.check(value.narrow(self.dim, start, length)))
            start = start + length
        return minigrad.cat(checks, self.dim)


class _Stack(Constraint):
    """``cseq[i]`` on the i-th slice along ``dim`` (as stack)."""

    def __init__(self, cseq, dim=0):
        if not all(isinstance(c, Constraint) for c in cseq):
            raise AssertionError("All elements of cseq must be Constraint instances")
        self.cseq, self.dim = list(cseq), dim

    @property
    def is_discrete(self) -> bool:
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self) -> int:
        dim = max(c.event_dim for c in self.cseq)
        return dim + 1 if self.dim + dim < 0 else dim

    def check(self, value):
        if not (-value.dim() <= self.dim < value.dim()):
            raise AssertionError(f"dim {self.dim} out of range for value with {value.dim()} "
                                 "dimensions")
        vs = [value.select(self.dim, i) for i in range(value.size(self.dim))]
        return minigrad.stack([constr.check(v) for v, constr in zip(vs, self.cseq)], self.dim)


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
dependent = _Dependent()
lower_triangular = _LowerTriangular()
corr_cholesky = _CorrCholesky()
square = _Square()
symmetric = _Symmetric()
positive_semidefinite = _PositiveSemidefinite()
cat, stack = _Cat, _Stack

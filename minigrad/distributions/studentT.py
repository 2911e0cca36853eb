"""PyTorch's module path ``torch.distributions.studentT`` (programs write
``torch.distributions.studentT.StudentT``): the class is written in ``student_t.py``."""

from .student_t import StudentT  # noqa: F401

__all__ = ["StudentT"]

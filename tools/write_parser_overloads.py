"""Write ``minigrad/rules/parser_overloads.py`` from PyTorch (needs torch installed):
``python tools/write_parser_overloads.py``. Run it after giving minigrad a new function or
method; ``tests/core/fidelity/test_missing_arguments.py`` fails until then."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "core" / "support"))

from parser_overloads import read_from_torch  # noqa: E402

HEAD = '''"""PyTorch 2.13's argument parser, as data: which of minigrad's names PyTorch writes in
Python (their binding errors are Python's own) and, for those its C++ parser reads with
several signatures (the hidden, deprecated ones counted), the signatures it lists; the
C functions of one argument it does not read (``torch.set_num_threads``: "takes exactly one
argument (0 given)"), and the names in errors that are not the function's own
(``F.logsigmoid``'s are ``log_sigmoid``'s).
``rules/parser.py`` reads this; written by ``tools/write_parser_overloads.py`` from torch
itself, and ``tests/core/fidelity/test_missing_arguments.py`` checks it against torch.
Labels: ``add`` (``torch.add``), ``Tensor.add``, ``F.linear`` (``nn.functional``)."""

'''


def main() -> None:
    python, several, one_argument, renamed = read_from_torch()
    lines = [HEAD, "WRITTEN_IN_PYTHON = frozenset(("]
    line = "   "
    for label in sorted(python):  # (filled lines of about 95 characters)
        if len(line) + len(label) > 92:
            lines.append(line)
            line = "   "
        line += f" {label!r},"
    lines += [line, "))", "", "SEVERAL_SIGNATURES = {"]
    lines += [f"    {label!r}: {listed!r}," for label, listed in sorted(several.items())]
    lines += ["}", "", f"ONE_ARGUMENT = frozenset({sorted(one_argument)!r})", "", "RENAMED = {"]
    lines += [f"    {label!r}: {name!r}," for label, name in sorted(renamed.items())]
    lines += ["}", ""]
    (ROOT / "minigrad" / "rules" / "parser_overloads.py").write_text("\n".join(lines))


if __name__ == "__main__":
    main()

"""tests/core mirrors minigrad/: ``ops/`` (one file per module of minigrad/ops), ``engine/``
(the walk, hooks, saved values, higher orders, Function, gradcheck), ``fidelity/``
(printing, argument errors, signatures, dtypes, rounding, layouts, devices, creation) and
``programs/`` (tutorials, fuzz and generated programs, regressions).

The helpers they share (``torch_compare``, ``programs``, ``op_cases``, ``transcripts``,
``program_generator``, ...) live in ``support/`` and are imported by bare name
(``from torch_compare import check``). pytest imports this file before any test module
below it, so putting ``support/`` on ``sys.path`` here makes those imports work for one
file or all of them, from any directory, with or without ``-n 2 --dist loadfile``.
Test modules never import each other across folders (pytest's default ``prepend``
import mode: every test file's basename is unique under tests/).
"""

import sys
from pathlib import Path

SUPPORT = str(Path(__file__).resolve().parent / "support")
if SUPPORT not in sys.path:
    sys.path.insert(0, SUPPORT)

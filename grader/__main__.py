"""``python -m grader`` is ``minigrad-kit``."""

import sys

from .cli import main

sys.exit(main())

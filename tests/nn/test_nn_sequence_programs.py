"""sequence_tutorials_program.py run under PyTorch and under minigrad (in fresh processes):
the same printout, character for character, warnings included."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROGRAM = Path(__file__).with_name("sequence_tutorials_program.py")


def run(lib: str) -> str:
    done = subprocess.run([sys.executable, str(PROGRAM), lib], capture_output=True, text=True,
                          check=True)
    return done.stdout + done.stderr


def test_sequence_tutorials_print_as_in_pytorch():
    ours, theirs = run("minigrad"), run("torch")
    assert ours == theirs
    assert "LSTMTagger(" in ours and "enable_nested_tensor is True" in ours

"""grader/signals.py: SIGINT as Python's default for the runner and the lab, and what the
lab found put back after."""

import signal

from grader.signals import default_interrupts, restore_interrupts


def _state():
    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    return signal.getsignal(signal.SIGINT), blocked


def test_sigint_is_pythons_default_then_what_was_inherited(inherited_sigint):
    with inherited_sigint():
        inherited = _state()
        assert inherited != (signal.default_int_handler, False)
        previous = default_interrupts()
        assert _state() == (signal.default_int_handler, False)
        restore_interrupts(previous)
        assert _state() == inherited

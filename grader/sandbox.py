"""A sandbox for every grading kernel: bubblewrap on Linux.

The student's kernel runs under ``bwrap`` (Debian's ``bubblewrap``) with

* no network (its own network namespace: not even the grader's loopback);
* a read-only view of the system (``/usr``, the libraries, a few files of
  ``/etc`` without secrets), the Python installation and the kit's own
  packages, and nothing else of the machine: not the submissions, not
  ``--out``, not the instructor notebooks, not the grader's working folder;
* one writable folder, its private scratch folder (also its home and
  ``TMPDIR``), deleted after the run;
* its own PID namespace (it sees only itself: not the grader, not the other
  kernels), no capabilities, a new session, and ``--die-with-parent``;
* an environment of a few fixed variables (no secrets, no ``--salt``).

The grader talks to it over Unix sockets in the scratch folder (``ipc``
transport: TCP cannot cross network namespaces). The kernel gets its
notebook and its inputs through the kernel protocol, as code cells.

A code question's run (``run.py``) gets a narrower view still (``runner_argv``): the
system's libraries, the Python standard library and, under ``/kit``, only the packages
``runner_packages`` names (NumPy, the kit's grader, and minigrad unless the run is
without autograd). No other package of the machine is there: not PyTorch, not
JupyterLab, not the kit's notebooks with their solutions.

``choose(mode)`` decides once per process: ``"auto"`` uses bubblewrap when a
trial run works, else grades without it and says why; ``"required"``
raises ``SandboxUnavailable`` instead; ``"off"`` is the teacher's choice.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Sandbox", "SandboxUnavailable", "MODES", "choose", "bubblewrap_argv",
           "kernel_spec", "sandbox_environment", "KERNEL_NAME", "runner_argv",
           "runner_packages", "KIT"]

MODES = ("auto", "required", "off")
KERNEL_NAME = "minigrad-kit-sandbox"
PROBE_SECONDS = 60
# Read-only system folders (a symlink, as on merged-/usr systems, is recreated as one).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# The files of /etc that programs need; nothing secret (no shadow, no ssh keys).
ETC = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
       "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/alternatives")
KIT = "/kit"  # where a code run sees its packages
LIBRARIES = ("/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/libx32")
INSTALL = ("the grader's sandbox needs bubblewrap: apt-get install bubblewrap (Debian, "
           "Ubuntu), dnf install bubblewrap (Fedora); on macOS or Windows, grade inside a "
           "Linux container (see notebooks/assignments/README.md)")


class SandboxUnavailable(RuntimeError):
    """``--sandbox required`` and bubblewrap does not work here (the message says why)."""


@dataclass(frozen=True)
class Sandbox:
    """How the kernels of a run are isolated: ``kind`` "bubblewrap" or "off", and why."""

    kind: str
    reason: str = ""

    @property
    def on(self) -> bool:
        return self.kind == "bubblewrap"

    def describe(self) -> str:
        if self.on:
            return ("bubblewrap (no network, read-only system, only NumPy and the kit's "
                    "packages, private scratch folder)")
        return f"OFF: {self.reason}"


def choose(mode: str = "auto") -> Sandbox:
    """The sandbox for ``mode`` (see the module docstring); bubblewrap is tried once."""
    if mode == "bubblewrap":  # already chosen by the caller's process
        return Sandbox("bubblewrap")
    if mode == "off":
        return Sandbox("off", "--sandbox off was chosen: students' code ran with the "
                              "grader's rights")
    if mode not in ("auto", "required"):
        raise ValueError(f"--sandbox must be one of {', '.join(MODES)}, not {mode!r}")
    works, why = _bubblewrap_works()
    if works:
        return Sandbox("bubblewrap")
    if mode == "required":
        raise SandboxUnavailable(f"--sandbox required, but {why}")
    return Sandbox("off", f"bubblewrap could not be used ({why}); students' code ran "
                          "unsandboxed with the grader's rights")


@functools.lru_cache(maxsize=1)
def _bubblewrap_works() -> tuple[bool, str]:
    """Start a code run's Python inside the sandbox (``runner_argv``), importing NumPy, the
    grader and minigrad from where it sees them, once."""
    import tempfile

    if sys.platform != "linux":
        return False, f"bubblewrap runs on Linux only, not {sys.platform}; {INSTALL}"
    if shutil.which("bwrap") is None:
        return False, f"bwrap is not installed; {INSTALL}"
    with tempfile.TemporaryDirectory(prefix="minigrad-kit-probe-") as scratch:
        command = runner_argv(Path(scratch), runner_packages()) + [
            str(Path(sys.executable).resolve()), "-I", "-S", "-c",
            f"import sys; sys.path.append({KIT!r}); import numpy, grader.runner, minigrad"]
        try:
            done = subprocess.run(command, capture_output=True, text=True,
                                  timeout=PROBE_SECONDS, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as error:
            return False, f"a trial run failed: {error}"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return False, f"a trial run failed: {last[:300]}"
    return True, ""


def _python_folders() -> list[Path]:
    """The Python installation and the environment (venv, site-packages)."""
    import site
    import sysconfig

    found = [Path(sys.base_prefix), Path(sys.prefix), Path(sys.executable).resolve().parent]
    found += [Path(sysconfig.get_paths()[key]) for key in ("stdlib", "platstdlib", "purelib",
                                                           "platlib")]
    found += [Path(p) for p in site.getsitepackages() + [site.getusersitepackages()]]
    return found


def kit_packages() -> list[Path]:
    """The folders of the kit's own packages (never the repository around them)."""
    names = ("minigrad", "kit_i18n", __name__.split(".")[0])
    folders = []
    for name in dict.fromkeys(names):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            folders += [Path(p) for p in spec.submodule_search_locations]
    return folders


def _import_roots() -> list[str]:
    """Where the kit's packages are imported from (the kernel's PYTHONPATH)."""
    return list(dict.fromkeys(str(folder.parent) for folder in kit_packages()))


def sandbox_environment(scratch: Path) -> dict:
    """The kernel's whole environment: fixed values only, the scratch folder as home."""
    scratch = str(scratch)
    return {
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/local/bin",
                                 "/usr/bin", "/bin"]),
        "HOME": scratch, "TMPDIR": scratch, "IPYTHONDIR": os.path.join(scratch, ".ipython"),
        "JUPYTER_RUNTIME_DIR": scratch, "JUPYTER_DATA_DIR": scratch,
        "JUPYTER_PLATFORM_DIRS": "1", "MPLCONFIGDIR": scratch, "MPLBACKEND": "agg",
        "PYTHONPATH": os.pathsep.join(_import_roots()), "PYTHONDONTWRITEBYTECODE": "1",
        "LANG": "C.UTF-8", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1", "PYDEVD_DISABLE_FILE_VALIDATION": "1",
    }


ISOLATED = ["bwrap", "--unshare-all", "--cap-drop", "ALL", "--die-with-parent",
            "--new-session", "--hostname", "sandbox"]


def _as_they_are(folders) -> list[str]:
    """Each folder read-only where it is (a symlink, as on merged-/usr systems, as one)."""
    argv = []
    for folder in folders:
        path = Path(folder)
        if path.is_symlink():
            argv += ["--symlink", os.readlink(path), folder]
        elif path.is_dir():
            argv += ["--ro-bind", folder, folder]
    return argv


def bubblewrap_argv(scratch: Path, command: list[str]) -> list[str]:
    """``bwrap`` options that run ``command`` isolated, ``scratch`` its one writable folder."""
    scratch = Path(scratch).resolve()
    argv = ISOLATED + _as_they_are(SYSTEM)
    argv += [arg for name in ETC if os.path.exists(name) for arg in ("--ro-bind", name, name)]
    mounted = [Path(p) for p in SYSTEM]
    for folder in _python_folders() + kit_packages():
        for path in dict.fromkeys((Path(os.path.abspath(folder)), folder.resolve())):
            if not path.exists() or any(path == m or m in path.parents for m in mounted):
                continue
            mounted.append(path)
            argv += ["--ro-bind", str(path), str(path)]
    argv += ["--proc", "/proc", "--dev", "/dev", "--bind", str(scratch), str(scratch),
             "--remount-ro", "/dev", "--remount-ro", "/", "--chdir", str(scratch),
             "--clearenv"]
    for name, value in sandbox_environment(scratch).items():
        argv += ["--setenv", name, value]
    return argv + ["--"] + list(command)


def kernel_spec(folder: Path, scratch: Path) -> str:
    """Write ``folder/kernels/<KERNEL_NAME>/kernel.json`` (bwrap in its argv); its name.

    The kernel spec, not ``KernelManager.kernel_cmd``, carries the command:
    jupyter_client 8 ignores ``kernel_cmd`` and would start the kernel unsandboxed.
    Interrupts go over the control channel (a signal would reach bwrap, not the kernel).
    """
    command = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    spec = {"argv": bubblewrap_argv(scratch, command), "display_name": "Python 3 (sandboxed)",
            "language": "python", "interrupt_mode": "message", "env": {}}
    target = Path(folder) / "kernels" / KERNEL_NAME
    target.mkdir(parents=True, exist_ok=True)
    (target / "kernel.json").write_text(json.dumps(spec, indent=1), encoding="utf-8")
    return KERNEL_NAME


def runner_packages(autograd: bool = True) -> dict:
    """name -> folder of each package a code run may import (and, beside NumPy, the
    folder of its bundled libraries, ``numpy.libs``)."""
    names = ["numpy", "grader", "kit_i18n"] + (["minigrad"] if autograd else [])
    found = {}
    for name in names:
        spec = importlib.util.find_spec(name)
        folder = Path(list(spec.submodule_search_locations)[0]).resolve()
        found[name] = folder
        libraries = folder.parent / f"{name}.libs"
        if libraries.is_dir():
            found[libraries.name] = libraries.resolve()
    return found


def runner_argv(scratch: Path, packages: dict) -> list[str]:
    """``bwrap`` options for a code run: the system's libraries (no Python packages of
    the system), the standard library, and ``packages`` (``runner_packages``) under
    ``KIT``; ``scratch`` is its one writable folder."""
    import glob
    import sysconfig

    scratch = Path(scratch).resolve()
    argv = ISOLATED + _as_they_are(LIBRARIES + ("/lib", "/lib64", "/lib32", "/libx32"))
    for folder in sorted(glob.glob("/usr/lib/python*") + glob.glob("/usr/lib64/python*")):
        argv += ["--tmpfs", folder]  # the system's Python packages: not here
    standard = {Path(sysconfig.get_paths()[key]).resolve() for key in ("stdlib", "platstdlib")}
    executable = Path(sys.executable).resolve()
    shared = Path(str(sysconfig.get_config_var("LIBDIR") or "")) / str(
        sysconfig.get_config_var("INSTSONAME") or "")
    for path in sorted(standard) + [executable] + ([shared] if shared.is_file() else []):
        argv += ["--ro-bind", str(path), str(path)]
    for folder in sorted(standard):
        for packages_folder in ("site-packages", "dist-packages"):
            if (folder / packages_folder).is_dir():
                argv += ["--tmpfs", str(folder / packages_folder)]
    for name, folder in packages.items():
        argv += ["--ro-bind", str(folder), f"{KIT}/{name}"]
    argv += ["--proc", "/proc", "--dev", "/dev", "--bind", str(scratch), str(scratch),
             "--remount-ro", "/", "--chdir", str(scratch), "--clearenv"]
    for name, value in sandbox_environment(scratch).items():
        argv += ["--setenv", name, value]
    return argv + ["--"]

"""A sandbox for every grading kernel: bubblewrap on Linux.

The student's kernel runs under ``bwrap`` (Debian's ``bubblewrap``) with

* no network (its own network namespace: not even the grader's loopback);
* a read-only view of the system (``/usr``, the libraries, a few files of
  ``/etc`` without secrets), the Python installation and the kit's own
  packages, and nothing else of the machine: not the submissions, not
  ``--out``, not the instructor notebooks, not the grader's working folder;
* one writable folder, its private scratch folder (also its home and
  ``TMPDIR``), deleted after the run (for a code run: a tmpfs of ``SCRATCH_BYTES``);
* its own PID namespace (it sees only itself: not the grader, not the other
  kernels), no capabilities, a new session, and ``--die-with-parent``;
* a bounded number of processes and threads, counted per sandbox (``RLIMIT_NPROC``:
  a notebook kernel ``KERNEL_TASKS``, a code run none beyond those it has when the
  student's code starts), so a fork or thread bomb fails at once and cannot touch the
  other kernels or the machine. The kernel counts a user's tasks, and never limits
  root's. Run by an ordinary user, bwrap makes a user namespace, where the count is the
  sandbox's own. Run by root, bwrap mounts the views as root (so a Python or a kit in
  root's private home folder is still seen), and the sandbox's first Python lines, before
  anything else runs, become a user of its own (``sandbox_user``: a number no other
  process has, owning no file), with no capabilities left;
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

import ctypes
import functools
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from . import confine

__all__ = ["Sandbox", "SandboxUnavailable", "MODES", "choose", "bubblewrap_argv",
           "kernel_spec", "sandbox_environment", "KERNEL_NAME", "runner_argv",
           "runner_packages", "KIT", "sandbox_user", "unsandboxed_user", "runs_as_own_user",
           "encloses",
           "withhold", "hand_over", "sweep",
           "kernel_command", "KERNEL_TASKS", "runner_files", "NUMBA"]

MODES = ("auto", "required", "off")
KERNEL_NAME = "minigrad-kit-sandbox"
PROBE_SECONDS = 60
# Read-only system folders (a symlink, as on merged-/usr systems, is recreated as one).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# The files of /etc that programs need; nothing secret (no shadow, no ssh keys).
ETC = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
       "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/alternatives")
KIT = "/kit"  # where a code run sees its packages
SCRATCH_BYTES = 64 * 1024 * 1024  # a code run's writable folder (no answer writes files)
# The users a root grader's sandboxes become: FIRST_USER + 32 * (grader's pid) + (0..31),
# far above the system's and the containers' ranges, and below 2**31.
FIRST_USER = 2_100_000_000
KERNEL_TASKS = 64  # processes and threads of a notebook kernel (ipykernel needs about 8)
CHANGE_USER = (6, 7)  # CAP_SETGID, CAP_SETUID: what becoming a user of its own needs
CHROOT = 18  # CAP_SYS_CHROOT
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
                    "packages, private scratch folder, limited processes)")
        return f"OFF: {self.reason}"


def choose(mode: str = "auto") -> Sandbox:
    """The sandbox for ``mode`` (see the module docstring); bubblewrap is tried once."""
    if mode == "bubblewrap":  # already chosen by the caller's process
        return Sandbox("bubblewrap")
    if mode == "off":
        return Sandbox("off", "--sandbox off was chosen: students' code ran "
                              + _unsandboxed_rights())
    if mode not in ("auto", "required"):
        raise ValueError(f"--sandbox must be one of {', '.join(MODES)}, not {mode!r}")
    works, why = _bubblewrap_works()
    if works:
        return Sandbox("bubblewrap")
    if mode == "required":
        raise SandboxUnavailable(f"--sandbox required, but {why}")
    return Sandbox("off", f"bubblewrap could not be used ({why}); students' code ran "
                          f"unsandboxed {_unsandboxed_rights()}")


@functools.lru_cache(maxsize=1)
def _bubblewrap_works() -> tuple[bool, str]:
    """Start a code run's Python inside the sandbox (``runner_argv``), importing NumPy, the
    grader and minigrad from where it sees them, once."""
    if sys.platform != "linux":
        return False, f"bubblewrap runs on Linux only, not {sys.platform}; {INSTALL}"
    if shutil.which("bwrap") is None:
        return False, f"bwrap is not installed; {INSTALL}"
    return _trial()


def _trial() -> tuple[bool, str]:
    """One trial run of a code run's Python in the sandbox."""
    import tempfile

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


_users = iter(range(32 ** 4))


def sandbox_user() -> int | None:
    """The user a new sandbox becomes when the grader runs as root (None otherwise): one no
    other live process has (the grader's pid picks a block of 32; sandboxes of one grader
    run one after the other, and a sandbox's processes end with it: its PID namespace)."""
    if os.geteuid() != 0:
        return None
    return FIRST_USER + 32 * (os.getpid() % (1 << 22)) + next(_users) % 32


def unsandboxed_user() -> int | None:
    """The user a code run without the sandbox becomes: ``sandbox_user`` where this process
    may become another user (root with CAP_SETUID and CAP_SETGID, in a user namespace that
    has the sandboxes' users: Gradescope's and PrairieLearn's containers, where bubblewrap
    often cannot run), else None (the grader's own user: ``confine`` would fail, and no
    code question could be graded)."""
    return sandbox_user() if runs_as_own_user() else None


def encloses() -> bool:
    """Whether a code run without the sandbox and without Landlock is enclosed in its
    working folder (``confine.enclose``): where it runs as a user of its own and root may
    ``chroot`` (CAP_SYS_CHROOT, which Docker grants)."""
    return runs_as_own_user() and _capable(CHROOT)


def runs_as_own_user() -> bool:
    """Whether a code run without the sandbox becomes a user of its own (see
    ``unsandboxed_user``)."""
    return os.geteuid() == 0 and _may_change_user()


def _unsandboxed_rights() -> str:
    """How code run without the sandbox runs, for ``Sandbox.describe``."""
    if runs_as_own_user() and confine.landlock_abi():
        return ("as a user of its own (it could open no file but the system's libraries, "
                "Python and the kit's packages (Landlock), start no process and write none "
                "of the grader's files)")
    if encloses():
        return ("as a user of its own (it could open no file outside its working folder "
                "(chroot), start no process and write none of the grader's files)")
    if runs_as_own_user():
        return ("as a user of its own (it could read what any user may, but not a platform's "
                "course folder, start no process and write none of the grader's files)")
    if confine.landlock_abi():
        return ("with the grader's rights, but opening no file but the system's libraries, "
                "Python and the kit's packages (Landlock)")
    return "with the grader's rights"


def withhold(folder) -> None:
    """Make ``folder`` its owner's alone (no group, no other user may enter it) where a code
    run without the sandbox becomes a user of its own (``runs_as_own_user``), which reads
    what any user may: a platform's course folder, the instructor notebooks (reference
    solutions, hidden tests) and the salt, extracted readable by every user, was read by
    an answer cell and shown back in the student's feedback (red team 15). Elsewhere the
    folder is left as it is (bubblewrap mounts none of it; an ordinary user's grader runs
    the code as itself)."""
    if runs_as_own_user():
        os.chmod(folder, os.stat(folder).st_mode & 0o7700)


@functools.lru_cache(maxsize=1)
def _may_change_user() -> bool:
    try:
        users = [_mapped(f"/proc/self/{kind}_map") for kind in ("uid", "gid")]
    except (OSError, ValueError, IndexError):
        return False
    last = FIRST_USER + 32 * (1 << 22)  # (sandbox_user's users: all of them, mapped)
    return all(_capable(capability) for capability in CHANGE_USER) and all(
        any(start <= FIRST_USER and last <= start + count for start, count in ranges)
        for ranges in users)


def _capable(capability: int) -> bool:
    """Whether this process has ``capability`` (its number) in its effective set."""
    try:
        with open("/proc/self/status", encoding="ascii") as file:
            effective = next(int(line.split()[1], 16) for line in file
                             if line.startswith("CapEff:"))
    except (OSError, StopIteration, ValueError, IndexError):
        return False
    return bool(effective >> capability & 1)


def _mapped(path: str) -> list:
    """(first id, count) of each range of a user namespace's map (a rootless container
    maps a few thousand users, and the sandboxes' are not among them)."""
    with open(path, encoding="ascii") as file:
        return [(int(inside), int(count)) for inside, _outside, count in
                (line.split() for line in file if line.strip())]


def hand_over(user: int | None, *paths: Path) -> None:
    """Give ``paths`` (a scratch folder, a connection file) to the sandbox's ``user``; a
    folder stays open to root's group, as bwrap (root without capabilities) enters it."""
    for path in paths:
        if user is not None:
            os.chown(path, user, 0)
            if Path(path).is_dir():
                os.chmod(path, 0o770)


# The folders every user may write into (sticky, mode 1777): a code run without the sandbox,
# a user of its own, can leave files there, which no folder of its own holds (``/run/lock``
# too, ``/var/lock``: a file left there outlived the run, red team 16)
SHARED = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run/lock")


def sweep(user: int, keep: Path) -> None:
    """Remove what ``user``, a code run's own without the sandbox, left in ``SHARED`` (but
    ``keep``, its working folder, which the run's own cleanup removes), once its process
    has ended (it could start no other: ``confine``). A cell graded by root where
    bubblewrap could not run wrote 100 MB into ``/dev/shm``, which is memory (up to half
    the machine's, outside the run's ``--memory``), and left it there for the submissions
    graded after it (red team 15, measured)."""
    kept = {os.path.abspath(keep)}
    for folder in SHARED:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != user or entry.path in kept:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)  # (links in it are removed, never followed)
                else:
                    os.unlink(entry.path)
            except OSError:
                continue
    _sweep_ipc(user)


# System V IPC objects (/proc/sysvipc/<kind>: their id, in its second column, and their
# creator, cuid, which no IPC_SET changes) and the call that removes each (IPC_RMID: 0)
SYSTEM_V = {"shm": lambda libc, i: libc.shmctl(i, 0, None),
            "msg": lambda libc, i: libc.msgctl(i, 0, None),
            "sem": lambda libc, i: libc.semctl(i, 0, 0)}


def _sweep_ipc(user: int) -> None:
    """Remove the System V shared memory, message queues and semaphores ``user`` created:
    without the sandbox's IPC namespace they outlive the process (a segment of 100 MB,
    written through ctypes, was memory held for the rest of the grading, measured)."""
    libc = None
    for kind, remove in SYSTEM_V.items():
        try:
            with open(f"/proc/sysvipc/{kind}", encoding="ascii") as file:
                lines = file.read().splitlines()
        except OSError:
            continue
        header = lines[0].split() if lines else []
        for line in lines[1:]:
            fields = dict(zip(header, line.split()))
            if int(fields.get("cuid", -1)) == user or int(fields.get("uid", -1)) == user:
                libc = libc or ctypes.CDLL(None, use_errno=True)
                remove(libc, int(line.split()[1]))


# A notebook kernel's command inside the sandbox: confined first (confine.py, loaded alone:
# the grader package would import NumPy), then ipykernel.
CONFINED_KERNEL = ("import importlib.util as u, runpy; "
                   "s = u.spec_from_file_location('minigrad_kit_confine', {path!r}); "
                   "m = u.module_from_spec(s); s.loader.exec_module(m); "
                   "m.confine({user!r}, {tasks!r}); "
                   "runpy.run_module('ipykernel_launcher', run_name='__main__', alter_sys=True)")


def kernel_command(connection_file: str, user: int | None,
                   tasks: int = KERNEL_TASKS) -> list[str]:
    """The command that starts ipykernel in the sandbox, confined (``confine.confine``): as ``user`` (see
    ``sandbox_user``), with at most ``tasks`` processes and threads."""
    code = CONFINED_KERNEL.format(path=str(Path(confine.__file__).resolve()), user=user,
                                  tasks=int(tasks))
    return [sys.executable, "-c", code, "-f", connection_file]


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
        "MINIGRAD_NUMBA": NUMBA,
    }


# Students' code runs minigrad's NumPy steps, not its numba-compiled loops: a sandbox has no
# folder numba may keep machine code in, so each submission would compile them again
# (seconds, counted against its cells' time), and numba reads files a run is not shown.
# The values agree to the last bit or two; answers are compared with tolerances.
NUMBA = "0"


ISOLATED = ["bwrap", "--unshare-all", "--cap-drop", "ALL", "--die-with-parent",
            "--new-session", "--hostname", "sandbox"]
# Run by root: every namespace but the user's (the sandbox's first lines become a user of
# their own, ``confine``, which needs these two capabilities and then has none).
ISOLATED_BY_ROOT = ["bwrap", "--unshare-ipc", "--unshare-pid", "--unshare-net",
                    "--unshare-uts", "--unshare-cgroup-try", "--cap-drop", "ALL",
                    "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--die-with-parent",
                    "--new-session", "--hostname", "sandbox"]


def _isolated() -> list[str]:
    return list(ISOLATED_BY_ROOT if os.geteuid() == 0 else ISOLATED)


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


def bubblewrap_argv(scratch: Path, command: list[str], workdir: Path | None = None
                    ) -> list[str]:
    """``bwrap`` options that run ``command`` isolated, ``scratch`` its one writable folder
    (with ``workdir`` too, the working folder then: a notebook's, ``sandboxed_kernel.py``)."""
    scratch = Path(scratch).resolve()
    argv = _isolated() + _as_they_are(SYSTEM)
    argv += [arg for name in ETC if os.path.exists(name) for arg in ("--ro-bind", name, name)]
    mounted = [Path(p) for p in SYSTEM]
    for folder in _python_folders() + kit_packages():
        for path in dict.fromkeys((Path(os.path.abspath(folder)), folder.resolve())):
            if not path.exists() or any(path == m or m in path.parents for m in mounted):
                continue
            mounted.append(path)
            argv += ["--ro-bind", str(path), str(path)]
    argv += ["--proc", "/proc", "--dev", "/dev", "--bind", str(scratch), str(scratch)]
    if workdir is not None:  # (before the root is made read-only: its parents are made then)
        argv += ["--bind", str(workdir), str(workdir)]
    argv += _read_only_but(argv, scratch, workdir) + ["--chdir", str(workdir or scratch),
                                                      "--clearenv"]
    for name, value in sandbox_environment(scratch).items():
        argv += ["--setenv", name, value]
    return _open_parents(argv) + ["--"] + list(command)


# bwrap's options that mount a file system the sandbox could write into: a new tmpfs (bwrap
# makes it the size of half the machine's memory unless ``--size`` says), ``/dev`` (a tmpfs
# too), a folder bound writable
WRITABLE_MOUNTS = ("--tmpfs", "--dev", "--bind")


def _read_only_but(argv: list[str], *writable) -> list[str]:
    """``--remount-ro`` for ``/`` and for every file system ``argv`` mounts writable but the
    ``writable`` folders, so that nothing but those can be written, by construction.

    ``--remount-ro /`` covers the root's own tmpfs only, not what is mounted on it. The
    code run's ``/dev`` and the empty tmpfs laid over the system's Python packages were
    left writable and unbounded (half the machine's memory each, outside the run's
    ``--memory``, whose address-space limit never counts a file's pages, and outside
    ``SCRATCH_BYTES``): a grader run by an ordinary user, whose sandbox owns its mounts,
    let a submission write gigabytes to ``/dev/shm`` for as long as it ran, starving the
    other submissions graded beside it. (Device files, ``/dev/null`` included, still
    work on a read-only mount.)"""
    kept = {str(p) for w in writable if w is not None for p in (w, Path(w).resolve())}
    mounted, index = [], next(i for i, a in enumerate(argv) if a.startswith("--"))
    while index < len(argv):
        option = argv[index]
        if option in MAKES:
            if option in WRITABLE_MOUNTS and argv[index + MAKES[option]] not in kept:
                mounted.append(argv[index + MAKES[option]])
            index += MAKES[option] + 1
        else:
            index += TAKES.get(option, 0) + 1
    return [arg for path in ["/"] + mounted for arg in ("--remount-ro", path)]


# bwrap's options whose last argument is a path it makes in the sandbox
MAKES = {"--ro-bind": 2, "--bind": 2, "--symlink": 2, "--tmpfs": 1, "--proc": 1, "--dev": 1,
         "--dir": 1}
TAKES = {"--setenv": 2, "--chdir": 1, "--remount-ro": 1, "--size": 1, "--perms": 1,
         "--hostname": 1, "--cap-add": 1, "--cap-drop": 1}


def _open_parents(argv: list[str]) -> list[str]:
    """``argv`` with the folders bwrap makes above what it mounts (``/work`` above
    ``/work/course/.venv``) made first, readable by every user (bwrap run by root makes them
    0700, which the sandbox's own user could not enter: ``confine.py``)."""
    made, at = [], next(i for i, a in enumerate(argv) if a.startswith("--"))
    index = at
    while index < len(argv):
        option = argv[index]
        if option in MAKES:
            made.append(argv[index + MAKES[option]])
            index += MAKES[option] + 1
        else:
            index += TAKES.get(option, 0) + 1
    mounted = set(made)
    parents = sorted({str(parent) for path in made for parent in Path(path).parents
                      if str(parent) != "/" and not ({str(parent)} | {str(q) for q in
                                                      Path(parent).parents}) & mounted},
                     key=lambda p: (p.count("/"), p))
    opened = [arg for parent in parents for arg in ("--perms", "0755", "--dir", parent)]
    return argv[:at] + opened + argv[at:]


def kernel_spec(folder: Path, scratch: Path, user: int | None = None) -> str:
    """Write ``folder/kernels/<KERNEL_NAME>/kernel.json`` (bwrap in its argv); its name.

    The kernel spec, not ``KernelManager.kernel_cmd``, carries the command:
    jupyter_client 8 ignores ``kernel_cmd`` and would start the kernel unsandboxed.
    Interrupts go over the control channel (a signal would reach bwrap, not the kernel).
    """
    spec = {"argv": bubblewrap_argv(scratch, kernel_command("{connection_file}", user)), "display_name": "Python 3 (sandboxed)",
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


def runner_files(scratch: Path, packages: dict) -> dict:
    """What a code run without the sandbox may open (``confine.only_these_files``): what
    ``runner_argv`` shows it (the system's libraries, a few files of ``/etc``, the standard
    library, the interpreter, ``packages`` where they are), ``/dev/null`` and
    ``/dev/urandom``, and its working folder ``scratch``, to read only: no answer writes
    files, and that folder is on the grader's disk, not a tmpfs of ``SCRATCH_BYTES``
    (a cell wrote 160 MB there, and could have filled the disk under the submissions
    graded beside it; red team 16)."""
    import sysconfig

    shared = Path(str(sysconfig.get_config_var("LIBDIR") or "")) / str(
        sysconfig.get_config_var("INSTSONAME") or "")
    readable = [*LIBRARIES, "/lib", "/lib64", "/lib32", "/libx32", *ETC, "/dev/urandom",
                *(sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib")),
                sys.executable, str(Path(sys.executable).resolve()),
                *map(str, packages.values())]
    rules = {str(path): confine.READ for path in readable}
    if shared.is_file():
        rules[str(shared)] = confine.READ
    return {**rules, "/dev/null": confine.WRITE, str(scratch): confine.READ}


def runner_argv(scratch: Path, packages: dict) -> list[str]:
    """``bwrap`` options for a code run: the system's libraries (no Python packages of
    the system), the standard library, and ``packages`` (``runner_packages``) under
    ``KIT``; ``scratch`` is its one writable folder."""
    import glob
    import sysconfig

    scratch = Path(scratch).resolve()
    argv = _isolated() + _as_they_are(LIBRARIES + ("/lib", "/lib64", "/lib32", "/libx32"))
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
    # the working folder is a tmpfs of SCRATCH_BYTES at the scratch folder's path, not
    # the folder itself: what the code writes fills memory that bwrap gives back, never
    # the grader's disk (the run writes the question module there itself: runner.py)
    argv += ["--proc", "/proc", "--dev", "/dev", "--size", str(SCRATCH_BYTES), "--perms",
             "01777", "--tmpfs", str(scratch)]
    argv += _read_only_but(argv, scratch) + ["--chdir", str(scratch), "--clearenv"]
    for name, value in sandbox_environment(scratch).items():
        argv += ["--setenv", name, value]
    return _open_parents(argv) + ["--"]

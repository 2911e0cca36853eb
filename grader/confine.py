"""The first lines a sandbox runs, before any student code: a user of its own, and a
bounded number of processes and threads (``confine``); in a code run, no socket either
(``no_sockets``), and without the sandbox no file but those it is given
(``only_these_files``, Landlock). Standard library only: a notebook kernel loads this file alone
(``sandbox.kernel_command``), a code run imports it.
"""

from __future__ import annotations

import ctypes
import os
import platform
import resource
import stat
import struct
import sys

__all__ = ["confine", "no_sockets", "only_these_files", "landlock_abi", "enclose", "READ",
           "WRITE"]

# (audit arch, socket's number, seccomp's number) of the machines a grader runs on
MACHINES = {"x86_64": (0xC000003E, 41, 317), "aarch64": (0xC00000B7, 198, 277)}
PR_SET_NO_NEW_PRIVS, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC = 38, 1, 1
DENY, ALLOW = 0x00050000 | 1, 0x7FFF0000  # SECCOMP_RET_ERRNO | EPERM; SECCOMP_RET_ALLOW
IO_URING_SETUP = 425  # (the same number on both)
# The calls that change a file's owner, mode, times or extended attributes, which Landlock
# does not govern: chmod, fchmod, chown, fchown, lchown, utime, setxattr, lsetxattr,
# fsetxattr, removexattr, lremovexattr, fremovexattr, utimes, fchownat, futimesat, fchmodat,
# utimensat (aarch64 has only the *at and f* ones), and on both fchmodat2, setxattrat,
# removexattrat
CHANGES_FILES = {"x86_64": (90, 91, 92, 93, 94, 132, 188, 189, 190, 197, 198, 199, 235, 260,
                            261, 268, 280, 452, 463, 466),
                 "aarch64": (5, 6, 7, 14, 15, 16, 52, 53, 54, 55, 88, 452, 463, 466)}
# The calls that start a process: fork and vfork (x86_64 only), clone unless it starts a
# thread (CLONE_THREAD in its first argument), and clone3, whose flags are in memory a
# filter cannot read (refused as missing: C libraries then call clone)
FORKS = {"x86_64": (57, 58), "aarch64": ()}
CLONE = {"x86_64": 56, "aarch64": 220}
CLONE3, CLONE_THREAD, NOSYS = 435, 0x00010000, 0x00050000 | 38  # (ENOSYS)
# Landlock (Linux 5.13 on): its three calls, the same numbers on both machines
CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446
RULESET_VERSION, PATH_BENEATH = 1, 1  # (create_ruleset's flag; add_rule's kind of rule)
# The file system rights each ABI version handles: up to MAKE_SYM (1), REFER (2),
# TRUNCATE (3), IOCTL_DEV (5); of them, those a rule on a file (not a folder) may grant
FILE_RIGHTS = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
# EXECUTE, WRITE_FILE, READ_FILE, TRUNCATE, IOCTL_DEV
ON_A_FILE = 1 | 2 | 4 | (1 << 14) | (1 << 15)
READ = 1 | 4 | 8  # EXECUTE, READ_FILE, READ_DIR
WRITE = (1 << 16) - 1  # everything (what the ABI does not handle is left out)


def confine(user: int | None, tasks: int | None) -> None:
    """Become ``user`` (a root grader's sandbox: ``sandbox.sandbox_user``), then allow at
    most ``tasks`` processes and threads of that user, counted in this sandbox only (None:
    as many as there are now, so that none can start).

    ``RLIMIT_NPROC`` counts a user's tasks, and never limits root's. A user of its own has
    no other tasks; without one (an ordinary user's grader), the count is the sandbox's
    own only in a user namespace of its own (bwrap's); elsewhere (``--sandbox off``)
    nothing is limited."""
    if user is not None:
        os.setgroups([])
        os.setgid(user)
        os.setuid(user)  # (every capability goes with root)
    elif not _own_user_namespace():
        return
    if tasks is None:
        mine = os.getuid()
        tasks = sum(_tasks(pid, mine) for pid in os.listdir("/proc") if pid.isdigit())
    resource.setrlimit(resource.RLIMIT_NPROC, (tasks, tasks))


def enclose() -> int | None:
    """Make the working folder this process's root (``chroot``: root's call, before it
    becomes its own user), root's and read-only to that user; the number of its tasks
    (its threads), counted before ``/proc`` is out of sight, for ``confine`` (None where
    root may not, a container without CAP_SYS_CHROOT: nothing changed).

    Where the kernel has no Landlock (before 5.13) and bubblewrap cannot run, a root
    grader's run, a user of its own, read every file any user may: a classmate's notebook,
    the teacher's ``--source`` (red team 16). Everything it needs of the machine is loaded
    by now (NumPy, minigrad, the grader's side of the run); what it would open later (a
    module not yet imported, a library's source for a traceback) is not there."""
    tasks = len(os.listdir("/proc/self/task"))
    try:
        os.chroot(".")
    except OSError:
        return None
    os.chdir("/")
    os.chown("/", 0, 0)
    os.chmod("/", 0o755)
    return tasks


def _tasks(pid: str, user: int) -> int:
    """The threads of process ``pid`` if ``user`` runs it, else 0 (and 0 for a process that
    ended while it was counted: without the sandbox's PID namespace, ``/proc`` lists the
    machine's, which come and go)."""
    try:
        return len(os.listdir(f"/proc/{pid}/task")) if os.stat(f"/proc/{pid}").st_uid == user \
            else 0
    except OSError:
        return 0


def _own_user_namespace() -> bool:
    try:
        with open("/proc/self/uid_map", encoding="ascii") as file:
            return file.read().split() != ["0", "0", "4294967295"]
    except OSError:
        return False


def no_sockets() -> bool:
    """From here on, ``socket()`` fails (EPERM) in every thread of this process, and so do
    ``io_uring_setup`` (whose rings open sockets too), the calls that change a file's
    owner, mode, times or extended attributes (``CHANGES_FILES``), those that start a
    process (``FORKS``, ``CLONE``, ``CLONE3``: a thread may still start where the run's
    limits allow) and any system call of another ABI (x32, i386: their own numbers for
    it); whether that holds. A code run
    without the sandbox (no network namespace of its own) opened a socket through ctypes
    (measured), with which it could send the hidden tests' inputs it is called with to a
    server of the student's (red team 15); run with the grader's own rights, it made the
    teacher's files readable by every user (``os.chmod``, which Landlock does not govern,
    measured: red team 16), and forked a child that left the run's session and outlived
    it, where no user of its own limits its processes (red team 16). No answer needs any.
    A seccomp filter (no new privileges first, as a user may install one); where the
    machine has none, or is of another kind, nothing changes."""
    machine = MACHINES.get(platform.machine())
    if machine is None or not sys.platform.startswith("linux"):
        return False
    arch, socket, seccomp = machine
    kind = platform.machine()
    denied = (socket, IO_URING_SETUP) + CHANGES_FILES[kind] + FORKS[kind]
    program = _program([("load", 4), ("is", arch, "next", "deny"),  # another ABI: deny
                        ("load", 0), ("at least", 0x40000000, "deny", "next"),  # x32's
                        *(("is", number, "deny", "next") for number in denied),
                        ("is", CLONE3, "nosys", "next"),
                        ("is", CLONE[kind], "next", "allow"),
                        ("load", 16), ("has", CLONE_THREAD, "allow", "deny")])
    code = b"".join(struct.pack("HBBI", *line) for line in program)
    buffer = ctypes.create_string_buffer(code)
    fprog = struct.pack("HxxxxxxP", len(program), ctypes.addressof(buffer))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    given = ctypes.create_string_buffer(fprog)
    return libc.syscall(seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC,
                        given) == 0


def _program(steps: list) -> list:
    """A classic BPF program for ``steps``: ("load", offset in seccomp_data), and jumps
    ("is" ==, "at least" >=, "has" &) with a value and where to go when it holds and when
    not ("next", or one of the returns that end the program: "allow", "deny", "nosys")."""
    ends = {"allow": ALLOW, "deny": DENY, "nosys": NOSYS}
    codes = {"is": 0x15, "at least": 0x35, "has": 0x45}
    program = []
    for index, step in enumerate(steps):
        if step[0] == "load":
            program.append((0x20, 0, 0, step[1]))
            continue
        kind, value, held, other = step
        where = [0 if to == "next" else len(steps) - index - 1 + list(ends).index(to)
                 for to in (held, other)]
        program.append((codes[kind], *where, value))
    return program + [(0x06, 0, 0, value) for value in ends.values()]


def landlock_abi() -> int:
    """The version of Landlock this kernel offers to this process (0: none, or a seccomp
    filter, a container's, refuses it)."""
    if not sys.platform.startswith("linux") or platform.machine() not in MACHINES:
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    return max(int(libc.syscall(CREATE_RULESET, None, ctypes.c_size_t(0), RULESET_VERSION)),
               0)


def only_these_files(rules: dict) -> bool:
    """From here on, this process (and all it could start) opens no file but beneath the
    paths of ``rules`` (path -> ``READ`` or ``WRITE``), whatever their owners and modes
    say; TCP and signals to processes outside it are refused too; whether that holds.

    A code run without the sandbox, a root grader's user of its own, read what every user
    may: a classmate's notebook beside the submission (its answers, to hand in as one's
    own), the teacher's ``--source`` (the hidden tests), ``--out`` (everyone's feedback), and
    the grader's command line in ``/proc`` (``--salt``); run by an ordinary user, the
    teacher's every file, and signalled the grader's worker (red team 16). Landlock is the
    kernel's own file allowlist for a process, which needs neither privileges nor
    namespaces (so it works where bubblewrap cannot run). A path missing here is left out;
    without Landlock nothing changes (and False is returned); where the kernel has it but
    refuses these rules, OSError is raised: the run stops before any student's code, never
    goes on unconfined."""
    abi = landlock_abi()
    if abi < 1:
        return False
    handled = FILE_RIGHTS[max(version for version in FILE_RIGHTS if version <= abi)]
    fields = [handled] + ([3] if abi >= 4 else []) + ([3] if abi >= 6 else [])
    # (handled_access_net: bind and connect TCP, none allowed; scoped: abstract Unix sockets
    # and signals, none outside)
    packed = struct.pack(f"{len(fields)}Q", *fields)
    libc = ctypes.CDLL(None, use_errno=True)
    ruleset = libc.syscall(CREATE_RULESET, ctypes.create_string_buffer(packed, len(packed)),
                           ctypes.c_size_t(len(packed)), 0)
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "Landlock refused a ruleset")
    try:
        for path, rights in rules.items():
            try:
                descriptor = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                granted = rights & handled & (
                    WRITE if stat.S_ISDIR(os.fstat(descriptor).st_mode) else ON_A_FILE)
                rule = ctypes.create_string_buffer(struct.pack("=Qi", granted, descriptor))
                if libc.syscall(ADD_RULE, ruleset, PATH_BENEATH, rule, 0) != 0:
                    raise OSError(ctypes.get_errno(), f"Landlock refused a rule for {path}")
            finally:
                os.close(descriptor)
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
                libc.syscall(RESTRICT_SELF, ruleset, 0) != 0:
            raise OSError(ctypes.get_errno(), "Landlock could not restrict the run")
        return True
    finally:
        os.close(ruleset)

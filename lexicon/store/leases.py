"""Read leases on the files a server maps: a release file cut short under a running server
can never fault a read of it.

A memory-mapped file that shrinks turns every read of a page past its new end into a
SIGBUS, which kills the whole process (every game with it). Checking the size before a read
leaves a window between the check and the read, and a batch of ten thousand words spends
nearly all its time inside that window. A Linux read lease (``fcntl(F_SETLEASE, F_RDLCK)``)
closes it: any other process that opens the file for writing or truncates it is held by the
kernel until the lease holder lets go (or ``/proc/sys/fs/lease-break-time`` passes, 45 s by
default), and the holder is told by SIGIO. So the truncation waits, and meanwhile:

1. the release is condemned (``Release.condemn``: every later use is 503 ``release_damaged``
   for its game, nothing new reads it),
2. the reads already under way finish, on the whole file (the face says how to wait for
   them: :func:`enable`'s ``since``, which the service gives as "every request in flight
   now has ended"),
3. the lease is let go, and the truncation proceeds under a release nobody reads.

Leases are taken only in a process that called :func:`enable` (the service, from its main
thread: the SIGIO handler must be installed there), and only where the kernel grants them:
the process must own the files or hold ``CAP_LEASE``, no one may have them open for writing,
and the filesystem must support them (not NFS). Where a lease is refused the release is
served as before, guarded by its size checks alone (:meth:`Release.check_sizes`); ``/healthz``
says which (``guard``: ``lease`` or ``size_checks``).
"""

from __future__ import annotations

import contextlib
import fcntl
import inspect
import os
import select
import signal
import threading
import weakref
from collections.abc import Callable, Iterable

QUIESCE_SECONDS = 30.0   # the longest wait for reads under way (below the kernel's 45 s)
POLL_SECONDS = 0.25      # the watcher also looks this often (a SIGIO whose handler waits
                         # behind a system call of the main thread: see enable)

_enabled = False


def _no_wait(_timeout: float) -> None:
    """The default wait: a process that tracks no work has nothing to wait for."""


def _nothing_tracked() -> Callable[[float], None]:
    return _no_wait


_since: Callable[[], Callable[[float], None]] = _nothing_tracked
_held: weakref.WeakSet[Lease] = weakref.WeakSet()
_held_lock = threading.Lock()
_wake_r = _wake_w = -1


class Lease:
    """Read leases on a release's mapped files; ``on_break(path)`` is called (from the
    watcher thread) when another process opens one for writing or truncates it.

    A bound method ``on_break`` is held weakly: the release owns its lease, and a lease
    holding its release back would make the two a cycle, freed only when the cyclic
    collector runs, so a release a publish replaced would keep its descriptors, its
    mappings and its batch arrays until then. Nothing else holds a lease strongly (the
    watcher takes each round's list afresh), so the last user of a release frees it and
    its files at once."""

    def __init__(self, fds: list[tuple[str, int]], on_break: Callable[[str], None]) -> None:
        self._fds = fds
        self._on_break: Callable[[], Callable[[str], None] | None] = (
            weakref.WeakMethod(on_break) if inspect.ismethod(on_break)
            else (lambda: on_break))
        self._lock = threading.Lock()

    def on_break(self, path: str) -> None:
        """Tell the lease's owner (when it is still alive) that ``path`` is being cut."""
        owner = self._on_break()
        if owner is not None:
            owner(path)

    def broken(self) -> str | None:
        """The path whose lease is being broken, if one is (the kernel then reports the
        type the lease is going to: unlocked)."""
        with self._lock:
            for path, fd in self._fds:
                try:
                    if fcntl.fcntl(fd, fcntl.F_GETLEASE) == fcntl.F_UNLCK:
                        return path
                except OSError:
                    return path
        return None

    def __del__(self) -> None:
        self.release()

    def release(self) -> None:
        """Let the files go (closed fds drop their leases)."""
        with self._lock:
            fds, self._fds = self._fds, []
        for _, fd in fds:
            os.close(fd)


def hold(paths: Iterable[str], on_break: Callable[[str], None]) -> Lease | None:
    """Leases on every file of ``paths``, or None when they cannot all be had (not
    enabled in this process, or refused by the kernel): the caller then relies on size
    checks."""
    if not _enabled:
        return None
    fds: list[tuple[str, int]] = []
    try:
        for path in paths:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            fds.append((path, fd))
            fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)
    except OSError:
        for _, fd in fds:
            os.close(fd)
        return None
    lease = Lease(fds, on_break)
    with _held_lock:
        _held.add(lease)
    return lease


def settle(timeout: float = QUIESCE_SECONDS) -> None:
    """Return once every read that may have begun before the call has ended: what must
    pass before a release that nothing new may take is closed."""
    reads_under_way()(timeout)


def reads_under_way() -> Callable[[float], None]:
    """A wait for the reads that may have begun before this call (not for any that begin
    after it): ``wait(timeout)`` returns once they have all ended, or after ``timeout``
    seconds. From the ``since`` a face gave :func:`enable`; at once in a process that gave
    none. Taken when a release stops being handed out, it may be waited on later: what
    began after that cannot be reading the release."""
    return _since()


def enabled() -> bool:
    return _enabled


def enable(since: Callable[[], Callable[[float], None]]) -> bool:
    """Take leases from now on, in this process; ``since()`` gives a wait for the reads
    under way at its call (``wait(timeout)`` returns once every one has ended). From the
    main thread (the SIGIO handler is installed there); False, and no leases, anywhere else
    or off Linux."""
    global _enabled, _since, _wake_r, _wake_w
    _since = since
    if _enabled:
        return True
    if threading.current_thread() is not threading.main_thread() or not hasattr(
            signal, "SIGIO"):
        return False
    _wake_r, _wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    def on_sigio(_signum: int, _frame: object) -> None:
        # no lock may be taken in a signal handler (it may interrupt its holder): one write
        with contextlib.suppress(OSError):
            os.write(_wake_w, b"\0")

    signal.signal(signal.SIGIO, on_sigio)
    # restarted, not failed with EINTR: a system call of this process that the signal
    # interrupts (this process opening one of its own leased files, say) is carried on
    signal.siginterrupt(signal.SIGIO, False)
    threading.Thread(target=_watch, name="release-leases", daemon=True).start()
    _enabled = True
    return True


def _watch() -> None:
    while True:
        select.select([_wake_r], [], [], POLL_SECONDS)
        try:
            while os.read(_wake_r, 512):
                pass
        except OSError:
            pass
        _answer_breaks()


def _answer_breaks() -> None:
    """One round of the watcher: every lease being broken is answered. Its own function so
    that the round's list of leases is dropped when the round ends: kept in the watcher's
    loop between rounds, it held every lease (and through it every release) the process
    ever opened."""
    with _held_lock:
        leases = list(_held)
    for lease in leases:
        path = lease.broken()
        if path is None:
            continue
        try:
            lease.on_break(path)        # condemned: nothing new reads the release
            settle()                    # the reads under way end on the whole file
        finally:
            lease.release()             # then the writer may go on


#: the name the package exports :func:`enable` under (``lexicon.lease_releases``)
lease_releases = enable

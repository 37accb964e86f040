"""The one exception tree: each class's exit code and HTTP status, and both boundaries that read them."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import graph_schema.errors as errors
from graph_schema.errors import ExitCode, LegalRagError

NOT_FOUND, BAD_INPUT, UNAVAILABLE = ExitCode.NOT_FOUND, ExitCode.BAD_INPUT, ExitCode.UNAVAILABLE

EXPECTED: dict[str, tuple[ExitCode, int]] = {
    "LegalRagError": (BAD_INPUT, 422),
    # could not check: try again (Celery retries these)
    "RetryableError": (UNAVAILABLE, 503),
    "StoreUnavailableError": (UNAVAILABLE, 503),
    "RecordsUnavailableError": (UNAVAILABLE, 503),
    "IndexBusyError": (UNAVAILABLE, 503),
    "IndexUnavailableError": (UNAVAILABLE, 503),
    "ModelOverloadedError": (UNAVAILABLE, 503),
    "TransientFault": (UNAVAILABLE, 503),
    # could not check: broken on our side, retrying will not help
    "GenerationError": (UNAVAILABLE, 502),
    "LexicalIndexError": (UNAVAILABLE, 500),
    "DenseIndexError": (UNAVAILABLE, 500),
    "ConfigurationError": (BAD_INPUT, 500),
    # not found
    "NotFoundError": (NOT_FOUND, 404),
    "RecordNotFoundError": (NOT_FOUND, 404),
    "DatasetError": (NOT_FOUND, 422),
    # bad input
    "InvalidInputError": (BAD_INPUT, 422),
    "InvalidDateError": (BAD_INPUT, 422),
    "InvalidRecordError": (BAD_INPUT, 422),
    "NameTakenError": (BAD_INPUT, 422),
    "IdempotencyConflictError": (BAD_INPUT, 409),
    "FaultError": (BAD_INPUT, 422),
    "UnknownActError": (BAD_INPUT, 422),
    "ActYearMismatchError": (BAD_INPUT, 422),
    "AmbiguousActError": (BAD_INPUT, 422),
    "InvalidSectionNumberError": (BAD_INPUT, 422),
    "IngestError": (BAD_INPUT, 422),
}

CLASSES = {name: cls for name, cls in vars(errors).items()
           if inspect.isclass(cls) and issubclass(cls, LegalRagError)}  # fmt: skip


def make(cls: type[LegalRagError]) -> LegalRagError:
    """An instance with the arguments its class needs."""
    if issubclass(cls, errors.InvalidRecordError):
        return cls("name", f"{cls.__name__} as raised")
    if issubclass(cls, errors.UnknownActError):
        return cls("Penal Code of Mars", ("IPC",))
    if issubclass(cls, errors.AmbiguousActError):
        return cls("CPC", ("CPC", "CRPC"))
    return cls(f"{cls.__name__} as raised")


def test_every_class_is_in_the_table_and_exported() -> None:
    assert set(CLASSES) == set(EXPECTED)
    assert set(CLASSES) | {"ExitCode"} == set(errors.__all__)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_exit_code_and_http_status(name: str) -> None:
    cls = CLASSES[name]
    assert (cls.exit_code, cls.http_status) == EXPECTED[name]
    # "try again" and "could not check" are never "not found" or "bad input"
    if issubclass(cls, errors.RetryableError):
        assert cls.exit_code is UNAVAILABLE and cls.http_status == 503


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_cli_entry_exits_with_the_class_code(name: str, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import legal_rag.cli as cli

    exc = make(CLASSES[name])

    def command() -> None:
        raise exc

    monkeypatch.setattr(cli, "app", command)
    with pytest.raises(SystemExit) as done:
        cli.main()
    assert done.value.code == EXPECTED[name][0]
    err = capsys.readouterr().err
    assert str(exc)[:30] in err.replace("\n", "")
    assert ("nothing could be checked" in err) == isinstance(exc, errors.RetryableError)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    """The real API app with one extra route that raises the error it is named for."""
    from legal_rag.api.app import create_app
    from legal_rag.settings import Settings

    api = create_app(Settings(state_dir=tmp_path_factory.mktemp("state")), open_on_start=False)

    @api.get("/raise/{name}")
    def raise_it(name: str) -> None:
        raise make(CLASSES[name])

    return TestClient(api)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_api_answers_with_the_class_status(client: TestClient, name: str) -> None:
    r = client.get(f"/raise/{name}")
    assert r.status_code == EXPECTED[name][1]
    detail = r.json()["detail"]
    if issubclass(CLASSES[name], errors.InvalidRecordError):
        assert detail[0]["loc"] == ["body", "name"] and name in detail[0]["msg"]
    else:
        assert name in detail or "Penal Code of Mars" in detail or "CPC" in detail
    assert ("Retry-After" in r.headers) == issubclass(CLASSES[name], errors.RetryableError)


def _cli(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "legal_rag.cli", *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "LEGAL_RAG_STATE_DIR": str(tmp_path), "COLUMNS": "200",
                                            **env})


def test_real_cli_exit_codes(tmp_path: Path) -> None:
    """One command per code, each cheap (no graph loaded, the records in a fresh SQLite file)."""
    missing = _cli(tmp_path, "jobs", "no-such-job")
    assert missing.returncode == 1 and "no job 'no-such-job'" in missing.stderr
    bad = _cli(tmp_path, "ask", "what is murder?", "--as-of", "2024-02-30")
    assert bad.returncode == 2 and "as_of must be a real date as YYYY-MM-DD, not '2024-02-30'" in bad.stderr
    down = _cli(tmp_path, "status", LEGAL_RAG_GRAPH__BACKEND="falkordb", LEGAL_RAG_GRAPH__FALKORDB_PORT="1")
    assert down.returncode == 3 and "nothing could be checked" in down.stderr

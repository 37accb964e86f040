"""Schemathesis against the OpenAPI schema, in process (``schemathesis.openapi.from_asgi``): for
generated valid and invalid requests to every operation, no server error, and every response is
one the schema declares, with the declared content type and body shape.

The fuzzed deployment has its own records database and a job queue no worker consumes: generated job
requests are valid up to n = 100,000, and on the session server's queue (or in its records, which a
restarted server recovers) they would build training data for the rest of the test session."""

from __future__ import annotations

import traceback
from collections.abc import Iterator

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from legal_rag.api.app import create_app
from legal_rag.app import Application
from legal_rag.settings import JobSettings, Settings
from tests.integration.conftest import create_key

pytestmark = [pytest.mark.integration, pytest.mark.slow]


SCHEMA_QUEUE = "legal_rag_schema_tests"


@pytest.fixture(scope="module")
def fuzz_env(api_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    db = tmp_path_factory.mktemp("schema-records") / "records.sqlite3"
    return {**api_env, "LEGAL_RAG_DATABASE_URL": f"sqlite:///{db}", "LEGAL_RAG_JOBS__QUEUE": SCHEMA_QUEUE}


@pytest.fixture(scope="module")
def api_app(api_settings: Settings, fuzz_env: dict[str, str]) -> Iterator[tuple[FastAPI, Application]]:
    settings = api_settings.model_copy(update={"database_url": fuzz_env["LEGAL_RAG_DATABASE_URL"],
                                               "jobs": JobSettings(queue=SCHEMA_QUEUE)})
    application = Application(settings, first_run=False).open()  # what the lifespan does before /ready
    try:
        yield create_app(settings, application, open_on_start=False), application
    finally:
        application.celery().control.purge()  # nothing consumes this queue: drop what the fuzz sent
        application.close()


CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def test_no_server_errors_and_responses_match_the_schema(api_app: tuple[FastAPI, Application],
                                                        fuzz_env: dict[str, str]) -> None:
    # Driven from one test (not schemathesis' pytest plugin, whose fixture loader does not run on
    # pytest 9): every operation, valid and invalid requests from the schema, with an admin key.
    app, application = api_app
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    headers = {"X-API-Key": create_key(fuzz_env, "admin", "schema-fuzz")}
    operations = [op.ok() for op in schema.get_all_operations()]
    assert len(operations) >= 15, [op.label for op in operations]
    failures: list[str] = []
    for operation in operations:
        @given(case=operation.as_strategy())
        @settings(max_examples=30, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        def run(case: schemathesis.Case) -> None:
            case.call_and_validate(headers=headers, checks=CHECKS, timeout=120)

        try:
            run()
        except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - collected per operation, reported below
            failures.append(f"{operation.label}: {''.join(traceback.format_exception(exc))[-4000:]}")
    assert not failures, "\n\n".join(failures)
    queued = [job for job in application.records().jobs.unfinished() if job.kind == "finetune"]
    assert queued, "the fuzz sent no valid training-data job, so this test no longer covers that operation"

"""Schemathesis against the OpenAPI schema, in process (``schemathesis.openapi.from_asgi``): for
generated valid and invalid requests to every operation, no server error, and every response is
one the schema declares, with the declared content type and body shape."""

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
from legal_rag.settings import Settings
from tests.integration.conftest import Server

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def api_app(api_settings: Settings) -> Iterator[FastAPI]:
    application = Application(api_settings, first_run=False).open()  # what the lifespan does before /ready
    try:
        yield create_app(api_settings, application, open_on_start=False)
    finally:
        application.close()


CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def test_no_server_errors_and_responses_match_the_schema(api_app: FastAPI, api_server: Server) -> None:
    # Driven from one test (not schemathesis' pytest plugin, whose fixture loader does not run on
    # pytest 9): every operation, valid and invalid requests from the schema, with an admin key.
    schema = schemathesis.openapi.from_asgi("/openapi.json", api_app)
    headers = {"X-API-Key": api_server.keys["admin"]}
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

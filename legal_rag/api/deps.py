"""What a route may ask FastAPI for: the application (ready or not), the settings, the metrics.

Routes take ``ReadyApp`` when they need the graph, index or models (503 with ``Retry-After`` until
the application has opened) and ``RecordsApp`` when the records database is enough (answers,
flags, keys, jobs answer while the models still load).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request

from legal_rag.api.metrics import ApiMetrics
from legal_rag.app import Application
from legal_rag.settings import Settings

__all__ = ["Metrics", "ReadyApp", "RecordsApp", "SettingsDep"]


def ready_application(request: Request) -> Application:
    """The application once it is open; 503 (retry in 2 s) while it loads."""
    state = request.app.state
    if not state.ready:
        raise HTTPException(503, "starting: the statute graph, index and models are still loading",
                            headers={"Retry-After": "2"})
    application: Application = state.application
    return application


def records_application(request: Request) -> Application:
    """The application for routes that read or write only the records (usable while the models load)."""
    application: Application = request.app.state.application
    return application


def settings(request: Request) -> Settings:
    value: Settings = request.app.state.settings
    return value


def metrics(request: Request) -> ApiMetrics:
    value: ApiMetrics = request.app.state.metrics
    return value


ReadyApp = Annotated[Application, Depends(ready_application)]
RecordsApp = Annotated[Application, Depends(records_application)]
SettingsDep = Annotated[Settings, Depends(settings)]
Metrics = Annotated[ApiMetrics, Depends(metrics)]

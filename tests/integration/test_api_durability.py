"""Durability under load, against a real ``legal-rag serve`` process on the records' SQLite file:
1,000 flags posted at once by 50 clients are all stored (none lost, none duplicated, retries
absorbed by their Idempotency-Key); after ``kill -9`` of the server every acknowledged flag and
answer is there on restart."""

from __future__ import annotations

import json
import signal
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from http.client import HTTPException
from pathlib import Path

import pytest

from tests.integration.conftest import Server, http, start_server, stop_server

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _ask(server: Server, key: str) -> dict[str, object]:
    status, _, body = http("POST", server.url + "/v1/ask", key,
                           {"question": "What is the punishment for theft?", "as_of": "2025-01-01"})
    assert status == 200, body
    doc: dict[str, object] = json.loads(body)
    return doc


def test_a_thousand_flags_from_fifty_clients_are_all_stored_once(api_server: Server) -> None:
    key = api_server.keys["paralegal"]
    answer = _ask(api_server, key)
    text = str(answer["answer"])
    url = f"{api_server.url}/v1/answers/{answer['id']}/flags"
    run = uuid.uuid4().hex[:8]

    def client(c: int) -> list[tuple[int, str]]:
        out = []
        for i in range(20):
            n = c * 20 + i
            body = {"start": n % (len(text) - 1), "end": n % (len(text) - 1) + 1, "label": "other",
                    "comment": f"{run}-{n}"}
            idem = {"Idempotency-Key": f"{run}-{n}"}
            status, _, resp = http("POST", url, key, body, headers=idem)
            out.append((status, json.loads(resp)["id"]))
            if i % 5 == 0:  # a client that did not hear the answer and retries
                status2, _, resp2 = http("POST", url, key, body, headers=idem)
                assert status2 == 200 and json.loads(resp2)["id"] == out[-1][1]
        return out

    with ThreadPoolExecutor(50) as pool:
        results = [r for rs in pool.map(client, range(50)) for r in rs]
    assert [s for s, _ in results] == [201] * 1000
    status, _, body = http("GET", url, key)
    stored = [f for f in json.loads(body) if str(f["comment"]).startswith(run)]
    assert len(stored) == 1000
    assert len({f["id"] for f in stored}) == 1000
    assert {f["comment"] for f in stored} == {f"{run}-{n}" for n in range(1000)}
    assert {f["id"] for f in stored} == {i for _, i in results}


def test_every_acknowledged_flag_and_answer_survives_kill_9(api_env: dict[str, str], api_server: Server,
                                                           tmp_path: Path) -> None:
    key = api_server.keys["paralegal"]
    server = start_server(api_env, tmp_path / "victim.log", "--no-worker")
    acknowledged: list[str] = []
    stop = threading.Event()
    try:
        answer = _ask(server, key)
        url = f"{server.url}/v1/answers/{answer['id']}/flags"

        def post_until_killed(c: int) -> None:
            n = 0
            while not stop.is_set():
                try:
                    status, _, body = http("POST", url, key, {"start": 0, "end": 1, "label": "incomplete",
                                                              "comment": f"c{c}-{n}"}, timeout=10)
                except (OSError, HTTPException):  # the server is gone: stop, keeping what was acknowledged
                    return
                if status == 201:
                    acknowledged.append(json.loads(body)["id"])
                n += 1

        threads = [threading.Thread(target=post_until_killed, args=(c,)) for c in range(8)]
        for t in threads:
            t.start()
        while len(acknowledged) < 150:
            threading.Event().wait(0.05)
        stop_server(server.proc, signal.SIGKILL)  # no shutdown, no flush: the process just dies
        stop.set()
        for t in threads:
            t.join(timeout=30)
    finally:
        stop.set()
        stop_server(server.proc, signal.SIGKILL)

    restarted = start_server(api_env, tmp_path / "restarted.log", "--no-worker")
    try:
        status, _, body = http("GET", f"{restarted.url}/v1/answers/{answer['id']}", key)
        assert status == 200 and json.loads(body)["answer"] == answer["answer"]
        status, _, body = http("GET", f"{restarted.url}/v1/answers/{answer['id']}/flags", key)
        stored = {f["id"] for f in json.loads(body)}
        missing = set(acknowledged) - stored
        assert len(acknowledged) >= 150 and not missing, f"{len(missing)} acknowledged flags lost"
    finally:
        stop_server(restarted.proc)

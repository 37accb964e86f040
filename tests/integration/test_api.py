"""The HTTP API in process (TestClient over the real application: embedded graph, real index,
records on SQLite) beside the ``legal-rag serve`` the session started, whose worker runs the jobs."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from legal_rag.api.app import create_app
from legal_rag.app import Application
from legal_rag.settings import Settings
from tests.integration.conftest import Server, http

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def h(key: str, **extra: str) -> dict[str, str]:
    return {"X-API-Key": key, **extra}


@pytest.fixture(scope="module")
def extortion(client: TestClient, keys: dict[str, str]) -> dict[str, Any]:
    r = client.post("/v1/ask", json={"question": "What is the punishment for extortion?", "as_of": "2025-01-01"},
                    headers=h(keys["lawyer"]))
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    return doc


# -- open routes and authentication ------------------------------------------------------------------


def test_open_routes_need_no_key(client: TestClient) -> None:
    assert client.get("/health").json() == {"status": "ok"}
    assert client.get("/ready").json()["status"] == "ready"
    schema = client.get("/openapi.json").json()
    assert "/v1/ask" in schema["paths"] and "/v1/answers/{answer_id}/flags" in schema["paths"]
    assert client.get("/docs").status_code == 200
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"] and "flag" in page.text.lower()


@pytest.mark.parametrize(("method", "path"), [("post", "/v1/ask"), ("get", "/v1/answers"), ("post", "/v1/verify"),
                                              ("get", "/v1/sections/BNS/103"), ("get", "/v1/flags"),
                                              ("post", "/v1/ingest"), ("get", "/v1/jobs/x"), ("get", "/v1/keys")])
def test_every_other_route_needs_a_key(client: TestClient, method: str, path: str) -> None:
    r = client.request(method, path, json={})
    assert r.status_code == 401 and "X-API-Key" in r.json()["detail"]
    r = client.request(method, path, json={}, headers=h("lrk_not-a-real-key"))
    assert r.status_code == 401 and "unknown or revoked" in r.json()["detail"]


def test_a_revoked_key_is_refused_at_once(client: TestClient, api_env: dict[str, str]) -> None:
    from tests.integration.conftest import create_key

    key = create_key(api_env, "lawyer", "soon-revoked")
    assert client.get("/v1/sections/BNS/103", headers=h(key)).status_code == 200
    revoked = client.delete("/v1/keys/soon-revoked", headers=h(_admin_key(client, api_env)))
    assert revoked.status_code == 200 and revoked.json()["revoked_at"]
    assert client.get("/v1/sections/BNS/103", headers=h(key)).status_code == 401


def _admin_key(client: TestClient, api_env: dict[str, str]) -> str:
    import uuid

    from tests.integration.conftest import create_key

    return create_key(api_env, "admin", f"admin-{uuid.uuid4().hex[:6]}")


@pytest.mark.parametrize(("role", "method", "path", "body"), [
    ("lawyer", "post", "/v1/answers/x/flags", {"start": 0, "end": 1, "label": "other"}),
    ("lawyer", "post", "/v1/ingest", None),
    ("lawyer", "get", "/v1/flags", None),
    ("paralegal", "post", "/v1/flags/x/review", {"status": "accepted"}),
    ("paralegal", "get", "/v1/jobs/x", None),
    ("data_engineer", "post", "/v1/ask", {"question": "What is theft?"}),
    ("data_engineer", "get", "/v1/answers", None),
    ("data_engineer", "get", "/v1/keys", None),
    ("lawyer", "post", "/v1/keys", {"name": "x", "role": "admin"}),
])
def test_a_role_without_the_right_gets_403(client: TestClient, keys: dict[str, str], role: str, method: str,
                                            path: str, body: dict[str, Any] | None) -> None:
    r = client.request(method, path, json=body, headers=h(keys[role]))
    assert r.status_code == 403, r.text
    assert role in r.json()["detail"]


def test_rate_limit_answers_429_with_retry_after(api_settings: Settings, api_server: Server) -> None:
    tight = api_settings.model_copy(update={"api": api_settings.api.model_copy(update={"rate_limit_per_minute": 3})})
    application = Application(tight, first_run=False)
    with TestClient(create_app(tight, application, open_on_start=False)) as c:
        codes = [c.get("/v1/sections/BNS/103", headers=h(api_server.keys["lawyer"])).status_code for _ in range(5)]
        assert codes[:3] == [200, 200, 200] and codes[3] == 429
        last = c.get("/v1/sections/BNS/103", headers=h(api_server.keys["lawyer"]))
        assert last.status_code == 429 and int(last.headers["Retry-After"]) >= 1
        # another key has its own bucket
        assert c.get("/v1/sections/BNS/103", headers=h(api_server.keys["paralegal"])).status_code == 200
    application.close()


# -- research ---------------------------------------------------------------------------------------


def test_ask_returns_a_verified_answer_with_an_id_and_it_is_stored(
        client: TestClient, keys: dict[str, str], extortion: dict[str, Any]) -> None:
    assert extortion["id"] and "308" in extortion["answer"]
    assert any(c["section"].startswith("308") and c["status"] == "verified" for c in extortion["citations"])
    assert extortion["key_name"] == "test-lawyer" and extortion["index_version"] >= 1
    stored = client.get(f"/v1/answers/{extortion['id']}", headers=h(keys["paralegal"]))
    assert stored.status_code == 200
    assert stored.json() == extortion  # what was sent is what is kept, with its provenance
    for field in ("question", "as_of", "answer", "citations", "claims", "confidence", "generator", "timings_ms",
                  "index_version", "created_at", "key_name"):
        assert field in stored.json()
    assert all("evidence" in c and "verdict" in c for c in stored.json()["claims"])


def test_answers_page_newest_first(client: TestClient, keys: dict[str, str], extortion: dict[str, Any]) -> None:
    second = client.post("/v1/ask", json={"question": "Is Section 302 IPC in force?", "as_of": "2025-01-01"},
                         headers=h(keys["lawyer"])).json()
    page = client.get("/v1/answers?limit=1", headers=h(keys["lawyer"])).json()
    assert [a["id"] for a in page["answers"]] == [second["id"]] and page["next_before"] == second["id"]
    older = client.get(f"/v1/answers?limit=200&before={page['next_before']}", headers=h(keys["lawyer"])).json()
    assert extortion["id"] in [a["id"] for a in older["answers"]]
    assert second["id"] not in [a["id"] for a in older["answers"]]
    assert client.get("/v1/answers/nope", headers=h(keys["lawyer"])).status_code == 404


@pytest.mark.parametrize(("body", "field"), [
    ({"question": ""}, "question"),
    ({"question": "   "}, "question"),
    ({"question": "x" * 2001}, "question"),
    ({"question": "What is theft?", "as_of": "2025-02-30"}, "as_of"),
    ({"question": "What is theft?", "as_of": "01-02-2025"}, "as_of"),
    ({"question": "What is theft?", "mode": "fast"}, "mode"),
    ({}, "question"),
])
def test_bad_questions_get_422_naming_the_field(client: TestClient, keys: dict[str, str], body: dict[str, Any],
                                                field: str) -> None:
    for path in ("/v1/ask", "/v1/ask/stream"):
        r = client.post(path, json=body, headers=h(keys["lawyer"]))
        assert r.status_code == 422, r.text
        assert any(field in d["loc"] for d in r.json()["detail"]), r.json()


def _events(raw: str) -> list[tuple[str, Any]]:
    out = []
    for block in raw.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def test_stream_sends_stages_then_one_verified_answer_then_done(client: TestClient, keys: dict[str, str]) -> None:
    with client.stream("POST", "/v1/ask/stream", json={"question": "What is the punishment for theft?",
                                                       "as_of": "2025-03-01"}, headers=h(keys["lawyer"])) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        events = _events(r.read().decode())
    kinds = [k for k, _ in events if k != "heartbeat"]
    assert kinds[-2:] == ["answer", "done"] and set(kinds[:-2]) == {"stage"}
    stages = [d["stage"] for k, d in events if k == "stage"]
    assert stages[0] == "classify" and stages[-1] == "finalise" and "verify_citations" in stages
    assert all(d["elapsed_ms"] >= 0 for k, d in events if k == "stage")
    answer = next(d for k, d in events if k == "answer")
    assert events[-1][1]["id"] == answer["id"]
    stored = client.get(f"/v1/answers/{answer['id']}", headers=h(keys["lawyer"])).json()
    assert stored == answer and "303" in answer["answer"]


def test_verify_reports_each_citation(client: TestClient, keys: dict[str, str]) -> None:
    r = client.post("/v1/verify", json={"text": "Murder is punishable under Section 302 IPC and Section 999 BNS.",
                                        "as_of": "2025-01-01"}, headers=h(keys["lawyer"]))
    assert r.status_code == 200, r.text
    statuses = {(c["act"], c["section"]): c["status"] for c in r.json()["citations"]}
    assert statuses[("IPC", "302")] == "repealed" and statuses[("BNS", "999")] == "not_found"
    pending = client.post("/v1/verify", json={"text": "He is charged under Section 420 IPC.", "as_of": "2024-08-20",
                                             "offence_on": "2024-03-31"}, headers=h(keys["lawyer"]))  # fmt: skip
    assert pending.status_code == 200 and pending.json()["citations"][0]["status"] == "verified", pending.text
    too_long = client.post("/v1/verify", json={"text": "x" * 100_001}, headers=h(keys["lawyer"]))
    assert too_long.status_code == 422 and "text" in too_long.json()["detail"][0]["loc"]


def test_sections_answer_with_the_lookup_object_or_404_with_suggestions(client: TestClient,
                                                                         keys: dict[str, str]) -> None:
    r = client.get("/v1/sections/IPC/302?as_of=2025-01-01", headers=h(keys["data_engineer"]))
    assert r.status_code == 200 and r.json()["status_on_date"] == "repealed"
    assert {"act": "BNS", "section": "103(1)"}.items() <= r.json()["successors"][0].items()
    missing = client.get("/v1/sections/BNS/3021", headers=h(keys["lawyer"]))
    assert missing.status_code == 404 and "BNS has no section 3021" in missing.json()["detail"]
    assert "BNS 302" in missing.json()["suggestions"]
    unknown = client.get("/v1/sections/Indian%20Penal%20Cod/302", headers=h(keys["lawyer"]))
    assert unknown.status_code == 404 and unknown.json()["suggestions"]
    bad_date = client.get("/v1/sections/IPC/302?as_of=2025-13-01", headers=h(keys["lawyer"]))
    assert bad_date.status_code == 422


# -- flags ------------------------------------------------------------------------------------------


def test_a_paralegal_flags_a_span_and_a_retry_stores_nothing_new(client: TestClient, keys: dict[str, str],
                                                                 extortion: dict[str, Any]) -> None:
    text = extortion["answer"]
    start = text.index("seven years")
    body = {"start": start, "end": start + len("seven years"), "label": "misquote", "comment": "check the term",
            "correction": "seven years (BNS s.308(2))"}
    url = f"/v1/answers/{extortion['id']}/flags"
    first = client.post(url, json=body, headers=h(keys["paralegal"], **{"Idempotency-Key": "retry-1"}))
    assert first.status_code == 201, first.text
    again = client.post(url, json=body, headers=h(keys["paralegal"], **{"Idempotency-Key": "retry-1"}))
    assert again.status_code == 200 and again.json() == first.json()
    conflict = client.post(url, json={**body, "label": "other"},
                           headers=h(keys["paralegal"], **{"Idempotency-Key": "retry-1"}))
    assert conflict.status_code == 409
    flags = client.get(url, headers=h(keys["lawyer"])).json()
    mine = [f for f in flags if f["id"] == first.json()["id"]]
    assert len(mine) == 1 and mine[0]["span_text"] == "seven years" and mine[0]["status"] == "pending"
    assert mine[0]["key_name"] == "test-paralegal"


@pytest.mark.parametrize(("body", "field"), [
    ({"start": 0, "end": 10**6, "label": "misquote"}, "end"),
    ({"start": 5, "end": 5, "label": "misquote"}, "end"),
    ({"start": -1, "end": 5, "label": "misquote"}, "start"),
    ({"start": 0, "end": 5, "label": "typo"}, "label"),
    ({"start": 0, "end": 5}, "label"),
])
def test_bad_flags_get_422_naming_the_field(client: TestClient, keys: dict[str, str], extortion: dict[str, Any],
                                            body: dict[str, Any], field: str) -> None:
    before = len(client.get(f"/v1/answers/{extortion['id']}/flags", headers=h(keys["lawyer"])).json())
    r = client.post(f"/v1/answers/{extortion['id']}/flags", json=body, headers=h(keys["paralegal"]))
    assert r.status_code == 422, r.text
    assert any(field in d["loc"] for d in r.json()["detail"]), r.json()
    assert len(client.get(f"/v1/answers/{extortion['id']}/flags", headers=h(keys["lawyer"])).json()) == before


def test_flag_on_a_missing_answer_is_404(client: TestClient, keys: dict[str, str]) -> None:
    r = client.post("/v1/answers/nope/flags", json={"start": 0, "end": 1, "label": "other"},
                    headers=h(keys["paralegal"]))
    assert r.status_code == 404


def test_flags_export_as_json_lines_and_admin_review(client: TestClient, keys: dict[str, str],
                                                     extortion: dict[str, Any]) -> None:
    made = client.post(f"/v1/answers/{extortion['id']}/flags", json={"start": 0, "end": 7, "label": "outdated_law"},
                       headers=h(keys["paralegal"])).json()["id"]
    today = time.strftime("%Y-%m-%d", time.gmtime())
    r = client.get(f"/v1/flags?since={today}&label=outdated_law",
                   headers=h(keys["data_engineer"], Accept="application/x-ndjson"))
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    rows = [json.loads(line) for line in r.text.splitlines()]
    assert made in [row["id"] for row in rows] and {row["label"] for row in rows} == {"outdated_law"}
    assert client.get("/v1/flags?since=2999-01-01", headers=h(keys["admin"])).json() == []
    assert client.get("/v1/flags?since=2025-02-30", headers=h(keys["admin"])).status_code == 422
    reviewed = client.post(f"/v1/flags/{made}/review", json={"status": "accepted"}, headers=h(keys["admin"]))
    assert reviewed.status_code == 200 and reviewed.json()["status"] == "accepted"
    assert reviewed.json()["reviewed_by"] == "test-admin"
    accepted = client.get("/v1/flags?status=accepted", headers=h(keys["admin"])).json()
    assert made in [f["id"] for f in accepted]
    assert client.post("/v1/flags/nope/review", json={"status": "accepted"},
                       headers=h(keys["admin"])).status_code == 404


# -- data engineers: ingest jobs run by the server's worker ------------------------------------------

KRA = [
    {"record": "act", "code": "KRAPI", "title": "The Karnataka Rent (API Test) Act, 1999", "year": 1999,
     "in_force_from": "2001-12-31"},
    {"act": "KRAPI", "section": "27", "title": "Recovery of possession", "in_force_from": "2001-12-31",
     "text": "(1) No order for the recovery of possession of any premises shall be made against a tenant except "
             "on an application to the Court. (2) The Court may order recovery of possession where the tenant "
             "has not paid the rent lawfully due."},
    {"act": "NOPE", "section": "1", "title": "x"},
]


def _wait_job(client: TestClient, key: str, job_id: str, timeout: float = 300) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        job: dict[str, Any] = client.get(f"/v1/jobs/{job_id}", headers=h(key)).json()
        if job["state"] in ("succeeded", "succeeded_with_rejects", "failed") or time.monotonic() > deadline:
            return job
        time.sleep(0.5)


def test_ingest_by_json_lines_runs_as_a_job_with_progress_and_report(client: TestClient,
                                                                     keys: dict[str, str]) -> None:
    body = "\n".join(json.dumps(r) for r in KRA) + "\n"
    r = client.post("/v1/ingest", content=body.encode(),
                    headers=h(keys["data_engineer"], **{"Content-Type": "application/x-ndjson"}))
    assert r.status_code == 202, r.text
    job_id = r.json()["job_id"]
    job = _wait_job(client, keys["data_engineer"], job_id)
    assert job["state"] == "succeeded_with_rejects", job
    report = job["report"]
    assert (report["added"], report["rejected"]) == (2, 1)
    assert report["rejects"] == [{"line": 3, "column": 2, "reason": "unknown Act 'NOPE'", "file": "upload.jsonl",
                                  "act": "NOPE", "problems": [{"reason": "unknown Act 'NOPE'", "field": "act",
                                                               "column": 2}]}]
    assert job["progress"]["done"] == job["progress"]["total"]
    # the job also brought the shared index up to date: the new Act is found by retrieval
    answer = client.post("/v1/ask", json={"question": "What does section 27 of the Karnataka Rent (API Test) Act, "
                                                      "1999 provide?", "as_of": "2025-01-01"},
                         headers=h(keys["lawyer"])).json()
    assert any(s["act"] == "KRAPI" for s in answer["sources"]), answer["sources"]
    section = client.get("/v1/sections/KRAPI/27", headers=h(keys["data_engineer"]))
    assert section.status_code == 200


def test_ingest_as_a_multipart_file(client: TestClient, keys: dict[str, str]) -> None:
    act = {**KRA[0], "code": "KRAPI2", "title": "The Karnataka Rent (Multipart Test) Act, 1999"}
    body = json.dumps(act) + "\n" + json.dumps({**KRA[1], "act": "KRAPI2"}) + "\n"
    r = client.post("/v1/ingest", files={"file": ("kra.jsonl", body.encode(), "application/x-ndjson")},
                    headers=h(keys["admin"]))
    assert r.status_code == 202, r.text
    job = _wait_job(client, keys["admin"], r.json()["job_id"])
    assert job["state"] == "succeeded" and job["report"]["added"] == 2, job
    assert client.get("/v1/sections/KRAPI2/27", headers=h(keys["admin"])).status_code == 200


RENT = [
    {"record": "act", "code": "KRAUP", "title": "The Karnataka Rent (Upload Test) Act, 1999", "year": 1999,
     "in_force_from": "2001-12-31"},
    {"act": "KRAUP", "section": "31", "title": "Recovery of possession for repairs",
     "text": "(1) The court may, on an application made by the landlord, make an order for the recovery of "
             "possession of the premises on being satisfied that the premises are bona fide required by the "
             "landlord for carrying out repairs which cannot be carried out without the premises being vacated."},
    {"act": "KRAUP", "section": "32", "title": "Recovery of possession on failure to pay rent",
     "text": "The tenant shall pay the rent lawfully due within fifteen days of its falling due."},
]


def test_re_uploading_an_unchanged_file_writes_nothing(client: TestClient, keys: dict[str, str]) -> None:
    body = ("\n".join(json.dumps(r) for r in RENT) + "\n").encode()
    key = keys["data_engineer"]
    jobs = []
    for _ in range(2):
        r = client.post("/v1/ingest", files={"file": ("rent_acts.jsonl", body, "application/x-ndjson")},
                        headers=h(key))
        assert r.status_code == 202, r.text
        jobs.append(_wait_job(client, key, r.json()["job_id"]))
    first, second = (j["report"] for j in jobs)
    assert jobs[0]["state"] == jobs[1]["state"] == "succeeded", jobs
    assert (first["added"], first["updated"], first["unchanged"]) == (3, 0, 0)
    assert (second["added"], second["updated"], second["unchanged"]) == (0, 0, 3)  # what the CLI says too
    assert first["index"]["version"] > 0 and second["index"]["version"] == 0  # no new index version
    # the record's source is the uploaded file's own name, not the server's copy
    index = client.app.state.application.index()  # type: ignore[attr-defined]
    index.refresh()
    assert {c.source for c in index.chunks() if c.act == "KRAUP"} == {"rent_acts.jsonl:2", "rent_acts.jsonl:3"}


def test_a_malformed_upload_names_the_file_line_column_and_every_problem(client: TestClient,
                                                                          keys: dict[str, str]) -> None:
    lines = [
        json.dumps({"record": "act", "code": "KRABAD", "title": "The Karnataka Rent (Bad Upload) Act, 1999"}),
        json.dumps({"act": "KRABAD", "section": "27", "title": "Recovery of possession", "status": "active",
                    "in_force_from": "2001-31-12", "text": "No order for recovery of possession shall be made."}),
        '{"act": "KRABAD", "section": "28", "title": "Deposit of rent" "text": "The tenant may deposit the rent."}',
    ]
    r = client.post("/v1/ingest?filename=state_rent_acts.jsonl", content=("\n".join(lines) + "\n").encode(),
                    headers=h(keys["data_engineer"], **{"Content-Type": "application/x-ndjson"}))
    assert r.status_code == 202, r.text
    job = _wait_job(client, keys["data_engineer"], r.json()["job_id"])
    assert job["state"] == "succeeded_with_rejects", job  # the Act loaded, two lines refused
    status_col, date_col = lines[1].index('"status"') + 1, lines[1].index('"in_force_from"') + 1
    bad, broken = job["report"]["rejects"]
    assert (bad["file"], bad["line"], bad["column"]) == ("state_rent_acts.jsonl", 2, status_col)
    assert [(p["field"], p["column"]) for p in bad["problems"]] == [("status", status_col),
                                                                    ("in_force_from", date_col)]
    assert "status 'active'" in bad["reason"] and "in_force_from '2001-31-12' is not a date" in bad["reason"]
    text_col = lines[2].index('"text"') + 1  # where the missing comma should be
    assert (broken["file"], broken["line"], broken["column"]) == ("state_rent_acts.jsonl", 3, text_col)
    assert "Expecting ',' delimiter" in broken["reason"]
    assert "uploads" not in json.dumps(job)  # nothing names the server's copy


def test_a_job_whose_every_record_is_rejected_has_failed(client: TestClient, keys: dict[str, str]) -> None:
    body = b'{"act": "NOSUCHACT", "section": "1", "text": "x"}\n{"act": "NOSUCHACT", "section": "2"\n'
    r = client.post("/v1/ingest", files={"file": ("nothing_good.jsonl", body, "application/x-ndjson")},
                    headers=h(keys["data_engineer"]))
    job = _wait_job(client, keys["data_engineer"], r.json()["job_id"])
    assert job["state"] == "failed" and "every record was rejected (2)" in job["error"], job
    assert [(x["file"], x["line"]) for x in job["report"]["rejects"]] == [("nothing_good.jsonl", 1),
                                                                          ("nothing_good.jsonl", 2)]


@pytest.mark.parametrize(("filename", "where"), [("acts.csv", "query"), ("../../etc/passwd", "query")])
def test_an_upload_name_that_is_not_jsonl_is_refused(client: TestClient, keys: dict[str, str], filename: str,
                                                      where: str) -> None:
    r = client.post("/v1/ingest", params={"filename": filename}, content=b'{"act": "IPC"}\n',
                    headers=h(keys["data_engineer"], **{"Content-Type": "application/x-ndjson"}))
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == [where, "filename"], r.text


@pytest.mark.parametrize(("content", "ctype", "status"), [
    (b"", "application/x-ndjson", 422),
    (b"\xff\xfe not utf-8", "application/x-ndjson", 422),
    (b"{}", "text/csv", 415),
])
def test_bad_uploads_are_refused_and_make_no_job(client: TestClient, keys: dict[str, str], content: bytes,
                                                  ctype: str, status: int) -> None:
    r = client.post("/v1/ingest", content=content, headers=h(keys["data_engineer"], **{"Content-Type": ctype}))
    assert r.status_code == status, r.text


def test_an_upload_over_the_limit_is_413(api_settings: Settings, api_server: Server) -> None:
    small = api_settings.model_copy(update={"api": api_settings.api.model_copy(update={"max_upload_mb": 1})})
    application = Application(small, first_run=False)
    with TestClient(create_app(small, application, open_on_start=False)) as c:
        big = (json.dumps(KRA[1]) + "\n").encode() * (2 * 1024 * 1024 // 300)
        r = c.post("/v1/ingest", content=big, headers=h(api_server.keys["data_engineer"],
                                                         **{"Content-Type": "application/x-ndjson"}))
        assert r.status_code == 413 and "1 MB" in r.json()["detail"]
    application.close()


def test_unknown_job_is_404(client: TestClient, keys: dict[str, str]) -> None:
    assert client.get("/v1/jobs/nope", headers=h(keys["data_engineer"])).status_code == 404


# -- metrics and the real server ---------------------------------------------------------------------


def test_metrics_count_requests_answers_flags_and_checks(client: TestClient, keys: dict[str, str],
                                                         extortion: dict[str, Any]) -> None:
    assert client.get("/metrics").status_code == 401  # the README: every route but the open ones needs a key
    assert client.get("/metrics", headers=h(keys["lawyer"])).status_code == 403
    text = client.get("/metrics", headers=h(keys["metrics"])).text
    assert 'legal_rag_http_requests_total{method="POST",route="/v1/ask",status="200"}' in text
    assert "legal_rag_http_request_seconds_bucket" in text
    assert "legal_rag_answers_total{" in text and 'legal_rag_citation_checks_total{status="verified"}' in text


def test_the_served_api_answers_over_http(api_server: Server) -> None:
    status, _, body = http("POST", api_server.url + "/v1/ask", api_server.keys["lawyer"],
                           {"question": "What does Section 138 of the Negotiable Instruments Act say?"})
    assert status == 200, body
    doc = json.loads(body)
    status, _, stored = http("GET", f"{api_server.url}/v1/answers/{doc['id']}", api_server.keys["lawyer"])
    assert status == 200 and json.loads(stored)["answer"] == doc["answer"]


def test_concurrent_asks_answer_as_sequential_ones_do(client: TestClient, keys: dict[str, str]) -> None:
    from concurrent.futures import ThreadPoolExecutor

    questions = ["What is the punishment for theft?", "Is Section 302 IPC in force?",
                 "What does Section 138 of the Negotiable Instruments Act say?", "What is dowry death?",
                 "What is the punishment for cheating?", "When can police arrest without a warrant?"]

    def ask(q: str) -> tuple[str, list[tuple[str, str]]]:
        r = client.post("/v1/ask", json={"question": q, "as_of": "2025-01-01"}, headers=h(keys["lawyer"]))
        assert r.status_code == 200, r.text
        doc = r.json()
        return doc["answer"], [(c["text"], c["status"]) for c in doc["citations"]]

    sequential = [ask(q) for q in questions]
    with ThreadPoolExecutor(6) as pool:
        concurrent = list(pool.map(ask, questions * 2))
    assert concurrent == sequential * 2


def test_a_data_engineer_builds_training_data_as_a_job(client: TestClient, keys: dict[str, str]) -> None:
    assert client.post("/v1/finetune/jobs", json={"n": 10}, headers=h(keys["lawyer"])).status_code == 403
    bad = client.post("/v1/finetune/jobs", json={"n": 2}, headers=h(keys["data_engineer"]))
    assert bad.status_code == 422 and "n" in bad.json()["detail"][0]["loc"]
    r = client.post("/v1/finetune/jobs", json={"n": 10, "seed": 3}, headers=h(keys["data_engineer"]))
    assert r.status_code == 202, r.text
    job = _wait_job(client, keys["data_engineer"], r.json()["job_id"], timeout=600)
    assert job["kind"] == "finetune" and job["state"] == "succeeded", job
    assert sum(job["report"]["totals"].values()) == 10
    assert job["progress"]["done"] == job["progress"]["total"] == 10

"""Privacy and hardening of the API (issue 26 item 3), one test per promise, on the real app over real
records (SQLite in a temporary state dir; the statute graph is not needed, so it is never opened) and,
where the wire matters (a body refused before it is uploaded, what the server logs), a real uvicorn."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from legal_rag.api.app import STATIC, create_app
from legal_rag.api.hardening import FailedKeyLimiter, scrub
from legal_rag.app import Application
from legal_rag.records import Records
from legal_rag.settings import ApiSettings, Settings

pytestmark = [pytest.mark.integration]

BODY_KB = 4
FAILED_KEYS = 5


def _settings(tmp_path: Path) -> Settings:
    return Settings(state_dir=tmp_path / "state", database_url=f"sqlite:///{tmp_path / 'records.sqlite3'}",
                    api=ApiSettings(max_body_kb=BODY_KB, max_upload_mb=1, failed_key_limit=FAILED_KEYS,
                                    failed_key_window_s=600, rate_limit_per_minute=10_000))


class Served:
    def __init__(self, client: TestClient, records: Records, app: Any) -> None:
        self.client, self.records, self.app = client, records, app
        self.keys: dict[str, str] = {}

    def key(self, name: str, role: str, team: str | None = None) -> str:
        _, raw = self.records.keys.create(name, role, team) if team else self.records.keys.create(name, role)
        self.keys[name] = raw
        return raw


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    settings = _settings(tmp_path)
    application = Application(settings, first_run=False)
    api = create_app(settings, application, open_on_start=False)
    with TestClient(api) as client:
        yield Served(client, application.records(), api)
    application.close()


def h(key: str, **extra: str) -> dict[str, str]:
    return {"X-API-Key": key, **extra}


def _answer(records: Records, key_name: str, team: str, question: str) -> str:
    """An answer stored as the API stores one (the workflow's whole result), for ``team``."""
    doc = {"question": question, "as_of": "2025-01-01", "answer": "Section 308(2) BNS: extortion.",
           "complexity": "SIMPLE", "classification": {"method": "rules"}, "citations": [], "sources": [],
           "claims": [], "warnings": [], "confidence": {"score": 0.5, "label": "Medium", "factors": []},
           "verification_summary": {"method": "grounded-refinement"}, "generator": "extractive", "timings_ms": {}}
    return records.answers.add(doc, key_name=key_name, team=team).id


# -- teams -------------------------------------------------------------------------------------------


def test_a_team_reads_its_answers_and_flags_and_nothing_of_another_team(served: Served) -> None:
    c = served.client
    asha, pia = served.key("asha", "lawyer", "chambers-a"), served.key("pia", "paralegal", "chambers-a")
    bo, bea = served.key("bo", "lawyer", "chambers-b"), served.key("bea", "paralegal", "chambers-b")
    dee = served.key("dee", "data_engineer", "chambers-b")
    admin = served.key("root", "admin")
    ours = _answer(served.records, "asha", "chambers-a", "my client Mr X's extortion facts")
    theirs = _answer(served.records, "bo", "chambers-b", "my client Ms Y's cheating facts")
    r = c.post(f"/v1/answers/{ours}/flags", json={"start": 0, "end": 7, "label": "misquote", "comment": "X's case"},
               headers=h(pia))
    assert r.status_code == 201, r.text
    flag = r.json()["id"]

    # another team: the answer, its flags and its flagging are 404, and say no more than for an id never made
    for path in (f"/v1/answers/{ours}", f"/v1/answers/{ours}/flags"):
        other, never = c.get(path, headers=h(bo)), c.get(path.replace(ours, "0" * 36), headers=h(bo))
        assert other.status_code == never.status_code == 404
        assert other.json()["detail"].replace(ours, "ID") == never.json()["detail"].replace("0" * 36, "ID")
    assert c.post(f"/v1/answers/{ours}/flags", json={"start": 0, "end": 7, "label": "other"},
                  headers=h(bea)).status_code == 404
    listed = c.get("/v1/answers?limit=200", headers=h(bo)).json()["answers"]
    assert [a["id"] for a in listed] == [theirs] and "Mr X" not in str(listed) and "asha" not in str(listed)
    exported = c.get("/v1/flags", headers=h(dee)).json()
    assert exported == []

    # the own team sees it all
    assert c.get(f"/v1/answers/{ours}", headers=h(asha)).json()["key_name"] == "asha"
    assert [a["id"] for a in c.get("/v1/answers?limit=200", headers=h(pia)).json()["answers"]] == [ours]
    assert [f["id"] for f in c.get(f"/v1/answers/{ours}/flags", headers=h(asha)).json()] == [flag]

    # an admin sees every team's, and reviews any
    assert {a["id"] for a in c.get("/v1/answers?limit=200", headers=h(admin)).json()["answers"]} == {ours, theirs}
    assert [f["id"] for f in c.get("/v1/flags", headers=h(admin)).json()] == [flag]
    assert c.post(f"/v1/flags/{flag}/review", json={"status": "accepted"}, headers=h(admin)).status_code == 200


def test_the_research_page_views_keep_to_the_team(served: Served) -> None:
    # The answer view, its exports, the paralegal's review queue and the flag counts read through the same
    # viewer as the answer routes: another team's answer is 404 and never listed or counted.
    c = served.client
    pia = served.key("pia", "paralegal", "chambers-a")
    bo, bea = served.key("bo", "lawyer", "chambers-b"), served.key("bea", "paralegal", "chambers-b")
    dee = served.key("dee", "data_engineer", "chambers-b")
    admin = served.key("root", "admin")
    ours = _answer(served.records, "asha", "chambers-a", "my client Mr X's extortion facts")
    theirs = _answer(served.records, "bo", "chambers-b", "my client Ms Y's cheating facts")
    assert c.post(f"/v1/answers/{ours}/flags", json={"start": 0, "end": 7, "label": "misquote"},
                  headers=h(pia)).status_code == 201
    for path in (f"/v1/answers/{ours}/view", f"/v1/answers/{ours}/export?format=md",
                 f"/v1/answers/{ours}/export?format=docx"):
        assert c.get(path, headers=h(bo)).status_code == 404, path
        assert c.get(path, headers=h(pia)).status_code == 200, path
    queue = c.get("/v1/review", headers=h(bea)).json()
    assert [a["id"] for a in queue["answers"]] == [theirs] and "Mr X" not in str(queue)
    assert {a["id"] for a in c.get("/v1/review", headers=h(pia)).json()["answers"]} == {ours}
    assert c.get("/v1/flags/summary", headers=h(dee)).json() == {}
    assert c.get("/v1/flags/summary", headers=h(admin)).json() == {"misquote": {"pending": 1}}


def test_keys_are_made_in_a_team_or_the_default_one(served: Served, tmp_path: Path) -> None:
    admin = served.key("root", "admin")
    made = served.client.post("/v1/keys", json={"name": "ravi", "role": "paralegal", "team": "chambers-a"},
                              headers=h(admin))
    assert made.status_code == 201 and made.json()["team"] == "chambers-a"
    plain = served.client.post("/v1/keys", json={"name": "meera", "role": "lawyer"}, headers=h(admin))
    assert plain.json()["team"] == "default"
    bad = served.client.post("/v1/keys", json={"name": "x", "role": "lawyer", "team": "a b"}, headers=h(admin))
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["body", "team"]

    from legal_rag.cli import app as cli

    env = {"LEGAL_RAG_STATE_DIR": str(tmp_path / "state"),
           "LEGAL_RAG_DATABASE_URL": f"sqlite:///{tmp_path / 'records.sqlite3'}"}
    runner = CliRunner()
    done = runner.invoke(cli, ["keys", "create", "--role", "lawyer", "--name", "kiran", "--team", "chambers-b"],
                         env=env)
    assert done.exit_code == 0, done.output
    assert {r.name: r.team for r in served.records.keys.list()}["kiran"] == "chambers-b"
    listed = runner.invoke(cli, ["keys", "list", "--json"], env=env)
    docs = json.loads(listed.stdout.strip().splitlines()[-1])
    assert {"name": "kiran", "team": "chambers-b"}.items() <= next(d for d in docs if d["name"] == "kiran").items()


# -- /metrics ----------------------------------------------------------------------------------------


def test_metrics_need_a_metrics_or_admin_key(served: Served) -> None:
    c = served.client
    assert c.get("/metrics").status_code == 401
    assert c.get("/metrics", headers=h(served.key("asha", "lawyer"))).status_code == 403
    scraper = served.key("prometheus", "metrics")
    r = c.get("/metrics", headers={"Authorization": f"Bearer {scraper}"})  # how Prometheus sends credentials
    assert r.status_code == 200 and "legal_rag_http_requests_total" in r.text
    assert c.get("/metrics", headers=h(served.key("root", "admin"))).status_code == 200
    assert c.get("/v1/answers", headers=h(scraper)).status_code == 403  # a scraper reads nothing else


# -- body limit --------------------------------------------------------------------------------------


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, int, Served]]:
    """A real uvicorn serving the app on a free port (logs go to the root logger, for caplog)."""
    settings = _settings(tmp_path)
    application = Application(settings, first_run=False)
    api = create_app(settings, application, open_on_start=False)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(api, host="127.0.0.1", port=port, log_config=None, access_log=True,
                                           log_level="debug"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield "127.0.0.1", port, Served(TestClient(api), application.records(), api)
    finally:
        server.should_exit = True
        thread.join(10)
        application.close()


def _raw(host: str, port: int, head: bytes, chunks: list[bytes]) -> tuple[int, bytes, int]:
    """Send ``head`` and then ``chunks`` until the server answers; (status, body, chunks sent)."""
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(head)
        sent = 0
        for chunk in chunks:
            try:
                sock.sendall(chunk)
            except OSError:
                break
            sent += 1
        reply = b""
        while b"\r\n\r\n" not in reply or len(reply.split(b"\r\n\r\n", 1)[1]) < 10:
            part = sock.recv(65536)
            if not part:
                break
            reply += part
    status = int(reply.split(b" ", 2)[1])
    return status, reply.split(b"\r\n\r\n", 1)[1], sent


def test_a_body_over_the_limit_is_refused_before_it_is_read_or_the_key_checked(
        live: tuple[str, int, Served]) -> None:
    host, port, served = live
    # declared too large: 413 at once, without sending a byte of the 150 MB and without a key
    head = (b"POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 157286400\r\n\r\n")
    status, body, _ = _raw(host, port, head, [])
    assert status == 413 and b"too large" in body and b"4 KB" in body
    # streamed (chunked, no length): 413 once the limit is passed, before the 401 a keyless request gets
    head = (b"POST /v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    kb = b"400\r\n" + b" " * 1024 + b"\r\n"
    status, body, _ = _raw(host, port, head, [b"1\r\n[\r\n"] + [kb] * 6)
    assert status == 413 and b"too large" in body
    # within the limit the request goes on as before: the key is checked
    c = served.client
    assert c.post("/v1/verify", json={"text": "x" * 100}).status_code == 401
    # the upload route has its own, larger limit
    assert c.post("/v1/ingest", content=b"{}\n" * 3000, headers={"content-type": "application/x-ndjson"}
                  ).status_code == 401
    assert c.post("/v1/ingest", content=b"x" * (1024 * 1024 + 70 * 1024),
                  headers={"content-type": "application/x-ndjson"}).status_code == 413


# -- failed keys -------------------------------------------------------------------------------------


def test_guessing_keys_from_one_address_is_stopped_with_429(served: Served) -> None:
    good = served.key("asha", "lawyer")
    codes = [served.client.get("/v1/answers", headers=h(f"lrk_guess-{i}")).status_code for i in range(FAILED_KEYS)]
    assert codes == [401] * FAILED_KEYS
    blocked = served.client.get("/v1/answers", headers=h("lrk_guess-next"))
    assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) >= 1
    assert "unknown API keys" in blocked.json()["detail"]
    # the address is blocked even with a good key; another address is not, nor is the good key elsewhere
    assert served.client.get("/v1/answers", headers=h(good)).status_code == 429
    elsewhere = TestClient(served.app, client=("10.1.2.3", 40000))
    assert elsewhere.get("/v1/answers", headers=h(good)).status_code == 200


def test_failed_keys_leave_the_window() -> None:
    now = [1000.0]
    limiter = FailedKeyLimiter(3, 60, clock=lambda: now[0])
    for _ in range(3):
        assert limiter.blocked_for("1.2.3.4") == 0
        limiter.failed("1.2.3.4")
    assert limiter.blocked_for("1.2.3.4") == pytest.approx(60)
    assert limiter.blocked_for("5.6.7.8") == 0
    now[0] += 61
    assert limiter.blocked_for("1.2.3.4") == 0


# -- the key is never logged -------------------------------------------------------------------------


def test_the_server_never_logs_or_echoes_a_key(live: tuple[str, int, Served], caplog: pytest.LogCaptureFixture
                                               ) -> None:
    import urllib.error
    import urllib.request

    host, port, served = live
    good = served.key("asha", "lawyer")
    revoked = served.key("gone", "lawyer")
    served.records.keys.revoke("gone")
    bodies = []
    caplog.set_level(logging.DEBUG)
    for key, path in ((good, "/v1/answers"), (revoked, "/v1/answers"), ("lrk_wrong-guess", "/v1/answers/x"),
                      (good, "/v1/answers/nope"), (good, f"/v1/answers?api_key={good[:4]}")):
        req = urllib.request.Request(f"http://{host}:{port}{path}", headers={"X-API-Key": key})
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                bodies.append(resp.read().decode())
        except urllib.error.HTTPError as exc:
            bodies.append(exc.read().decode())
    assert "GET /v1/answers" in caplog.text  # the access log is on, so a key in it would be seen
    for key in (good, revoked, "lrk_wrong-guess"):
        assert key not in caplog.text and all(key not in b for b in bodies)


# -- headers -----------------------------------------------------------------------------------------


def test_every_response_carries_the_security_headers(served: Served) -> None:
    c = served.client
    responses = {"page": c.get("/"), "health": c.get("/health"), "401": c.get("/v1/answers"),
                 "404": c.get("/no/such/route"), "413": c.post("/v1/ask", content=b"x" * 9000),
                 "docs": c.get("/docs"), "openapi": c.get("/openapi.json")}
    for name, r in responses.items():
        assert r.headers["x-frame-options"] == "DENY", name
        assert r.headers["x-content-type-options"] == "nosniff", name
        assert r.headers["referrer-policy"] == "no-referrer", name
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], name
    assert responses["401"].headers["cache-control"] == "no-store"
    policy = dict(p.strip().split(" ", 1) for p in responses["page"].headers["content-security-policy"].split(";"))
    assert "unsafe-inline" not in policy["script-src"] and policy["script-src"].startswith("'self'")
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    for tag in ("script", "style"):  # each inline element the page ships is admitted by its hash, nothing else
        for inline in re.findall(rf"<{tag}(?![^>]*\bsrc=)[^>]*>(.*?)</{tag}>", html, flags=re.S):
            digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in policy[f"{tag}-src"]
    assert responses["health"].headers["content-security-policy"].startswith("default-src 'none'")


# -- error bodies ------------------------------------------------------------------------------------


def test_an_internal_error_names_nothing_internal(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    application = Application(settings, first_run=False)
    api = create_app(settings, application, open_on_start=False)
    client = TestClient(api, raise_server_exceptions=False)
    records = application.records()
    _, key = records.keys.create("asha", "lawyer")
    # a stored answer the API cannot render (written by hand, not by the workflow): a real server fault
    bad = records.answers.add({"question": "q", "as_of": "2025-01-01", "answer": "a"}, key_name="asha").id
    r = client.get(f"/v1/answers/{bad}", headers=h(key))
    assert r.status_code == 500 and r.headers["x-frame-options"] == "DENY", r.text
    detail = r.json()["detail"]
    assert detail.startswith("internal error (reference ") and "nothing was stored" in detail
    for leak in ("Traceback", "ValidationError", "StoredAnswer", str(tmp_path), ".py"):
        assert leak not in r.text
    application.close()


def test_error_bodies_pass_through_the_path_scrubber(served: Served) -> None:
    de = served.key("dee", "data_engineer")
    r = served.client.post("/v1/ingest?filename=/srv/legal/state/uploads/acts.txt", content=b"{}\n",
                           headers=h(de, **{"content-type": "application/x-ndjson"}))
    assert r.status_code == 422 and "'acts.txt' must end in .jsonl" in r.text and "/srv" not in r.text


@pytest.mark.parametrize(("message", "expected"), [
    ("could not read /tmp/pytest-7/uploads/ab12/kra.jsonl: line 3", "could not read kra.jsonl: line 3"),
    ("failed to start: [Errno 13] Permission denied: '/work/main/data/state/falkordb'",
     "failed to start: [Errno 13] Permission denied: 'falkordb'"),
    ("index missing at /srv/legal/state/index/v3/", "index missing at v3"),
    ("send it as application/x-ndjson to /v1/ingest", "send it as application/x-ndjson to /v1/ingest"),
    ("see https://example.org/var/docs", "see https://example.org/var/docs"),
])
def test_server_paths_are_cut_from_error_text(message: str, expected: str) -> None:
    assert scrub(message) == expected


def test_the_state_dir_is_cut_wherever_it_lives() -> None:
    assert scrub("cannot open /legal/state/records.sqlite3.migrate-lock", ("/legal/state",)) == \
        "cannot open records.sqlite3.migrate-lock"


# -- /docs offline -----------------------------------------------------------------------------------


def test_docs_are_served_from_package_assets(served: Served) -> None:
    c = served.client
    page = c.get("/docs")
    assert page.status_code == 200
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert sources and all(s.startswith("/") and not s.startswith("//") for s in sources)  # nothing off-site
    assert "<script>" not in page.text  # no inline script: it runs under a CSP without 'unsafe-inline'
    for src in sources:
        asset = c.get(src)
        assert asset.status_code == 200 and len(asset.content) > 100, src
    bundle = c.get("/docs/assets/swagger-ui-bundle.js")
    assert b"SwaggerUIBundle" in bundle.content[:2000]
    assert "/openapi.json" in c.get("/docs/init.js").text
    assert c.get("/redoc").status_code == 404  # the CDN-backed page is gone


# -- in a real browser: the pages work under their CSP -----------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (apt-get install chromium)")
def test_the_page_and_the_docs_run_under_their_csp_offline(live: tuple[str, int, Served]) -> None:
    from playwright.sync_api import expect, sync_playwright

    host, port, _ = live
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
        try:
            page = browser.new_page()
            refused: list[str] = []
            page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
            offsite: list[str] = []
            page.on("request", lambda r: offsite.append(r.url) if not r.url.startswith(f"http://{host}:{port}/")
                    and not r.url.startswith("data:") else None)
            page.goto(f"http://{host}:{port}/docs")
            expect(page.locator(".swagger-ui .info .title")).to_contain_text("legal-rag", timeout=30_000)
            expect(page.locator(".opblock-summary-path").first).to_be_visible()
            page.goto(f"http://{host}:{port}/")
            page.wait_for_load_state("load")
            assert page.evaluate("document.readyState") == "complete"
            assert not refused, refused
            assert not offsite, offsite
        finally:
            browser.close()

"""The research page's endpoints in process (TestClient over the real application, records and graph):
who am I, an answer's view and exports, my history, a paralegal's review queue, flags by label, the section
panel's neighbours and the page's static assets."""

from __future__ import annotations

import io
from typing import Any

import pytest
from fastapi.testclient import TestClient

pytestmark = pytest.mark.integration


def h(key: str) -> dict[str, str]:
    return {"X-API-Key": key}


@pytest.fixture(scope="module")
def asked(client: TestClient, keys: dict[str, str]) -> dict[str, Any]:
    """A lawyer's question, stored."""
    r = client.post("/v1/ask", json={"question": "What is the punishment for extortion?", "as_of": "2025-01-01"},
                    headers=h(keys["lawyer"]))
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    return doc


@pytest.mark.parametrize(("role", "views"), [
    ("lawyer", ["ask", "history"]), ("paralegal", ["ask", "history", "review"]),
    ("data_engineer", ["flag-export"]), ("admin", ["ask", "history", "review", "flags", "flag-export"]),
])
def test_me_names_the_key_its_role_and_its_views(client: TestClient, keys: dict[str, str], role: str,
                                                 views: list[str]) -> None:
    r = client.get("/v1/me", headers=h(keys[role]))
    assert r.status_code == 200
    assert r.json()["name"] == f"test-{role}" and r.json()["role"] == role and r.json()["views"] == views
    assert client.get("/v1/me").status_code == 401


def test_the_view_puts_the_direct_answer_first_and_names_every_citation(client: TestClient, keys: dict[str, str],
                                                                         asked: dict[str, Any]) -> None:
    r = client.get(f"/v1/answers/{asked['id']}/view", headers=h(keys["lawyer"]))
    assert r.status_code == 200
    view = r.json()
    assert view["lines"][0]["part"] == "answer" and "extortion" in view["lines"][0]["text"]
    assert "".join(f"{ln['text']}\n" for ln in view["lines"])[:-1] == asked["answer"]
    first = view["citations"][0]
    assert (first["act"], first["status"], first["date"]) == ("BNS", "verified", "2025-01-01")
    labels = [(c["label"], c["status"]) for c in view["citations"]]
    assert len(labels) == len(set(labels))
    assert view["confidence"]["words"].split(":")[0] == asked["confidence"]["label"]
    assert all(":" not in e.split(" ")[0] for c in view["claims"] for e in c["evidence"])  # no "BNS:308:2:0"
    assert client.get("/v1/answers/nope/view", headers=h(keys["lawyer"])).status_code == 404
    assert client.get(f"/v1/answers/{asked['id']}/view", headers=h(keys["data_engineer"])).status_code == 403


def test_an_answer_exports_as_markdown_and_docx(client: TestClient, keys: dict[str, str],
                                                asked: dict[str, Any]) -> None:
    from docx import Document

    md = client.get(f"/v1/answers/{asked['id']}/export", headers=h(keys["lawyer"]))
    assert md.status_code == 200 and md.headers["content-type"].startswith("text/markdown")
    assert md.text.startswith("# What is the punishment for extortion?") and "| BNS s.308" in md.text
    assert f'answer-{asked["id"]}.md' in md.headers["content-disposition"]
    docx = client.get(f"/v1/answers/{asked['id']}/export?format=docx", headers=h(keys["lawyer"]))
    assert docx.status_code == 200 and "wordprocessingml" in docx.headers["content-type"]
    assert Document(io.BytesIO(docx.content)).paragraphs[0].text == "What is the punishment for extortion?"
    assert client.get(f"/v1/answers/{asked['id']}/export?format=pdf", headers=h(keys["lawyer"])).status_code == 422


def test_history_lists_my_questions_only_and_searches_them(client: TestClient, keys: dict[str, str],
                                                           asked: dict[str, Any]) -> None:
    mine = client.get("/v1/history", headers=h(keys["lawyer"])).json()["items"]
    assert asked["id"] in [i["id"] for i in mine]
    found = client.get("/v1/history?q=EXTORTION", headers=h(keys["lawyer"])).json()["items"]
    assert asked["id"] in [i["id"] for i in found] and all("extortion" in i["question"].lower() for i in found)
    assert client.get("/v1/history?q=100%25_", headers=h(keys["lawyer"])).json()["items"] == []  # LIKE escaped
    theirs = client.get("/v1/history", headers=h(keys["paralegal"])).json()["items"]
    assert asked["id"] not in [i["id"] for i in theirs]
    assert client.get("/v1/history", headers=h(keys["data_engineer"])).status_code == 403


def test_a_paralegals_queue_shows_answers_to_check_and_their_flags_with_comments(
        client: TestClient, keys: dict[str, str], asked: dict[str, Any]) -> None:
    start = asked["answer"].index("extortion")
    r = client.post(f"/v1/answers/{asked['id']}/flags", headers=h(keys["paralegal"]),
                    json={"start": start, "end": start + 9, "label": "incomplete", "comment": "see s.308(3) too"})
    assert r.status_code == 201
    queue = client.get("/v1/review", headers=h(keys["paralegal"])).json()
    row = next(a for a in queue["answers"] if a["id"] == asked["id"])
    assert row["pending"] >= 1 and row["key_name"] == "test-lawyer"
    flag = next(f for f in queue["flags"] if f["id"] == r.json()["id"])
    assert (flag["comment"], flag["status"], flag["span_text"]) == ("see s.308(3) too", "pending", "extortion")
    assert client.get("/v1/review", headers=h(keys["lawyer"])).status_code == 403

    counts = client.get("/v1/flags/summary", headers=h(keys["admin"])).json()
    assert counts["incomplete"]["pending"] >= 1
    assert client.get("/v1/flags/summary", headers=h(keys["lawyer"])).status_code == 403
    client.post(f"/v1/flags/{flag['id']}/review", headers=h(keys["admin"]), json={"status": "rejected"})
    after = client.get("/v1/review", headers=h(keys["paralegal"])).json()
    assert next(f for f in after["flags"] if f["id"] == flag["id"])["status"] == "rejected"
    assert client.get("/v1/flags/summary", headers=h(keys["admin"])).json()["incomplete"]["rejected"] >= 1


def test_a_section_names_the_sections_before_and_after_it(client: TestClient, keys: dict[str, str]) -> None:
    s = client.get("/v1/sections/BNS/308(2)?as_of=2025-01-01", headers=h(keys["lawyer"])).json()
    assert (s["previous"], s["next"]) == ("307", "309")
    assert s["predecessors"][0]["act"] == "IPC" and s["predecessors"][0]["note"]
    first = client.get("/v1/sections/BNS/1", headers=h(keys["lawyer"])).json()
    assert first["previous"] is None and first["next"] == "2"


def test_the_page_loads_its_script_and_style_from_files(client: TestClient) -> None:
    page = client.get("/").text
    assert '<script src="/static/app.js"' in page and "<script>" not in page and " style=" not in page
    assert " onclick=" not in page
    js = client.get("/static/app.js")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
    assert "innerHTML" not in js.text and "localStorage" not in js.text
    assert client.get("/static/app.css").headers["content-type"].startswith("text/css")
    assert client.get("/static/index.html").status_code == 404
    assert client.get("/static/..%2Fapp.py").status_code == 404

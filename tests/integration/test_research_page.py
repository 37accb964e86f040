"""The research page in a real headless Chromium (Debian's ``chromium``, driven by Playwright):
ask -> stages arrive -> the verified answer with citation statuses -> select a span -> flag saved
-> the flag is visible through the API. Skips with the reason where no Chromium is installed
(``.ci/run`` installs it, so CI always runs this)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.integration.conftest import Server, http

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (apt-get install chromium)")
def test_a_lawyer_asks_and_a_paralegal_flags_a_span(api_server: Server, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    key = api_server.keys["paralegal"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(api_server.url + "/")
            page.fill("#api-key", key)
            page.fill("#as-of", "2025-01-01")
            page.fill("#question", "What is the punishment for extortion?")
            page.click("#ask")
            expect(page.locator("#stages li[data-stage=classify]")).to_be_visible(timeout=60_000)
            answer = page.get_by_test_id("answer-text")
            expect(answer).to_contain_text("extortion", timeout=120_000)
            expect(page.locator("#stages li[data-stage=finalise]")).to_be_visible()
            expect(page.locator("#citations .badge.verified").first).to_be_visible()
            expect(page.locator("#claims .claim").first).to_contain_text("evidence:")
            page.screenshot(path=str(tmp_path / "answer.png"), full_page=True)

            text = answer.inner_text()
            span = "seven years"
            start = text.index(span)
            page.evaluate("""([start, end]) => {
                const node = document.getElementById('answer-text').firstChild;
                const range = document.createRange();
                range.setStart(node, start); range.setEnd(node, end);
                const sel = document.getSelection(); sel.removeAllRanges(); sel.addRange(range);
            }""", [start, start + len(span)])
            expect(page.get_by_test_id("flag-span")).to_have_text(span)
            page.select_option("#flag-label", "misquote")
            page.fill("#flag-comment", "check the term against BNS s.308(2)")
            page.click("#flag-save")
            expect(page.locator("#flag-status")).to_contain_text("flag saved", timeout=30_000)
            expect(page.locator("#flags li[data-flag]")).to_have_count(1)
            page.screenshot(path=str(tmp_path / "flagged.png"), full_page=True)
            answer_id = page.locator("#answer-meta").inner_text().rsplit("answer ", 1)[1].strip()
            assert not errors, errors
        finally:
            browser.close()

    status, _, body = http("GET", f"{api_server.url}/v1/answers/{answer_id}/flags", key)
    flags = json.loads(body)
    assert status == 200 and len(flags) == 1
    assert flags[0]["span_text"] == span and flags[0]["label"] == "misquote"
    assert flags[0]["comment"] == "check the term against BNS s.308(2)"
    status, _, stored = http("GET", f"{api_server.url}/v1/answers/{answer_id}", key)
    assert json.loads(stored)["answer"][flags[0]["start"]:flags[0]["end"]] == span

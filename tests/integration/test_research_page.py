"""The research page in a real headless Chromium (Debian's ``chromium``, driven by Playwright) at a laptop's
1366x768 and a phone's 390x844, against the server a user runs (``legal-rag serve``):

- a lawyer asks: the running step shows with its time, then the direct answer and its first cited provision fit
  the laptop screen without scrolling; a citation opens its section in a panel (and the next section from there);
  [n] jumps to the source; the history finds and reopens the question; a share link opens the answer; .docx export;
- a paralegal flags a span with a comment; the review queue shows it pending; an admin sees it by label and
  accepts it; the paralegal's queue then says accepted;
- each role sees its own views; a lost connection is said plainly and Retry recovers;
- axe-core (npm ``axe-core``, fetched with ``npm pack`` into a cache, never from a CDN) finds no serious or critical
  violation on any of these screens.

Screenshots go to ``tests/artifacts/research_page/`` (gitignored; CI keeps the folder as an artefact). Skips with
the reason where no Chromium or npm is installed (``.ci/run`` installs both, so CI always runs this)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import Server, http

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NPM = shutil.which("npm")
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "research_page"
AXE_VERSION = "4.14.1"
QUESTION = "What is the punishment for extortion?"

needs_browser = pytest.mark.skipif(CHROMIUM is None or NPM is None,
                                   reason="no chromium or npm on this machine (apt-get install chromium npm)")


@pytest.fixture(scope="module")
def axe_js() -> str:
    """axe-core's ``axe.min.js``, from the npm registry's tarball (``npm pack``), cached between runs."""
    cache = Path(os.environ.get("LEGAL_RAG_TEST_CACHE", Path.home() / ".cache" / "legal-rag-tests")) / "axe-core"
    script = cache / AXE_VERSION / "axe.min.js"
    if not script.exists():
        cache.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([str(NPM), "pack", f"axe-core@{AXE_VERSION}", "--silent"], cwd=cache,
                              capture_output=True, text=True, timeout=300, check=True)
        tgz = cache / done.stdout.strip().splitlines()[-1]
        with tarfile.open(tgz) as tar:
            member = tar.extractfile("package/axe.min.js")
            assert member is not None
            script.parent.mkdir(parents=True, exist_ok=True)
            script.write_bytes(member.read())
        tgz.unlink()
    return script.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


class Screen:
    """One browser tab at one size, signed in with one key; collects script errors."""

    def __init__(self, browser: Any, server: Server, key: str, viewport: dict[str, int], path: str = "/") -> None:
        from playwright.sync_api import expect

        # axe-core is injected as an inline script, which the page's CSP (script-src 'self') rightly refuses; the
        # page itself under its CSP is tested in test_api_security (no violation, no off-site request).
        self.context = browser.new_context(viewport=viewport, accept_downloads=True, bypass_csp=True)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.goto(server.url + path)
        self.page.fill("#api-key", key)
        self.page.click("#key-use")
        expect(self.page.get_by_test_id("whoami")).to_contain_text("Signed in as", timeout=30_000)

    def axe(self, script: str, name: str) -> list[dict[str, Any]]:
        """Run axe-core on the page as it is; the serious and critical violations (and a screenshot)."""
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)
        self.page.add_script_tag(content=script)
        result = self.page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
        bad = [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
               for v in result["violations"] if v["impact"] in ("serious", "critical")]
        (ARTIFACTS / f"{name}.axe.json").write_text(json.dumps(result["violations"], indent=1), encoding="utf-8")
        return bad

    def close(self) -> None:
        self.context.close()


def _ask(page: Any, question: str, as_of: str | None = None) -> str:
    from playwright.sync_api import expect

    page.fill("#question", question)
    if as_of is not None:
        page.fill("#as-of", as_of)
    page.click("#ask")
    expect(page.get_by_test_id("direct-answer")).not_to_be_empty(timeout=180_000)
    expect(page.locator("#stages li[data-stage=finalise]")).to_be_visible()
    answer_id: str = page.get_by_test_id("answer-meta").get_attribute("data-answer-id")
    return answer_id


# Records (step, elapsed) each time the progress line is shown or changes while shown.
_WATCH_PROGRESS = """() => {
  window.__progressSeen = [];
  const note = () => {
    const p = document.getElementById("progress");
    if (p.hidden) return;
    const row = [document.getElementById("running").textContent, document.getElementById("elapsed").textContent];
    const last = window.__progressSeen[window.__progressSeen.length - 1];
    if (!last || last[0] !== row[0]) window.__progressSeen.push(row);
  };
  new MutationObserver(note).observe(document.getElementById("progress"),
    { attributes: true, childList: true, subtree: true, characterData: true });
}"""


def _in_view(page: Any, selector: str, height: int) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


@needs_browser
def test_a_lawyer_asks_opens_a_citation_finds_the_history_and_shares(api_server: Server, browser: Any,
                                                                      axe_js: str) -> None:
    from playwright.sync_api import expect

    s = Screen(browser, api_server, api_server.keys["lawyer"], LAPTOP)
    page = s.page
    try:
        expect(page.get_by_test_id("whoami")).to_contain_text("(lawyer)")
        expect(page.locator("#review-view")).to_be_hidden()      # a lawyer has no review queue
        expect(page.locator("#flag-panel")).to_be_hidden()
        page.fill("#as-of", "01-01-2025")                         # day-month-year, read as such
        expect(page.locator("#as-of-read")).to_have_text("read as 1 January 2025 (2025-01-01)")
        page.fill("#question", QUESTION)
        # The running step may show for only a moment (an answer can come back in well under a second), so
        # every state the progress line passes through is recorded, not looked for while it lasts.
        page.evaluate(_WATCH_PROGRESS)
        page.click("#ask")
        expect(page.get_by_test_id("direct-answer")).to_contain_text("extortion", timeout=180_000)
        seen = page.evaluate("window.__progressSeen")
        assert seen, "the running step never showed"
        assert all(step.endswith("…") and elapsed.endswith(" s") for step, elapsed in seen), seen
        assert seen[0][0] == "Reading the question…", seen            # the first step, with its time
        expect(page.locator("#progress")).to_be_hidden()
        answer_id = page.get_by_test_id("answer-meta").get_attribute("data-answer-id")
        assert answer_id and page.evaluate("location.hash") == f"#answer={answer_id}"

        # The direct answer and its first cited provision (Act, section, status, date) on one laptop screen.
        assert page.evaluate("window.scrollY") == 0
        assert _in_view(page, "#direct p", LAPTOP["height"]), "the direct answer is below the fold"
        first = page.locator("#cited .cite").first
        assert _in_view(page, "#cited .cite", LAPTOP["height"]), "the first citation is below the fold"
        expect(first).to_contain_text("BNS s.308")
        expect(first).to_contain_text("Bharatiya Nyaya Sanhita")
        expect(first).to_contain_text("in force on the date")
        expect(first).to_contain_text("on 2025-01-01")
        labels = page.locator("#cited .cite strong").all_inner_texts()
        assert len(labels) == len(set(labels)), f"duplicate citation rows: {labels}"
        assert page.get_by_test_id("confidence").inner_text().split(":")[0] in ("High", "Medium", "Low")
        assert "BNS:" not in page.locator("#claims").inner_text()  # evidence named by provision, never by chunk id
        assert s.axe(axe_js, "laptop-lawyer-answer") == []

        # A citation opens its section without leaving the page; the next section from there.
        first.click()
        panel = page.locator("#section-panel")
        expect(panel).to_be_visible()
        expect(page.locator("#sp-title")).to_contain_text("BNS s.308")
        expect(page.locator("#sp-status")).to_contain_text("On 2025-01-01: in force")
        expect(page.locator("#sp-status")).to_contain_text("in force from 2024-07-01")
        expect(page.locator("#sp-text")).to_contain_text("extortion")
        expect(page.locator("#sp-links")).to_contain_text("IPC s.384")   # its predecessor, with the table's note
        assert s.axe(axe_js, "laptop-section-panel") == []
        page.click("#sp-next")
        expect(page.locator("#sp-title")).to_contain_text("BNS s.309")
        page.click("#sp-close")
        expect(panel).to_be_hidden()
        assert page.url.endswith(f"#answer={answer_id}")

        # [1] jumps to source 1.
        page.locator("#direct a.mark").first.click()
        expect(page.locator("#src-1")).to_be_focused()
        expect(page.locator("#src-1")).to_contain_text("BNS s.308")

        # The history: search, reopen.
        item = page.locator(f"#history li[data-answer='{answer_id}']")
        expect(item).to_be_visible()
        page.fill("#history-q", "no such words")
        page.press("#history-q", "Enter")
        expect(page.locator("#history")).to_contain_text("no question matches")
        page.fill("#history-q", "EXTORTION")
        page.press("#history-q", "Enter")
        expect(item).to_be_visible()
        page.evaluate("window.scrollTo(0, 0)")
        assert s.axe(axe_js, "laptop-lawyer-history") == []

        # The .docx export is a Word document (a zip) naming the question.
        with page.expect_download() as dl:
            page.click("#export-docx")
        path = dl.value.path()
        assert path is not None and Path(path).read_bytes()[:2] == b"PK"
        assert s.errors == [], s.errors
    finally:
        s.close()

    # A share link opens the same answer for a colleague on the phone.
    phone = Screen(browser, api_server, api_server.keys["paralegal"], PHONE, f"/#answer={answer_id}")
    try:
        expect(phone.page.get_by_test_id("direct-answer")).to_contain_text("extortion", timeout=30_000)
        assert phone.page.get_by_test_id("answer-meta").get_attribute("data-answer-id") == answer_id
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "sideways scroll"
        phone.page.locator("#result").scroll_into_view_if_needed()
        assert phone.axe(axe_js, "phone-shared-answer") == []
        assert phone.errors == [], phone.errors
    finally:
        phone.close()


@needs_browser
def test_a_paralegal_flags_a_span_and_follows_its_review(api_server: Server, browser: Any, axe_js: str) -> None:
    from playwright.sync_api import expect

    s = Screen(browser, api_server, api_server.keys["paralegal"], LAPTOP)
    page = s.page
    try:
        expect(page.locator("#review-view")).to_be_visible()
        answer_id = _ask(page, QUESTION, "2025-01-01")
        span = "seven years"
        page.evaluate("""(span) => {
            const walker = document.createTreeWalker(document.getElementById('direct'), NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                const i = n.data.indexOf(span);
                if (i < 0) continue;
                const range = document.createRange();
                range.setStart(n, i); range.setEnd(n, i + span.length);
                const sel = document.getSelection(); sel.removeAllRanges(); sel.addRange(range);
                return;
            }
            throw new Error('span not in the direct answer');
        }""", span)
        expect(page.get_by_test_id("flag-span")).to_have_text(span)
        page.select_option("#flag-label", "misquote")
        page.fill("#flag-comment", "check the term against BNS s.308(2)")
        page.click("#flag-save")
        expect(page.locator("#flag-status")).to_contain_text("flag saved", timeout=30_000)
        flag = page.locator("#flags li[data-flag]")
        expect(flag).to_have_count(1)
        expect(flag).to_contain_text("Comment: check the term against BNS s.308(2)")
        mine = page.get_by_test_id("my-flags").locator("li[data-flag]").first
        expect(mine).to_contain_text("misquote")
        expect(mine).to_contain_text("pending")
        expect(mine).to_contain_text("Comment: check the term")
        expect(page.get_by_test_id("queue").locator(f"li[data-answer='{answer_id}']")).to_contain_text("1 pending")
        page.evaluate("window.scrollTo(0, 0)")
        assert s.axe(axe_js, "laptop-paralegal-review") == []
        flag_id = flag.get_attribute("data-flag")
        assert s.errors == [], s.errors
    finally:
        s.close()

    status, _, body = http("GET", f"{api_server.url}/v1/answers/{answer_id}/flags", api_server.keys["paralegal"])
    stored = [f for f in json.loads(body) if f["id"] == flag_id]
    assert status == 200 and stored and stored[0]["span_text"] == span and stored[0]["label"] == "misquote"
    _, _, doc = http("GET", f"{api_server.url}/v1/answers/{answer_id}", api_server.keys["paralegal"])
    assert json.loads(doc)["answer"][stored[0]["start"]:stored[0]["end"]] == span

    # The admin sees it by label, accepts it; the paralegal's queue then says so.
    admin = Screen(browser, api_server, api_server.keys["admin"], LAPTOP)
    try:
        row = admin.page.get_by_test_id("flag-summary").locator("tr[data-label=misquote]")
        expect(row).to_be_visible(timeout=30_000)
        pending = admin.page.get_by_test_id("pending").locator(f"li[data-flag='{flag_id}']")
        expect(pending).to_contain_text("Comment: check the term")
        assert admin.axe(axe_js, "laptop-admin-flags") == []
        with admin.page.expect_download() as dl:
            row.get_by_role("button").click()
        exported = [json.loads(x) for x in Path(str(dl.value.path())).read_text().splitlines()]
        assert flag_id in {f["id"] for f in exported} and {f["label"] for f in exported} == {"misquote"}
        pending.locator("[data-review=accepted]").click()
        expect(pending).to_be_hidden(timeout=30_000)
        assert admin.errors == [], admin.errors
    finally:
        admin.close()
    again = Screen(browser, api_server, api_server.keys["paralegal"], LAPTOP)
    try:
        expect(again.page.get_by_test_id("my-flags").locator(f"li[data-flag='{flag_id}']")).to_contain_text(
            "accepted", timeout=30_000)
    finally:
        again.close()


@needs_browser
def test_each_role_sees_its_own_views(api_server: Server, browser: Any, axe_js: str) -> None:
    from playwright.sync_api import expect

    expected = {  # view -> roles that see it
        "#ask-view": {"lawyer", "paralegal", "admin"}, "#history-view": {"lawyer", "paralegal", "admin"},
        "#review-view": {"paralegal", "admin"}, "#flags-view": {"data_engineer", "admin"},
    }
    for role in ("lawyer", "paralegal", "data_engineer", "admin"):
        for name, size in (("laptop", LAPTOP), ("phone", PHONE)):
            s = Screen(browser, api_server, api_server.keys[role], size)
            try:
                expect(s.page.get_by_test_id("whoami")).to_contain_text(f"({role.replace('_', ' ')})")
                for selector, roles in expected.items():
                    if role in roles:
                        expect(s.page.locator(selector)).to_be_visible()
                    else:
                        expect(s.page.locator(selector)).to_be_hidden()
                if role == "data_engineer":
                    expect(s.page.locator("#no-ask")).to_contain_text("cannot ask")
                assert s.page.evaluate("document.documentElement.scrollWidth") <= size["width"], "sideways scroll"
                assert s.axe(axe_js, f"{name}-{role}-start") == []
                assert s.errors == [], s.errors
            finally:
                s.close()


@needs_browser
def test_a_lost_connection_is_said_plainly_and_retry_recovers(api_server: Server, browser: Any) -> None:
    from playwright.sync_api import expect

    s = Screen(browser, api_server, api_server.keys["lawyer"], LAPTOP)
    page = s.page
    try:
        page.route("**/v1/ask/stream", lambda route: route.abort("connectionreset"))
        page.fill("#question", "Is Section 302 IPC still in force?")
        page.click("#ask")
        expect(page.locator("#status")).to_contain_text("connection to the server was lost")
        assert "TypeError" not in page.locator("#status").inner_text()
        expect(page.locator("#retry")).to_be_visible()
        page.screenshot(path=str(ARTIFACTS / "laptop-connection-lost.png"))
        page.unroute("**/v1/ask/stream")
        page.click("#retry")
        expect(page.get_by_test_id("direct-answer")).not_to_be_empty(timeout=180_000)
        expect(page.locator("#retry")).to_be_hidden()
        # A date the page cannot read is refused before asking, naming the forms it takes.
        page.fill("#as-of", "2025-02-30")
        page.click("#ask")
        expect(page.locator("#status")).to_contain_text("not a real date")
    finally:
        s.close()

"""``verify()`` end to end on the shipped corpus, and the ``verify`` / ``extract-citations`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph_schema.embedded import EmbeddedFalkorDB
from graph_schema.errors import ConfigurationError
from graph_schema.model import Act, Section
from graph_schema.store import FalkorGraphStore
from tests.conftest import Loaded, run_cli
from verification.model import CitationStatus as S
from verification.model import QuoteStatus as Q
from verification.verify import Verifier, verify

pytestmark = pytest.mark.integration

BNS_103_1 = (
    "Whoever commits murder shall be punished with death or imprisonment for life, and shall also be liable to fine"
)
ANSWER = (
    f'Under Section 103(1) of the BNS, "{BNS_103_1.lower()}". The accused was charged u/s 302 IPC. '
    'Section 377 BNS does not exist. Under Section 318(4) BNS the punishment is "imprisonment of either '
    'description for a term which may extend to ten years, and shall also be liable to fine". '
    "See Arnesh Kumar v. State of Bihar, (2014) 8 SCC 273."
)


@pytest.fixture(scope="module")
def verifier(loaded: Loaded) -> Verifier:
    return Verifier(loaded.store)


def by_text(report: object) -> dict[str, list[object]]:
    out: dict[str, list[object]] = {}
    for c in report.citations:  # type: ignore[attr-defined]
        out.setdefault(c.text, []).append(c)
    return out


def test_answer_after_2024_flags_repeal_fabrication_and_misquote(verifier: Verifier) -> None:
    r = verifier.verify(ANSWER, as_of="2025-01-01")
    statuses = {(c.act, c.section): c.status for c in r.citations if c.label == "PROVISION"}
    assert statuses[("BNS", "103(1)")] is S.VERIFIED
    assert statuses[("IPC", "302")] is S.REPEALED
    assert statuses[("BNS", "377")] is S.NOT_FOUND
    assert statuses[("BNS", "318(4)")] is S.VERIFIED
    ipc = next(c for c in r.citations if c.section == "302")
    assert [(s.act, s.section) for s in ipc.successors] == [("BNS", "103(1)")]
    prec = next(c for c in r.citations if c.label == "PRECEDENT")
    assert prec.status is S.VERIFIED and "Arnesh Kumar" in prec.message
    quotes = {q.source: q for q in r.quotes}
    assert quotes["BNS 103(1)"].status is Q.NORMALISED  # case differs
    bad = quotes["BNS 318(4)"]
    assert bad.status in (Q.MISQUOTED, Q.MISATTRIBUTED) and bad.status is not Q.EXACT
    assert r.summary["not_found"] == 1 and not r.unchecked
    for c in r.citations:
        assert ANSWER[c.start : c.end] == c.text


def test_same_answer_for_facts_before_2024(verifier: Verifier) -> None:
    r = verifier.verify(ANSWER, as_of="2023-05-01")
    statuses = {(c.act, c.section): c.status for c in r.citations if c.label == "PROVISION"}
    assert statuses[("IPC", "302")] is S.VERIFIED
    assert statuses[("BNS", "103(1)")] is S.NOT_YET_IN_FORCE
    ipc = next(c for c in r.citations if c.section == "302")
    assert "BNS s.358 keeps it applicable" in ipc.message


def test_an_offence_committed_before_the_new_codes_is_checked_on_its_day(verifier: Verifier) -> None:
    # Cheating in March 2024, FIR in August 2024: the IPC governs the offence (BNS 358(2)), the BNS cannot punish
    # it, and the procedure is the BNSS's.
    text = ("The offence is charged under section 420 IPC, read with section 358 of the BNS; section 318(4) BNS "
            "came later. The FIR is registered under section 173 BNSS, not section 154 CrPC, under the IPC.")
    r = verifier.verify(text, as_of="2024-08-20", offence_on="2024-03-31")
    statuses = {(c.act, c.section): c.status for c in r.citations if c.label == "PROVISION"}
    assert statuses[("IPC", "420")] is S.VERIFIED
    assert statuses[("BNS", "358")] is S.VERIFIED  # the savings section speaks on the day of the proceedings
    assert statuses[("BNS", "318(4)")] is S.NOT_YET_IN_FORCE
    assert statuses[("BNSS", "173")] is S.VERIFIED
    assert statuses[("CRPC", "154")] is S.REPEALED
    ipc = next(c for c in r.citations if c.section == "420")
    assert "in force on 2024-03-31" in ipc.message and "BNS s.358 keeps it applicable" in ipc.message
    ipc_named = [c.status for c in r.citations if c.label == "STATUTE" and c.act == "IPC"]
    assert ipc_named and set(ipc_named) == {S.VERIFIED}
    # Without the offence's day the same text is read for facts on 2024-08-20.
    plain = {(c.act, c.section): c.status for c in verifier.verify(text, as_of="2024-08-20").citations
             if c.label == "PROVISION"}  # fmt: skip
    assert plain[("IPC", "420")] is S.REPEALED and plain[("BNS", "318(4)")] is S.VERIFIED
    for bad in ("2024-3-5", "20240331", "2024-02-30"):
        with pytest.raises(ValueError, match=f"offence_on must be a real date as YYYY-MM-DD, not '{bad}'"):
            verifier.verify(text, as_of="2024-08-20", offence_on=bad)


def test_quote_attributed_to_a_context_chunk(verifier: Verifier) -> None:
    chunks = [{"id": "c1", "text": "(1) " + BNS_103_1 + "."}, {"id": "c2", "text": "Unrelated text about bail."}]
    text = f'The law says "{BNS_103_1}" [c1].'
    r = verifier.verify(text, chunks, as_of="2025-01-01")
    assert [(q.source, q.status) for q in r.quotes] == [("c1", Q.EXACT)]
    wrong = verifier.verify(f'The law says "{BNS_103_1}" [c2].', chunks, as_of="2025-01-01")
    assert wrong.quotes[0].status is Q.MISATTRIBUTED and wrong.quotes[0].right_source == "c1"


def test_quote_marked_from_one_provision_but_attributed_to_another(verifier: Verifier) -> None:
    """The reader sees the provision the sentence names: a quotation of BNS 103(1), marked with its chunk, is
    misattributed when the sentence gives it to another Act's section, and exact when the sentence names it,
    even beside the section it replaced."""
    chunks = [{"id": "BNS:103:1:0", "text": "(1) " + BNS_103_1 + ".", "act": "BNS", "section": "103"}]
    wrong = verifier.verify(f'Section 103 of the Code of Criminal Procedure, 1973 provides: "{BNS_103_1}" '
                            "[BNS:103:1:0].", chunks, as_of="2025-01-01")
    assert wrong.quotes[0].status is Q.MISATTRIBUTED and wrong.quotes[0].right_source == "BNS:103:1:0"
    right = verifier.verify(f'Section 103(1) of the BNS, which replaced section 302 IPC, provides: "{BNS_103_1}" '
                            "[BNS:103:1:0].", chunks, as_of="2025-01-01")
    assert [(q.source, q.status) for q in right.quotes] == [("BNS:103:1:0", Q.EXACT)]


def test_verify_needs_a_store_or_verifier() -> None:
    with pytest.raises(ConfigurationError):
        verify("Section 302 IPC")


def test_graph_stopped_mid_run_every_check_is_unchecked(
    stoppable_store: tuple[EmbeddedFalkorDB, FalkorGraphStore],
) -> None:
    server, store = stoppable_store
    v = Verifier(store)
    assert v.verify("Section 302 IPC applies.", as_of="2023-01-01").citations[0].status is S.VERIFIED
    server.stop()
    r = v.verify("Section 302 IPC applies. Section 999 IPC too. So does Order 1 Rule 1 of the IPC.", as_of="2023-01-01")
    provisions = [c for c in r.citations if c.label == "PROVISION"]
    assert len(provisions) == 3 and all(c.status is S.UNCHECKED for c in provisions)
    assert "could not be reached" in provisions[2].message
    assert r.unchecked


# Rules and the CPC's Orders: checked like sections where the graph holds them, unchecked where it does not.
CPC = Act("CPC", "The Code of Civil Procedure, 1908", aliases=("CPC", "Code of Civil Procedure"))
BCI = Act("BCIR", "Bar Council of India Rules", aliases=("Bar Council of India Rules",))
O39R1 = "Where in any suit it is proved by affidavit or otherwise that any property in dispute is in danger."


def test_rules_and_orders_the_graph_holds_are_checked(empty_store: FalkorGraphStore) -> None:
    empty_store.upsert_acts([CPC, BCI])
    empty_store.upsert_sections([
        Section("CPC", "9", "Courts to try all civil suits unless barred.", "The Courts shall ... try all suits."),
        Section("CPC", "O39R1", "Cases in which temporary injunction may be granted.", O39R1),
        Section("BCIR", "49", "An advocate shall not be a full-time salaried employee.", "An advocate shall not ..."),
    ])  # fmt: skip
    r = Verifier(empty_store).verify(
        "An injunction under Order 39 Rule 1 CPC; there is no Order 99 Rule 1 CPC. Rule 49 of the Bar Council of "
        "India Rules applies, Rule 50 of the Bar Council of India Rules does not exist. Rule 3 of the Code of Civil "
        "Procedure.", as_of="2025-01-01")  # fmt: skip
    got = {(c.act, c.section): c for c in r.citations if c.label == "PROVISION"}
    assert got[("CPC", "Order 39 Rule 1")].status is S.VERIFIED
    assert got[("CPC", "Order 39 Rule 1")].message.startswith("CPC Order 39 Rule 1 exists")
    assert got[("CPC", "Order 99 Rule 1")].status is S.NOT_FOUND  # the graph holds the CPC's Orders: this one is not
    assert got[("BCIR", "Rule 49")].status is S.VERIFIED
    assert got[("BCIR", "Rule 50")].status is S.NOT_FOUND
    assert got[("CPC", "Rule 3")].status is S.UNCHECKED  # a rule of an Act, not of Rules the graph holds
    assert not r.unchecked


@pytest.mark.parametrize("text", [
    "An injunction under Order 39 Rule 1 CPC requires a prima facie case.",
    "Order XXI Rule 97 of the Code of Civil Procedure governs resistance to delivery.",
    "Under Rule 3 of the Central Civil Services (Conduct) Rules, 1964 every servant shall maintain integrity.",
    "Rule 9 of the Central Motor Vehicles Rules, 1989 and Rule 3 of the Motor Vehicles Act.",
    "Rule 49 of the Bar Council of India Rules bars full-time employment.",
    "Section 9 and Order 7 Rule 11 CPC.",
])  # fmt: skip
def test_rules_and_orders_the_graph_does_not_hold_are_unchecked_never_verified(verifier: Verifier, text: str) -> None:
    r = verifier.verify(text, as_of="2025-01-01")
    units = [c for c in r.citations if c.label == "PROVISION" and c.section and c.section.startswith(("Order", "Rule"))]
    assert units and all(c.status is S.UNCHECKED for c in units), [(c.text, c.status) for c in units]
    assert all("not checked" in c.message for c in units)
    assert not r.unchecked  # the graph answered: the report is complete, these are shown as unchecked


@pytest.fixture
def env(cli_env: dict[str, str]) -> dict[str, str]:
    return cli_env


def test_cli_verify_json_and_jsonl(env: dict[str, str], tmp_path: Path) -> None:
    p = run_cli(env, "verify", "--as-of", "2025-01-01", "--json", stdin=ANSWER)
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    c = next(c for c in report["citations"] if c["section"] == "302")
    assert c["status"] == "repealed" and c["successors"][0]["section"] == "103(1)"
    assert {"start", "end", "text", "label", "act", "act_title", "section", "status", "successors", "message"} <= set(c)
    assert {"text", "source", "status", "score", "closest"} <= set(report["quotes"][0])
    lines = "\n".join(
        json.dumps(x)
        for x in [
            {"id": "a", "text": "Section 302 IPC", "as_of": "2023-01-01"},
            {"id": "b", "text": "Section 302 IPC", "as_of": "2025-01-01"},
            {"id": "c", "text": "x", "as_of": "01-01-2025"},
        ]
    )
    out = [json.loads(x) for x in run_cli(env, "verify", "--jsonl", stdin=lines).stdout.splitlines()]
    assert [o.get("id") for o in out] == ["a", "b", None]
    assert out[0]["citations"][0]["status"] == "verified" and out[1]["citations"][0]["status"] == "repealed"
    assert "YYYY-MM-DD" in out[2]["error"]
    # --as-of dates the lines that give no date of their own
    undated = json.dumps({"id": "d", "text": "Section 302 IPC"})
    out = [json.loads(x) for x in run_cli(env, "verify", "--jsonl", "--as-of", "2023-01-01", stdin=undated).stdout
           .splitlines()]
    assert out[0]["citations"][0]["status"] == "verified"
    # cheating in March 2024, an FIR in August: the penal codes on the offence's day
    fir = "He is charged under section 420 IPC, not section 318(4) BNS."
    p = run_cli(env, "verify", "--as-of", "2024-08-20", "--offence-on", "2024-03-31", "--json", stdin=fir)
    assert p.returncode == 0, p.stderr
    got = {c["act"]: c["status"] for c in json.loads(p.stdout)["citations"] if c["label"] == "PROVISION"}
    assert got == {"IPC": "verified", "BNS": "not_yet_in_force"}
    bad = run_cli(env, "verify", "--offence-on", "31-03-2024", stdin=fir)
    assert bad.returncode == 2 and "offence_on must be a real date as YYYY-MM-DD" in bad.stderr


def test_cli_extract_citations(env: dict[str, str]) -> None:
    text = "The accused was charged u/s 302 r/w 34 IPC and under Sections 161 to 164 of the Cr.P.C."
    p = run_cli(env, "extract-citations", "--json", stdin=text)
    assert p.returncode == 0, p.stderr
    cits = json.loads(p.stdout)["citations"]
    assert all(text[c["start"] : c["end"]] == c["text"] for c in cits)
    assert {c["label"] for c in cits} == {"PROVISION", "STATUTE"}
    lines = json.dumps({"id": "s1", "text": text}) + "\n" + "not json\n"
    out = [json.loads(x) for x in run_cli(env, "extract-citations", "--jsonl", stdin=lines).stdout.splitlines()]
    assert out[0]["id"] == "s1" and out[0]["citations"] == cits
    assert "bad input line" in out[1]["error"]


def test_a_provision_of_a_statute_the_graph_does_not_hold_names_it(verifier: Verifier) -> None:
    text = ("The force was constituted under the Madras City Police Act, 1888 and under s. 2 of the Act it is one "
            "force. Section 5 of the Kerala Police Act, 2011 applies. Section 5 applies too.")
    r = verifier.verify(text, as_of="2025-01-01")
    got = [(c.text, c.status, c.message) for c in r.citations]
    said = next(m for t, _, m in got if t == "Act")  # "the Act" is checked as the statute it refers back to
    assert said.startswith("'Madras City Police Act, 1888' is not an Act")
    linked = [m for t, s, m in got if t in ("s. 2", "Section 5") and s is S.UNRESOLVED]
    assert linked == [
        "s. 2: its statute, 'Madras City Police Act, 1888', is not in the statute graph, so it could not be checked",
        "Section 5: its statute, 'Kerala Police Act, 2011', is not in the statute graph, so it could not be checked",
        "Section 5: no statute is named for this provision, so it could not be checked",
    ]
    assert not any(s is S.VERIFIED for _, s, _ in got)


def test_a_clause_quoted_after_its_lead_in_is_checked_against_the_chunk_that_holds_it(verifier: Verifier) -> None:
    lead = "(1) If any person having sufficient means neglects or refuses to maintain\u2014"
    clause = "(a) his wife, unable to maintain herself; or"
    chunks = [{"id": "BNSS:144:1:0", "text": lead}, {"id": "BNSS:144:1/a:0", "text": clause}]
    text = (f'Section 144(1) of the Bharatiya Nagarik Suraksha Sanhita, 2023 provides: "{lead}" \u2026 "{clause}" '
            "[BNSS:144:1:0] [BNSS:144:1/a:0]")
    r = verifier.verify(text, chunks, as_of="2025-03-01")
    # The lead-in against the provision its sentence names, the clause against the chunk marked after it.
    assert [(q.status, q.source) for q in r.quotes] == [(Q.EXACT, "BNSS 144(1)"), (Q.EXACT, "BNSS:144:1/a:0")]
    # Marked with both chunks, a changed word is still caught.
    wrong = text.replace(clause, "(a) his wife, unable to maintain herself; and")
    assert verifier.verify(wrong, chunks, as_of="2025-03-01").quotes[1].status is not Q.EXACT


def test_a_definition_with_its_own_quotation_marks_nested_curly_is_checked(verifier: Verifier) -> None:
    # The statute's straight marks, made curly by the generator so that they nest in the answer's quotation.
    lead = '(28) "public servant" means a person falling under any of the descriptions, namely:---'
    clause = "(a) every commissioned officer in the Army, Navy or Air Force;"
    chunks = [{"id": "BNS:2:28:0", "text": lead}, {"id": "BNS:2:28/a:0", "text": clause}]
    nested = lead.replace('"public servant"', "\u201cpublic servant\u201d")
    text = (f'Section 2(28) of the Bharatiya Nyaya Sanhita, 2023 provides: "{nested}" \u2026 "{clause}" '
            "[BNS:2:28:0] [BNS:2:28/a:0]")
    r = verifier.verify(text, chunks, as_of="2025-03-01")
    assert [q.status for q in r.quotes] == [Q.NORMALISED, Q.EXACT] or [q.status for q in r.quotes] == [Q.EXACT] * 2
    assert r.quotes[0].source is not None and r.quotes[0].source.startswith("BNS")
    wrong = text.replace("commissioned officer", "non-commissioned officer")
    assert verifier.verify(wrong, chunks, as_of="2025-03-01").quotes[1].status not in (Q.EXACT, Q.NORMALISED)


def test_the_next_sentence_s_marker_is_not_this_quote_s(verifier: Verifier, loaded: Loaded) -> None:
    murder = loaded.store.get_section("IPC", "302")
    assert murder is not None and murder.text
    quote = " ".join(murder.text.split())
    theft = loaded.store.get_section("IPC", "379")
    assert theft is not None and theft.text
    chunks = [{"id": "IPC:379:-:0", "text": theft.text}, {"id": "IPC:302:-:0", "text": murder.text}]
    text = f'Theft is punished thus: "{quote}" [IPC:379:-:0] So is murder. [IPC:302:-:0]'
    [q] = verifier.verify(text, chunks, as_of="2023-01-01").quotes
    assert q.status is Q.MISATTRIBUTED and q.source == "IPC:379:-:0"


def test_a_quote_cited_to_an_order_the_graph_does_not_hold_is_not_verified(verifier: Verifier, loaded: Loaded) -> None:
    s39 = loaded.store.get_section("CPC", "39")
    assert s39 is not None and s39.text
    quote = " ".join(s39.text.split())[:200]
    r = verifier.verify(f'Order 39 Rule 1 of the Code of Civil Procedure provides: "{quote}" [CPC:39:-:0]',
                        [{"id": "CPC:39:-:0", "text": s39.text}], as_of="2025-01-01")  # fmt: skip
    order = next(c for c in r.citations if c.section == "Order 39 Rule 1")
    assert order.status is S.UNCHECKED
    [q] = r.quotes
    assert q.status is not Q.EXACT and q.status is not Q.NORMALISED


def test_a_section_named_inside_a_quotation_takes_no_later_quotation(verifier: Verifier) -> None:
    # CrPC 154(1)(a) names "section 509 of the Indian Penal Code"; the clause quoted after it is still 154's.
    text = ('Section 154(1) of the Code of Criminal Procedure, 1973 provides: "(a) in the event that the person '
            "against whom an offence under section 354, section 354A, section 354B, section 354C, section 354D, "
            "section 376, section 376A, section1 376AB, section 376B, section 376C, section 376D, section 376DA, "
            "section 376DB, section 376E or section 509 of the Indian Penal Code is alleged to have been committed "
            'or attempted" \u2026 "(b) the recording of such information shall be video graphed;"')
    report = verifier.verify(text, as_of="2023-08-20")
    assert [q.status for q in report.quotes] == [Q.EXACT, Q.EXACT], [q.message for q in report.quotes]
    assert all(q.source is not None and q.source.startswith("CRPC 154") for q in report.quotes)


def test_a_question_writes_sections_beside_their_act(verifier: Verifier) -> None:
    text = "Murder on 15 Aug 2024, and the charge sheet mentions 302 IPC. Will it be 376 IPC or 64 BNS?"
    report = verifier.verify(text, as_of="2025-03-01", adjacent=True)
    got = {(c.act, c.section): c.status for c in report.citations if c.label == "PROVISION"}
    assert got == {("IPC", "302"): S.REPEALED, ("IPC", "376"): S.REPEALED, ("BNS", "64"): S.VERIFIED}
    plain = verifier.verify(text, as_of="2025-03-01")  # a draft is read as the extractor reads it
    assert not [c for c in plain.citations if c.label == "PROVISION"]


def test_a_question_lists_sections_with_sub_units_before_their_act(verifier: Verifier) -> None:
    # How FIRs and charge sheets are quoted: a list before the Act, a sub-section after a number. Each is checked for
    # the date of the facts: the IPC's for 2025 facts are repealed, the BNS's for January 2024 facts not yet in force.
    later = verifier.verify("Booked under 420/406 IPC for a deal in August 2025.", as_of="2025-09-01", adjacent=True)
    assert {(c.act, c.section): c.status for c in later.citations if c.label == "PROVISION"} == {
        ("IPC", "420"): S.REPEALED, ("IPC", "406"): S.REPEALED}
    earlier = verifier.verify("Phone stolen in January 2024; FIR under 303(2) BNS.", as_of="2024-01-31", adjacent=True)
    assert [(c.act, c.section, c.status) for c in earlier.citations if c.label == "PROVISION"] == [
        ("BNS", "303", S.NOT_YET_IN_FORCE)]

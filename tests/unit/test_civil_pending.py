"""A civil matter pending since before 2024-07-01 was never the CrPC's, so BNSS 531(2)(a) does not keep it under the
old procedure: a suit, a divorce, a consumer complaint, a claim before a tribunal are read as no pending criminal
proceedings. What may prove any pending proceeding is still the Evidence Act's (BSA 170(2)): a question about evidence
in such a matter takes that savings provision alone (``QuestionFacts.civil_evidence``). A criminal matter stays pending
whatever court hears it. None of these is a question of an evaluation set; the reviews' inputs are marked."""

from __future__ import annotations

import pytest

from legal_rag.workflow.facts import read_facts


def _pending(question: str) -> str | None:
    return read_facts(question, "2026-11-29", comparison=False, checks_for=lambda *_: []).pending_since


@pytest.mark.parametrize("question", [
    "Our partition suit has been pending in the civil court since 2020. Can the court appoint a commissioner?",
    "My divorce case has been going on in the family court since 2021. Can I ask for interim maintenance?",
    "My consumer complaint against the builder has been pending before the district commission since 2022. Can I "
    "withdraw it?",
    "The eviction suit against our tenant was filed in 2019 and is still pending. Can we ask for mesne profits?",
    "My MACT claim for my father's accident has been pending since 2023. Can we get interim compensation?",
    "My brother filed a partition suit in 2021. It is still pending. Can I sell my share meanwhile?",
    # the second review's: a new criminal step asked of, a civil Act's section, "trial", "cheated on", "forgot",
    # "10 or 12 hearings", a suit for malicious prosecution
    "My divorce case has been pending in the family court since 2021. Can I also file an FIR against my husband for "
    "cruelty now?",
    "I filed a divorce petition under section 13 of the Hindu Marriage Act in 2021. It is still pending. Can I "
    "withdraw it?",
    "My partition suit filed in 2019 is still pending. The trial has not begun. Can I amend the plaint?",
    "My wife cheated on me. I filed for divorce in 2021 and it is still pending. Can I get the divorce faster?",
    "I forgot to pay the court fee. My money suit filed in 2022 is still pending. What now?",
    "My father's eviction suit against the tenant, filed in 2020, is still pending after 10 or 12 hearings. Can it be "
    "expedited?",
    "My suit for malicious prosecution filed in 2021 is still pending. Can I add a claim for costs?",
])  # fmt: skip
def test_a_civil_matter_pending_since_before_the_cutover_is_no_criminal_proceeding(question: str) -> None:
    assert _pending(question) is None, question


@pytest.mark.parametrize("question", [
    # a criminal matter, whatever court hears it
    "The cheque bounce case against me has been going on since 2022. Can it be compounded?",
    "My husband's trial for dowry harassment has been pending in the sessions court since 2021. Can he get bail?",
    "My wife filed a 498A case and a divorce case in 2022, both are pending. What happens now?",
    "A civil suit has been pending since 2022 and my brother filed an FIR against me in 2023 that is still under "
    "investigation. Can the police arrest me?",
    # the review's: a maintenance petition under s.125, a case named by its sections, a forgery case
    "My wife's maintenance petition under section 125 has been pending in the family court since 2021. Can the "
    "amount be increased?",
    "In 2021 my cousin filed a case under 420 and 406 against me in a property dispute. It is still pending. Can it be "
    "quashed?",
    "The case filed against me in 2022 over the property dispute for forging my uncle's signature is still going on. "
    "Can I get it quashed?",
    "My wife filed for maintenance under 125 in the family court in 2021. It is still pending. Can the amount be "
    "increased?",
])  # fmt: skip
def test_a_criminal_matter_stays_pending_whatever_court_hears_it(question: str) -> None:
    pending = _pending(question)
    assert pending is not None and pending < "2024-07-01", (question, pending)


@pytest.mark.parametrize(("question", "evidence"), [
    ("My divorce case has been pending since 2021. Can my husband's WhatsApp chats be used as evidence?", True),
    ("My divorce case has been pending in the family court since 2021. What is the procedure to prove my husband's "
     "WhatsApp chats?", True),
    ("My divorce case has been pending since 2021. What proof do I need to show cruelty?", True),
    ("My civil suit has been pending since 2019. Is a certificate under section 65B of the Evidence Act needed?", True),
    # a story's "proof" asks nothing about evidence (reviews), with a question mark or without one
    ("Our partition suit has been pending since 2020. I have proof of my share. Can I sell my share meanwhile?", False),
    ("Our partition suit has been pending since 2020. I have proof of my share and witnesses. Please advise", False),
    # "accused me of cruelty" in a divorce petition is no criminal matter (review)
    ("My wife's divorce petition filed in 2021 accused me of cruelty. It is still pending. Can I file for "
     "restitution?", False),
])  # fmt: skip
def test_what_may_prove_a_civil_matter_pending_on_the_cutover_is_the_evidence_act_s(question: str,
                                                                                  evidence: bool) -> None:
    facts = read_facts(question, "2026-11-29", comparison=False, checks_for=lambda *_: [])
    assert facts.pending_since is None and facts.civil_evidence is evidence, (question, facts.civil_evidence)


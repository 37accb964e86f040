"""Which code a court or the police will go by, asked in the ways people ask it, and the old and new codes' sections
put side by side with "of the": each asks which code governs (``AskKind.WHICH_CODE``), so a question that names both
codes is no comparison of them and its dates decide (BNS 358, BNSS 531(2)(a), BSA 170(2)). None of these is a question
of an evaluation set."""

from __future__ import annotations

import pytest

from legal_rag.workflow.facts import AskKind, ask_kinds, read_facts


@pytest.mark.parametrize(("ask", "which"), [
    ("Will the judge now apply the BNS to my brother's case?", True),
    ("Should the magistrate follow the old CrPC or the BNSS?", True),
    ("Would the sessions court go by the IPC?", True),
    ("Will the court apply the new laws to a case from 2021?", True),
    ("Does the prosecution proceed under the BNSS now?", True),
    ("In the ongoing trial, do we rely on section 65B of the Evidence Act or section 63 of the BSA?", True),
    ("Is it section 420 of the IPC or section 318 of the BNS?", True),
    ("Is it 302 IPC or section 103 of the BNS?", True),
    ("Will the court apply the new criminal laws to my case from 2021?", True),
    ("Will the judge still apply the IPC to my father's trial?", True),
    ("Will the trial judge apply the Bharatiya Nyaya Sanhita?", True),
    # not which code governs: what a court or the police may do under one (the review's first two)
    ("Can the police follow the BNSS procedure for a zero FIR?", False),
    ("Can the court apply the BSA presumption about electronic records?", False),
    ("Will the court apply section 138 of the NI Act to a post-dated cheque?", False),
    ("Can the police apply for remand under the BNSS?", False),
    ("Will the judge grant bail?", False),
    ("What does section 63 of the BSA say?", False),
])  # fmt: skip
def test_which_code_a_court_will_go_by_is_asked_in_many_ways(ask: str, which: bool) -> None:
    assert (AskKind.WHICH_CODE in ask_kinds(ask)) is which, ask


@pytest.mark.parametrize("question", [
    "My uncle's trial for murder under 302 IPC has been running since 2020. Now that the IPC is repealed, will the "
    "judge apply the BNS?",
    "The case against my husband has been pending in the magistrate's court since 2022. Does the court follow the CrPC "
    "or the BNSS now?",
])  # fmt: skip
def test_a_which_code_ask_naming_both_codes_reads_the_pending_matter(question: str) -> None:
    # the classifier takes a question naming both codes for a comparison of them; asking which governs, it is not
    facts = read_facts(question, "2026-11-29", comparison=True, checks_for=lambda *_: [])
    assert facts.pending_since is not None and facts.pending_since < "2024-07-01", (question, facts.pending_since)

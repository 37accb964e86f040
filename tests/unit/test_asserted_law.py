"""A question that takes something about the law as given (``facts.asserts_law``) is answered by quoting what the
law says, never at High (``confidence.ASSERTED_CAP``); a prediction's odds are no statute's (``AskKind.OPINION``);
an ask for the IPC's section dates the story for the offence (``facts._OLD_SECTION_ASKED``).

The questions are written for these tests in forms people use, not taken from an evaluation set."""

from __future__ import annotations

import pytest

from legal_rag.workflow import confidence as conf
from legal_rag.workflow.facts import AskKind, ask_kinds, asserts_law, read_facts
from legal_rag.workflow.results import ConfidenceLabel

STATEMENTS = [
    "A gift deed need not be registered if it is oral",
    "Police can keep a woman in the lock-up overnight",
    "My employer can deduct my salary for any loss he likes",
    "A minor can never be sued on a contract he signed",
    "Maintenance under the DV Act stops once the divorce is granted",
]
CONFIRMS = ["{s}, right?", "{s} - is that true?", "{s}, correct?", "{s}, isn't it?", "{s}. Am I right?",
            "{s}. True or false?", "{s}, hai na?", "{s} — is this correct?"]


@pytest.mark.parametrize("question", [c.format(s=s) for s in STATEMENTS for c in CONFIRMS])
def test_a_statement_put_to_be_confirmed_is_an_asserted_premise(question: str) -> None:
    assert asserts_law(question), question


@pytest.mark.parametrize("question", [
    "Since an unregistered sale agreement is void, can the builder's son evict me?",
    "As the offence is non-bailable, can the police refuse to release him on bail?",
    "Now that the new law makes snatching a separate offence, what is the punishment?",
    "Given that there is no limitation for a partition suit, can I file it after 20 years?",
    "The Motor Vehicles Act lets the owner be jailed for his son's driving. What can I do?",
    "Under the new BNSS the magistrate allows only one bail application, so what now?",
    "The Consumer Protection Act permits a complaint against a doctor who treated me for free. How do I file?",
    # the second review's inputs
    "Since 498A is a non-bailable offence, can police arrest me without notice?",
    "As dowry is a cognizable offence, must the police register my FIR?",
    "A divorce by mutual consent takes only one month, right?",
    "Police have 24 hours to produce me before a magistrate, right?",
    "Triple talaq is valid, am I right in thinking so?",
])  # fmt: skip
def test_a_ruling_told_as_given_before_the_ask_is_an_asserted_premise(question: str) -> None:
    assert asserts_law(question), question


@pytest.mark.parametrize("question", [
    "Do I have any right to the house?",
    "Is there a time limit or no?",
    "Which court is right for this case?",
    "The landlord says I must vacate in 10 days. Can he?",
    "As my husband works abroad, can I file the divorce petition here?",
    "Since 2022 the police have not filed the chargesheet. What can I do?",
    "Since my father died, my uncle has taken the shop. What can I do?",
    "What is the punishment for cheating under the BNS?",
    "He is not correct in saying that. What should I do?",
    "Is it true that I can appeal? Where?",  # an ask about the law, not a statement of it
    "The Police Commissioner says the FIR will be registered tomorrow. Is there a deadline?",
    # the independent review's inputs: "as per", "as a", a date or a fact after "since", an ask "under which"
    "As per section 138 of the NI Act, what is the punishment for a bounced cheque?",
    "As per law, can my landlord evict me without notice?", "As a law student, I want to know the bail rules.",
    "As the legal heir of my father, can I claim a share in his house?",
    "Since the offence happened in March 2024, will the IPC apply?", "Since I cannot pay the rent, can he evict me?",
    "Since I am not allowed to meet my children, what can I do?", "Under which section the magistrate allows bail?",
    "The Act says nothing about tenants. What then?",
    "Whether the allegation is true or not, can the police arrest him?",
    "He took my phone without asking. Is it right?", "My employer deducted Rs 5000 from my salary. Is this correct?",
    "Am I right to withhold rent until he repairs the roof?",
])  # fmt: skip
def test_an_ordinary_ask_asserts_nothing(question: str) -> None:
    assert not asserts_law(question), question


def test_an_asserted_premise_is_never_high() -> None:
    kwargs = {"question": "Police can keep a woman in the lock-up overnight, right?", "as_of": "2026-11-29",
              "names_provision": True, "coverage": 1.0}
    assert conf.score(**kwargs).label is ConfidenceLabel.HIGH
    capped = conf.score(**kwargs, asserted=True)
    assert capped.score <= conf.ASSERTED_CAP and capped.label is not ConfidenceLabel.HIGH


@pytest.mark.parametrize("ask", [
    "What are the odds that the tribunal awards us 30 lakh?",
    "what are my odds of getting custody",
    "How likely is it that the court grants him bail?",
    "What is the probability of an acquittal in such cases?",
    "Is there any likelihood that the commission orders a full refund?",
    "What is the likelihood of the court granting bail?", "What's the likelihood of my husband getting custody?",
    "Is there any likelihood of me going to jail?",
])  # fmt: skip
def test_the_odds_of_an_outcome_are_an_opinion(ask: str) -> None:
    assert AskKind.OPINION in ask_kinds(ask), ask


@pytest.mark.parametrize("ask", [
    "Against all odds he survived the attack. What offence is it?",
    "What is the punishment for attempt to murder?",
    "Is an FIR likely to be needed for the insurance claim?",
    # a statute's own test, not odds (the independent reviews' inputs)
    "Is there a likelihood of confusion between my registered trade mark and the new brand?",
    "Is it murder if he knew of the likelihood of death?",
    "Does the Act require a likelihood that the public will be deceived?",
    "What is the likelihood that the mark is deceptively similar?",
])  # fmt: skip
def test_other_asks_are_not_opinions(ask: str) -> None:
    assert AskKind.OPINION not in ask_kinds(ask), ask


@pytest.mark.parametrize("question", [
    "Our cashier quietly moved shop cash to his wallet over 2021. Which IPC section for him?",
    "In March 2023 my tenant took away the fans and the geyser when he left. Which section of the IPC applies?",
    "My neighbour's goats kept grazing my crop through 2022, and he laughed when I objected. What IPC offence is that?",
])  # fmt: skip
def test_an_ask_for_the_ipc_s_section_dates_the_story_for_the_offence(question: str) -> None:
    facts = read_facts(question, "2026-11-29", comparison=False, checks_for=lambda offence, proceedings: [])
    assert facts.offence_on is not None and facts.offence_on < "2024-07-01", (question, facts.offence_on)
    assert facts.old_law_governs("IPC")


def test_an_ask_for_the_ipc_s_section_for_a_story_after_the_cutover_dates_nothing() -> None:
    facts = read_facts("Our cashier moved shop cash to his wallet over 2025. Which IPC section for him?", "2026-11-29",
                       comparison=False, checks_for=lambda offence, proceedings: [])
    assert facts.offence_on is None


@pytest.mark.parametrize("ask", [
    "How many weeks will the family court take to decide custody?",
    "How long will my consumer complaint really take to be decided?",
    "How many years will the Supreme Court take to hear the SLP?",
    "Will the builder really settle if I send him a legal notice?",
    "Will my employer appeal against the labour court's order?",
    "Is my neighbour planning to encroach further on my land?",
    "Are my in-laws intending to sell the flat behind my back?",
])  # fmt: skip
def test_what_a_court_will_in_fact_take_or_another_party_will_choose_is_an_opinion(ask: str) -> None:
    assert AskKind.OPINION in ask_kinds(ask), ask


@pytest.mark.parametrize("ask", [
    "Will my husband have to pay maintenance after the divorce?",
    "Will the police arrest him for a bailable offence?",
    "How many days does the accused get to file an appeal against conviction?",
    "Will the tenant have to vacate after the notice period?",
    "Within how many days must the commission decide my complaint?",
    "Is my landlord allowed to sell the building while I am a tenant?",
])  # fmt: skip
def test_what_the_law_makes_someone_do_is_not_an_opinion(ask: str) -> None:
    assert AskKind.OPINION not in ask_kinds(ask), ask

"""The eighteenth session's readings of a question: asks no statute answers because only a particular matter's record
holds the fact (``AskKind.RECORD``), court time and court outcomes put in more ways (``AskKind.OPINION``), the other
code's section put as the right one (``AskKind.WHICH_CODE``), whether a court hears a matter at all (``AskKind.FORUM``),
a story whose dated act is told with what someone said in it or with the payment a promise drew, a child told as caught
or arrested, and a criminal step dated since the cutover. None of these is a question of an evaluation set; the
independent review's inputs are marked."""

from __future__ import annotations

import pytest

from legal_rag.workflow.facts import OUTSIDE_STATUTES, AskKind, ask_kinds, read_facts


@pytest.mark.parametrize("ask", [
    "What did the investigating officer write about me in the case diary?",
    "What has the SHO recorded against my son in the general diary?",
    "What did the doctor note about her injuries in the MLC?",
    "What did the complainant say about me in his statement to the police?",
    "Can you check whether my daughter's fiance has any criminal cases against him?",
    "Does my new tenant have any criminal record?",
    "I want to know if the groom has any FIRs registered in Delhi.",
    "Has my landlord got any complaints pending against him with the police?",
])  # fmt: skip
def test_a_fact_only_a_matter_s_record_holds_is_outside_the_statutes(ask: str) -> None:
    kinds = ask_kinds(ask)
    assert AskKind.RECORD in kinds and AskKind.RECORD in OUTSIDE_STATUTES, (ask, kinds)


@pytest.mark.parametrize("ask", [
    "What must the investigating officer write in the case diary?",
    "What does section 192 of the BNSS say about the case diary?",
    "If the accused has a criminal record, can bail be refused?",
    "My husband has a criminal case under 498A against him. Can he travel abroad?",
    "Can the police refuse bail if my tenant has any criminal cases under the NDPS Act?",
    "What should the doctor write in the MLC for an assault?",
    # the review's: a condition on a record, not an ask for one
    "Can I get a divorce under the Hindu Marriage Act if my husband has criminal cases pending against him?",
    "If my husband has criminal cases pending, can he get a passport?",
    "Does my tenant have any rights if he has complaints against me?",
    "Can a government employee be suspended if the employee has criminal cases pending?",
])  # fmt: skip
def test_what_the_law_requires_of_a_record_is_not_a_record_ask(ask: str) -> None:
    assert AskKind.RECORD not in ask_kinds(ask), ask


@pytest.mark.parametrize(("ask", "opinion"), [
    ("How many months does a maintenance case actually take in the Saket family court these days?", True),
    ("How long does a partition suit really take in Lucknow?", True),
    ("How long do consumer cases usually take?", True),
    ("How long does the police have to file a chargesheet?", False),
    ("Her anticipatory bail is listed in the Sessions Court tomorrow. Will the judge grant it?", True),
    ("Will the bench accept the plea?", True),
    ("Will the court grant it if I apply under section 5 of the Limitation Act?", False),
    ("Will the court allow it under section 5 of the Limitation Act?", False),
    # the review's: what the law lets a court do, told with what it is asked to do it to
    ("Will the court accept this WhatsApp chat as evidence without a certificate under section 63 BSA?", False),
    ("Will the court allow the appeal after 90 days?", False),
    ("Will the magistrate accept the application for maintenance from a live-in partner?", False),
    ("Will the court accept it as evidence without a 65B certificate?", False),
    ("Will the judge accept the plea tomorrow?", True),
])  # fmt: skip
def test_how_long_a_court_in_fact_takes_and_what_it_will_do_are_opinions(ask: str, opinion: bool) -> None:
    assert (AskKind.OPINION in ask_kinds(ask)) is opinion, ask


@pytest.mark.parametrize(("ask", "which"), [
    ("The chargesheet says 303 BNS. Shouldn't it be 379 IPC?", True),
    ("They booked him under BNS 318. Isn't it section 420 of the IPC?", True),
    ("Shouldn't they have been charged under the IPC?", True),
    ("Shouldn't the police register an FIR?", False),
    ("Shouldn't the FIR be registered under section 154 CrPC?", False),  # the review's: a step, not a code's offence
    ("Isn't it a crime?", False),
])  # fmt: skip
def test_the_other_code_s_section_put_as_the_right_one_asks_which_code(ask: str, which: bool) -> None:
    assert (AskKind.WHICH_CODE in ask_kinds(ask)) is which, ask


def test_a_which_code_ask_dates_the_offence_even_where_both_codes_are_named() -> None:
    q = ("Our shop was broken into in February 2024 and the FIR came later. The chargesheet says 331 BNS. Shouldn't it "
         "be 457 IPC?")
    facts = read_facts(q, "2026-11-29", comparison=True, checks_for=lambda *_: [])
    assert facts.offence_on == "2024-02-29"


@pytest.mark.parametrize("question", [
    "In 2022 my cousin sent me messages saying he will burn my shop if I don't sell him the land. What offence was "
    "that?",
    "In May 2023 a man called my wife and said he is watching her and knows where she lives. What offence was it?",
    "In 2021 a moneylender told my father he has to pay double or lose his house. What offence did he commit?",
    # what was said runs on past "and my kids": the threat's words, not a new clause
    "In 2023 my brother-in-law sent me voice notes saying he will kill me and my kids if I don't drop the suit. What "
    "offence was that?",
])  # fmt: skip
def test_what_someone_said_in_a_dated_story_does_not_put_it_in_the_present(question: str) -> None:
    facts = read_facts(question, "2026-11-29", comparison=False, checks_for=lambda *_: [])
    assert facts.offence_on is not None and facts.offence_on < "2024-07-01", (question, facts.offence_on)


@pytest.mark.parametrize("question", [
    "In 2022 my cousin started sending me threats and he is still threatening to burn my shop. What offence is that?",
    "In 2023 my neighbour said my wall is on his land and he keeps breaking it. What offence is that?",
    # the review's: "without warning" is no speech; what was said ends at a comma and a new clause
    "In 2023 my employer deducted money from my salary without warning and still keeps it. What offence is this?",
    "In 2023 my in-laws threw me out, saying I brought no dowry, and my jewellery is still with them. What offence is "
    "this?",
])  # fmt: skip
def test_a_story_still_going_on_besides_what_was_said_is_not_dated_by_the_story(question: str) -> None:
    facts = read_facts(question, "2026-11-29", comparison=False, checks_for=lambda *_: [])
    assert facts.offence_on is None, (question, facts.offence_on)


@pytest.mark.parametrize(("question", "dated"), [
    # the payment a promise drew is when the cheating was done
    ("In March 2022 I transferred 3 lakh to a man on Instagram who promised to double it. He blocked me. What offence "
     "did he commit?", True),
    ("In 2023 we paid a travel agent 2 lakh on his promise of visas for Canada. He vanished. Which sections cover what "
     "he did?", True),
    # the teller's own part without a promise told is background
    ("In 2021 I gave him 5 lakh as a loan. He never returned it. What offence is that?", False),
    ("In 2022 I paid the builder in full. He has not given possession. What offence is that?", False),
    # what someone did, asked by the law that covers it
    ("In 2022 a builder took 10 lakh from my father for a flat that never existed. What law applies to what the "
     "builder did?", True),
    ("In 2022 I signed a loan paper without reading it. Which sections cover what I did?", False),
])  # fmt: skip
def test_a_payment_a_promise_drew_dates_the_cheating(question: str, dated: bool) -> None:
    facts = read_facts(question, "2026-11-29", comparison=False, checks_for=lambda *_: [])
    if dated:
        assert facts.offence_on is not None and facts.offence_on < "2024-07-01", (question, facts.offence_on)
    else:
        assert facts.offence_on is None, (question, facts.offence_on)


@pytest.mark.parametrize(("question", "child"), [
    ("My 17-year-old son was arrested for a fight at school. Can he get bail?", True),
    ("A 15 year old boy was booked for rash driving. What now?", True),
    ("Police arrested my minor son last night for stealing a bike.", True),
    ("mera 17 saal ka bhai was caught by police for drinking.", True),
    ("My 14 yr old nephew was caught breaking a car window. The police took him to the thana. What happens now?", True),
    # a child harmed, not held; an adult; another held
    ("My 12 yr old daughter told me her tutor touches her. Will the police take it seriously?", False),
    ("My 14 year old son was beaten by his teacher. The teacher was arrested. What now?", False),
    ("My 19 year old son was arrested yesterday for a fight in college.", False),
    ("My 16 year old daughter was harassed by a man who was later arrested.", False),
    ("My 13 year old daughter was kidnapped. Police caught him after a week.", False),
])  # fmt: skip
def test_a_child_the_story_tells_was_held_is_read(question: str, child: bool) -> None:
    from legal_rag.workflow.facts import accuses_a_child

    assert accuses_a_child(question) is child, question
    facts = read_facts(question, "2026-11-29", comparison=False, checks_for=lambda *_: [])
    assert facts.child_accused is child


@pytest.mark.parametrize(("ask", "forum"), [
    ("My wife filed the case in Nagpur where her parents live. Can the Nagpur magistrate hear it?", True),
    ("Can a family court in Pune entertain the petition?", True),
    ("Will the consumer commission in Delhi take up my complaint?", True),
    ("Can the court hear my witness?", False),
    ("Can the judge decide the case without hearing me?", False),
    ("Can the court hear the case if I am abroad?", False),
    ("Can the magistrate try it under the old code?", False),
])  # fmt: skip
def test_whether_a_court_hears_the_matter_at_all_asks_the_forum(ask: str, forum: bool) -> None:
    assert (AskKind.FORUM in ask_kinds(ask)) is forum, ask


@pytest.mark.parametrize(("question", "since"), [
    ("My divorce case has been pending since 2022. In September 2024 my wife filed an FIR against me.", True),
    ("The trial began in 2021 and he was convicted in March 2025. Can he appeal?", True),
    ("The investigation in my FIR from 2023 is still going on.", False),
    ("My trial has been pending since 2022. What happens now?", False),
])  # fmt: skip
def test_a_criminal_step_dated_since_the_cutover_is_told(question: str, since: bool) -> None:
    from legal_rag.workflow.facts import steps_since_cutover

    assert steps_since_cutover(question, "2026-11-29") is since, question


@pytest.mark.parametrize(("question", "dated"), [
    # which section, or whether it can still be brought, turns on the day of the offence the story tells
    ("Back in 2021 my tenant took away the ceiling fans and the geyser when he left. Can I still file a complaint?",
     True),
    ("That evening in Nov 2022 a man on a bike grabbed my sister's dupatta and pulled her down. Is it too late now?",
     True),
    ("In 2023 somebody used my photos to make a fake profile and message my colleagues. Under what section?", True),
    ("Diwali 2022 pe padosi ne humari car ka sheesha tod diya. Kaunsi dhara lagegi?", True),
    # another law's or a civil remedy's matter, a story going on, or after the cutover: not dated by the story
    ("In 2022 my builder did not hand over the flat. Can I still file a consumer complaint?", False),
    ("In 2021 my landlord kept my deposit. Can I file a civil suit now?", False),
    ("In 2022 my neighbour started dumping garbage at my gate and he still does it. Can I still complain?", False),
    ("In Sept 2024 a man grabbed my sister's dupatta on a bus. Is it too late now?", False),
])  # fmt: skip
def test_an_ask_for_the_section_or_whether_it_can_still_be_brought_dates_the_story(question: str,
                                                                                  dated: bool) -> None:
    facts = read_facts(question, "2026-11-29", comparison=False, checks_for=lambda *_: [])
    assert (facts.offence_on is not None and facts.offence_on < "2024-07-01") is dated, (question, facts.offence_on)


@pytest.mark.parametrize("question", [
    # the second review's: a story going on in Hindi's present progressive, an occasion naming a thing, and matters of
    # another law or of wages or children asked whether they can still be brought
    "Holi 2023 se mera padosi mujhe dhamki de raha hai. Kya main ab bhi FIR karwa sakti hoon?",
    "Diwali 2023 se mera pati mujhe maar raha hai. Kaunsi dhara lagegi?",
    "Our Christmas 2022 photos were morphed and posted online. Which section applies?",
    "My Diwali 2023 bonus was never paid. Is it too late?",
    "My cheque bounced in March 2024. Can I still file a case?",
    "My wife left me in 2023 and took the children. Can I still file a complaint?",
    "Lockdown 2020 mein mera salary nahi diya. Which law?",
])  # fmt: skip
def test_what_goes_on_or_is_another_law_s_matter_is_not_dated_by_its_story(question: str) -> None:
    facts = read_facts(question, "2026-11-29", comparison=False, checks_for=lambda *_: [])
    assert facts.offence_on is None, (question, facts.offence_on)

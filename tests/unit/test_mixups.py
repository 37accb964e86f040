"""``find_mixups`` on the statutes' own headings (IPC/BNS 302, IEA/BSA 25, BNS 379 which does not exist), without the
embedder; the grid over every shared number and the embedder's veto are in ``tests/integration/test_mixups.py``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from legal_rag.workflow import confidence as conf
from legal_rag.workflow.mixups import (
    MEANING_ONLY_MARGIN,
    MISSING_MIN_SIMILARITY,
    TEXT_MIN_SHARED,
    UNCONFIRMED_MAX_SIMILARITY,
    NumberMixup,
    Side,
    find_mixups,
    unconfirmed,
)
from verification.model import CitationCheck, CitationStatus, Label

HEADINGS = {
    ("BNS", "302"): "Uttering words, etc., with deliberate intent to wound religious feelings of any person.",
    ("IPC", "302"): "Punishment for murder.",
    ("BNS", "103"): "Punishment for murder.",
    ("IEA", "25"): "Confession to police officer not to be proved.",
    ("BSA", "25"): "Admissions not conclusive proof, but may estop.",
    ("IPC", "379"): "Punishment for theft.",
    ("BNS", "303"): "Theft.",
}


def check(question: str, cited: str, act: str, section: str,
          status: CitationStatus = CitationStatus.VERIFIED) -> CitationCheck:
    start = question.index(cited)
    return CitationCheck(start=start, end=start + len(cited), text=cited, label=Label.PROVISION, act=act,
                         section=section, status=status, message="")  # fmt: skip


def mixups(question: str, checks: Sequence[CitationCheck], similarity=None) -> tuple[NumberMixup, ...]:  # type: ignore[no-untyped-def]
    return find_mixups(question, checks, title=lambda a, s: HEADINGS.get((a, s)),
                       exists=lambda a, s: (a, s) in HEADINGS,
                       targets=lambda m: {("IPC", "302"): (("BNS", "103"),), ("IPC", "379"): (("BNS", "303"),)}.get(
                           (m.act, m.section), ((m.act, m.section),)),
                       similarity=similarity)  # fmt: skip


def test_a_new_code_number_used_for_the_old_codes_subject() -> None:
    q = "What is the punishment for murder under section 302 BNS?"
    (m,) = mixups(q, [check(q, "section 302", "BNS", "302")])
    assert m.named == Side("BNS", "302", HEADINGS[("BNS", "302")])
    assert m.meant == Side("IPC", "302", "Punishment for murder.") and m.targets == (("BNS", "103"),)
    assert m.statement().startswith('BNS s.302 ("Uttering words, etc., with deliberate intent to wound religious '
                                    'feelings of any person") is not about what the question describes: the subject '
                                    'matches IPC s.302 ("Punishment for murder"), the same number in the old code.')
    assert "replaced by BNS s.103 on 2024-07-01" in m.statement()
    assert "mix-up" in m.warning()


def test_a_number_the_code_does_not_hold() -> None:
    q = "Punishment for theft u/s 379 BNS?"
    (m,) = mixups(q, [check(q, "u/s 379", "BNS", "379", CitationStatus.NOT_FOUND)])
    assert m.named.title is None and m.statement().startswith("The BNS has no section 379: the subject matches IPC "
                                                              's.379 ("Punishment for theft")')


def test_a_citation_of_the_sections_own_subject_is_left_alone() -> None:
    q = "Is a confession to the police admissible under section 25 IEA?"
    assert mixups(q, [check(q, "section 25", "IEA", "25")]) == ()
    q = "What is the punishment for murder under section 103 BNS?"
    assert mixups(q, [check(q, "section 103", "BNS", "103")]) == ()


def test_words_shared_with_the_named_heading_keep_it() -> None:
    """ "admissible" and "Admissions" share a stem: the question may mean BSA 25 itself, so nothing is said."""
    q = "Are admissions of a confession to police admissible under section 25 BSA?"
    assert mixups(q, [check(q, "section 25", "BSA", "25")]) == ()


def test_the_embedder_vetoes_a_shared_word_and_alone_needs_a_margin() -> None:
    q = "Is a confession to police provable under section 25 BSA?"
    checks = [check(q, "section 25", "BSA", "25")]
    assert len(mixups(q, checks)) == 1  # a shared word ("confession") and no embedder
    assert mixups(q, checks, similarity=lambda text, others: [0.9, 0.1]) == ()  # closer to the named heading
    assert len(mixups(q, checks, similarity=lambda text, others: [0.1, 0.11])) == 1
    # no shared word: meaning alone must clear MEANING_ONLY_MARGIN
    q = "He made a statement to the cops while in lock-up; usable under section 25 BSA?"
    checks = [check(q, "section 25", "BSA", "25")]
    assert mixups(q, checks) == ()
    assert mixups(q, checks, similarity=lambda text, others: [0.2, 0.2 + MEANING_ONLY_MARGIN - 0.01]) == ()
    assert len(mixups(q, checks, similarity=lambda text, others: [0.2, 0.2 + MEANING_ONLY_MARGIN + 0.01])) == 1
    # a number the code does not hold, in other words: close enough to the other code's heading
    q = "Someone stole my scooter from the parking; FIR u/s 379 BNS?"
    missing = [check(q, "u/s 379", "BNS", "379", CitationStatus.NOT_FOUND)]
    assert mixups(q, missing, similarity=lambda text, others: [MISSING_MIN_SIMILARITY - 0.01]) == ()
    assert len(mixups(q, missing, similarity=lambda text, others: [MISSING_MIN_SIMILARITY])) == 1
    q = "What does section 25 BSA say?"  # no subject words at all
    assert mixups(q, [check(q, "section 25", "BSA", "25")], similarity=lambda text, others: [0.0, 1.0]) == ()


def test_only_the_six_criminal_codes_and_provisions() -> None:
    q = "Punishment for murder under section 302 of the Motor Vehicles Act?"
    assert mixups(q, [check(q, "section 302", "MVA", "302")]) == ()


def test_an_order_names_no_subject_but_the_actors_of_procedure_do() -> None:
    """"Can the magistrate order interim maintenance ... u/s 144 CrPC" shares only "order" with CrPC 144's heading
    ("Power to issue order in urgent cases of nuisance ...") and is about what BNSS 144 provides (maintenance)."""
    headings = {("CRPC", "144"): "Power to issue order in urgent cases of nuisance or apprehended danger.",
                ("BNSS", "144"): "Order for maintenance of wives, children and parents."}
    question = ("Wife filed for maintenance u/s 144 CrPC in Jan 2025. Can the magistrate order interim maintenance "
                "while the case is pending?")
    got = find_mixups(question, [check(question, "u/s 144 CrPC", "CRPC", "144", CitationStatus.REPEALED)],
                      title=lambda a, s: headings.get((a, s)), exists=lambda a, s: (a, s) in headings,
                      targets=lambda m: ((m.act, m.section),))  # fmt: skip
    assert [(m.named.act, m.meant.act, m.meant.section) for m in got] == [("CRPC", "BNSS", "144")]
    # a question about the order itself is about CrPC 144's subject
    order = "Can the magistrate issue an order in urgent cases of nuisance under section 144 CrPC?"
    assert find_mixups(order, [check(order, "section 144 CrPC", "CRPC", "144", CitationStatus.REPEALED)],
                       title=lambda a, s: headings.get((a, s)), exists=lambda a, s: (a, s) in headings,
                       targets=lambda m: ((m.act, m.section),)) == ()  # fmt: skip
    # "Powers of superior officers of police" is about the police officer the question asks about: a right citation
    powers = {("CRPC", "36"): "Powers of superior officers of police.",
              ("BNSS", "36"): "Procedure of arrest and duties of officer making arrest."}
    sp = ("Can the SP exercise the powers of an officer in charge of a police station u/s 36 CrPC and make the arrest "
          "himself?")
    assert find_mixups(sp, [check(sp, "u/s 36 CrPC", "CRPC", "36", CitationStatus.REPEALED)],
                       title=lambda a, s: powers.get((a, s)), exists=lambda a, s: (a, s) in powers,
                       targets=lambda m: ((m.act, m.section),)) == ()  # fmt: skip


TEXTS = {  # the opening words of each section in the graph (India Code)
    ("BNSS", "167"): (
        "(1) Whenever a local inquiry is necessary for the purposes of section 164, section 165 or section 166, a "
        "District Magistrate or Sub-divisional Magistrate may depute any Magistrate subordinate to him to make the "
        "inquiry ... (2) The report of the person so deputed may be read as evidence in the case."),
    ("CRPC", "167"): (
        "(1) Whenever any person is arrested and detained in custody, and it appears that the investigation cannot be "
        "completed within the period of twenty-four hours fixed by section 57 ... the accused person shall be released "
        "on bail if he is prepared to and does furnish bail ... ninety days ... sixty days"),
}
TEXT_HEADINGS = {("BNSS", "167"): "Local inquiry.",
                 ("CRPC", "167"): "Procedure when investigation cannot be completed in twenty-four hours"}


def _overlap(text: str, others: Sequence[str]) -> list[float]:
    """A stand-in for the embedder: the share of the text's words each other text holds (headings share none of the
    questions' words here, so only the texts can decide)."""
    words = set(text.lower().split())
    return [len(words & set(o.lower().split())) / max(len(words), 1) for o in others]


def text_mixups(question: str, cited: str, act: str, section: str, with_text: bool = True,
                similarity: Callable[[str, Sequence[str]], Sequence[float]] = _overlap) -> tuple[NumberMixup, ...]:
    return find_mixups(question, [check(question, cited, act, section)], title=lambda a, s: TEXT_HEADINGS.get((a, s)),
                       exists=lambda a, s: (a, s) in TEXT_HEADINGS, targets=lambda m: ((m.act, m.section),),
                       similarity=similarity,
                       text=(lambda a, s: TEXTS.get((a, s), "")) if with_text else None)  # fmt: skip


def test_the_texts_decide_when_the_headings_do_not() -> None:
    """A client asks in the words of the text, not of the heading: "custody", "bail", "days" are CrPC 167's words;
    BNSS 167 (local inquiry) holds none of them."""
    q = "My son was arrested 95 days ago and is still in jail; is he to be released on bail u/s 167 BNSS?"
    (m,) = text_mixups(q, "u/s 167", "BNSS", "167")
    assert m.named.act == "BNSS" and m.meant == Side("CRPC", "167", TEXT_HEADINGS[("CRPC", "167")])
    assert not text_mixups(q, "u/s 167", "BNSS", "167", with_text=False)  # the headings alone call nothing
    # the meaning must agree: a question no closer to the other code's text is left alone
    assert not text_mixups(q, "u/s 167", "BNSS", "167", similarity=lambda t, o: [0.5 for _ in o])


def test_the_texts_never_outvote_a_named_text_that_holds_the_subject() -> None:
    q = ("Can the Magistrate depute a subordinate Magistrate for the inquiry and read his report in evidence and "
         "grant bail in custody under section 167 BNSS?")
    assert not text_mixups(q, "section 167", "BNSS", "167")  # "inquiry", "report" are BNSS 167's own words


def test_fewer_than_three_words_of_the_other_text_or_only_commonplace_ones_are_not_enough() -> None:
    assert TEXT_MIN_SHARED == 3
    q = "What happens to the accused on bail under section 167 BNSS?"  # "accused", "bail": two of CrPC 167's words
    assert not text_mixups(q, "section 167", "BNSS", "167")
    # "custody", "days", "police", "station" are in any long procedure section: they do not count
    q = "He was kept in custody at the police station for two days. Is that allowed u/s 167 BNSS?"
    assert not text_mixups(q, "u/s 167", "BNSS", "167")


def test_a_preposition_is_no_subject_word() -> None:
    """IPC 85's heading ends "against his will"; a complaint "against" the husband is not about intoxication."""
    headings = {
        ("IPC", "85"): "Act of a person incapable of judgment by reason of intoxication caused against his will",
        ("BNS", "85"): "Husband or relative of husband of a woman subjecting her to cruelty.",
    }
    q = "A complaint was filed against my sister's husband u/s 85 IPC last month for cruelty. What must be shown?"
    (m,) = find_mixups(q, [check(q, "u/s 85", "IPC", "85")], title=lambda a, s: headings.get((a, s)),
                       exists=lambda a, s: (a, s) in headings, targets=lambda m: ((m.act, m.section),))
    assert m.meant == Side("BNS", "85", headings[("BNS", "85")])


# --- a cited section that holds nothing of what the question tells ---------------------------------------------

STORY_TEXTS = {
    ("BNS", "131"): "Assault. Whoever makes any gesture, or any preparation intending or knowing it to be likely that "
                    "such gesture or preparation will cause any person present to apprehend criminal force ...",
    ("BNS", "324"): "Mischief. Whoever with intent to cause, or knowing that he is likely to cause, wrongful loss or "
                    "damage to the public or to any person, causes the destruction of any property ...",
}  # fmt: skip


def _unconfirmed(question: str, cited: str, act: str, section: str) -> tuple[str, ...]:
    return unconfirmed(question, [check(question, cited, act, section)], lambda a, s: STORY_TEXTS.get((a, s), ""))


def test_a_cited_section_holding_nothing_the_question_tells_is_unconfirmed() -> None:
    q = "My tenant smashed the windows and broke the door of my flat before leaving. Is it an offence u/s 131 BNS?"
    assert _unconfirmed(q, "u/s 131 BNS", "BNS", "131") == ("BNS s.131",)


def test_a_story_near_the_cited_section_in_meaning_confirms_it_though_no_word_is_shared() -> None:
    q = "My tenant smashed the windows and broke the door of my flat before leaving. Is it an offence u/s 131 BNS?"
    checks = [check(q, "u/s 131 BNS", "BNS", "131")]
    text = lambda a, s: STORY_TEXTS.get((a, s), "")  # noqa: E731
    near = unconfirmed(q, checks, text, similarity=lambda t, o: [UNCONFIRMED_MAX_SIMILARITY + 0.01] * len(o))
    far = unconfirmed(q, checks, text, similarity=lambda t, o: [UNCONFIRMED_MAX_SIMILARITY - 0.01] * len(o))
    assert (near, far) == ((), ("BNS s.131",))
    # a section the question rests on that is no longer law is said so already: its text is the note of its repeal
    assert unconfirmed(q, checks, text, skip={("BNS", "131")}) == ()


def test_a_cited_section_holding_a_word_the_question_tells_is_not() -> None:
    q = "My tenant smashed the windows and caused damage to my flat before leaving. Is it an offence u/s 324 BNS?"
    assert _unconfirmed(q, "u/s 324 BNS", "BNS", "324") == ()


def test_a_lookup_tells_too_little_to_judge_and_an_unknown_section_has_nothing_to_compare() -> None:
    assert _unconfirmed("What does section 131 BNS provide?", "section 131 BNS", "BNS", "131") == ()
    # four words, but of asking, not telling ("someone", "remedy", "approach")
    q = "Someone told me to approach the court. What remedy do I have u/s 131 BNS?"
    assert _unconfirmed(q, "u/s 131 BNS", "BNS", "131") == ()
    story = "My tenant smashed the windows and broke the door of my flat before leaving. Offence u/s 999 BNS?"
    assert _unconfirmed(story, "u/s 999 BNS", "BNS", "999") == ()


def test_an_answer_to_a_question_citing_an_unconfirmed_section_is_not_high() -> None:
    kw = {"question": "My tenant smashed the windows. Is it an offence u/s 131 BNS?", "as_of": "2025-03-01",
          "names_provision": True, "coverage": 1.0}
    assert conf.score(**kw).score >= 0.8  # type: ignore[arg-type]
    capped = conf.score(**kw, unconfirmed=True)  # type: ignore[arg-type]
    assert capped.score <= conf.UNCONFIRMED_CAP < 0.8

"""Terms of art in queries get the statute's wording appended (data/retrieval/terms_of_art.jsonl)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph_schema.acts import CURATED_BY_CODE, REPEALED_CODES
from graph_schema.errors import IngestError
from legal_rag.retrieval.expand import TermsOfArt, asks_offence, evidence_acts
from legal_rag.settings import Settings

TERMS = TermsOfArt.load(Settings().retrieval.terms_of_art)


@pytest.mark.parametrize(
    ("query", "wording"),
    [
        ("Is a dying declaration admissible?", "cause of his death"),
        ("my cheque bounced last week", "dishonour of cheque for insufficiency of funds"),
        ("Can the High Court quash the FIR?", "inherent powers of High Court"),
        ("hit-and-run case on the highway", "escaping without reporting"),
        ("ANTICIPATORY BAIL in a dowry case", "person apprehending arrest"),
        ("Within what time must the complaint be filed?", "the date on which the cause of action arises"),
        # the names a practitioner uses for the courts and officers the statutes name otherwise
        ("Can the Sessions Court grant bail after the Magistrate refused?", "Court of Session"),
        ("The SHO refused to register my FIR.", "officer in charge of a police station"),
        ("Can a JMFC try this offence?", "Judicial Magistrate of the first class"),
        ("He was not produced before a magistrate for three days.", "not to be detained more than twenty-four hours"),
    ],
)
def test_terms_of_art_bring_the_statutory_wording(query: str, wording: str) -> None:
    out = TERMS.expand(query)
    assert out.startswith(query.rstrip(".?")) and wording in out


def test_words_inside_other_words_do_not_match_and_plain_queries_are_untouched() -> None:
    assert TERMS.expand("the firm's directors") == "the firm's directors"  # "fir" inside "firm"
    assert TERMS.expand("punishment for murder") == "punishment for murder"


def test_a_malformed_line_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "terms.jsonl"
    bad.write_text('{"terms": ["x"], "expansion": "y"}\n{"terms": "x"}\n', encoding="utf-8")
    with pytest.raises(IngestError, match="terms.jsonl:2"):
        TermsOfArt.load(bad)


@pytest.mark.parametrize(
    ("query", "wording"),
    [
        ("My client's husband secretly filmed her friend changing clothes. What offence is this?",
         "captures the image of a woman engaging in a private act"),
        ("In 2023 she entrusted her gold to a friend for safekeeping and the friend sold it. What offence?",
         "dishonestly misappropriates"),
        ("He took Rs 2 lakh promising a government job and disappeared. Can he be charged with anything?",
         "fraudulently or dishonestly induces"),
        ("Two brothers: one held him down while the other stabbed him. What is his liability?",
         "in furtherance of the common intention"),
    ],
)  # fmt: skip
def test_a_clients_account_of_facts_gets_the_offence_in_the_statutes_words(query: str, wording: str) -> None:
    assert wording in TERMS.expand(query)


def test_an_account_of_an_offence_is_not_expanded_when_the_question_asks_something_else() -> None:
    """The facts of a dying-declaration question mention an attack; the question is about evidence, and hurt
    provisions would crowd out BSA 26."""
    q = "Before dying, the victim told the doctor who had attacked her. Can her statement be used at the trial?"
    out = TERMS.expand(q)
    assert "cause of his death" in out and "causes hurt" not in out
    assert "causes hurt" in TERMS.expand("The neighbour attacked my client. What offence has he committed?")


def test_evidence_and_procedure_wording_applies_whatever_is_asked() -> None:
    assert "certificate identifying the electronic record" in TERMS.expand("Is the CCTV footage admissible?")
    assert "undertrial prisoner" in TERMS.expand("My client is an undertrial in custody for three years.")


def test_a_step_the_story_reports_as_done_is_expanded_only_when_asked_about(tmp_path: Path) -> None:
    terms = _load(tmp_path, '{"terms": ["fir"], "expansion": "information in cognizable cases", "when": "asked"}')
    for asked in ("How do I lodge an FIR?", "My phone was stolen. Can I lodge an FIR online?",
                  "My phone was stolen yesterday and the police will not take my FIR, what can I do",
                  # what the story told, acted on by the ask
                  "I emailed my FIR to the station. Within how many days must I sign it?"):
        assert terms.expand(asked).endswith("information in cognizable cases."), asked
    for told in ("The FIR copy says theft. Is that the right section?", "The FIR says theft. Is it correct?",
                 "An FIR was lodged in 2023 and the chargesheet followed. What is the punishment for cheating?"):
        assert terms.expand(told) == told, told


def test_the_curated_fir_and_charge_sheet_wording_follows_the_ask() -> None:
    told = TERMS.expand("My chain was snatched and the FIR was lodged. The chargesheet was filed in 2025. What "
                        "punishment can the accused get?")
    assert "officer in charge of a police station" not in told and "completion of investigation" not in told
    assert "officer in charge of a police station" in TERMS.expand("How is an FIR registered?")
    assert "completion of investigation" in TERMS.expand("What must a chargesheet contain?")
    # the review's: something else done to what the story told is not an ask about the step; a question with no "?"
    # asks all it says; "No." ends no sentence
    for told in ("The chargesheet was filed in September 2024 for dowry death. What punishment can they get for it?",
                 "The FIR says 379 IPC. What should I do about it?"):
        out = TERMS.expand(told)
        assert "officer in charge of a police station" not in out and "completion of investigation" not in out, told
    for asked in ("I want to lodge an FIR against my neighbour. Police are refusing.",
                  "How do I get a certified copy of FIR No. 234/2024?"):
        assert "officer in charge of a police station" in TERMS.expand(asked), asked


def test_an_unknown_when_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "terms.jsonl"
    bad.write_text('{"terms": ["x"], "expansion": "y", "when": "sometimes"}\n', encoding="utf-8")
    with pytest.raises(IngestError, match=r"terms.jsonl:1: \"when\" must be one of"):
        TermsOfArt.load(bad)


@pytest.mark.parametrize(
    "question",
    [
        # "liable" in a civil matter is no question about an offence
        "A died intestate and was survived by his wife and two sons. Are the sons liable for his debts?",
        "Is the insurance company liable to pay compensation for the accident?",
        # "charged" on money is no charge of an offence
        "My friend took money from me as a loan and has not repaid it. Can interest be charged on it?",
        # words that also describe what is not an offence are not terms on their own
        "The judge pointed out that the complaint was defective. Can it be amended?",
        "The accused was in custody for 2 days. Was the confession admissible?",
    ],
)
def test_no_offence_wording_where_no_offence_is_asked_about(question: str) -> None:
    assert not [t.expansion for _, t in TERMS.matches(question) if t.offence_only]
    # The insurance question gets the claims tribunal's wording, which applies whatever is asked; nothing else does.
    if "insurance" not in question:
        assert TERMS.expand(question) == question
    else:
        assert "compensation arising out of an accident before the Claims Tribunal" in TERMS.expand(question)


@pytest.mark.parametrize(
    ("question", "wording"),
    [
        ("He beat his wife to death in 2025. What offence?", "culpable homicide"),
        ("They hacked him to death with swords. Can they be charged with murder?", "culpable homicide"),
        ("Under which section can a man who secretly filmed his tenant be booked?", "captures the image"),
        ("Two brothers planned it; one held him down while the other stabbed him. What is his liability?",
         "common intention"),
        ("He cheated the buyer into paying Rs 3 lakh for land he did not own. Under which law should he be charged?",
         "induces the person so deceived to deliver any property"),
        # which penal code the offence told of is tried under: the story is the offence
        ("A man stole my scooter from the parking in 2022 and the case comes up next month. Will he be tried under "
         "the old IPC?", "dishonestly takes any movable property"),
        ("Our employee walked off with the cash box in January 2024. Is he prosecuted under the Indian Penal Code or "
         "the BNS?", "dishonestly takes any movable property"),
    ],
)  # fmt: skip
def test_the_question_asks_about_an_offence_in_the_ways_lawyers_put_it(question: str, wording: str) -> None:
    assert wording in TERMS.expand(question)


@pytest.mark.parametrize(
    "question",
    [
        # being tried, in any other sense than which penal code governs the offence, asks about procedure
        "Can the accused be tried in absentia if he has absconded after he stole a car?",
        "He hit me with a stick. Can the accused be tried jointly with his brother?",
        "Will she be tried in English or Marathi?",
        "He was convicted under the IPC in 2015. Can he now get a government job?",
        "What is the limitation for appeal if he was convicted under IPC?",
    ],
)  # fmt: skip
def test_being_tried_is_no_question_about_the_offence_unless_the_codes_are_the_choice(question: str) -> None:
    assert not asks_offence(question)


def _load(tmp_path: Path, *lines: str) -> TermsOfArt:
    path = tmp_path / "terms.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return TermsOfArt.load(path)


def test_a_slot_stands_for_whoever_tells_the_story(tmp_path: Path) -> None:
    terms = _load(tmp_path, '{"terms": ["took {pron} phone", "locked {obj} in"], "expansion": "X"}')
    for q in ("He took my phone.", "She took HIS phone", "they took their phone", "He locked me in.",
              "They locked us in the shed."):
        assert terms.expand(q).endswith("X."), q
    for q in ("He took a phone.", "He took myphone.", "He locked the door in anger."):
        assert terms.expand(q) == q, q


def test_an_entry_with_context_needs_one_of_its_words_too(tmp_path: Path) -> None:
    line = '{"terms": ["demanding a car"], "expansion": "dowry", "with": ["groom", "wedding is fixed"]}'
    terms = _load(tmp_path, line)
    assert "dowry" in terms.expand("The groom's parents are demanding a car.")
    assert "dowry" in terms.expand("The wedding is fixed; now they are demanding a car.")
    plain = "The dealer is demanding a car loan guarantee."
    assert terms.expand(plain) == plain


def test_an_entry_does_not_apply_where_its_unless_words_put_the_facts_elsewhere(tmp_path: Path) -> None:
    terms = _load(tmp_path, '{"terms": ["killed"], "expansion": "culpable homicide", "unless": ["negligently"]}')
    assert "culpable homicide" in terms.expand("A neighbour killed my uncle with an axe.")
    plain = "A bus driver negligently killed my uncle."
    assert terms.expand(plain) == plain


@pytest.mark.parametrize("question", [
    # none of these is a question of an evaluation set
    "Last month a bus driver, driving carelessly, hit my father's scooter and killed him. What offence?",
    "A tanker negligently reversed in our lane and killed a child in 2025. What is the punishment?",
    "In an accident caused by a speeding car my cousin was killed last week. What case can be filed?",
])
def test_a_death_by_negligence_is_not_glossed_as_murder(question: str) -> None:
    expanded = TERMS.expand(question)
    assert "not amounting to culpable homicide" in expanded
    assert "intention of causing death" not in expanded


@pytest.mark.parametrize(("question", "glossed"), [
    # none of these is a question of an evaluation set
    ("My ex keeps sending me WhatsApp messages abusing my family. What offence is this?", False),
    ("The shopkeeper was caught on CCTV footage slapping a boy. What can we file against him?", False),
    ("I have call recordings of him demanding a bribe. Can they be used as evidence?", True),
    ("Are WhatsApp chats admissible without a certificate?", True),
    ("Is CCTV footage from my shop enough to prove the theft?", True),
    ("My landlord deleted the CCTV footage. What should I do with the pen drive?", True),
    ("He sent me WhatsApp messages calling me names. What offence is this and is it a genuine threat?", False),
])
def test_the_means_of_proof_is_glossed_only_when_proving_is_asked_or_no_offence_is(question: str,
                                                                                    glossed: bool) -> None:
    assert ("admissibility of electronic records" in TERMS.expand(question)) is glossed


def test_an_unknown_when_lists_proof(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="'proof'"):
        _load(tmp_path, '{"terms": ["x"], "expansion": "y", "when": "evidence"}')


def test_a_threat_to_have_someone_killed_is_no_killing() -> None:
    question = "My landlord threatened on the phone that he would have me killed if I did not vacate. What can I do?"
    expanded = TERMS.expand(question)
    assert "intention of causing death" not in expanded and "threatens another with any injury" in expanded


@pytest.mark.parametrize(("question", "murder"), [
    # the words that put a death under negligence count in the killing's own sentence only
    ("My father was careless with his health and died. My uncle then killed my brother. What offence is this?", True),
    ("After a minor accident, the truck driver got down and stabbed my cousin to death. What offence is this?", True),
    ("A negligent driver killed my father last month. What offence is this?", False),
])
def test_negligence_words_stop_the_murder_gloss_only_in_the_killings_sentence(question: str, murder: bool) -> None:
    assert ("intention of causing death" in TERMS.expand(question)) is murder


def test_a_negligent_killing_gets_the_statutes_words_for_it() -> None:
    assert "not amounting to culpable homicide" in TERMS.expand("A negligent driver killed my father. What offence?")


@pytest.mark.parametrize("question", [
    # none of these is a question of an evaluation set
    "My landlord said he would have me killed if I complained again. What can I do?",
    "A gang told the shopkeeper they will burn his shop unless he pays. What offence is this?",
    "My ex said he would kill my parents if I married someone else. Is that a crime?",
])
def test_a_threat_told_without_the_word_is_criminal_intimidation(question: str) -> None:
    assert "threatens another with any injury" in TERMS.expand(question)


def test_a_killing_without_negligence_is_still_glossed_as_murder() -> None:
    expanded = TERMS.expand("My neighbour killed my uncle with an axe over a land dispute. What offence is this?")
    assert "intention of causing death" in expanded


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"terms": ["x"], "expansion": "y", "unless": "careless"}', r'terms.jsonl:1: "unless" must be a list'),
        ('{"terms": ["x"], "expansion": "y", "unless": ["{who}"]}', r"unknown placeholder '\{who\}'"),
        ('{"terms": ["took {mine}"], "expansion": "y"}', r"terms.jsonl:1: unknown placeholder '\{mine\}'"),
        ('{"terms": ["took {pron"], "expansion": "y"}', r"unknown placeholder '\{pron'"),
        ('{"terms": ["took pron}"], "expansion": "y"}', r"unknown placeholder '\}'"),
        ('{"terms": ["x"], "expansion": "y", "with": []}', r'terms.jsonl:1: "with" must be a list'),
        ('{"terms": ["x"], "expansion": "y", "with": "groom"}', r'terms.jsonl:1: "with" must be a list'),
        ('{"terms": ["x"], "expansion": "y", "with": ["{who}"]}', r"unknown placeholder '\{who\}'"),
        ('{"terms": ["x"], "expansion": "y", "when": ["offence"]}', r'"when" must be one of'),
        ('{"terms": "x", "expansion": "y"}', r'terms.jsonl:1: "terms" must be a list'),
        ('{"terms": ["x"], "expansion": ""}', r'terms.jsonl:1: "expansion" must be a non-empty string'),
        ('["x"]', r"terms.jsonl:1: expected a JSON object"),
    ],
)
def test_a_bad_slot_or_context_is_named(tmp_path: Path, line: str, message: str) -> None:
    with pytest.raises(IngestError, match=message):
        _load(tmp_path, line)


@pytest.mark.parametrize(
    ("question", "wording"),
    [
        # A client's account in lay words, asked the way a client asks.
        ("We were in a cafe and my friend took my phone out of my bag without asking. What can I file against him?",
         "dishonestly takes any movable property"),
        ("My husband and mother-in-law keep taunting and slapping me because my parents did not give them Rs 10 "
         "lakh. What criminal case can I file against them?", "unlawful demand for any property"),
        ("Someone called pretending to be from my bank and asked for the OTP; Rs 60,000 was gone. Which law covers "
         "this?", "cheating by personation by using computer resource"),
        ("My ex says he will put my private photos online unless I keep meeting him. Is threatening me like this a "
         "crime?", "threatens another with any injury"),
        ("I gave my gold chain to the jeweller to repair and he melted it and sold the gold. What offence is this?",
         "entrusted with property"),
        ("My neighbour punched me and two of my teeth broke. What offence has he committed?",
         "fracture or dislocation of a bone or tooth"),
    ],
)  # fmt: skip
def test_lay_accounts_get_the_offence_in_the_statutes_words(question: str, wording: str) -> None:
    assert wording in TERMS.expand(question)


@pytest.mark.parametrize(
    ("question", "wording"),
    [
        ("My client fears he will be taken into custody on a false dowry complaint. What can he apply for?",
         "person apprehending arrest"),
        ("It is 70 days and the police still haven't filed any charge sheet. Is he entitled to be released?",
         "investigation cannot be completed"),
        ("Can I get this criminal case thrown out by the High Court?", "inherent powers of High Court"),
        ("My husband sent 'talaq talaq talaq' on WhatsApp. Is this divorce valid?", "pronouncement of talaq"),
        ("We are Hindus, married in 2018; he hits me. On what ground can I get a divorce?",
         "treated the petitioner with cruelty"),
        ("What is the rule of res gestae?", "facts forming part of same transaction"),
    ],
)  # fmt: skip
def test_procedure_and_family_law_in_lay_words(question: str, wording: str) -> None:
    assert wording in TERMS.expand(question)


def test_the_weapon_and_rape_wordings_do_not_crowd_out_what_the_question_names() -> None:
    # a137 and a146 of the development set: the attempt provision and attempt to murder stay on top.
    assert "dangerous weapons" not in TERMS.expand(
        "The accused stabbed the victim in the chest intending to kill him, but he survived. What offence?")
    rape = "What is the punishment for attempt to commit rape?"
    assert TERMS.expand(rape) == rape
    # "a fraud who cheats his customers" is what the defamer said, not a cheating
    out = TERMS.expand("He posted on Facebook that my client is a fraud. Can my client file a criminal case?")
    assert "imputation concerning any person" in out and "deceiving" not in out


def test_spaces_and_hyphens_between_words_are_one_gap(tmp_path: Path) -> None:
    terms = _load(tmp_path, '{"terms": ["in-laws", "took  my\\tphone"], "expansion": "X"}')
    for q in ("My in laws beat me.", "My in-laws beat me.", "He took my phone.", "He took my-phone."):
        assert terms.expand(q).endswith("X."), q


@pytest.mark.parametrize(
    "question",
    [
        # A review of the lay wording: civil, family, consumer and procedure questions a lay term once fired on.
        "My daughter is already married; can she claim a share in ancestral property?",
        "Who may be arrested without a warrant?",
        "The testator did not write the will himself; is it valid?",
        "My business partner left me and took our clients. What can I do?",
        "My writ petition was thrown out by the High Court. What can I do?",
        "The income tax department has not issued my refund. Which law covers this?",
        "The arbitrator has died; can a replacement be appointed?",
        "My husband died in a flood; the insurance company refuses to pay compensation on the car. What can I do?",
        "My landlord refuses to repair the roof. What can I do?",
        "I lent Rs 5 lakh to a friend and he never returned it. What can I do?",
        "I pledged gold with the bank and the bank auctioned it. What can I do?",
        "My married sister inherited land from her father. What are my options?",
        "The marriage cannot be saved. What are my legal options?",
        "The company collapsed and did not pay salaries. What can I do?",
        "My wife left the house with our children. What can I do?",
        "Her parents married her off against her will. What can she do?",
        "The police took my statement. What can I do?",
        "The police found her body in the river. What can I do?",
        "The landlord locked us out. What can I do?",
        "The bank froze my account for pending KYC. What can I do?",
        "A rival is passing off his goods using my reputation. What can I do?",
        "Can I file a suit to cancel the fraudulent sale deed?",
        "My employer cut down my salary. What can I do?",
        "Can I file an appeal against the decree of divorce?",
    ],
)
def test_lay_terms_stay_quiet_on_other_matters(question: str) -> None:
    assert TERMS.expand(question) == question


@pytest.mark.parametrize("offence", ["extortion", "rape", "stalking", "sexual harassment", "sexual assault"])
def test_an_offence_named_in_the_statutes_own_word_gets_no_lay_wording(offence: str) -> None:
    # The README's first command asks "What is the punishment for extortion?": the answer quotes BNS 308(2),
    # which the definition's wording appended to the query would push down.
    question = f"What is the punishment for {offence}?"
    assert TERMS.expand(question) == question


@pytest.mark.parametrize(
    "question",
    [
        "What is the penalty for overloading a goods carrier?",
        "Penalties for a public information officer who refuses information?",
        "How much jail can he get for this?",
        "How many years of imprisonment for dowry death?",
        "What is the jail term for theft?",
        "Will he go to jail for slapping me?",
        "Can the police book him for theft?",  # "book him for": the pronoun was read only before a space
    ],
)  # fmt: skip
def test_a_penalty_or_a_term_in_jail_is_asked_as_a_punishment(question: str) -> None:
    assert asks_offence(question)


@pytest.mark.parametrize(
    "question",
    [
        "He is in jail since March. Can he get bail?",
        "My brother is in prison; can I visit him?",
        "Jail superintendent refuses to let me meet my client. What can I do?",
        "My brother has spent three years in jail as an undertrial for theft. Can he be released?",
    ],
)  # fmt: skip
def test_being_in_jail_is_not_asking_what_punishment_an_offence_carries(question: str) -> None:
    assert not asks_offence(question)


def test_a_terms_acts_are_those_its_evidence_names() -> None:
    assert evidence_acts("BNS 106, 281; IPC 304A, 279") == {"BNS", "IPC"}
    assert evidence_acts("BNSS 482; CrPC 438") == {"BNSS", "CRPC"}
    assert evidence_acts("NIA 138(b), 142(1)(b); BNSS 514; LIMA 3") == {"NIA", "BNSS", "LIMA"}
    # every curated entry names the Acts whose wording it is, by codes the graph knows
    codes = set(CURATED_BY_CODE) | {a.code for a in REPEALED_CODES}
    for term in TERMS.terms:
        assert term.acts, term.expansion
        assert term.acts - {"CONSTITUTION"} <= codes, term.acts


def test_a_search_confined_to_some_acts_takes_only_their_wording() -> None:
    """"Drunk driving" is glossed in the penal code's words (rash driving, BNS 281); a search of the Motor Vehicles
    Act alone ("... under the Motor Vehicles Act") must not be pulled toward them, while the cheque-bounce wording of
    the NI Act still applies to a search that includes it."""
    q = "What is the penalty for drunk driving under the Motor Vehicles Act?"
    assert "rash driving" in TERMS.expand(q)
    assert TERMS.expand(q, acts={"MVA"}) == q
    assert "rash driving" in TERMS.expand(q, acts={"MVA", "BNS"})
    cheque = "My cheque bounced and the payee threatens a case. What is the punishment?"
    assert "dishonour of cheque" in TERMS.expand(cheque, acts={"NIA"})
    assert "dishonour of cheque" not in TERMS.expand(cheque, acts={"CPA"})


def test_an_entry_without_evidence_applies_to_any_search(tmp_path: Path) -> None:
    terms = _load(tmp_path, '{"terms": ["stalking"], "expansion": "follows a woman"}')
    assert "follows a woman" in terms.expand("stalking at work", acts={"MVA"})


def test_a_term_applies_to_the_acts_that_use_its_wording(tmp_path: Path) -> None:
    """A gloss from the penal code whose words another Act uses ("cheating by personation" is the heading of IT Act
    s.66D) applies to a search of that Act; one whose words it does not use ("rash driving", for the Motor Vehicles
    Act) does not."""
    terms = _load(
        tmp_path,
        '{"terms": ["pretending to be"], "expansion": "cheating by personation: cheats by pretending to be some other '
        'person", "evidence": "BNS 319; IPC 416"}',
        '{"terms": ["drunk driving"], "expansion": "rash driving or riding on a public way", "evidence": "BNS 281"}',
    ).found_in({
        "ITA": "punishment for cheating by personation by using computer resource\\nwhoever, by means of "
                          "any communication device or computer resource cheats by personating",
        "MVA": "driving by a drunken person or by a person under the influence of drugs\\nwhoever, while driving",
    })
    told = "A caller pretending to be from my bank took my OTP. What punishment?"
    assert "cheating by personation" in terms.expand(told, acts={"ITA"})
    assert "cheating by personation" in terms.expand(told, acts={"BNS"})
    drunk = "Penalty for drunk driving?"
    assert terms.expand(drunk, acts={"MVA"}) == drunk
    assert "rash driving" in terms.expand(drunk)


def test_every_curated_gloss_keeps_its_own_acts_when_found_elsewhere() -> None:
    found = TERMS.found_in({"ITA": "cheating by personation by using computer resource"})
    pretending = next(t for t in found.terms if t.pattern.search("pretending to be"))
    assert {"BNS", "IPC", "ITA"} <= pretending.acts


@pytest.mark.parametrize("question", [
    "My elderly parents are being neglected by my brother who took their pension. Can they claim maintenance?",
    "Our old father was left alone at a bus stand by my brother on purpose. What punishment can my brother get?",
    "Where can an elderly widow file an application for maintenance against her son?",
    "My aged mother transferred her flat to my brother and now he has thrown her out. Can it be cancelled?",
])  # fmt: skip
def test_an_elderly_parent_is_the_senior_citizen_of_the_statute(question: str) -> None:
    """The Senior Citizens Act's own term (s.2(h)) for what a client calls an elderly or old parent."""
    assert TERMS.expand(question).endswith("senior citizen.")
    assert "senior citizen" not in TERMS.expand("An old friend cheated me of Rs 2 lakh. What can I do?")


def test_a_gloss_of_one_criminal_code_applies_to_the_code_it_replaced(tmp_path: Path) -> None:
    """An offence before 2024-07-01 is searched in the IPC: the BNS's word for it ("snatching", BNS 304) still
    applies, as the BNSS's does to the CrPC and the BSA's to the Evidence Act."""
    terms = _load(tmp_path, '{"terms": ["snatched"], "expansion": "theft is snatching", "evidence": "BNS 304"}',
                  '{"terms": ["undertrial"], "expansion": "undertrial prisoner", "evidence": "BNSS 479"}')
    assert "snatching" in terms.expand("In 2023 two men snatched her chain.", acts={"IPC"})
    assert "undertrial prisoner" in terms.expand("He is an undertrial since 2022.", acts={"CRPC"})
    assert terms.expand("Two men snatched her chain.", acts={"MVA"}) == "Two men snatched her chain."


@pytest.mark.parametrize("question", [
    # none of these is a question of an evaluation set
    "A drunk driver ran his SUV into our tea stall and killed my uncle last week. What case will be made out?",
    "My brother was killed in a hit-and-run near the highway toll plaza in 2025. What offence?",
    "A truck ran over my neighbour's son outside the school and he died. Which section applies?",
])
def test_a_death_on_the_road_is_told_in_the_statutes_words_for_negligence(question: str) -> None:
    expanded = TERMS.expand(question)
    assert "not amounting to culpable homicide" in expanded
    assert "intention of causing death" not in expanded


@pytest.mark.parametrize("question", [
    # none of these is a question of an evaluation set
    "A speeding biker knocked my mother down at the signal and she got a fractured hip. What offence?",
    "The auto driver was driving rashly and my son was injured when it overturned. What can we file?",
])
def test_a_hurt_on_the_road_is_told_in_the_statutes_words_for_endangering_life(question: str) -> None:
    expanded = TERMS.expand(question)
    assert "endanger human life or the personal safety of others" in expanded
    assert "intention of causing death" not in expanded


@pytest.mark.parametrize(("question", "demand"), [
    # none of these is a question of an evaluation set. DPA s.2: dowry is property given or agreed to be given "at or
    # before or any time after the marriage", so a demand by the husband or his family after the wedding is one too
    ("Two years after the wedding my husband's family started demanding cash for his business. What can I do?", True),
    ("My mother-in-law keeps asking for a car and says my parents gave too little dowry. Which law applies?", True),
    ("The groom's side is demanding a car before the engagement. Is that legal?", True),
    # no marriage in the story: a car or cash demanded is no dowry
    ("The car dealer is demanding cash for the registration. Is that legal?", False),
])  # fmt: skip
def test_a_demand_by_the_husbands_family_after_the_wedding_is_a_dowry_demand(question: str, demand: bool) -> None:
    assert ("penalty for demanding dowry" in TERMS.expand(question)) is demand


def test_a_dowry_case_named_in_an_arrest_question_is_no_dowry_demand() -> None:
    # found by review: "husband" beside "a dowry case" made a procedure question a dowry-demand story
    question = ("My husband was arrested in August 2024 in a dowry case without any notice. Doesn't the law require a "
                "notice first?")
    assert "penalty for demanding dowry" not in TERMS.expand(question)


@pytest.mark.parametrize(("question", "offence"), [
    # none of these is a question of an evaluation set: what a charge sheet or an FIR cites is an offence
    ("The robbery was in May 2024. Which section should the charge sheet mention?", True),
    ("Which section would the FIR mention for a chain snatching last month?", True),
    ("What section did the FIR name for the assault on my father?", True),
    # which section an application is made under is not
    ("Which section should I file my maintenance application under?", False),
    # found by review: what the police must follow is procedure
    ("Which provision should the police follow before arresting a woman at night?", False),
    ("Which section must the police comply with when arresting someone?", False),
])  # fmt: skip
def test_what_a_charge_sheet_or_an_fir_cites_is_an_offence(question: str, offence: bool) -> None:
    assert asks_offence(question) is offence

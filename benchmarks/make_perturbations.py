"""Build ``tests/data/aligner_perturbations.jsonl``: labelled claims against real statute passages.

Every evidence passage is a real chunk of the shipped corpus, made the way the retrieval index
makes them (India Code text for BNS, BNSS, BSA, HMA and the NI Act, the legacy JSON for the IPC,
read by ``ingestion`` and cut by ``legal_rag.retrieval.chunking``). For each source sentence the
script writes:

* ``supported`` claims: a rule-based paraphrase (clauses reordered, "Whoever ... shall be punished"
  turned into "Anyone who ... is punishable" / "The punishment for ... is", legal phrases swapped
  for plain ones, numbers written as digits or words) and the same paraphrase introduced by its
  correct citation ("Under Section 318(4) of the BNS, ...");
* ``contradicted`` claims: one number, duration or fine changed; a negation inserted or removed;
  "shall" and "may" swapped; the citation's section number swapped for another section of the same
  Act that is not in the evidence; the citation's Act swapped (BNS -> BNSS, ...);
* ``unsupported`` claims: the paraphrase of a sentence from another provision, against this
  evidence.

On top of that, hand-written paraphrases, contradictions and plausible-but-unaddressed claims for
well-known provisions (``HAND``). The perturbation and paraphrase rules live in ``finetune/perturb.py``
(the fine-tuning dataset builder uses the same copy); they use their own regular expressions, not the
aligner's parser, so that the set can catch what the parser misses. Deterministic: a fixed
seed and sorted inputs. Run:

    .venv/bin/python benchmarks/make_perturbations.py [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingestion.sources.indiacode import act_codes_for_catalog, read_fulltext  # noqa: E402
from ingestion.sources.legacy import read_legacy  # noqa: E402
from legal_rag.retrieval.chunking import SectionText, chunk_section  # noqa: E402
from legal_rag.retrieval.types import Chunk  # noqa: E402
from verification.claims.perturb import (  # noqa: E402  (the rules live in the product; this script assembles the set)
    change_number,
    flip_negation,
    paraphrase,
    swap_modal,
)
from verification.claims.perturb import clean_sentence as _clean  # noqa: E402
from verification.claims.perturb import features as _features  # noqa: E402
from verification.claims.perturb import finish as _finish  # noqa: E402
from verification.claims.perturb import flat as _flat  # noqa: E402
from verification.claims.perturb import lexical as _lexical  # noqa: E402
from verification.claims.perturb import lower_first as _lower_first  # noqa: E402

CORPUS = ROOT / "data" / "corpus"
OUT = ROOT / "tests" / "data" / "aligner_perturbations.jsonl"
SEED = 20240701
ACTS = ("BNS", "BNSS", "BSA", "HMA", "NIA", "IPC")
PER_ACT = {"BNS": 24, "BNSS": 18, "BSA": 8, "HMA": 7, "NIA": 7, "IPC": 12}
DISTRACTORS = 4  # five passages per claim, as the workflow re-retrieves (WorkflowSettings.claim_k)

ACT_NAMES = {
    "BNS": ("BNS", "the Bharatiya Nyaya Sanhita", "the Bharatiya Nyaya Sanhita, 2023"),
    "BNSS": ("BNSS", "the Bharatiya Nagarik Suraksha Sanhita", "the BNSS"),
    "BSA": ("BSA", "the Bharatiya Sakshya Adhiniyam", "the Bharatiya Sakshya Adhiniyam, 2023"),
    "HMA": ("the Hindu Marriage Act", "the Hindu Marriage Act, 1955"),
    "NIA": ("the Negotiable Instruments Act", "the NI Act", "the Negotiable Instruments Act, 1881"),
    "IPC": ("IPC", "the Indian Penal Code", "the IPC"),
}
# The Act a misattributed claim names instead (a plausible confusion, not a random one).
SWAP_ACT = {"BNS": "BNSS", "BNSS": "BNS", "BSA": "BNSS", "HMA": "SMA", "NIA": "ICA", "IPC": "CRPC"}
SWAP_NAMES = {"BNSS": "the Bharatiya Nagarik Suraksha Sanhita", "BNS": "the Bharatiya Nyaya Sanhita",
              "SMA": "the Special Marriage Act, 1954", "ICA": "the Indian Contract Act, 1872",
              "CRPC": "the Code of Criminal Procedure"}  # fmt: skip

# -- reading the corpus ----------------------------------------------------------------------------


def load_chunks() -> dict[str, Chunk]:
    """Every chunk of the six Acts, by id, exactly as the index would cut them."""
    rows = [json.loads(line) for line in (CORPUS / "indiacode" / "acts_catalog.jsonl").open(encoding="utf-8")]
    parsed = read_fulltext(CORPUS / "indiacode" / "sections_fulltext_subset.jsonl", act_codes_for_catalog(rows))
    sections = [s for s in parsed.sections if s.act in ACTS] + read_legacy(CORPUS / "legacy" / "ipc.json").sections
    out: dict[str, Chunk] = {}
    for s in sections:
        if not s.text:
            continue
        for c in chunk_section(SectionText.of(s)):
            out[c.id] = c
    return out


def evidence_row(c: Chunk) -> dict[str, str]:
    return {"chunk_id": c.id, "act": c.act, "section": c.section, "heading": c.heading, "text": c.text}


def label_of(c: Chunk) -> str:
    """ "318(4)" for BNS:318:4:0, "35(1)(b)" for BNSS:35:1/b:0."""
    return c.section + "".join(f"({p})" for p in c.sub.split("/")) if c.sub else c.section



def cite(text: str, act: str, label: str, rng: random.Random, names: tuple[str, ...] | None = None) -> str:
    name = rng.choice(names or ACT_NAMES[act])
    form = rng.randrange(3)
    body = _lower_first(text)
    if form == 0:
        return f"Under Section {label} of {name}, {body}"
    if form == 1:
        return f"Section {label} of {name} provides that {body}"
    return f"As per Section {label} {name}, {body}" if name.isupper() else f"As per Section {label} of {name}, {body}"


# -- hand-written claims -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Hand:
    chunk: str
    supported: tuple[str, ...] = ()
    contradicted: tuple[tuple[str, str], ...] = ()
    """(kind, claim)"""
    unsupported: tuple[str, ...] = ()


HAND = (
    Hand("BNS:103:1:0",
         ("Murder is punishable with death or life imprisonment, and the murderer is also liable to pay a fine.",
          "The punishment for murder under the BNS is either death or imprisonment for life, together with a fine.",
          "Under Section 103(1) of the Bharatiya Nyaya Sanhita, a person who commits murder faces death or "
          "imprisonment for life and a fine."),
         (("modality", "A person who commits murder may be punished with death or imprisonment for life."),
          ("negation", "Murder is not punishable with death under the BNS."),
          ("section_swap", "Under Section 101 BNS, murder is punishable with death or imprisonment for life.")),
         ("A person convicted of murder is not eligible for parole for the first twenty years of the sentence.",)),
    Hand("BNS:318:4:0",
         ("Cheating that dishonestly induces the victim to deliver property, or to make or destroy a valuable "
          "security, carries imprisonment of either description of up to seven years and a fine.",
          "The maximum sentence for cheating and dishonestly inducing delivery of property is seven years' "
          "imprisonment, and the offender is also liable to a fine."),
         (("number", "Cheating and dishonestly inducing delivery of property is punishable with imprisonment of up "
                     "to ten years and a fine."),
          ("number", "Cheating and dishonestly inducing delivery of property attracts a minimum sentence of seven "
                     "years."),
          ("act_swap", "Under Section 318(4) of the BNSS, cheating and dishonestly inducing delivery of property "
                       "carries up to seven years and a fine.")),
         ("Cheating is a compoundable offence that the victim can settle out of court.",)),
    Hand("BNS:318:2:0",
         ("Simple cheating carries up to three years in prison, a fine, or both.",),
         (("number", "Simple cheating carries up to five years in prison, a fine, or both."),)),
    Hand("BNS:303:2:0",
         ("Theft is punishable with up to three years' imprisonment, a fine, or both.",
          "A second or later conviction for theft attracts rigorous imprisonment of at least one year and up to "
          "five years, together with a fine."),
         (("number", "A second or later conviction for theft attracts rigorous imprisonment of at least two years "
                     "and up to five years, together with a fine."),
          ("number", "Theft is punishable with up to seven years' imprisonment, a fine, or both.")),
         ("Theft of electricity is punishable under this provision with a fine of one lakh rupees.",)),
    Hand("BNS:64:1:0",
         ("Rape, outside the aggravated cases of sub-section (2), carries rigorous imprisonment for at least ten "
          "years, which may extend to life imprisonment, and a fine.",),
         (("number", "Rape carries rigorous imprisonment for at least seven years, which may extend to life "
                     "imprisonment, and a fine."),
          ("number", "Rape is punishable with rigorous imprisonment of up to ten years and a fine.")),
         ("A rape trial must be held in camera before a woman judge.",)),
    Hand("BNS:80:2:0",
         ("The sentence for dowry death is a minimum of seven years' imprisonment and may go up to life "
          "imprisonment.",),
         (("number", "Dowry death carries imprisonment of not less than ten years, which may extend to life."),),
         ("Dowry death is a non-bailable offence triable by a Court of Session.",)),
    Hand("BNS:80:1:0",
         ("When a woman dies of burns or bodily injury, or in abnormal circumstances, within seven years of her "
          "marriage, after being subjected to cruelty or harassment for dowry by her husband or his relatives soon "
          "before her death, the death is called a dowry death and the husband or relative is deemed to have "
          "caused it.",),
         (("number", "A woman's unnatural death within ten years of marriage, after dowry harassment by her husband "
                     "or his relatives soon before her death, is called a dowry death."),)),
    Hand("BNS:85:-:0",
         ("A husband or a relative of the husband who subjects a woman to cruelty faces imprisonment of up to "
          "three years and is also liable to a fine.",),
         (("number", "A husband who subjects his wife to cruelty faces imprisonment of up to seven years and a "
                     "fine."),
          ("negation", "A husband who subjects his wife to cruelty is not liable to a fine.")),
         ("Cruelty by a husband is a bailable and non-cognizable offence.",)),
    Hand("BNS:20:-:0",
         ("Acts done by a child below seven years of age are not offences.",
          "A child under the age of seven cannot commit an offence."),
         (("negation", "An act done by a child under seven years of age is an offence."),
          ("number", "Nothing done by a child under twelve years of age is an offence.")),
         ("A child between seven and twelve years of age is presumed to lack the maturity to commit an offence.",)),
    Hand("BNS:115:2:0",
         ("Voluntarily causing hurt is punishable with imprisonment of up to one year, a fine of up to ten "
          "thousand rupees, or both.",
          "For voluntarily causing hurt, the court can impose up to 1 year of imprisonment or a fine not "
          "exceeding Rs. 10,000, or both."),
         (("number", "Voluntarily causing hurt is punishable with imprisonment of up to one year, a fine of up to "
                     "five thousand rupees, or both."),
          ("number", "Voluntarily causing hurt is punishable with imprisonment of up to three years or a fine, or "
                     "both.")),
         ("Hurt caused by a public servant in the discharge of his duty is exempt from punishment.",)),
    Hand("BNS:117:2:0",
         ("Voluntarily causing grievous hurt is punishable with up to seven years of imprisonment of either "
          "description and a fine.",),
         (("number", "Voluntarily causing grievous hurt is punishable with up to ten years of imprisonment and a "
                     "fine."),)),
    Hand("BNS:309:4:0",
         ("Robbery is punishable with rigorous imprisonment of up to ten years and a fine; if committed on a "
          "highway between sunset and sunrise, the term can go up to fourteen years.",),
         (("number", "Robbery committed on a highway between sunset and sunrise is punishable with imprisonment of "
                     "up to twenty years."),),
         ("Robbery committed by a person armed with a deadly weapon is punishable with death.",)),
    Hand("BNS:351:2:0",
         ("Criminal intimidation carries imprisonment of up to two years, or a fine, or both.",),
         (("number", "Criminal intimidation carries imprisonment of up to five years, or a fine, or both."),)),
    Hand("BNS:356:2:0",
         ("Defamation is punishable with simple imprisonment of up to two years, a fine, both, or community "
          "service.",),
         (("number", "Defamation is punishable with simple imprisonment of up to three years, a fine, or both."),)),
    Hand("BNSS:480:6:0",
         ("If the trial of a person accused of a non-bailable offence before a Magistrate is not finished within "
          "sixty days from the first date fixed for evidence, an accused who has been in custody throughout must "
          "be released on bail, unless the Magistrate records reasons for directing otherwise.",),
         (("number", "An accused in custody must be released on bail if a Magistrate's trial for a non-bailable "
                     "offence is not concluded within ninety days from the first date fixed for evidence."),
          ("modality", "An accused in custody may be released on bail if a Magistrate's trial for a non-bailable "
                       "offence is not concluded within sixty days from the first date fixed for taking evidence.")),
         ("Bail granted because the trial was delayed requires the accused to furnish two sureties.",)),
    Hand("BNSS:187:3:0",
         ("Detention during investigation cannot exceed ninety days in total where the offence is punishable "
          "with death, life imprisonment or imprisonment of ten years or more, and sixty days for other "
          "offences.",),
         (("number", "Detention during investigation cannot exceed one hundred and eighty days in total where the "
                     "offence is punishable with death or imprisonment for life."),)),
    Hand("NIA:138:b:0",
         ("The payee must send the drawer a written notice demanding payment within thirty days of learning from "
          "the bank that the cheque was returned unpaid.",),
         (("number", "The payee must send the drawer a written notice demanding payment within fifteen days of "
                     "learning from the bank that the cheque was returned unpaid."),),
         ("The notice demanding payment of a dishonoured cheque must be sent by registered post.",)),
    Hand("NIA:138:c:0",
         ("The offence is made out only if the drawer fails to pay the amount to the payee within fifteen days "
          "of receiving the notice.",),
         (("number", "The drawer has thirty days from receiving the notice to pay the cheque amount."),)),
    Hand("NIA:138:a:0",
         ("The cheque must have been presented to the bank within six months of the date on which it was drawn, "
          "or within its period of validity, whichever is earlier.",),
         (("number", "The cheque must have been presented to the bank within three months of the date on which it "
                     "was drawn."),)),
    Hand("NIA:138:-:0",
         ("When a cheque is returned unpaid because the account has insufficient funds, the drawer is deemed to "
          "have committed an offence punishable with imprisonment of up to two years, or a fine of up to twice "
          "the cheque amount, or both.",),
         (("number", "Dishonour of a cheque for insufficient funds is punishable with imprisonment of up to three "
                     "years, or a fine of up to twice the cheque amount, or both."),
          ("number", "Dishonour of a cheque for insufficient funds is punishable with a fine of up to three times "
                     "the amount of the cheque.")),
         ("A complaint for dishonour of a cheque must be filed within one month of the cause of action.",)),
    Hand("HMA:13B:1:0",
         ("Spouses can jointly petition the district court for divorce by mutual consent if they have lived "
          "separately for one year or more, cannot live together, and have agreed that the marriage should be "
          "dissolved.",),
         (("number", "Spouses can jointly petition the district court for divorce by mutual consent if they have "
                     "lived separately for two years or more."),),
         ("The waiting period for a divorce by mutual consent can be waived by the court.",)),
    Hand("HMA:13B:2:0",
         ("The joint motion for a divorce by mutual consent can be made no earlier than six months and no later "
          "than eighteen months after the petition is presented.",),
         (("number", "The joint motion for a divorce by mutual consent can be made no earlier than three months "
                     "after the petition is presented."),)),
    Hand("HMA:5:iii:0",
         ("For a valid Hindu marriage, the bridegroom must be at least twenty-one years old and the bride at "
          "least eighteen at the time of the marriage.",),
         (("number", "For a valid Hindu marriage, the bride must have completed the age of sixteen years."),),
         ("A Hindu marriage solemnised in breach of the age condition is void.",)),
    Hand("HMA:13:1/ib:0",
         ("Desertion of the petitioner for a continuous period of at least two years immediately before the "
          "petition is a ground for divorce.",),
         (("number", "Desertion of the petitioner for a continuous period of at least three years immediately "
                     "before the petition is a ground for divorce."),)),
    Hand("BNSS:173:2:0",
         ("The informant or the victim must be given a copy of the recorded information immediately and free of "
          "charge.",),
         (("modality", "The informant may be given a copy of the recorded information."),
          ("negation", "A copy of the recorded information shall not be given to the victim.")),
         ("The first information report must be registered within twenty-four hours of the complaint.",)),
    Hand("BNSS:35:7:0",
         ("Where the offence carries less than three years' imprisonment and the person is infirm or over sixty "
          "years old, an arrest needs the previous permission of an officer of at least the rank of Deputy "
          "Superintendent of Police.",),
         (("number", "Where the offence carries less than three years' imprisonment and the person is over seventy "
                     "years old, an arrest needs the permission of a Deputy Superintendent of Police."),
          ("negation", "An arrest may be made without prior permission even if the person is above sixty years of "
                       "age.")),
         ("A woman may not be arrested after sunset and before sunrise except in exceptional circumstances.",)),
    Hand("IPC:302:-:0",
         ("Under Section 302 IPC, murder was punishable with death or life imprisonment, along with a fine.",),
         (("act_swap", "Under Section 302 of the Code of Criminal Procedure, murder is punishable with death or "
                       "imprisonment for life."),)),
    Hand("IPC:420:-:0",
         ("Section 420 of the Indian Penal Code punished cheating and dishonestly inducing delivery of property "
          "with imprisonment of up to seven years and a fine.",),
         (("section_swap", "Section 415 of the Indian Penal Code punished cheating and dishonestly inducing delivery "
                           "of property with imprisonment of up to seven years and a fine."),)),
    Hand("IPC:379:-:0",
         ("Theft under Section 379 IPC was punishable with up to three years' imprisonment, a fine, or both.",),
         (("number", "Theft under Section 379 IPC was punishable with up to five years' imprisonment."),)),
    Hand("IPC:498A:-:0",
         ("Under Section 498A IPC, cruelty to a woman by her husband or his relatives was punishable with "
          "imprisonment for up to three years and a fine.",),
         (("number", "Under Section 498A IPC, cruelty to a woman by her husband was punishable with imprisonment "
                     "for up to seven years."),)),
)  # fmt: skip


# Free-form claims written as an answer generator would write them, after the aligner's rules were
# settled (a first, untuned look at paraphrase and contradiction it had not seen): (evidence chunks, the
# first being the one the claim is about; label; kind; claim). Several are beyond a lexical aligner
# ("a mandatory death sentence" against "death or imprisonment for life") and stay in the set as such.
FREE: tuple[tuple[tuple[str, ...], str, str, str], ...] = (
    (('BNSS:173:2:0',), "supported", "free_paraphrase",
     'Under Section 173(2) of the BNSS, the police must give a copy of the FIR to the informant or victim '
     'free of cost immediately.'),
    (('BNSS:35:1:0', 'BNSS:35:1/a:0'), "supported", "free_paraphrase",
     'The BNSS allows a police officer to arrest without a warrant a person who commits a cognizable '
     'offence in his presence.'),
    (('NIA:142:1:0',), "supported", "free_paraphrase",
     'A court can take cognizance of a cheque dishonour offence under section 138 only upon a written '
     'complaint by the payee or holder in due course.'),
    (('NIA:138:-:0',), "supported", "free_paraphrase",
     'Section 138 of the NI Act makes the dishonour of a cheque for insufficient funds an offence '
     "punishable with up to two years' imprisonment or a fine up to twice the cheque amount."),
    (('HMA:13B:2:0',), "supported", "free_paraphrase",
     'Under Section 13B(2) HMA, the court shall pass a decree of divorce if the motion is made between six'
     ' and eighteen months after the petition and the court is satisfied that the averments are true.'),
    (('BNS:303:2:0',), "supported", "free_paraphrase",
     'The punishment for theft is imprisonment up to three years, or fine, or both; a repeat offender '
     'faces rigorous imprisonment from one to five years.'),
    (('BNS:2:3:0',), "supported", "free_paraphrase",
     'A child is any person below the age of eighteen years.'),
    (('BSA:63:1:0',), "supported", "free_paraphrase",
     'Under the BSA, an electronic record is treated as a document and is admissible in evidence without '
     'further proof, if the conditions in Section 63 are met.'),
    (('BNSS:187:2:0',), "supported", "free_paraphrase",
     'The Magistrate may authorise detention of the accused in custody for a maximum of fifteen days at a '
     'time.'),
    (('BNSS:187:9:0',), "supported", "free_paraphrase",
     'The investigation in a summons case must be stopped if not concluded within six months from the '
     'arrest, unless the officer shows special reasons.'),
    (('BNSS:187:4:0',), "supported", "free_paraphrase",
     'No Magistrate can authorise police custody unless the accused is produced before him in person.'),
    (('BNSS:187:4:0',), "supported", "free_paraphrase",
     'A Magistrate may authorise police custody only if the accused is produced before him in person.'),
    (('HMA:5:iii:0',), "supported", "free_paraphrase",
     'The minimum marriageable age under the Hindu Marriage Act is 21 for the groom and 18 for the bride.'),
    (('BNS:64:1:0',), "supported", "free_paraphrase",
     'Rape is punishable with rigorous imprisonment for not less than ten years, extendable to life '
     'imprisonment, and fine.'),
    (('BNS:80:1:0',), "supported", "free_paraphrase",
     'When a woman dies within seven years of marriage in suspicious circumstances after dowry harassment '
     'by her husband, it is treated as a dowry death.'),
    (('BNS:309:6:0',), "supported", "free_paraphrase",
     'If hurt is caused during a robbery, each person jointly concerned can be given life imprisonment or '
     'rigorous imprisonment up to ten years, plus fine.'),
    (('BNS:316:5:0',), "supported", "free_paraphrase",
     'Criminal breach of trust by a public servant or banker carries life imprisonment or up to ten years '
     'and a fine.'),
    (('BNS:20:-:0',), "supported", "free_paraphrase",
     'Children below seven are completely exempt from criminal liability under the BNS.'),
    (('BNSS:480:1:0', 'BNSS:480:1/i:0'), "supported", "free_paraphrase",
     'A person accused of a non-bailable offence may be released on bail, but not if there are reasonable '
     'grounds to believe he is guilty of an offence punishable with death or life imprisonment.'),
    (('BNSS:479:1:0',), "supported", "free_paraphrase",
     'An undertrial who has been detained for up to half of the maximum sentence for the offence shall be '
     'released on bail by the court.'),
    (('BNSS:479:1:0',), "supported", "free_paraphrase",
     'A first-time offender must be released on bond after undergoing one-third of the maximum period of '
     'imprisonment.'),
    (('BNSS:35:3:0',), "supported", "free_paraphrase",
     'Where arrest is not required, the police officer shall issue a notice to the person to appear before'
     ' him.'),
    (('BNSS:35:5:0',), "supported", "free_paraphrase",
     'A person who complies with the notice shall not be arrested for that offence unless the officer '
     'records reasons that he ought to be arrested.'),
    (('BNSS:35:5:0',), "supported", "free_paraphrase",
     'A person who complies with the notice cannot be arrested for the offence mentioned in it, except for'
     ' recorded reasons.'),
    (('IPC:302:-:0',), "supported", "free_paraphrase",
     'Section 302 IPC prescribed death or imprisonment for life for murder.'),
    (('BNS:85:-:0',), "supported", "free_paraphrase",
     'Cruelty by the husband or his relatives is punishable with a jail term of up to 3 years plus fine.'),
    (('BNS:318:4:0',), "supported", "free_paraphrase",
     'Cheating with dishonest inducement to deliver property is punishable with a maximum of seven years '
     'and a fine.'),
    (('BNS:115:2:0',), "supported", "free_paraphrase",
     'Causing hurt voluntarily carries up to a year in jail or a fine of Rs 10,000 or both.'),
    (('BNS:303:2:0',), "contradicted", "free_number",
     'Under BNS 303(2), theft is punishable with imprisonment of up to five years.'),
    (('BNS:103:1:0',), "contradicted", "free_semantic",
     'Murder under the BNS carries a mandatory death sentence.'),
    (('NIA:138:a:0',), "contradicted", "free_number",
     'A cheque must be presented to the bank within three months of its date.'),
    (('NIA:138:c:0',), "contradicted", "free_number",
     'The drawer gets thirty days after receiving the notice to make the payment.'),
    (('BNSS:35:1/c:0',), "contradicted", "free_number",
     'The police may arrest without warrant on credible information of a cognizable offence punishable '
     'with more than ten years.'),
    (('BNSS:173:2:0',), "contradicted", "free_semantic",
     'The informant is given a copy of the recorded information on payment of a fee.'),
    (('BNSS:187:5:0',), "contradicted", "free_negation",
     'A Magistrate of the second class may authorise detention in police custody.'),
    (('BNSS:187:4:0',), "contradicted", "free_negation",
     'Detention in police custody can be authorised even if the accused is not produced before the '
     'Magistrate.'),
    (('HMA:13B:1:0',), "contradicted", "free_number",
     'Divorce by mutual consent requires the spouses to have lived apart for at least two years.'),
    (('BNS:80:2:0',), "contradicted", "free_number",
     'Dowry death is punishable with imprisonment of at least five years.'),
    (('BNS:117:2:0',), "contradicted", "free_term",
     'Voluntarily causing grievous hurt is punishable with up to seven years, or fine, or both.'),
    (('BNS:309:4:0',), "contradicted", "free_term",
     'Robbery is punishable with simple imprisonment of up to ten years.'),
    (('BNS:107:-:0',), "contradicted", "free_modality",
     'Abetment of suicide of a child may be punished with death.'),
    (('BNS:64:1:0',), "contradicted", "free_act_swap",
     'Under Section 64 BNSS, rape is punishable with at least ten years of rigorous imprisonment.'),
    (('BNS:318:4:0',), "contradicted", "free_section_swap",
     'Section 420 BNS deals with cheating and dishonestly inducing delivery of property.'),
    (('BNS:318:4:0',), "contradicted", "free_act_swap",
     'Under the IPC, cheating and dishonestly inducing delivery of property is punishable with up to seven'
     ' years.'),
    (('BNSS:35:7:0',), "contradicted", "free_semantic",
     'A woman cannot be arrested without prior permission if the offence carries less than three years.'),
    (('BNSS:480:6:0',), "contradicted", "free_negation",
     'The Court shall not release the accused on bail if the trial is not concluded within sixty days.'),
    (('BNSS:173:1:0',), "contradicted", "free_modality",
     'Every information about a cognizable offence must be given in writing to the officer in charge of a '
     'police station.'),
    (('BNS:303:2:0',), "contradicted", "free_number",
     'A repeat theft conviction carries rigorous imprisonment of not less than two years.'),
    (('BNS:351:3:0',), "contradicted", "free_number",
     'Criminal intimidation by threatening to cause death is punishable with up to ten years.'),
    (('BNS:356:2:0',), "contradicted", "free_semantic",
     'Defamation carries simple imprisonment of up to two years, fine, or both, but not community service.'),
    (('HMA:5:iii:0',), "contradicted", "free_number",
     'Under the Hindu Marriage Act the bride must have completed twenty-one years of age.'),
    (('BNS:2:3:0',), "contradicted", "free_number",
     'A child means any person below the age of sixteen years.'),
    (('BNSS:479:1:0',), "contradicted", "free_semantic",
     'An undertrial must be released on bail after serving one-third of the maximum sentence, whatever his'
     ' record.'),
)  # fmt: skip


# -- assembling ----------------------------------------------------------------------------------------



def _eligible(c: Chunk) -> bool:
    text = _clean(c.text)
    words = len(text.split())
    return (c.part == 0 and 12 <= words <= 70 and not re.search(r"Illustration|Explanation|Provided|Omitted|\[|:|—",
                                                                 text)
            and text[:1].isupper() and bool(_features(text)))  # fmt: skip


def choose_sources(chunks: dict[str, Chunk], rng: random.Random) -> list[Chunk]:
    hand = {h.chunk for h in HAND}
    out: list[Chunk] = []
    for act in ACTS:
        pool = sorted((c for c in chunks.values() if c.act == act and _eligible(c) and c.id not in hand),
                      key=lambda c: c.id)  # fmt: skip
        rng.shuffle(pool)
        seen_sections: set[str] = set()
        for c in pool:
            if c.section in seen_sections:
                continue
            seen_sections.add(c.section)
            out.append(c)
            if len(seen_sections) >= PER_ACT[act]:
                break
    return out


class Builder:
    def __init__(self, chunks: dict[str, Chunk], rng: random.Random) -> None:
        self.chunks = chunks
        self.rng = rng
        self.rows: list[dict[str, object]] = []
        self.by_act: dict[str, list[Chunk]] = {}
        for c in sorted(chunks.values(), key=lambda c: c.id):
            if c.part == 0 and len(c.text.split()) >= 8:
                self.by_act.setdefault(c.act, []).append(c)

    def evidence(self, source: Chunk, avoid: set[str]) -> list[dict[str, str]]:
        """The source chunk and distractors from other sections of the same Act, shuffled."""
        pool = [c for c in self.by_act[source.act] if c.section != source.section and c.section not in avoid]
        picked = [source, *self.rng.sample(pool, DISTRACTORS)]
        self.rng.shuffle(picked)
        return [evidence_row(c) for c in picked]

    def add(
        self,
        claim: str,
        label: str,
        kind: str,
        source: Chunk,
        avoid: set[str] = frozenset(),
        also: tuple[Chunk, ...] = (),
    ) -> None:
        evidence = self.evidence(source, avoid | {c.section for c in also})
        evidence += [evidence_row(c) for c in also]
        self.rows.append({"id": f"{len(self.rows):04d}", "claim": claim, "label": label, "kind": kind,
                          "source": source.id, "evidence": evidence})  # fmt: skip

    def other_section(self, c: Chunk) -> str:
        numbers = sorted({x.section for x in self.by_act[c.act] if x.section != c.section},
                         key=lambda s: (abs(_num(s) - _num(c.section)), s))  # fmt: skip
        return self.rng.choice(numbers[:6])


def _num(section: str) -> int:
    m = re.match(r"\d+", section)
    return int(m.group(0)) if m else 0


def build(chunks: dict[str, Chunk]) -> list[dict[str, object]]:
    rng = random.Random(SEED)
    b = Builder(chunks, rng)
    sources = choose_sources(chunks, rng)
    paraphrases = {c.id: paraphrase(c.text, rng) for c in sources}
    # A paraphrase the rules could not reword would test the verbatim rule, not paraphrase: drop its source.
    sources = [c for c in sources if _flat(paraphrases[c.id]) != _flat(_clean(c.text))]
    for c in sources:
        text = _clean(c.text)
        para = paraphrases[c.id]
        b.add(para, "supported", "paraphrase", c)
        label = label_of(c)
        b.add(cite(para, c.act, label, rng), "supported", "cited_paraphrase", c)
        feats = sorted(_features(text))
        # Perturb the paraphrase where the feature survived paraphrasing, else the source sentence.
        for kind in feats:
            fn = {"number": lambda t, c=c: change_number(t, c.text, rng), "negation": lambda t: flip_negation(t, rng),
                  "modality": lambda t: swap_modal(t, rng)}[kind]  # fmt: skip
            claim = fn(para) or fn(_finish(_lexical(text, rng)))
            if claim and claim not in (para, text):
                b.add(claim, "contradicted", kind, c)
        if rng.random() < 0.6:
            other = b.other_section(c)
            sub = label[len(c.section) :]
            b.add(cite(para, c.act, other + sub, rng), "contradicted", "section_swap", c, {other})
        else:
            swapped = SWAP_ACT[c.act]
            b.add(cite(para, c.act, label, rng, (SWAP_NAMES[swapped],)), "contradicted", "act_swap", c)
        # An unsupported claim: another provision's paraphrase (a different section) against this evidence.
        others = [o for o in sources if o.section != c.section or o.act != c.act]
        o = rng.choice(others)
        b.add(paraphrases[o.id], "unsupported", "other_provision", c, {o.section} if o.act == c.act else set())
    for h in HAND:
        c = chunks[h.chunk]
        for claim in h.supported:
            b.add(claim, "supported", "hand_paraphrase", c)
        for kind, claim in h.contradicted:
            avoid = set(re.findall(r"Section (\d+\w*)", claim))
            b.add(claim, "contradicted", kind, c, avoid)
        for claim in h.unsupported:
            b.add(claim, "unsupported", "hand_unaddressed", c)
    for ids, label, kind, claim in FREE:
        avoid = set(re.findall(r"Section (\d+\w*)", claim))
        b.add(claim, label, kind, chunks[ids[0]], avoid, tuple(chunks[i] for i in ids[1:]))
    return b.rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rows = build(load_chunks())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    labels = Counter(str(r["label"]) for r in rows)
    kinds = Counter(str(r["kind"]) for r in rows)
    print(f"{len(rows)} claims -> {args.out}: {dict(labels)}; {dict(sorted(kinds.items()))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

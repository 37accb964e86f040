"""What a question says, read once: ``QuestionFacts``, made by the ``understand`` step right after classification
and read by every later step (retrieval, generation, verification, confidence). Nothing downstream re-reads the
question for its dates, its asks or its premises.

- Dates (``dates.read_dates``: a maintained parser over every form people write, each date attached to the event
  it dates): the day an offence was committed before 2024-07-01 (the IPC governs it: BNS 358(2)) and the day
  proceedings pending on that day began (the CrPC and the Evidence Act keep governing them: BNSS 531(2)(a), BSA
  170(2)); the date the user set (``as_of``, today by default) is the day of the facts the question does not date.
- Asks: each part of the question (``parts.question_parts``) and what it wants (``AskKind``): a punishment, the
  ingredients, a time limit, a court or forum, a procedure, a remedy, a definition, a comparison, whether a
  provision is still law, or which code governs.
- Premises: provisions the question rests on that are not law today and have no successor (IPC 497, adultery,
  struck down in Joseph Shine), named by number or by the offence's statutory name (the section's own heading in
  the graph: a general mechanism over the graph's records, not a list of phrases). The answer says so first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from enum import StrEnum

from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE as CUTOVER
from graph_schema.model import CitationKey
from legal_rag.workflow.amounts import sums_in
from legal_rag.workflow.date_spans import told_by_date_before
from legal_rag.workflow.dates import (
    BIGAMY,
    DatedEvent,
    EventKind,
    goes_on,
    offence_day,
    pending_since,
    read_dates,
    tells_death,
)
from legal_rag.workflow.dates import (
    CUTOVER as _CUTOVER_DAY,
)
from legal_rag.workflow.mixups import OLD_CODES, NumberMixup
from legal_rag.workflow.parts import question_parts
from legal_rag.workflow.personal_law import PersonalLaw, read_personal_law
from legal_rag.workflow.transition import named_pending
from verification.model import CitationCheck, CitationStatus, Label

__all__ = ["Ask", "AskKind", "Lapsed", "Premise", "QuestionFacts", "ask_kinds", "read_facts"]


class AskKind(StrEnum):
    PUNISHMENT = "punishment"
    INGREDIENTS = "ingredients"
    TIME_LIMIT = "time-limit"
    FORUM = "forum"
    PROCEDURE = "procedure"
    REMEDY = "remedy"
    DEFINITION = "definition"
    COMPARISON = "comparison"
    STILL_LAW = "still-law"
    WHICH_CODE = "which-code"
    TEXT = "text"
    """What a named provision says (a lookup)."""
    CASE_LAW = "case-law"
    """What a court held: statutes do not say (the tool quotes statutes only)."""
    OPINION = "opinion"
    """A prediction or a judgement of people ("which judge is most lenient", "what are my chances"): no statute
    says."""
    RECORD = "record"
    """A fact of a particular matter or person that only its record holds ("What did the investigating officer write
    about me in the case diary?", "Does my neighbour have any criminal cases pending?"): no statute says."""
    RATE = "rate"
    """A fee, a duty's rate or a figure set by notification ("the court fee for a suit", "the stamp duty percentage
    in Mumbai", "the RTI application fee", "the limit after the latest notification"): rules, notifications and
    State laws fix them, not the central Acts the graph holds."""


OUTSIDE_STATUTES = frozenset({AskKind.CASE_LAW, AskKind.OPINION, AskKind.RECORD, AskKind.RATE})
"""Asks no statute answers: an answer quoting statutes to them is at best background, never High."""


_PERSON = (r"(?:my|the|our|this|that|his|her)\s+(?:[\w'-]+\s+){0,3}?(?:neighbou?r|tenant|landlord|employer|employee|"
           r"husband|wife|boyfriend|girlfriend|fianc[\w\u00e9]*|groom|bride|partner|driver|maid|servant|candidate|guy|man|"
           r"woman|person|builder|son-in-law|daughter-in-law)")
"""A particular person of the teller's story ("my new neighbour", "my daughter's fiance")."""
_RECORDED = r"(?:criminal\s+)?(?:cases?|FIRs?|records?|convictions?|complaints?)\b(?!\s+(?:under|of)\b)"
"""What only a record shows of a person: cases, FIRs, a criminal record (not "cases under section 138" in general)."""
_OLD_NAMES = r"IPC|CrPC|Cr\.\s?P\.\s?C\.?|IEA|Indian\s+Penal\s+Code|Evidence\s+Act|Code\s+of\s+Criminal\s+Procedure"
_NEW_NAMES = r"BNS|BNSS|BSA|Bharatiya\s+\w+\s+\w+|Sakshya\s+Adhiniyam|Nyaya\s+Sanhita|Nagarik\s+Suraksha\s+Sanhita"
"""The codes replaced on 2024-07-01 and their successors, as a question names them ("the Evidence Act or the new
Sakshya Adhiniyam?")."""
_NUMBER = r"(?:(?:section|sec\.?|s\.)\s*)?(?:\d{1,3}[A-Z]{0,2}(?:\(\w+\))*\s+)?"
"""A section written before the code's name ("376 IPC or 64 BNS?")."""
_SECTION = r"(?:(?:section|sec\.?|s\.)\s*)?\d{1,3}[A-Z]{0,2}(?:\(\w+\))*"
"""A section written after the code's name ("IPC 302 or BNS 103?")."""

# What an ask wants, from the words that ask for it. Order does not matter: an ask may want several things
# ("punishment and is it bailable"). Each pattern names the request, not the subject ("fine" as a penalty, not
# "fine print").
_KINDS: tuple[tuple[AskKind, re.Pattern[str]], ...] = tuple((k, re.compile(p, re.IGNORECASE)) for k, p in (
    (AskKind.PUNISHMENT, r"\b(?:punish\w*|penalt\w*|sentenc\w*|jail|prison|imprisonment|how\s+many\s+years|"
                         r"maximum\s+fine|saza|(?:what|how\s+much)\s+fine|"
                         # "What's the most he can get?", "the most the driver could get for it?"; not "the most she can
                         # get as maintenance"
                         r"(?:the\s+)?most\s+(?:he|she|they|one|someone|the\s+\w+)\s+(?:can|could|will|would|may|"
                         r"might)\s+get"
                         r"(?=\s*(?:[?.!]|$|for\s+(?:it|this|that|doing\s+(?:it|this|that)|the\s+(?:offen[cs]e|"
                         r"crime)))))"),
    (AskKind.INGREDIENTS, r"\b(?:ingredients?|essentials?|elements?|what\s+must\s+(?:be\s+)?prov\w*|"
                          r"what\s+(?:makes|amounts\s+to|constitutes)|when\s+is\s+\w+(?:\s+\w+)?\s+(?:guilty|"
                          r"liable))\b"),
    (AskKind.TIME_LIMIT, r"\b(?:time\s*-?\s*limit|within\s+(?:how|what)|limitation|how\s+long|how\s+many\s+(?:days|"
                         r"months)|deadlines?|last\s+date|time\s+(?:to|for)\s+(?:file|appeal|apply)|"
                         r"period\s+(?:of|for)|"
                         r"too\s+late|time\s*-?\s*barred|"
                         # whether it is too soon to bring it ("Can a Hindu couple file for divorce this early?")
                         r"(?:this|too|so)\s+(?:early|soon)|how\s+early|waiting\s+period|minimum\s+period|"
                         r"barred\s+by\s+(?:time|limitation)|delay\w*|how\s+soon|by\s+when|"
                         # "can I still sue after three years?": whether time has run out
                         r"still\b[^?.]{0,60}?\bafter\s+(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|"
                         r"several|many|so\s+many)\s+(?:years?|months?|weeks?|days?)(?!\s+of\b)|"
                         r"(?:years?|months?)\s+later)\b"),
    (AskKind.FORUM, r"\b(?:(?:which\s+(?:[\w-]+(?:'s|\u2019s)?\s+){0,2}?|what\s+)courts?\b"
                    r"(?!(?:'s|\u2019s)?\s+(?:fees?|orders?|judg\w*|decision|held|said|ruled|decided))|"
                    r"where\s+(?:can|should|do|does|to|will|must)\b|forum|"
                    r"jurisdiction|tribunal|commission|which\s+authority|before\s+whom|who\s+(?:can\s+)?tr(?:y|ies)|"
                    r"tried\s+by|triable|"
                    # where a matter is tried ("Where is a case of possession of heroin tried?"), not where the law
                    # says something ("Where is it stated that a chargesheet must be filed ...?")
                    r"where\s+(?:is|are|was|were)\s+(?:(?:a|an|the|my|his|her|our|their|such|these|those)\s+)?"
                    r"(?:\w+\s+){0,2}?(?:cases?|complaints?|appeals?|petitions?|suits?|applications?|matters?|"
                    r"trials?|disputes?|claims?|pleas?)\b[^?.]{0,60}?\b(?:tried|heard|filed|decided|instituted)\b|"
                    # "can I file the complaint in my own city?": the place of filing
                    r"(?:file|sue|lodge|complain|complaint|case|petition)\b[^?.]{0,40}?\b(?:in|at|from)\s+"
                    r"(?:my|our|his|her|their)\s+(?:own\s+|home\s+)?(?:city|town|district|state|village)|"
                    # "can I file it in Kochi itself, or do I have to go to Bangalore?": which of two places, a place
                    # being a name ("go to jail", "go to court", "my complaint at Andheri itself was rejected" are not)
                    r"(?:file|sue|lodge|complain)\b[^?.]{0,40}?\b(?:in|at)\s+(?-i:[A-Z][a-z]+)\s+itself|"
                    r"(?:have|need)\s+to\s+(?:go|travel)\s+(?:all\s+the\s+way\s+)?to\s+\w+\s+(?:to\s+)?"
                    r"(?:file|sue|lodge|complain)|(?:file|sue|lodge|complain|case)\b[^?]{0,60}?\bor\s+(?:do|must|"
                    r"should)\s+"
                    r"(?:i|we|he|she|they)\s+(?:have\s+to\s+)?(?:go|travel)\s+to\s+(?-i:[A-Z][a-z]+)|"
                    # "can she file the divorce petition in Lucknow?": whether the case can be brought in that place
                    r"can\s+(?:i|we|he|she|they|(?:my|our|her|his|the)\s+[\w-]+)\s+(?:file|sue|lodge|institute|bring|"
                    r"register)\b[^?.]{0,50}?\b(?:in|at)\s+(?-i:(?!(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|"
                    r"Nov|Dec|"
                    r"Mon|Tue|Wed|Thu|Fri|Sat|Sun|Form|Person|Writing|Hindi|English|Urdu|Marathi|Tamil|Telugu|Bengali|"
                    r"Gujarati|Kannada|Malayalam|Punjabi|Odia|Assamese|Excel|Word)[a-z]*\b)[A-Z][a-z]+)|"
                    # whether a court hears the matter at all ("Can the Bhopal magistrate hear it?", "Can a family
                    # court in Pune entertain the petition?"), not how it does ("Can the court hear my witness?")
                    r"(?:can|could|will|may|does|do|has|have)\s+(?:the|a|an|this|that)\s+(?:[\w-]+\s+){0,3}?"
                    r"(?:court|magistrate|judge|tribunal|commission|forum|bench)\s+(?:\w+\s+){0,3}?"
                    r"(?:hear|try|entertain|take\s+up)\s+(?:it|this|that|the\s+(?:case|matter|"
                    r"complaint|petition|application|suit|appeal|dispute)|(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:case|"
                    r"matter|complaint|petition|application|suit|appeal|dispute))\b(?!\s+(?:if|when|after|before|under|without|"
                    r"in\s+the\s+absence)\b))\b"),
    (AskKind.PROCEDURE, r"\b(?:procedure|process|steps?|how\s+(?:to|do|does|can|is)|bail\w*|cogni[sz]able|"
                        r"compoundable|arrest\w*|FIR|investigat\w*|charge\s*-?sheet|summons|warrant|custody)\b"),
    (AskKind.REMEDY, r"\b(?:remed\w*|what\s+can\s+(?:i|we|he|she|they|my\s+client)\s+do|options?|relief|"
                     r"compensation|claim|recover\w*|sue|refund|file\s+a\s+(?:case|complaint|suit|petition)|"
                     r"action\s+can|legal\s+action|what\s+(?:case|complaint)|which\s+law\s+covers)\b"),
    (AskKind.DEFINITION, r"\b(?:defin\w*|meaning\s+of|what\s+is\s+meant|"
                         r"what\s+does\s+[\"'\u201c]?\w+[\"'\u201d]?\s+mean|who\s+is\s+an?\b|"
                         r"(?:who|what)\s+(?:counts?|qualif(?:y|ies)|(?:is|are)\s+(?:treated|considered|regarded))\s+"
                         r"as\b|"
                         # whether someone or something falls within a quoted word
                         r"(?:does|do)\s+[\"'\u2018\u201c][^\"'\u2019\u201d]{2,40}[\"'\u2019\u201d]\s+(?:mean|include|cover)|"
                         r"(?:am\s+i|are\s+(?:we|they)|is\s+(?:he|she|it|this|that|(?:my|our|his|her|the)\s+\w+))\s+"
                         r"(?:an?\s+|the\s+)?[\"'\u2018\u201c]\w)"),
    (AskKind.COMPARISON, r"\b(?:compar\w*|differ\w*|chang\w*|vs\.?|versus|old\s+and\s+(?:the\s+)?new|"
                         r"how\s+has|distinguish)\b"),
    (AskKind.STILL_LAW, r"\b(?:still\s+(?:an?\s+)?(?:offence|crime|law|valid|in\s+force|punishable|illegal|legal)|"
                        r"no\s+longer|abolish\w*|struck\s+down|decriminali[sz]\w*|in\s+force|repealed|valid\s+law)\b"),
    (AskKind.WHICH_CODE, r"\b(?:which\s+(?:law|code|act|statute)s?\s+(?:applies|appl(?:y|ies)|will\s+\w+|would\s+\w+|"
                         r"governs?|decides?|is\s+applicable|should\s+\w+)|"
                         r"(?:tried|charged|prosecuted|booked|registered|governed|decided|dealt\s+with|framed|filed|"
                         r"lodged)\s+under\s+(?:the\s+)?(?:IPC|BNS|CrPC|BNSS|BSA|IEA|Evidence\s+Act|old|new)|"
                         rf"(?:{_OLD_NAMES})(?:\s+{_SECTION})?\s+or\s+(?:under\s+)?(?:the\s+)?(?:new\s+)?{_NUMBER}"
                         rf"(?:of\s+(?:the\s+)?)?(?:{_NEW_NAMES})|"
                         rf"(?:{_NEW_NAMES})(?:\s+{_SECTION})?\s+or\s+(?:under\s+)?(?:the\s+)?(?:old\s+)?{_NUMBER}"
                         rf"(?:of\s+(?:the\s+)?)?(?:{_OLD_NAMES})|"
                         # which code a court or the police will go by ("will the judge apply the BNS?", "should the
                         # magistrate follow the old CrPC?")
                         # (a code so named for the case, not one of its procedures: "Can the police follow the BNSS
                         # procedure for a zero FIR?")
                         r"(?:will|would|should|shall|does|do|must|can|could)\s+(?:the\s+)?(?:trial\s+|sessions\s+|"
                         r"high\s+)?(?:judge|court|magistrate|police|prosecution|bench|prosecutor)\s+(?:now\s+|still\s+)?"
                         r"(?:apply|follow|go\s+by|proceed\s+under|decide\s+(?:it\s+)?under)\s+(?:the\s+)?"
                         rf"(?:(?:old|new)\s+)?(?:{_OLD_NAMES}|{_NEW_NAMES}|(?:old|new)\s+(?:criminal\s+)?(?:laws?|codes?))"
                         r"\b(?!\s+(?:procedure|presumption|provisions?|sections?|rules?|powers?|forms?|\d|s\.))|"
                         r"old\s+(?:or|law|code)|new\s+(?:or|law|code)s?\s+appl\w*|"
                         # which code's section a step should carry ("Should the charge sheet now say BNS 318?")
                         r"(?:should|must|will|would|can|could|do|does)\s+(?:the|my|our|his|her|their|this|that)\s+"
                         r"(?:charge\s*-?sheet|chargesheet|FIR|complaint|charges?|police\s+report|application|petition|"
                         r"notice|summons|warrant)\s+(?:now\s+)?(?:say|mention|"
                         r"cite|quote|show|use|invoke|carry|state)\s+(?:the\s+)?(?:new\s+|old\s+)?"
                         r"(?:sections?\s+|s\.\s*)?"
                         r"(?:\d{1,3}[A-Z]{0,2}\s+)?(?:of\s+(?:the\s+)?)?(?:IPC|BNS|CrPC|BNSS|BSA|IEA)|"
                         # the other code's section put as the right one ("The chargesheet says 305 BNS. Shouldn't it
                         # be 380 IPC?", "Isn't it section 420 of the IPC?")
                         r"(?:shouldn'?t|should\s+(?:it|this|that|the\s+\w+)\s+not|isn'?t|wouldn'?t|won'?t)\s+"
                         r"(?:it|this|that|they|the\s+(?:charges?|sections?|offen[cs]e))\s+(?:(?:have\s+)?been\s+"
                         r"|be\s+)?(?:(?:booked|charged|framed)\s+)?(?:under\s+)?(?:the\s+)?"
                         r"(?:old\s+|new\s+)?(?:sections?\s+|s\.\s*)?(?:\d{1,3}[A-Z]{0,2}\s+)?(?:of\s+(?:the\s+)?)?"
                         r"(?:IPC|BNS)\s*\?)"),
    (AskKind.TEXT, r"\b(?:what\s+does\s+.{0,60}?\b(?:say|provide|state)|text\s+of|bare\s+(?:text|act)|read\s+out|"
                   r"kya\s+hai)\b"),
    (AskKind.CASE_LAW, r"\b(?:(?:which|what|any|landmark|leading|recent|latest)\s+(?:\w+\s+)?judge?ments?|"
                       r"(?:court|bench|judge)s?\s+(?:has\s+|have\s+)?(?:held|hold|ruled|rule|decided|decide|said|say)|"
                       r"(?:held|ruled|decided)\s+in|case\s+laws?|precedents?|landmark\s+(?:case|judgment|ruling)|"
                       r"ratio\s+(?:decidendi|of)|which\s+case\s+(?:held|decided|laid))\b"),
    (AskKind.OPINION, r"\b(?:chances?\s+of|"
                      # how probable an outcome is: no statute gives odds ("What are the odds that the MACT will give
                      # us 50 lakh?", "how likely is an acquittal")
                      # not a statute's own test ("likelihood of confusion" of a trade mark, "of death")
                      r"(?:the|what\s+are\s+(?:the|my|our))\s+odds\b|(?:probability|likelihood)\s+(?:of\s+(?:[\w']+\s+)"
                      r"{0,3}?(?:winning|win|success|succeeding|conviction|acquittal|getting|granting|going\s+to\s+jail|"
                      r"being\s+(?:granted|convicted|acquitted|released|arrested)|bail|relief|a\s+favou?rable)\b|that\s+"
                      r"(?:i|we|he|she|they|my|our|his|her|the\s+(?:court|judge|tribunal|commission|magistrate))\b)|"
                      r"how\s+likely\s+(?:is|are|am|will|would)\b|"
                      # a lawyer's fee, what a court usually takes, what someone will really do: no statute says
                      # ("how much does a good criminal lawyer charge")
                      r"how\s+much\s+(?:will|would|does|do|should|might|can)\s+(?:a|an|the|my|our|his|her)\s+"
                      r"(?:[\w-]+\s+){0,3}?(?:lawyer|advocate|counsel|vakil)\s+(?:charge|cost|take|ask)|(?:lawyer|advocate|counsel)'?s?\s+"
                      r"(?:fees?|charges)|on\s+(?:an\s+)?average|do\s+you\s+think|in\s+your\s+(?:opinion|view)|"
                      r"how\s+long\s+(?:does|do|did)\s+(?:a|an|the|such|these|my|our)\s+(?:[\w-]+\s+){0,3}?(?:cases?|"
                      r"trials?|matters?|suits?|appeals?|complaints?|petitions?)\s+(?:\w+\s+){0,3}?"
                      r"(?:usually\s+|normally\s+|generally\s+|typically\s+)?take|"
                      r"(?:usually|normally|generally|typically)\s+take|"
                      r"will\s+(?:he|she|they|(?:my|her|his|the)\s+[\w-]+)\s+(?:actually|really|ever)\s+(?:pay|comply|"
                      r"return|give|obey|come|appear|attend|stop|change|listen|refund|repay|agree|settle|turn\s+up|"
                      r"show\s+up)\b|"
                      r"what\s+are\s+(?:the|my|his|her|our|their)\s+chances|"
                      r"(?:likely|sure)\s+to\s+(?:win|succeed|get|be\s+granted)|"
                      # the adviser's own choice ("What would you do in my place?", "if you were me")
                      r"what\s+would\s+you\s+do|in\s+my\s+(?:place|shoes)|if\s+you\s+were\s+me|"
                      r"most\s+(?:lenient|strict|liberal|favourable|favorable|successful)|(?:strictest|best|top)\s+"
                      r"(?:\w+\s+)?(?:lawyer|advocate|judge|court|bench)|which\s+(?:judge|lawyer|advocate|bench)|"
                      # a choice the client must make ("should I accept the offer or keep fighting?")
                      r"should\s+(?:i|we)\s+(?:accept|take)\s+(?:it|(?:the|this|that|their|his|her)\s+(?:offer|"
                      r"settlement|deal|"
                      r"refund|amount|money|compromise))\b|"
                      # a choice between courses only the client can weigh ("Should I settle with my brother or fight
                      # the case?")
                      r"should\s+(?:i|we)\s+(?:settle|compromise|fight|forgive|wait|give\s+up|withdraw|continue)\b"
                      r"[^?]{0,60}?\bor\b|"
                      r"how\s+long\s+will\s+(?:it|the\s+(?:case|trial|court))|will\s+(?:i|we|he|she)\s+win|"
                      # how much more time a matter will in fact take ("how many more months will it take", "how much
                      # longer will my case go on"); not how long the law lets a step last ("how much longer can the
                      # police keep him?")
                      # (not what the law gives: "How many more days will the court give me to file my written
                      # statement?")
                      r"how\s+(?:many\s+more\s+(?:years|months|weeks|days|dates|hearings)|much\s+(?:longer|more\s+time)|"
                      r"long\s+more)\s+(?:will|would)\s+(?:it|this|that|(?:the|my|our|his|her)\s+(?:[\w-]+\s+)?"
                      r"(?:case|trial|matter|suit|appeal|petition|proceedings?|hearing|divorce|court|judge|bench))\b"
                      r"(?!\s+(?:give|allow|grant|let|have|get)\b)|"
                      # an outcome asked as a certainty ("will I definitely get custody?", "will he surely be
                      # convicted?"): no statute promises one; not what the law makes certain ("Will he definitely
                      # be released on default bail if ...?", "Will he necessarily be tried by a Sessions Court?")
                      r"will\s+(?:i|we|he|she|they|(?:my|our|his|her)\s+[\w-]+)\s+(?:definitely|surely|certainly|"
                      r"for\s+sure|100\s*%)\s+(?:win|lose|get\s+(?:the\s+)?(?:custody|divorce|relief|compensation|"
                      r"justice|property|house|money|share|decree|case)|be\s+(?:convicted|acquitted|jailed|punished|"
                      r"sent\s+to\s+jail))\b|"
                      r"(?:is|are)\s+(?:it|the\s+\w+)\s+(?:guaranteed|certain)\s+that\b|"
                      # how long a court will in fact take ("How many months will the High Court take to decide my
                      # appeal?", "How long will my divorce case actually take?")
                      r"how\s+many\s+(?:years|months|weeks|days)\s+will\s+(?:the\s+)?(?:high\s+court|supreme\s+court|"
                      r"HC|SC|court|family\s+court|tribunal|commission|judge)\s+take|how\s+(?:long|many\s+\w+)\s+(?:will|does|do|would)\s+"
                      r"[^?]{0,60}?\b(?:actually|really|realistically|practically)\s+take|"
                      # what another party will choose to do or means to ("Will the company appeal against the order?",
                      # "Is my landlord planning to sell the building?"): no statute says
                      r"will\s+(?:the|my|our|his|her|their)\s+(?:[\w-]+\s+){0,2}?(?:company|landlord|tenant|employer|"
                      r"builder|bank|insurer|neighbou?r|opposite\s+party|other\s+side|seller|buyer|developer|"
                      r"in-?laws?)\s+(?:really\s+|actually\s+|ever\s+)?(?:appeal|sell|agree|settle|challenge|contest|"
                      r"object|accept|come\s+back|go\s+to\s+court)\b|"
                      r"(?:is|are)\s+(?:the|my|our|his|her|their)\s+(?:[\w-]+\s+){0,2}?(?:planning|intending|plotting)"
                      r"\s+to\b|"
                      # how long this court will take ("how many years will my cheque bounce case take to finish?")
                      r"how\s+(?:long|many\s+(?:years|months|days|weeks))\s+will\s+(?:it|(?:my|our|his|her|the|this)"
                      r"\s+(?:\w+\s+){0,3}?(?:case|trial|matter|appeal|suit|petition))\s+take|"
                      # what this court will do in this case ("will the sessions judge grant him bail?"), not under
                      # which law it will ("will the court decide it under the CrPC or the BNSS?")
                      r"will\s+the\s+(?:\w+\s+)?(?:judge|court|magistrate|tribunal|commission|bench)\s+(?:\w+\s+){0,5}?"
                      r"(?:give|grant|allow|accept|reject|refuse|award|convict|acquit|release|send|let)\s+(?:him|her|"
                      r"them|me|us|my|the\s+accused|bail|(?:(?:it|this|that)|the\s+(?:bail|plea|application|petition|appeal|prayer|"
                      r"relief))(?=\s*(?:\?|$|\s+or\s+not\b|\s+(?:on|next|tomorrow|today|this\s+(?:week|month|time))\b)))\b|"
                      r"how\s+(?:many|much)\s+(?:more\s+)?(?:months|years|days|weeks|time)\s+(?:till|until|before|"
                      r"for|to)\s+(?:the\s+|a\s+)?(?:judge?ment|verdict|decision|disposal|final\s+order)|"
                      r"when\s+will\s+(?:the\s+|my\s+)?(?:judge?ment|verdict|case|trial)\s+(?:come|end|be\s+decided|"
                      r"finish)|"
                      # the sum a court will award: the statutes give heads and caps, the amount is the court's
                      r"how\s+much\s+(?:compensation|damages|alimony|maintenance|money)\s+(?:will|would|might)\s+"
                      r"(?:the\s+)?(?:court|tribunal|commission|judge|mact|magistrate)\s+(?:award|grant|give|order|"
                      r"fix|allow)|"
                      # what a higher court will make of a sentence ("will they reduce it to 10 years?"), not what a
                      # law does ("will they increase the punishment for repeat offenders?", "will it reduce my
                      # sentence if I plead guilty?")
                      r"will\s+(?:they|the\s+(?:\w+\s+)?(?:court|judge|bench|tribunal|commission))\s+(?:really\s+|"
                      r"actually\s+)?(?:reduce|enhance|increase|commute|cut|lower|set\s+aside|overturn|uphold|quash)\s+"
                      r"(?:it\b|(?:his|her|my|their|the)\s+(?:life\s+|death\s+)?(?:sentence|conviction|jail\s+term|"
                      r"term)\b))"),
    (AskKind.RECORD, r"\b(?:"
                     # what someone wrote or said in this matter ("What did the investigating officer write about me
                     # in the case diary?"), not what a law says
                     r"what\s+(?:did|has|have|had)\s+(?:the|my|our|his|her|their)\s+(?:[\w-]+\s+){0,2}?(?:officer|IO|"
                     r"police(?:man|men)?|SHO|inspector|judge|magistrate|doctor|witness(?:es)?|complainant|"
                     r"opposite\s+party|other\s+side|lawyer|advocate)\s+(?:\w+\s+)?(?:write|written|wrote|say|said|"
                     r"record|recorded|note|noted|mention|mentioned|state|stated|tell|told)\s+(?:about|against|on|"
                     r"regarding|in)\b|"
                     # whether a particular person has cases or a record ("Can you check whether my new neighbour has
                     # any criminal cases pending against him?", "Does my tenant have a criminal record?"), not a
                     # condition on one ("Can I get a divorce if my husband has criminal cases pending?")
                     rf"(?:whether|(?:know|check|find\s+out|tell\s+(?:me|us)|see)\s+if)\s+{_PERSON}\s+"
                     r"(?:(?:in|from|of|at)\s+(?:[\w-]+\s+){1,3}?)?(?:has|have|had)\s+(?:got\s+)?(?:any\s+|an?\s+)?"
                     rf"{_RECORDED}|"
                     rf"(?:^|[.?!]\s+)(?:does|do|has|have)\s+{_PERSON}\s+(?:have\s+|got\s+)?(?:any\s+|an?\s+)?"
                     rf"{_RECORDED}(?![^?]*\b(?:if|can|could|may|will|should|would)\b))"),
    (AskKind.RATE, r"\b(?:(?:how\s+much|what(?:'s|\s+is|\s+are|\s+will\s+be))\s+(?:(?!fine|penalty|punishment)"
                   r"[\w-]+\s+){0,4}?(?:fees?|stamp\s+duty|duty\s+rates?)|(?:fees?|stamp\s+duty|"
                   r"duty)\s+(?:\w+\s+){0,2}?"
                   r"(?:percentage|rate|slab)s?|(?:latest|recent|new|current)\s+(?:\w+\s+)?(?:notifications?|"
                   r"circulars?))\b"),
))  # fmt: skip


_SENTENCES = re.compile(r"(?<!\b[A-Z])(?<!\.[A-Z])(?<=[.?!])\s+(?=[A-Z\"'\u201c(])|(?<=[?!])\s+")
"""Where a sentence ends: after a word's last letter, not inside an abbreviation ("Cr.P.C. or the BNSS?")."""


_CONFIRM = re.compile(
    # a statement put to the reader to be confirmed: "..., right?", "- is that true?", "correct?", "isn't it?"
    r"(?:^|[,\-\u2013\u2014:;]|[.!?]\s)\s*(?:right|correct|true|no|na|naa|isn'?t\s+it|is\s+it\s+not|hai\s+na|"
    r"na\s+hai)\s*\?"
    r"|\bis\s+(?:that|this|it)\s+(?:true|correct|right|so)\b\s*\?"
    r"|\b(?:am\s+i|are\s+we)\s+(?:right|correct)(?:\s+in\s+(?:thinking|saying|believing)\s+(?:so|this|that))?\s*\?"
    r"|\btrue\s+or\s+(?:false|not)\s*\?*\s*$",
    re.IGNORECASE)
_OF_LAW = re.compile(r"\b(?:sections?|s\.\s*\d|u/s|acts?|laws?|codes?|rules?|BNSS?|BSA|IPC|CrPC|non-?bailable|"
                     r"bailable|punishable|offen[cs]es?|crimes?|legal|illegal|void|valid|invalid|limitation|"
                     r"time\s+limit|mandatory|compulsory)\b", re.IGNORECASE)
"""Words of the law: a statement put to be confirmed is one about the law only when it holds one ("He took my phone
without asking. Is it right?" asks whether conduct is lawful, and asserts nothing about the law)."""
_QUALITY = (r"(?:non-?bailable|bailable|(?:non-?)?cognizable|(?:non-?)?compoundable|punishable|"
            r"an?\s+(?:[\w-]+\s+){0,2}?(?:offen[cs]e|crime)|legal|illegal|lawful|unlawful|void|voidable|valid|invalid|"
            r"compulsory|mandatory|time-?barred|abolished|decriminali[sz]ed|prohibited|banned)")
"""A legal quality a premise gives a thing ("is non-bailable", "is a cognizable offence", "to be valid"); not that a law
was repealed or struck down, which the checks of the provision named say (and "Since the IPC is repealed, which BNS
section applies?" rests on a true premise)."""
_PREMISED = re.compile(
    # a ruling on the law the ask rests on, told as given: "Since cheque bounce under 138 is non-bailable, ...",
    # "Now that marital rape is punishable under section 63 BNS, ...", "Since a will has to be registered to be
    # valid", "Since there is no limitation period for consumer complaints"; not "As per section 138 ...", "As a
    # law student", "Since the offence happened in March 2024" (a date), "Since I cannot pay the rent" (a fact)
    rf"(?:^|[.!?]\s+)(?:since|now\s+that|given\s+that|as(?!\s+(?:per|an?)\b))\s+(?:[^,?.]{{0,120}}?\b(?:is|are|was|"
    rf"were|has\s+been|have\s+been|becomes?|to\s+be)\s+(?:(?:now|not|no\s+longer|still|always|never|also)\s+)?"
    rf"{_QUALITY}\b|[^,?.]{{0,80}}?\bmakes?\s+[^,?.]{{0,60}}?\b(?:an?\s+(?:\w+\s+)?)?(?:offen[cs]e|crime|"
    rf"punishable|illegal|void)\b|there\s+is\s+no\s+(?:\w+\s+){{0,2}}?(?:limitation|time\s+limit|bar|need\s+(?:of|for|to))\b)"
    rf"[^?.]{{0,120}}[,?]"
    # an Act told as letting or requiring something before the ask: "The RTI Act lets me ...", "The new BNSS lets
    # police keep ..."; not "Under which section ..."
    rf"|(?:^|[.!?]\s+)(?:the\s+(?:new\s+)?(?:(?-i:[A-Z])[\w()]*\s+){{0,6}}?(?:Act|Code|Sanhita|Adhiniyam|BNSS|BNS|"
    rf"BSA|IPC|CrPC|law|rules?)|under\s+(?!which\b|what\b)(?:the\s+)?[^,?.]{{0,40}}?{_OF_LAW.pattern}[^,?.]{{0,60}}?)"
    rf"\s+(?:lets|allows|permits|makes|requires|gives|bars|prohibits)\b",
    re.IGNORECASE)
"""A premise about the law stated as given before the ask: a clause opening "since/as/now that" that gives something a
legal quality or says there is no limitation, or an Act said to let, allow or require something."""


_RULE = re.compile(rf"{_OF_LAW.pattern}|\b(?:can|cannot|can'?t|may|must|need\s+not|needn'?t|has\s+to|have\s+to|"
                   r"shall|entitled|allowed|required|liable|never\s+be|"
                   # what the law gives or sets: a relief, a forum, a period
                   r"bail|divorce|maintenance|custody|share|FIR|magistrate|court|police|talaq|will|stamp\s+duty|"
                   r"registration|\d+\s*(?:hours?|days?|weeks?|months?|years?|%|per\s*cent))\b", re.IGNORECASE)
"""What a statement of the law says: the law's words, or what one may, must or can do ("Police can keep a woman in
the lock-up overnight, right?")."""


def _confirmed_statement(question: str, at: int) -> str:
    """The statement a confirmation at ``at`` asks about: its sentence before it, or the sentence before that when
    the confirmation stands alone ("The limit is 30 days. Is that correct?")."""
    before = question[:at]
    ends = [m.end() for m in re.finditer(r"[.!?]+\s+", before)]
    own = before[ends[-1]:] if ends else before
    if len(re.findall(r"\w+", own)) >= 4 or len(ends) < 1:
        return own
    return before[(ends[-2] if len(ends) > 1 else 0):]


def asserts_law(question: str) -> bool:
    """The question takes something about the law as given: it puts a statement of the law to be confirmed ("...,
    right?", "is that true?") or builds its ask on a ruling told as fact ("Since cheque bounce is non-bailable, can I
    ...?"). The offline answer quotes what the law says, not whether the statement holds, so such an answer is
    never High (``confidence.ASSERTED_CAP``) and says so; this is so also when the statement is right."""
    if _PREMISED.search(question):
        return True
    return any(_RULE.search(_confirmed_statement(question, m.start())) for m in _CONFIRM.finditer(question))


def ask_kinds(ask: str) -> tuple[AskKind, ...]:
    """What one ask wants, in ``AskKind`` order, read from its asking sentences (those ending in "?", else the
    last), not from the facts told before them ("the FIR was lodged ... What is the punishment?" asks for a
    punishment, not a procedure); () when no request word says (the ask is answered by whatever governs it)."""
    asking = asking_text(ask)
    return tuple(k for k, pat in _KINDS if pat.search(asking))


def _asking_and_telling(text: str) -> tuple[list[str], list[str]]:
    """``text``'s sentences that ask (ending in "?") and those that tell."""
    sentences = [s for s in _SENTENCES.split(text.strip()) if s]
    asking = [s for s in sentences if s.rstrip().endswith("?")]
    return asking, [s for s in sentences if not s.rstrip().endswith("?")]


def asking_text(ask: str) -> str:
    """The sentences of an ask that ask (those ending in "?", else the last), without the facts told before them."""
    asking, telling = _asking_and_telling(ask)
    return " ".join(asking) or (telling[-1] if telling else "")


@dataclass(frozen=True, slots=True)
class Ask:
    text: str
    """The ask as written (with the facts told before it)."""
    kinds: tuple[AskKind, ...]


@dataclass(frozen=True, slots=True)
class Lapsed:
    """A provision that is not law today and has nothing in its place (the graph's ``no_successor`` record)."""

    act: str
    section: str
    title: str | None
    reason: str
    authority: str | None = None
    offence: bool = False
    """Its text made or punished an offence: only then can a question name it by its heading ("adultery")."""
    today: tuple[CitationKey, ...] = ()
    """The provisions (and units) that govern its subject now, though none replaced it (IPC 309: BNS 226,
    which punishes only an attempt to compel a public servant): quoted after the statement that it is not law."""


@dataclass(frozen=True, slots=True)
class Premise:
    """A provision the question rests on that is not law today, and how the question named it."""

    lapsed: Lapsed
    named_as: str
    """The words of the question that name it ("section 497 IPC", "adultery")."""
    checked: bool = False
    """Found not law by the check alone (no curated record): the graph may simply not hold what replaced it, so the
    answer says it is not law on the date, not that nothing replaced it."""

    def warning(self) -> str:
        """The warning that flags it, as the checker words a repealed provision ("IPC s.497 ... repealed")."""
        p = self.lapsed
        title = f" ({p.title.rstrip('.')})" if p.title else ""
        if self.checked:
            return f"{p.act} s.{p.section}{title} is not law on the date of the facts: {p.reason}"
        return f"{p.act} s.{p.section}{title} is not law today (repealed or struck down, no successor): {p.reason}"

    def statement(self) -> str:
        """One sentence for the top of the answer: what is not law, why, and on whose authority."""
        p = self.lapsed
        title = f" ({p.title.rstrip('.')})" if p.title else ""
        reason = p.reason.rstrip(".")
        authority = f" Authority: {p.authority.rstrip('.')}." if p.authority else ""
        if self.checked:
            return (f"The question rests on {p.act} s.{p.section}{title}, which is not law on the date of the facts: "
                    f"{reason}.{authority}")
        today = ""
        if p.today:
            listed = ", ".join(f"{k.act} s.{k.label}" for k in p.today)
            today = f" Quoted below for what governs its subject today: {listed}."
        return (f"The question rests on {p.act} s.{p.section}{title}, which is no longer law and has no successor: "
                f"{reason}.{authority}{today}")


@dataclass(frozen=True, slots=True)
class QuestionFacts:
    """Everything the workflow needs to know about the question, read once."""

    as_of: str
    """The day of the facts: the date the user set, or today."""
    dates: tuple[DatedEvent, ...] = ()
    """Every date the question writes, attached to the event it dates (``dates.read_dates``)."""
    offence_on: str | None = None
    """The day an offence was committed before 2024-07-01 in a matter after it (the IPC governs it)."""
    pending_since: str | None = None
    """The day proceedings began, when they were pending on 2024-07-01 (the CrPC governs them: BNSS 531(2)(a)).
    The old procedure and evidence codes are checked and retrieved as they stood on ``EVE``, not on that day."""
    closed_on: str | None = None
    """The day the matter the question tells was over, before 2024-07-01 (``closed_day``): read as of that day."""
    offence_by_story: bool = False
    """``offence_on`` is the story's date, not a date the question gives the offence itself (``story_day``)."""
    pending: bool = False
    """A matter that began before 2024-07-01 and is still being dealt with (the savings provisions govern it)."""
    asks: tuple[Ask, ...] = ()
    acts_named: tuple[str, ...] = ()
    provisions_named: tuple[tuple[str, str], ...] = ()
    """(Act code, provision label) of every provision the question cites."""
    premises: tuple[Premise, ...] = ()
    unknown_acts: tuple[str, ...] = ()
    """Acts the question names that match no Act of the statute graph, as written ("Digital Fraud Prevention Act
    2022"): one that does not exist, a State Act, one repealed before the graph's sources, a name the resolver does
    not know. Nothing can be checked against it, and the answer says so first."""
    mixups: tuple[NumberMixup, ...] = ()
    """Sections the question names whose number belongs, for the subject it describes, to the other code
    ("murder under section 302 BNS": IPC 302, now BNS 103)."""
    textless: tuple[tuple[str, str, str | None], ...] = ()
    """(Act code, section, heading) of the provisions the question names that the graph records but holds no text of
    (CrPC 41A, missing from the legacy source; a section of an Act held by its headings only, "section 9 of the POSH
    Act"): nothing can be quoted from them or checked against their words, and the answer says so first."""
    absent: tuple[str, ...] = ()
    """What the checker said of each section the question names that is not in an Act whose text the graph holds
    ("The Bharatiya Sakshya Adhiniyam, 2023 has no section 180 (its sections run to 170)"), save a number taken from
    the other code (``mixups`` says that)."""
    unconfirmed: tuple[str, ...] = ()
    """Sections the question cites ("BSA s.32") whose heading and text hold nothing of what it tells
    (``mixups.unconfirmed``): whether they fit its facts is not shown by quoting them."""
    sums: tuple[int, ...] = ()
    """The sums of money the question tells, in rupees (``amounts.sums_in``): "paid Rs 15 crore" decides the forum."""
    checks: tuple[CitationCheck, ...] = field(default=(), compare=False)
    """The question's citations, checked for the date (the offence's day for the penal codes)."""
    asserted: bool = False
    """The question takes something about the law as given and asks to have it confirmed or acts on it ("... is
    granted the same day, right?", "Since cheque bounce is non-bailable, can I ...": ``asserts_law``)."""
    personal_law: PersonalLaw = PersonalLaw()
    """The communities whose personal law the question tells ("We are Hindus"), or its civil marriage
    (``personal_law``)."""
    civil_evidence: bool = False
    """A civil matter pending since before 2024-07-01 (a suit, a divorce) whose question asks what may prove something:
    the Evidence Act governs it (BSA 170(2)), though no criminal procedure was pending (``civil_proceeding``)."""
    child_accused: bool = False
    """The one the story says was caught, arrested or accused is a child, under eighteen ("My 16 year old nephew was
    caught stealing a phone"): the Juvenile Justice Act decides what is done with a child in conflict with law (its
    s.1(4)), not the procedure for adults alone (``accuses_a_child``)."""

    @property
    def old_law_facts(self) -> bool:
        """The repealed codes govern some of the facts: the day of the facts, an offence or a pending matter."""
        return self.as_of < CUTOVER or self.offence_on is not None or self.pending

    def confused(self, check: CitationCheck) -> bool:
        """The question cites this provision by the other code's number (one of ``mixups``)."""
        return _main_key(check) in {(m.named.act, m.named.section) for m in self.mixups}

    def corrections(self) -> list[str]:
        """What the answer says first about the law the question rests on: Acts not found, provisions without text
        or not there, lapsed provisions, confused numbers."""
        return ([unknown_act_statement(a) for a in self.unknown_acts] + [textless_statement(*t) for t in self.textless]
                + [m if m.endswith(".") else f"{m}." for m in self.absent]
                + [p.statement() for p in self.premises] + [m.statement() for m in self.mixups])

    def rests_on_lapsed(self, check: CitationCheck) -> bool:
        """The question names this provision, and it is not law with nothing in its place (one of ``premises``)."""
        return _main_key(check) in {(p.lapsed.act, p.lapsed.section) for p in self.premises}

    def is_textless(self, check: CitationCheck) -> bool:
        """The question names this provision, and the graph holds no text of it (``textless``)."""
        return _main_key(check) in {(act, section) for act, section, _ in self.textless}

    def old_law_governs(self, act: str) -> bool:
        """The repealed code ``act`` governs these facts: the IPC an offence dated before 2024-07-01, the CrPC and
        the Evidence Act a matter pending on it; each, facts dated before it."""
        if self.as_of < CUTOVER:
            return True
        return self.offence_on is not None if act == "IPC" else self.pending_since is not None

    def asserted_unanswered(self) -> bool:
        """The question takes something about the law as given (``asserted``), and nothing the question names is
        corrected by the checks (a lapsed provision, a number of the other code, a repealed or unknown citation):
        the answer quotes the law without judging the statement."""
        return self.asserted and not self.premises and not self.mixups and all(
            c.status is CitationStatus.VERIFIED for c in self.checks if c.act and c.section)

    def outside_personal_law(self, act: str, section: str) -> bool:
        """A provision of another community's personal law than the one the question tells (``personal_law``), and
        of an Act the question does not name."""
        return act not in self.acts_named and self.personal_law.outside(act, section)

    def kinds(self) -> set[AskKind]:
        return {k for a in self.asks for k in a.kinds}

    def reading(self) -> list[str]:
        """How the question's dates were read, and which code that puts the matter under, for the top of the
        answer: a date misread is then seen at once ("Read from the question: the offence was committed in
        March 2023, before 2024-07-01: the IPC governs it (BNS s.358(2))")."""
        out = []
        if self.closed_on is not None:
            phrase = self._phrase_ending(self.closed_on)
            out.append(f"Read from the question: what it asks about was over {_when(phrase)}, before the new codes "
                       f"came into force on 2024-07-01, so the law is read as it stood on {self.closed_on}.")
        if self.offence_on is not None and self.offence_on == self.pending_since:
            out.append("Read from the question: the offence came before the proceedings for it, which began before "
                       "2024-07-01, so the IPC governs it (BNS s.358(2)).")
        elif self.offence_on is not None and self.offence_by_story:
            phrase = self._phrase_ending(self.offence_on)
            out.append(f"Read from the question: what it tells happened {_when(phrase)}, before the new codes came "
                       "into force on 2024-07-01; taken as the day of the offence, an offence under the penal code is "
                       "the IPC's (BNS s.358(2)). One committed on or after 2024-07-01 is the BNS's.")
        elif self.offence_on is not None:
            phrase = self._phrase_ending(self.offence_on, EventKind.OFFENCE)
            out.append(f"Read from the question: the offence was committed {_when(phrase)}, before the new codes "
                       "came into force on 2024-07-01, so the IPC governs it (BNS s.358(2)).")
        if self.pending_since is not None:
            phrase = next((_written(e) for e in self.dates if e.kind is EventKind.PROCEEDING and e.phrase
                           and self.pending_since in (e.start.isoformat(), e.end.isoformat())), self.pending_since)
            began = (f"have been pending {phrase}, so were pending" if phrase.lower().startswith("since")
                     else f"began {_when(phrase)} and were pending")
            out.append(f"Read from the question: the proceedings {began} on 2024-07-01, and the CrPC governs them "
                       "(BNSS s.531(2)(a)).")
        return out

    def _phrase_ending(self, day: str, kind: EventKind | None = None) -> str:
        """The date as the question wrote it ("March 2023") for an event (of ``kind``) ending on ``day``; else the
        ISO day."""
        return next((_written(e) for e in self.dates if e.phrase and (kind is None or e.kind is kind)
                     and e.end.isoformat() == day), day)  # fmt: skip


def _written(e: DatedEvent) -> str:
    """The date words of ``e`` as the question wrote them, or, for a time told by the date before it ("the same
    month"), the days it was read as, with those words: 'in November 2023 ("the same month")'."""
    if not told_by_date_before(e.phrase):
        return e.phrase
    if e.start == e.end:
        when = f"on {e.start.isoformat()}"
    elif (e.start.month, e.start.day, e.end.month, e.end.day) == (1, 1, 12, 31) and e.start.year == e.end.year:
        when = f"in {e.start.year}"
    elif e.start.day == 1 and (e.start.year, e.start.month) == (e.end.year, e.end.month) and (
            e.end + timedelta(days=1)).day == 1:
        when = f"in {e.start:%B %Y}"
    else:
        when = f"between {e.start.isoformat()} and {e.end.isoformat()}"
    return f'{when} ("{e.phrase}")'


def _main_key(check: CitationCheck) -> tuple[str | None, str]:
    """(act, main section number) of a checked citation: "BNS 303(2)" is ("BNS", "303")."""
    return check.act, (check.section or "").split("(")[0]


def unknown_act_statement(name: str) -> str:
    """What the answer says first about an Act the question names that the statute graph does not hold."""
    return (f'"{name}" is not an Act the statute graph holds (it holds the central Acts of the India Code), so '
            "nothing about it could be checked: it may be misnamed, a State Act, repealed, or not exist. Nothing "
            "below is from it; check its exact title.")


def textless_statement(act: str, section: str, title: str | None) -> str:
    """What the answer says first about a provision the question names that the graph records without its text."""
    heading = f' ("{title.rstrip(".")}")' if title else ""
    return (f"The statute graph records {_provision(act, section)}{heading} but holds no text of it, so it can be "
            "neither quoted nor checked word for word; nothing below is quoted from it. Read it in the official text.")


def textless_warning(act: str, section: str) -> str:
    return f"{_provision(act, section)}: the statute graph holds no text of it; it could not be quoted or checked"


def _provision(act: str, section: str) -> str:
    """ "CRPC s.41A"; a unit that is no section is named as it is ("CPC Order 39 Rule 1")."""
    return f"{act} s.{section}" if section[:1].isdigit() else f"{act} {section}"


def pending_choice_warnings(question: str, facts: QuestionFacts) -> list[str]:
    """A question that asks whether a step of proceedings pending on 2024-07-01 goes under the CrPC or the BNSS, naming
    a section of each ("Bail application filed on 20 June 2024, decided on 10 July 2024: S.439 CrPC or S.483 BNSS?"):
    BNSS 531(2)(a) keeps the pending matter under the CrPC as if the BNSS had not come into force, so the BNSS section
    named does not govern it; said of each, with the courts' doubt where a step of it was taken on or after that day.
    Not for a step the teller still means to take ("Now I want to apply for anticipatory bail: 438 CrPC?") nor one told
    as fresh ("a fresh bail plea filed in August 2024"), which are new proceedings."""
    if (facts.pending_since is None or AskKind.WHICH_CODE not in facts.kinds() or _TELLER_PLANS.search(question)
            or _FRESH_STEP.search(question)):
        return []
    named = [c for c in facts.checks if c.label is Label.PROVISION and c.act and c.section]
    if not any(c.act == "CRPC" for c in named):
        return []
    sections = dict.fromkeys(_main_key(c)[1] for c in named if c.act == "BNSS")
    # a step of the matter taken on or after the day ("the charge sheet was filed in September 2024"): courts have
    # differed on whether it is the BNSS's; said with the rule
    later = any(e.kind is EventKind.PROCEEDING and e.phrase and e.start >= _CUTOVER_DAY for e in facts.dates)
    doubt = (" Courts have differed on steps taken in such a matter on or after that day; check the rulings of your"
             " High Court.") if later else ""
    return [f"{_provision('BNSS', sec)} does not govern these proceedings: they began before 2024-07-01 and were "
            "pending on that day, and BNSS s.531(2)(a) keeps them under the CrPC as it stood then, as if the BNSS "
            f"were not in force.{doubt}" for sec in sections if sec != "531"]


_FRESH_STEP = re.compile(r"\b(?:fresh|new|another|second|subsequent|repeat)\s+(?:\w+\s+)?(?:application|plea|"
                         r"petition|complaint|bail|appeal|revision|FIR)\b", re.IGNORECASE)
"""A step told as a new one in an older matter ("a fresh bail plea filed in August 2024"): a new proceeding, which
the rule for what was pending does not settle."""


def unknown_act_warning(name: str) -> str:
    return f"'{name}' is not an Act in the statute graph: could not verify"


_LEAD = re.compile(r"^(?:(?:does|do|did|can|could|is|are|was|were|will|would|should|shall|may|might|must|has|have|"
                   r"explain|whether|please|kindly|under|as\s+per|per|in|by|from|of|about|and|or|but|also|so|"
                   r"then|now|what|which|how|why|when|where|who|tell\s+me\s+about|the|an?)\s+)+", re.IGNORECASE)
"""Words a citation extractor can take into an Act's name from the sentence around it ("Does the Hindu Marriage
Act allow ...": "Does the Hindu Marriage Act")."""


def act_name(name: str) -> str:
    """The Act's name without the words of the sentence before it: "Does the Hindu Marriage Act" -> "Hindu
    Marriage Act"."""
    return _LEAD.sub("", name.strip()) or name.strip()


def _when(phrase: str) -> str:
    """ "in 2023", "on 5 Mar 2024", "before 1 July 2024": the date words as written, with a preposition."""
    words = phrase.lower().split()
    if words and (words[0] in ("in", "on", "during", "before", "after", "since", "from", "last", "early", "late",
                               "mid", "around", "between", "by") or words[-1] in ("ago", "back", "earlier")):
        return phrase
    day = (re.match(r"\d{1,2}(?:st|nd|rd|th)?(?:\s|[./-]\d{1,2}[./-])|\d{4}-\d\d-\d\d", phrase)
           or re.search(r"[A-Za-z]+\.?\s+\d{1,2},", phrase))
    return f"on {phrase}" if day else f"in {phrase}"


EVE = (date.fromisoformat(CUTOVER) - timedelta(days=1)).isoformat()
"""2024-06-30: the old codes as they stood when the new ones came into force (BNSS 531(2)(a), BSA 170(2))."""


def _sentence_of(question: str, clause: str) -> str:
    """The sentence of ``question`` that holds ``clause`` (the clause itself when it cannot be found)."""
    at = question.find(clause)
    if at < 0:
        return clause
    start = max(question.rfind(m, 0, at) for m in ".?!") + 1
    ends = [i for i in (question.find(m, at + len(clause)) for m in ".?!") if i >= 0]
    return question[start:min(ends) + 1 if ends else len(question)]


_PENAL = re.compile(r"\b(?:IPC|BNS|Penal\s+Code|Nyaya\s+Sanhita|offen[cs]es?|charged|punish\w*)\b", re.IGNORECASE)
"""A question about the offence itself (not only its procedure or evidence)."""

_PENAL_CODE = re.compile(r"\b(?:IPC|BNS|Indian\s+Penal\s+Code|Bharatiya\s+Nyaya\s+Sanhita|Nyaya\s+Sanhita)\b(?!S)",
                         re.IGNORECASE)
_NUMBER_BEFORE = re.compile(r"(?<![\d,.])\d{1,3}(?!\d)(?![,.]\d)")
_NUMBER_AFTER = re.compile(r"\s*,?\s*(?:s\.|sec\.?|section)?\s*\d{1,3}", re.IGNORECASE)


def names_penal_section(question: str) -> bool:
    """The question names a section of a penal code ("section 80 BNS", "420/406 IPC", "498-A IPC", "IPC 498A",
    "s. 302 of the Indian Penal Code"): it is about the offence it names, whatever else it asks ("Lawyer says the case
    will be under section 80 BNS. Is that correct?"). A number within a few words before the code's name, or right
    after it."""
    for m in _PENAL_CODE.finditer(question):
        before = question[max(0, m.start() - 20) : m.start()]
        if _NUMBER_BEFORE.search(before) or _NUMBER_AFTER.match(question, m.end()):
            return True
    return False


_ENDED = re.compile(r"\b(?:closed|disposed\s+of|acquitted|discharged|quashed|withdrawn|dismissed|decided|"
                    r"convicted|sentenced|ended|compounded|settled)\b", re.IGNORECASE)
"""Words by which a question says a proceeding is over."""

_STILL = re.compile(r"\b(?:pending|still|going\s+on|under\s+way)\b", re.IGNORECASE)


_CIVIL_MATTER = re.compile(
    r"\b(?:suits?|civil\s+(?:court|case|suit|matter|judge|appeal|dispute|side)|divorce|judicial\s+separation|"
    r"restitution\s+of\s+conjugal|family\s+court|partition|probate|letters?\s+of\s+administration|"
    r"succession\s+certificate|eviction|rent\s+(?:case|controller|court|matter|dispute)|consumer\s+(?:complaint|case|"
    r"court|forum|commission|dispute)|(?:district|state|national)\s+commission|arbitration|arbitral|"
    r"(?:property|land|title|injunction|specific\s+performance|custody|guardianship|accident\s+claim|claim|"
    r"writ|service|labour|industrial|recovery|money|tenancy)\s+(?:case|suit|petition|matter|dispute)s?|MACT|"
    r"claims?\s+tribunal|RERA|debts?\s+recovery\s+tribunal|DRT|NCLT|writ\s+petition)\b", re.IGNORECASE)
"""A civil matter as people name it: a suit, a divorce, a consumer complaint, a claim before a tribunal."""
_CRIMINAL_MATTER = re.compile(
    r"\b(?:FIR|police|charge-?\s?sheet|(?:the|an|as|co-?)\s+accused|accused(?!\s+(?:me|him|her|us|them|my\s+\w+)\s+of)|"
    r"bail|offen[cs]es?|criminal|crimes?|IPC|CrPC|Cr\.?\s?P\.?\s?C|BNSS?|Penal\s+Code|Nyaya\s+Sanhita|"
    r"Nagarik\s+Suraksha|magistrate|sessions|(?<!malicious\s)prosecut\w*|convict\w*|acquitt\w*|arrest\w*|cheque|"
    r"dowry|domestic\s+violence|DV|NDPS|POCSO|murder|theft|cheating|cheated(?!\s+on)|rape|assault|"
    r"forg(?:e|ed|ery|ing)|kidnap\w*|extortion|fraud|under\s*-?\s*trial|trial\s+court|criminal\s+trial|"
    r"maintenance\s+(?:case|petition|application|proceedings?|matter)|125|u/s|"
    # a penal section written as the case's name ("a 420 case", "under 420 and 406", "498A")
    r"under\s+\d{3}[A-Z]{0,2}|\d{3}[A-Z]{0,2}(?=\s+(?:case|complaint|FIR|IPC|BNS))|\d{3}[A-Z]{1,2})\b", re.IGNORECASE)
"""A criminal matter, or one a criminal court hears under the CrPC (a maintenance petition, s.125): its proceedings are
the CrPC's (and its savings BNSS 531's), whatever court hears them. Not "accused me of cruelty" in a divorce
petition, "my wife cheated on me", "a suit for malicious prosecution" or a civil Act's section."""
_EVIDENCE_ASKED = re.compile(
    r"\b(?:evidence|Evidence\s+Act|IEA|BSA|admissib\w*|witness\w*|electronic\s+records?|65B|certificate\s+under|"
    r"proof|prove[ds]?|proving)\b", re.IGNORECASE)
"""What may prove a matter, asked: the Evidence Act's for any proceeding pending on 2024-07-01 (BSA 170(2))."""


def civil_proceeding(question: str, e: DatedEvent) -> bool:
    """The proceeding ``e`` tells is a civil one: its clause names a civil matter, or names no matter at all ("it has
    been pending since 2020") in a question that tells one, and nothing the question tells is criminal (when unsure,
    the matter stays pending under the CrPC). What it asks is not read for that: "Can I also file an FIR now?" about a
    pending divorce asks of a new matter."""
    _, telling = _asking_and_telling(question)
    told = " ".join([*telling, e.clause])
    if _CRIMINAL_MATTER.search(told):
        return False
    return bool(_CIVIL_MATTER.search(e.clause) or _CIVIL_MATTER.search(told))


def asks_evidence(question: str) -> bool:
    """The question's asking sentences (or, with none, its last) ask what may prove something, not a story's "I have
    proof of my share"."""
    return bool(_EVIDENCE_ASKED.search(asking_text(question)))


def _ended(question: str, e: DatedEvent, events: Sequence[DatedEvent]) -> bool:
    """The proceeding ``e`` tells was over before 2024-07-01: its sentence tells it ended ("an FIR in 2020, but the
    case was closed in 2021"), in words that come after it (not a stage before: "Convicted in 2019, appeal pending
    since 2020"), in what it tells, not in the ask that ends the sentence ("filed in 2023 still pending, will it be
    decided under the CrPC?"; a sentence that asks from its first word presumes what it tells: "Was the FIR filed in
    2020 closed in 2021 properly?"), and not on or after that day ("filed on 20 June 2024 ..., decided on 10 July 2024":
    pending on it). A proceeding its own clause calls pending is not over."""
    if _STILL.search(e.clause):
        return False
    sentence = _sentence_of(question, e.clause)
    at = max(sentence.find(e.clause), 0)
    asks = sentence.rstrip().endswith("?")
    opened = [m.start() for m in _ASK_PART.finditer(sentence) if m.start() > 0] if asks else []
    ask = opened[-1] if opened else len(sentence)
    dated = [f for f in events if f.phrase]
    for m in _ENDED.finditer(sentence, at, min(ask, at + len(e.clause) + _ENDED_REACH)):
        told = sentence[m.start():m.start() + 60]
        later = [f for f in dated if f.phrase in told]
        if later and all(f.end >= _CUTOVER_DAY for f in later):
            continue
        return True
    return False


_ENDED_REACH = 200
"""How far after a proceeding's clause the words that end it are looked for."""
_ASK_PART = re.compile(r"(?:[,;:]\s*|\s-+\s)(?:will|would|should|shall|can|could|is|are|was|were|does|do|did|has|have|"
                       r"how|what|which|when|where|whether|who)\b", re.IGNORECASE)
"""Where the ask that ends a sentence ending with "?" opens ("..., will it be decided under the CrPC?")."""


CheckFn = Callable[[str | None, str | None], Sequence[CitationCheck]]
"""``checks_for(offence_on, proceedings_on)``: the question's citations checked, the penal codes on the offence's
day, the old procedure and evidence codes on ``proceedings_on`` (``EVE`` for a matter pending on 2024-07-01)."""

_WORDS = re.compile(r"[a-z]+")
_GENERIC_HEADING = frozenset((
    "punishment", "punishments", "punishable", "section", "sections", "offence", "offences", "act", "acts", "code",
    "person", "persons", "penalty", "penalties", "definition", "definitions", "chapter", "general", "explanation",
    "illustration", "sentence", "sentences", "imprisonment", "fine", "fines", "commit", "committed", "committing",
    "abetment", "attempt", "being", "other", "than", "with", "without", "under", "from", "into", "such", "same",
    "certain", "cases", "case",
))
"""Words of a heading that name no particular offence: a heading made only of them ("Punishment", "Section") is
no name a question could use for the provision."""


_STOP = frozenset({"to", "of", "the", "a", "an", "in", "or", "and", "by", "for", "any", "on", "at", "with",
                   "commit", "commits", "committing"})
"""Words a heading's name does without: "commit" is every offence's verb ("Attempt to commit suicide" is named by
"attempt" and "suicide"; "committed suicide" alone names no attempt)."""
def heading_words(title: str) -> tuple[str, ...] | None:
    """The words of a lapsed provision's heading a question must use to name it ("adultery"; "attempt",
    "suicide"); None for a heading too general to name an offence by itself (only
    words any heading has: "Punishment", "Section"; a definition's)."""
    words = [w for w in _WORDS.findall(title.lower()) if w not in _STOP]
    naming = [w for w in words if w not in _GENERIC_HEADING and len(w) > 3]
    if not naming or title.lower().startswith(("definition", "repealed", "omitted")):
        return None
    return tuple(words)


_INFLECTION = re.compile(r"(?:s|es|ed|d|ing)?$")


def _inflected(word: str, heading_word: str) -> bool:
    """``word`` is ``heading_word`` or an inflection of it ("attempted", "offences"; not "adulterated" for
    "adultery")."""
    stem = heading_word[:-1] if heading_word.endswith("e") and len(heading_word) > 4 else heading_word
    return word == heading_word or (word.startswith(stem) and bool(_INFLECTION.fullmatch(word[len(stem):])))


def names_heading(question: str, words: Sequence[str]) -> bool:
    """Whether the question uses the heading's words: a heading of one or two words as a phrase, in order
    ("adultery", "unnatural offences"; not "unnatural death ... offence"), a longer one by all its words but one,
    in any order and form ("attempt to suicide" for "Attempt to commit suicide")."""
    used = [w for w in _WORDS.findall(question.lower()) if w not in _STOP]
    if len(words) <= 2:
        return any(all(_inflected(used[i + j], w) for j, w in enumerate(words))
                   for i in range(len(used) - len(words) + 1))
    hit = sum(any(_inflected(u, w) for u in used) for w in words)
    return hit >= len(words) - 1


_CRIMINAL = re.compile(r"\b(?:offen[cs]es?|crim\w*|FIR|police|jail\w*|imprison\w*|arrest\w*|IPC|BNS|penal|punish\w*|"
                       r"prosecut\w*|charged?|booked|illegal)\b", re.IGNORECASE)
"""A question about an offence: only then does naming a lapsed offence's heading rest on it ("Is adultery still an
offence?"; not "Is adultery a ground for divorce?", which rests on the Hindu Marriage Act)."""


def _why_not_law(message: str, act: str, number: str) -> str:
    """The checker's words for why a provision is not law, without its name ("ITA s.66A is not law: the Supreme
    Court struck it down on 2015-03-24 (...); it has no successor" -> "the Supreme Court struck it down on ...")."""
    why = re.sub(rf"^{re.escape(act)}\s+s\.\s*{re.escape(number)}\S*\s+(?:is not law:\s*)?", "", message)
    why = re.sub(r";\s*it has no successor\s*$", "", why)
    return f"it {why}" if why.startswith(("was ", "is ")) else why


NOT_LAW = frozenset({CitationStatus.REPEALED, CitationStatus.OMITTED})
"""A named provision with one of these statuses on the facts' date, and no successor, is a premise to correct."""


def premises_in(question: str, checks: Sequence[CitationCheck], lapsed: Iterable[Lapsed], *,
                old_law_day: bool = False) -> tuple[Premise, ...]:
    """The lapsed provisions the question names: by its citation (a provision checked and found without a
    successor) or, in a question about an offence, by the provision's heading written out ("Is adultery still an
    offence?"). ``old_law_day``: the facts are dated when the repealed codes were law, so a heading names a lapsed
    offence only if it was struck down (a citation is checked on that day and is a premise only if not law then)."""
    by_key = {(p.act, p.section): p for p in lapsed}
    out: dict[tuple[str, str], Premise] = {}
    for c in checks:
        if c.label is Label.PROVISION and c.act and c.section:
            number = c.section.split("(")[0]
            hit = by_key.get((c.act, number))
            if hit is not None and c.status is not CitationStatus.VERIFIED:
                out.setdefault((hit.act, hit.section), Premise(hit, c.text))
            elif c.status in NOT_LAW and not c.successors and not c.section.count("(") and c.act not in OLD_CODES:
                # Not law on the date and nothing in its place, though no curated record says why: the check's own
                # words do ("ITA s.66A is not law: the Supreme Court struck it down on 2015-03-24 (...)"). The repealed
                # criminal codes are left to their curated records, which cover every section without a successor.
                gone = Lapsed(act=c.act, section=number, title=None, reason=_why_not_law(c.message, c.act, number))
                out.setdefault((c.act, number), Premise(gone, c.text, checked=True))
    for p in by_key.values() if _CRIMINAL.search(question) else ():
        if not p.offence or (old_law_day and "struck down" not in p.reason.lower()):
            continue
        words = heading_words(p.title or "")
        if words is not None and names_heading(question, words):
            out.setdefault((p.act, p.section), Premise(p, p.title or ""))
    return tuple(out.values())


def _unknown_acts(checks: Sequence[CitationCheck], known_act: Callable[[str], bool] | None) -> tuple[str, ...]:
    """The Acts the checker could not name (``QuestionFacts.unknown_acts``), each by its name without the sentence's
    words, once; a name that differs without them is unknown only if ``known_act`` does not know it either."""
    out: dict[str, None] = {}
    for c in checks:
        if c.label is not Label.STATUTE or c.status is not CitationStatus.UNKNOWN_ACT or c.act is not None:
            continue
        name = act_name(c.text)
        if known_act is None or name == c.text.strip() or not known_act(name):
            out.setdefault(name)
    return tuple(out)


_TELLER = re.compile(r"\b(?:i|we)\b", re.IGNORECASE)
"""The teller in a dated clause ("I bought the plot in 2019", "in 2021 I gave him 5 lakh"): their own part of the
story, background to what was done to them, not its day."""
_TELLER_SUBJECT = re.compile(r"\W*(?:[\w,-]+\s+){0,4}?(?:i|we)\b", re.IGNORECASE)
"""The teller as the subject of a dated clause, among its first words ("In 2021 I gave him 5 lakh"), not in a clause
within it ("My ex posted my photos in February 2024 after I broke up with him")."""
_INDUCED_PAYMENT = re.compile(
    r"\b(?:paid|sent|transferred|gave|deposited|invested)\b[^.;?!]{0,60}?\b(?:who|after\s+(?:he|she|they))\s+(?:had\s+)?"
    r"(?:promised|assured|offered|claimed|guaranteed|lured|convinced)\b"
    r"|\b(?:paid|sent|transferred|gave|deposited|invested)\b[^.;?!]{0,60}?\bon\s+(?:his|her|their|the)\s+"
    r"(?:promise|assurance)\b", re.IGNORECASE)
"""The teller's payment told with the promise that drew it ("In March 2023 I sent 4 lakh to a guy who promised to double
it"): the delivery a deception induced is when cheating is committed, not background to what was done later."""
_ASKER = re.compile(r"\b(?:i|me|my|mine|we|us|our|ours)\b", re.IGNORECASE)
"""The teller in an ask ("What were my options?"): what they may do about the story, not what was done in it."""
_NOW = re.compile(r"\b(?:is|are|am|keeps?|demands?|refuses?|won'?t|doesn'?t|don'?t|does\s+not|do\s+not|has|have|"
                  r"continues?|threatens|harass(?:es)?|beats|wants?|says?|asks?|since|going\s+on|under\s+way)\b",
                  re.IGNORECASE)
"""A story told in the present ("her in-laws demand more dowry", "he refuses to return it", "the victim has an old
injury"): what it tells may go on today."""
_WHAT_OFFENCE = re.compile(
    r"\b(?:what|which)\s+(?:\w+\s+){0,2}(?:offen[cs]es?|crimes?)\b"
    # criminal charges, not a builder's or a bank's ("What charges did the bank deduct?")
    r"|\bwhat\s+(?:criminal\s+)?charges?\s+(?:would|will|could|can|might|may|did|do|does)\s+(?:\w+\s+){1,3}?"
    r"(?:face|faced|get|be\s+(?:framed|filed|brought|pressed))\b"
    r"|\bwhich\s+(?:\w+\s+){0,2}sections?\s+(?:\w+\s+){0,2}?(?:breach|breached|violate|violated|appl(?:y|ied))\b"
    r"|\bcommit(?:ted)?\s+(?:an?|any)\s+(?:\w+\s+)?(?:offen[cs]e|crime)\b"
    r"|\b(?:is|was)\s+(?:it|this|that)\s+(?:an?\s+)?(?:offen[cs]e|crime)"
    r"|\bwhat\s+(?:is|are|was|were|would|will)\s+(?:he|she|they|the\s+\w+)\s+(?:be\s+)?(?:liable|guilty)\s+(?:for|of)\b"
    r"|\b(?:booked|charged|prosecuted)\s+(?:for|under|with)\b|\bsections?\s+(?:of\s+\w+\s+)?(?:apply|applies|attract)"
    # a criminal case or complaint is brought for an offence ("What criminal case can I file?"), and a charge that
    # covers or fits what was done names one ("What charge covers the agreement itself?")
    r"|\b(?:what|which)\s+(?:\w+\s+)?criminal\s+(?:case(?!\s+law)|complaint|action|proceedings?|charges?)\b"
    # a charge that covers or fits what was done; "What charges apply?" may be a bank's or a hospital's
    r"|\b(?:what|which)\s+charges?\s+(?:covers?|fits?)\b"
    # the law that covers what someone did ("Which sections cover what he did?", "What law applies to what they did to
    # us?"); not what the teller did, which may be a step of their own ("what I did")
    r"|\b(?:what|which)\s+(?:\w+\s+){0,2}(?:sections?|provisions?|laws?)\s+(?:\w+\s+){0,2}?(?:covers?|fits?|"
    r"punish(?:es)?|appl(?:y|ies)\s+to)\s+what\s+(?:he|she|they|(?:the|this|that|my|our|his|her|their)\s+[\w-]+)\s+"
    r"(?:did|had\s+done|has\s+done)\b",
    re.IGNORECASE)
"""The question asks which offence its story makes out (not any case against someone: a suit is no offence; nor its
punishment alone: "a cheque bounced in 2023, what is the punishment?" may be another Act's offence)."""


_TELLER_PLANS = re.compile(r"\b(?:i|we)\s+(?:\w+\s+)?(?:want|wish|plan|need|intend|would\s+like|am\s+planning|are\s+"
                           r"planning)\b", re.IGNORECASE)
_PAST_PERFECT = re.compile(r"\bhad\s+been\b", re.IGNORECASE)
_LED_TO_DEATH = re.compile(r"\b(?:dowry|harass\w*|demand(?:ed|ing)|cruelty|tortur\w*|beat(?:en|ing)|"
                           r"marks?\s+on\s+(?:her|his)\s+(?:neck|body|face)|injur(?:ies|ed))\b", re.IGNORECASE)
"""What others did that a death told beside it followed from: the death is then the offence's day."""


_OLD_SECTION_ASKED = re.compile(
    r"\b(?:which|what)\s+(?:IPC|Indian\s+Penal\s+Code)\s+(?:sections?|offen[cs]es?|charges?|provisions?)\b"
    r"|\b(?:which|what)\s+(?:sections?|provisions?)\s+(?:of|under)\s+(?:the\s+)?(?:IPC|Indian\s+Penal\s+Code)\b",
    re.IGNORECASE)
"""An ask for the old penal code's section ("Which IPC section for him?"): the teller puts the story under the IPC,
so its dates are read for the offence's day (``story_day``), which decides whether the IPC governs it."""


_REPORTED = re.compile(r"\b(?:saying|said|telling|told\s+(?:me|us|her|him|them|everyone|my\s+\w+))\b[^.?!;]*?"
                       r"(?=[.?!;]|$|,\s*(?:and|but|so)\b|\s+(?:and|but|so)\s+(?:then\s+)?(?:he|she|they|i|we)\b)",
                       re.IGNORECASE)
"""What someone said in the story, to the end of its sentence ("sent me voice notes saying he will kill me if I don't
drop the suit", "refused and said it is all theirs now"): its tense is the speaker's, not the story's."""


_SECTION_OR_COMPLAINT_ASKED = re.compile(
    # which section or law the story falls under ("under what section?", "Kaunsi dhara lagegi?", "IPC ya BNS?"), not
    # "What is law?"
    r"\b(?:which|what|kaunsi|kaun\s+si|konsi)\s+(?:\w+\s+)?(?:sections?|dhara)\b(?!\s+(?:of|under)\s+(?:the\s+)?"
    r"(?:limitation|consumer|rti))|\b(?:which|what)\s+(?:\w+\s+)?law\s+(?:applies|will\s+apply|lagega)\b"
    r"|\bunder\s+what\s+(?:section|law)\b|\b(?:ipc|bns)\s+(?:ya|or)\s+(?:ipc|bns)\b"
    # whether the teller can still bring it ("Can I still file a complaint?", "Is it too late to complain?", "Is any
    # case possible now?", "Ab FIR kaise karwaye?"), of a story that names no other law ("... Act") nor a matter of
    # its own law or a civil remedy (a cheque, wages, children, a refund)
    r"|^(?!.*(?:(?-i:\bAct\b)|\b(?:civil|consumer|refund|compensation|divorce|maintenance|custody|children|child|rent|"
    r"tenant|cheque|bounced?|salary|wages?|bonus|RTI)\b)).*?(?:"
    r"\b(?:can|could|may)\s+(?:i|we|she|he|they|(?:my|our)\s+\w+)\s+(?:still\s+|now\s+)?(?:file|lodge|register|"
    r"complain|report|do\s+(?:something|anything)|take\s+(?:any\s+)?action|go\s+to\s+(?:the\s+)?police)\b"
    r"|\btoo\s+late\b|\btime-?barred\b|\bany\s+case\s+(?:possible|now)\b|\b(?:case|complaint|FIR)\s+(?:ho\s+sakta|kar\s+"
    r"sakt|karwa|kaise)\w*)",
    re.IGNORECASE | re.DOTALL)
"""An ask that turns on the day of the offence the story tells: which section or law it falls under, or whether the
teller can still bring it (the law of that day decides both, and the time to complain runs from it)."""


def story_day(question: str, events: Sequence[DatedEvent], today: date) -> date | None:
    """The day of an offence the question asks about but dates only by its story: the clause that carries the date
    tells what someone did, not the teller's own part ("I bought ...") or a life event (a marriage, a birth, a death;
    only a marriage while married is itself the offence); no offence, proceeding, conviction or law is dated, and no
    offence is told undated; every date is before 2024-07-01; nothing is told in the present or as going on. "In 2022
    a man in a crowded bus grabbed my daughter's hand", "My husband married another woman in Jan 2024": the offence
    verbs are open-ended, the dates are not. The latest such day; None otherwise (or before 2024-07-01, when the old
    code is simply in force)."""
    cutover = date.fromisoformat(CUTOVER)
    if today < cutover or any(e.kind not in (EventKind.UNKNOWN, EventKind.LIFE) for e in events):
        return None
    asking, telling = _asking_and_telling(question)
    # what is told in the present of the proceedings since ("the trial is going on now"), of the teller's own plans
    # ("Now I finally want to file a complaint") or in the past perfect ("They had been demanding money since the
    # wedding") is not the offence going on
    told = " ".join(t for t in telling if not (_TOLD_PROCEEDING.search(t) or _TELLER_PLANS.search(t)
                                               or _PAST_PERFECT.search(t)))
    told = _REPORTED.sub("", told)
    if _NOW.search(told) or goes_on(told):
        return None
    dated = [e for e in events if e.phrase]
    asking = [p for p in asking if not _FRAGMENT.match(p)] or asking
    # an ask in the past tense ("What offence was that?", "What would the charge have been?") puts what it asks
    # about in the story's time, whatever someone else's dated clause tells ("a property dealer sold the same plot
    # to me in 2015"); not the teller's own part ("I married in 2015. My in-laws took my jewellery.") nor a death
    # told as background ("My father died in 2021. My uncle took over his shop.")
    past = bool(asking) and all(_PAST_ASK.search(p) for p in asking)
    # a death the story's cruelty or demands led to ("died in June 2023 ... they had been demanding money") is the day
    # of the offence asked about
    led_to = bool(_LED_TO_DEATH.search(" ".join(telling)))
    story = [e for e in dated if (not _TELLER_SUBJECT.match(e.clause) or _INDUCED_PAYMENT.search(e.clause)) and (
        e.kind is EventKind.UNKNOWN or BIGAMY.search(e.clause) or (past and not tells_death(e.clause))
        or (led_to and tells_death(e.clause)))]
    if not story or any(e.end >= cutover or e.ongoing for e in dated):
        return None
    return max(e.end for e in story)


_CLOSES = re.compile(r"\b(?:ended|concluded|(?:was|were)\s+(?:dismissed|decided|disposed\s+of|closed|settled|quashed|"
                     r"withdrawn|compounded|allowed)|acquitted|convicted|discharged"
                     # a court's order or decree made then ("got a maintenance order from the family court in 2021"),
                     # not one made for the time being (bail, interim, stay, ex parte) nor an application for one
                     r"|(?:got|obtained|passed|granted)\s+(?:(?!bail|interim|stay|ex\b|parte|application)\w+\s+){0,4}?"
                     r"(?:order|decree|judgment|award)"
                     r"|(?<!bail\s)(?<!interim\s)(?<!stay\s)(?<!parte\s)(?:decree|judgment|award|order)\s+(?:was\s+)?"
                     r"(?:passed|granted|pronounced))\b", re.IGNORECASE)
_OVER_WITH = re.compile(r"\b(?:trial|case|proceedings?|appeal|prosecution|inquiry|investigation|revision|suit|order|"
                        r"decree|judgment|award)\b", re.IGNORECASE)
_NOT_OVER = re.compile(r"\b(?:pending|now|today|currently|still|yet|going\s+on|under\s+way|is\s+on|will|shall|not|"
                       r"again|reopen\w*)\b", re.IGNORECASE)
_OPENING = r"^\W*(?:(?!(?:if|when|unless|suppose|in\s+case)\b)[^,?]{1,60},\s*){0,2}"
"""Up to two leading phrases before an ask's verb ("In 2022, ..."), not a condition ("If he refuses, ...")."""
_WHICH_WAS = (r"(?:^|[.!?;,]\s*)\W*(?:(?:under|in|for|from|by)\s+)?(?:which|what)\s+"
              r"(?:(?!(?:is|are|does|do|can|could|will|would|should|may|shall)\b)\w+\s+){0,4}?"
              r"(?:was|were|did|had|applied)\b")
"""A question in the past tense ("Which section was that?", "Under which provision was it relevant?", "Which IPC
section applied?", "Under the law then, what was the offence?"), not one in the present with a past clause ("What
is the remedy for a person who was convicted?")."""
_LOOKS_BACK = re.compile(rf"{_OPENING}(?:was|were|did|could|would|had)\b"
                         r"|\b(?:then\s+in\s+force|at\s+(?:that|the)\s+time|"
                         r"back\s+then)\b"
                         rf"|{_WHICH_WAS}"
                         # a past verb whose subject is what is asked ("Which provision required that
                         # certificate?"), not a participle ("What remedies the aggrieved have?")
                         r"|(?:^|[.!?;]\s*)\W*(?:(?:under|in|for|from|by)\s+)?(?:which|what)\s+(?!if\b)(?:\w+\s+){1,2}?"
                         r"(?!(?:accused|aggrieved|alleged|married|related|concerned|named|deemed|"
                         r"prescribed|specified|registered|qualified|interested)\b)[a-z]+ed\s+"
                         r"(?:the|that|this|these|those|an?|it|him|her|them|such|his|my|our|their)\b", re.IGNORECASE)
"""An ask about what the law allowed then ("Were those printouts admissible?", "Was the arrest legal under the law
then in force?"), not about a step still to take ("Can I file a revision?")."""
_PAST_ASK = re.compile(rf"{_OPENING}(?:was|were|did|had)\b"
                       r"|\b(?:would|could|might)\s+(?:\w+\s+){0,3}?have\s+(?:been|\w+ed|\w+en)\b"
                       rf"|{_WHICH_WAS}", re.IGNORECASE)
"""An ask in the past tense: what was, what someone did, what would have been ("What offence was that?", "Under what
power did the magistrate do that?", "What charges would they have faced?"); not a polite "Could I ..." or "Would it
be ...", which asks about today."""
_THEN = re.compile(r"\b(?:then|at\s+(?:that|the)\s+time|in\s+those\s+days)\b(?!\s+(?:i|we|he|she|they|you)\b)",
                   re.IGNORECASE)
"""An ask that says it is about the time its story tells ("What was the punishment for trespass then?", "at that
time", "back then"), not a step that follows ("then he ...")."""


_FRAGMENT = re.compile(r"^\W*(?:and\s+|also\s+)?(?:(?:under|in|for|by|from|as\s+per)\s+)?(?:which|what)\s+"
                       r"(?:[\w-]+\s+){0,2}?(?:sections?|provisions?|acts?|code|laws?|rules?|articles?|clauses?|"
                       r"punishments?|penalty|penalties|offen[cs]es?|courts?|forum)\W*$", re.IGNORECASE)
"""An ask with no verb of its own, only what it asks for ("Under which section?", "What punishment?", "Which BNSS
section?"): it asks about what the ask before it tells, in its tense; not "What happens next?"."""


_OLD_CODE_ONLY = re.compile(rf"\b(?:{_OLD_NAMES})(?![\w.])", re.IGNORECASE)
_NEW_CODE = re.compile(rf"\b(?:{_NEW_NAMES})\b|\bnew\s+(?:\w+\s+){{0,2}}?(?:codes?|laws?|evidence\s+act|crpc|"
                       r"cr\.?\s?p\.?\s?c|ipc|sanhita)\b", re.IGNORECASE)
_STILL_OPEN = re.compile(r"\b(?:has|have)\s+(?:\w+\s+)?(?:filed|appealed|challenged|moved|applied)\b|"
                         r"\b(?:stopped|stops|defaulted|not\s+(?:paying|paid|complied|obeyed)|yet\s+to|refuses?|"
                         r"keeps?|continues?)\b", re.IGNORECASE)
"""A told step after the order that leaves the matter open ("the State has filed an appeal", "he stopped paying");
not a statute's present ("an offence that is punishable with one year")."""


def closed_day(question: str, events: Sequence[DatedEvent], today: date) -> date | None:
    """The day a matter the question tells was over, when it was over before 2024-07-01, nothing in it is left to do,
    and the question asks only what the law allowed then ("Trial for a 2022 offence ended in early 2024 ... Were those
    printouts admissible?"): its law is the law as it stood on that day, the old codes. The date is the one of the
    clause that ends a proceeding ("the trial ended in March 2024"), or, for a question that names only an old code
    and asks what it said ("which provision of the CrPC did they violate?"), the last date it tells; every date is
    before 2024-07-01; no offence is told undated (a new one, after); nothing is pending, going on or to come ("now",
    "still", "will", "not", "again"). None otherwise."""
    cutover = date.fromisoformat(CUTOVER)
    asking, telling = _asking_and_telling(question)
    # a fragment takes the tense of the ask it follows ("... could she get maintenance? Under which section?")
    asking = [p for p in asking if not _FRAGMENT.match(p)] or asking
    if today < cutover or not asking or not all(_LOOKS_BACK.search(p) or _PAST_ASK.search(p) for p in asking):
        return None
    if _NOT_OVER.search(question) or goes_on(question):
        return None
    if _STILL_OPEN.search(" ".join(telling)):
        return None  # "the State has filed an appeal", "he stopped paying"
    # an offence told undated may be a new one, after; not when every ask says it is about the story's time ("there
    # were allegations that her husband harassed her. Was there any presumption under the law at that time?") and the
    # offence is told in the past
    # ... when an offence or its proceedings are dated ("convicted in 2018 for killing a man ... the court said it was
    # not murder"), so that the story's time is the matter's, not a birth's or a retirement's ("My son was born in
    # 2018. A neighbour molested my wife. What was the punishment at the time?")
    then = all(_THEN.search(p) for p in asking) and any(
        e.kind in (EventKind.OFFENCE, EventKind.CONVICTION, EventKind.PROCEEDING) and e.phrase and not e.by
        for e in events)
    if any(e.kind is EventKind.OFFENCE and not e.phrase and not (then and not _NOW.search(e.clause)) for e in events):
        return None
    dated = [e for e in events if e.phrase]
    if not dated or any(e.end >= cutover or e.ongoing for e in dated):
        return None
    ends = [e.end for e in dated if _CLOSES.search(e.clause) and _OVER_WITH.search(e.clause)]
    # the new codes named only to date the facts ("before the new criminal laws came in") name the old law's time,
    # not the law asked about
    # an offence before the new codes is the IPC's, its complaint today the BNSS's ("Before the new laws came in, my
    # landlord cheated me. Could I file a case?"): there the date names the offence's time, not the question's
    offence_told = any(e.kind is EventKind.OFFENCE for e in events)
    dates_by_new_code = [] if offence_told else [e for e in dated if _NEW_CODE.search(e.phrase)]
    undated_text = question
    for e in dates_by_new_code:
        undated_text = undated_text.replace(e.phrase, " ")
    if not ends and not _NEW_CODE.search(undated_text) and (
            _OLD_CODE_ONLY.search(question) or dates_by_new_code or all(_THEN.search(p) for p in asking)
            or _asks_what_others_did(question, asking, events)):
        # it asks what the old code said of facts all told before it was replaced ("kept in the lockup for 3 days
        # in December 2023 without being produced before a magistrate: which provision of the CrPC did they
        # violate?"), or what the law was at the time it tells ("In 2019 a drunk driver ran over our neighbour's son.
        # What was the maximum jail term back then?"): the law of the last of them, or of the offence when one is
        # dated (an offence's law is that of its own day, not of its FIR's)
        offences = [e.end for e in dated if e.kind is EventKind.OFFENCE]
        return max(offences or [e.end for e in dated])
    return max(ends) if ends else None


_TOLD_PROCEEDING = re.compile(r"\b(?:FIR|F\.I\.R|police\s+case|case\s+(?:was|is|has\s+been)\s+(?:filed|registered|"
                              r"lodged|going\s+on|pending)|charge-?sheet\w*|trial|investigation|arrested|booked)\b",
                              re.IGNORECASE)
"""Proceedings the story tells as begun, undated ("A police case was filed", "the trial is going on")."""


_DYING = re.compile(r"\b(?:before|while|when|was|were)\s+dying\b|\bsuccumbed\b|"
                    r"\b(?:died|dies)\s+(?:later\s+)?(?:of|from|due\s+to|because\s+of)\s+(?:the\s+|his\s+|her\s+|"
                    r"their\s+)?"
                    r"(?:injur|wound|burn|stab|attack|assault|blow|beating|gunshot)", re.IGNORECASE)
"""A death the offence told in the same sentence caused ("stabbed in 2017 and before dying he told ...", "died of
his injuries"), not one told beside it ("cheated me after my father's death")."""


_DEATH_BESIDE = re.compile(r"\b(?:after|since|following|before|on)\s+(?:\w+\s+){0,2}?(?:\w+'s\s+)?(?:death|demise)\b",
                           re.IGNORECASE)
"""A death told as the time of the offence, not as what it caused ("cheated me after my father's death")."""


def investigated_then(facts: QuestionFacts, question: str) -> bool:
    """An offence of before 2024-07-01 (``offence_on``) whose investigation began then too: the story tells a death
    it caused (a body found, a death by burns: police inquire at once) or proceedings begun for it, undated. Its
    evidence is then the Evidence Act's (BSA 170(2)), as for any matter pending on 2024-07-01."""
    if facts.offence_on is None or facts.pending_since is not None:
        return False
    # the death told in the offence's own clause, or in its sentence ("stabbed in 2017 and before dying he told ...")
    death = any(e.kind is EventKind.OFFENCE and e.phrase and (
        (tells_death(e.clause) and not _DEATH_BESIDE.search(e.clause))
        or _DYING.search(_sentence_of(question, e.clause))) for e in facts.dates)
    return death or bool(_TOLD_PROCEEDING.search(" ".join(_asking_and_telling(question)[1])))


def _asks_what_others_did(question: str, asking: Sequence[str], events: Sequence[DatedEvent]) -> bool:
    """Every ask is in the past tense about what others did or what was allowed then ("Under what power did the
    magistrate do that?"), not what the teller may do ("What were my options to set it aside?"); the story tells no
    proceeding (pending or over by its own words), no step of the teller's, and no offence (its law is its own day's
    and its complaint today's: ``offence_day``, ``story_day``) unless what is asked is what an authority did then."""
    acted = all(_AUTHORITY_ACTED.search(p) for p in asking)
    return (all(_PAST_ASK.search(p) and not _ASKER.search(p) for p in asking) and not _WHAT_OFFENCE.search(question)
            and not any(e.kind is EventKind.PROCEEDING or (e.kind is EventKind.OFFENCE and not acted)
                        or _TELLER.search(e.clause) for e in events))


_AUTHORITY_ACTED = re.compile(r"\b(?:did|was|were|had)\s+the\s+(?:magistrate|court|judge|police|officer|sho|tribunal|"
                              r"commission|collector)\b", re.IGNORECASE)
"""An ask about what an authority did then ("Under what power did the magistrate act?"): the law of that day decides
it, whatever offence the story tells."""


_SHORTHAND = re.compile(
    r"(?<![\w./(\-₹])(?P<n>\d{2,3}[A-Z]{1,2}(?:\(\d{1,2}\))?)(?=\s+(?:certificates?|cases?|complaints?|notices?|"
    r"petitions?|applications?|statements?|FIRs?|proceedings?|offen[cs]es?|charges?|matters?)\b)")
"""A section number a question uses as a name, with no Act ("a 65B certificate", "the 498A case", "a 41A notice"):
practitioners' shorthand for the one code section so numbered. Only a number with a letter: a plain number before
"cases" is a count ("520 cases pending"), never a section."""
SHORTHAND_CODES = ("Indian Penal Code", "Code of Criminal Procedure, 1973", "Indian Evidence Act",
                   "Bharatiya Nyaya Sanhita", "Bharatiya Nagarik Suraksha Sanhita", "Bharatiya Sakshya Adhiniyam")
"""The codes a bare number may stand for; it stands for one only when it exists in that one alone."""


_COLLOQUIAL = re.compile(
    r"\bdhara\s+(?P<a>\d{2,3}[A-Z]{0,2})\b"
    r"|\b(?:a|an|the|ek|this|that)\s+(?:(?:section|sec\.?|s\.)\s*)?(?P<b>\d{3}[A-Z]{0,2})\s+(?:case|FIR|ka\s+case|"
    r"wala\s+case|waala\s+case)\b"
    r"|(?<![\w./(\-₹])(?P<c>\d{3}[A-Z]{0,2})\s+(?:ka|wala|waala|vala)\s+(?:case|mukadma|FIR)\b", re.IGNORECASE)
"""A penal section named as people name it, with no Act: "dhara 379" (Hindi "section"), "a 420 case", "302 ka case".
The numbers are the Indian Penal Code's, by which FIRs were written for a century and a half ("a 420" is a cheat, "a
section 377 case" the IPC's unnatural offences);
read as the IPC's and checked for the date, so one named for facts after 2024-07-01 is flagged with its successor.
Only with a case word and a determiner ("a 420 case", not "420 cases pending")."""


def colloquial_numbers(question: str) -> list[tuple[str, int, int]]:
    """The penal section numbers ``question`` names as people do (``_COLLOQUIAL``): (number, start, end)."""
    out = []
    for m in _COLLOQUIAL.finditer(question):
        group = next(g for g in ("a", "b", "c") if m.group(g))
        out.append((m.group(group).upper(), m.start(group), m.end(group)))
    return out


def shorthand_numbers(question: str) -> list[tuple[str, int, int]]:
    """The section numbers ``question`` uses as names (``_SHORTHAND``), with where they are: (number, start, end)."""
    return [(m.group("n"), m.start("n"), m.end("n")) for m in _SHORTHAND.finditer(question)
            if not _MONEY_BEFORE.search(question, max(0, m.start() - 8), m.start())]


_MONEY_BEFORE = re.compile(r"(?:\brs\.?|\binr|₹|\brupees?)\s*$", re.IGNORECASE)


_CHILD_WORDS = (r"(?:(?:1[0-7]|[7-9])\s*-?\s*(?:years?|yrs?)\s*-?\s*old|(?:1[0-7]|[7-9])\s+saal(?:\s+ka|\s+ki)?|"
                r"minor|juvenile|school-?going)")
_CHILD_NOUN = r"(?:son|daughter|boy|girl|brother|sister|nephew|niece|child|kid|student|cousin|bhai|beta)"
_HELD = (r"(?:caught|arrested|detained|apprehended|picked\s+up|booked|charged|accused|nabbed|rounded\s+up|"
         r"taken\s+(?:in)?to\s+(?:the\s+)?(?:police\s+)?(?:station|thana|lock-?up|custody))")
_CHILD_HELD = re.compile(
    # the child, then held: "My 16 year old nephew was caught ...", "a 15 year old boy was booked"
    rf"\b{_CHILD_WORDS}\s+(?:[\w-]+\s+){{0,2}}?{_CHILD_NOUN}\b(?:(?!\b(?:by|who|whom|which|that)\b)[^.?!,;]){{0,40}}?"
    rf"\b(?:was|were|got|has\s+been|have\s+been|"
    rf"had\s+been|is|are)\s+(?:\w+\s+){{0,2}}?{_HELD}\b"
    # held, then the child: "Police arrested my minor son", "booked my 17 year old brother"
    rf"|\b{_HELD}\s+(?:my|our|his|her|their|a|the)\s+{_CHILD_WORDS}\s+(?:[\w-]+\s+){{0,2}}?{_CHILD_NOUN}\b",
    re.IGNORECASE)

def _then_held(object_: str, subject: str) -> re.Pattern[str]:
    """A story's next sentence that says the child it told was held ("Police took him to the station"), by the
    pronouns that can stand for that child."""
    return re.compile(rf"\b(?:police|they|cops)\s+(?:\w+\s+)?(?:{_HELD}|took|have|has)\s+(?:{object_})\b"
                      rf"|\b(?:{subject})\s+(?:was|is|has\s+been)\s+(?:\w+\s+)?{_HELD}\b", re.IGNORECASE)


_CHILD_TOLD = re.compile(rf"\b{_CHILD_WORDS}\s+(?:[\w-]+\s+){{0,2}}?(?P<noun>{_CHILD_NOUN})\b", re.IGNORECASE)
_FEMALE = frozenset({"daughter", "girl", "sister", "niece"})
_MALE = frozenset({"son", "boy", "brother", "nephew", "bhai", "beta"})
_HER_HELD = _then_held("her", "she")
_HIM_HELD = _then_held("him", "he")
_EITHER_HELD = _then_held("him|her", "he|she")


def accuses_a_child(question: str) -> bool:
    """Whether the question tells a child (under eighteen: "16 year old", "17-yr-old", "17 saal ka", "minor",
    "juvenile") caught, arrested or accused: the child the subject of being held ("My 16 year old nephew was caught
    stealing"), its object ("Police arrested my minor son"), or held in the next sentence by "him"/"her" ("... Police
    took him to the station"); not a child told as the one harmed ("my 12 yr old daughter told me her tutor touches
    her", "my 16 year old daughter was harassed by a man who was later arrested")."""
    if _CHILD_HELD.search(question):
        return True
    sentences = [s for s in _SENTENCES.split(question) if s.strip()]
    for a, b in zip(sentences, sentences[1:], strict=False):
        told = _CHILD_TOLD.search(a)
        if told is None:
            continue
        noun = told.group("noun").lower()
        held = _HER_HELD if noun in _FEMALE else _HIM_HELD if noun in _MALE else _EITHER_HELD
        if held.search(b):
            return True
    return False


def steps_since_cutover(question: str, as_of: str) -> bool:
    """Whether the question dates an offence, a proceeding or a conviction on or after 2024-07-01 ("In September 2024
    my wife filed an FIR", "convicted in March 2025"): a step the new codes govern, whatever was pending before."""
    cutover = date.fromisoformat(CUTOVER)
    return any(e.kind in (EventKind.OFFENCE, EventKind.PROCEEDING, EventKind.CONVICTION) and e.phrase
               and e.start >= cutover for e in read_dates(question, date.fromisoformat(as_of)))


def read_facts(
    question: str, as_of: str, *, comparison: bool, checks_for: CheckFn, lapsed: Iterable[Lapsed] = (),
    known_act: Callable[[str], bool] | None = None,
) -> QuestionFacts:
    """Read the question once. ``comparison``: the question compares the old and new law (ANALYTICAL), which asks
    how the law changed, not which code governs an offence, so no offence is dated. ``checks_for(offence_on,
    proceedings_on)`` checks the question's own citations (``CheckFn``); ``known_act(name)``: whether an Act's name,
    without the words of the sentence the extractor took with it, is one the graph holds (an Act the checker could not
    find is unknown only when it is not).

    Raises:
        ValueError: ``as_of`` is not an ISO date.
    """
    today = date.fromisoformat(as_of)
    today_cutover = date.fromisoformat(CUTOVER)
    parts = question_parts(question) or (question,)
    asks = tuple(Ask(p, ask_kinds(p)) for p in parts)
    # "Will it be tried under the IPC or the BNS?" names both codes (a comparison to the classifier) but asks which
    # governs an offence: its date decides.
    comparison = comparison and not any(AskKind.WHICH_CODE in a.kinds for a in asks)
    events = read_dates(question, today)
    offence = None if comparison else offence_day(events, today)
    # A proceeding the question says has ended ("an FIR in 2020, but the case was closed in 2021") is pending no
    # longer.
    # A civil matter pending since before 2024-07-01 (a suit, a divorce petition, a consumer complaint) was never the
    # CrPC's: BNSS 531(2)(a) keeps the old procedure only for what the CrPC governed. What may prove it is still the
    # Evidence Act's (BSA 170(2) saves any pending proceeding): ``civil_evidence``.
    ongoing = tuple(e for e in events if not (e.kind is EventKind.PROCEEDING and _ended(question, e, events)))
    civil = tuple(e for e in ongoing if e.kind is EventKind.PROCEEDING and civil_proceeding(question, e))
    open_ = tuple(e for e in ongoing if e not in civil)
    civil_evidence = (not comparison and pending_since(civil, today) is not None and asks_evidence(question))
    proceedings = None if comparison else pending_since(open_, today)
    offence_asked = any(set(a.kinds) & {AskKind.PUNISHMENT, AskKind.INGREDIENTS} for a in asks) or (
        any(AskKind.WHICH_CODE in a.kinds for a in asks) and bool(_PENAL.search(question))) or names_penal_section(
        question)
    if (offence is None and proceedings is not None and offence_asked
            and not any(e.kind is EventKind.OFFENCE and (e.phrase or e.ongoing) for e in events)):
        # "charged with sedition in 2021, the trial is still pending. What is the punishment?": the offence came
        # before its charge, so the IPC governs it. An offence the question tells without a date ("was harassed for
        # dowry ... FIR was registered in Nov 2023") came before its FIR all the same; one still going on ("my
        # husband is still harassing me") goes on under the BNS.
        offence = proceedings
    closed = closed_day(question, events, today)
    if closed is not None:  # the caller reads the question again on that day
        offence = proceedings = None
    offence_on = offence.isoformat() if offence is not None else None
    proceedings_on = proceedings.isoformat() if proceedings is not None else None
    # an offence dated by what the story tells after it ("... finally she came back home in March 2024") is dated by
    # the story, not by the question: said so, and the answer is not High
    story_dated = offence is not None and any(e.by and e.kind is EventKind.OFFENCE and e.end == offence for e in events)
    # BNSS 531(2)(a): pending proceedings go on "as if this Sanhita had not come into force", under the CrPC as it
    # stood on the eve of 2024-07-01, not as it stood the day they began.
    checks = tuple(checks_for(offence_on, EVE if proceedings_on is not None or civil_evidence else None))
    if (offence is None and proceedings is None and closed is None and not comparison
            # which offence the story makes out, or which code governs it ("Which law will apply now since the new
            # criminal laws came after it happened?")
            and (_WHAT_OFFENCE.search(question) or _OLD_SECTION_ASKED.search(question)
                 or _SECTION_OR_COMPLAINT_ASKED.search(question) or any(AskKind.WHICH_CODE in a.kinds for a in asks))
            and all(c.act in ("IPC", "BNS") for c in checks if c.act)):  # another Act named: its own dates
        story = story_day(question, events, today)
        if story is not None:
            offence, story_dated = story, True
            offence_on = story.isoformat()
            checks = tuple(checks_for(offence_on, None))
    provisions = tuple(dict.fromkeys(
        (c.act, c.section) for c in checks if c.label is Label.PROVISION and c.act and c.section))
    acts = tuple(dict.fromkeys(c.act for c in checks if c.act))
    premises = premises_in(question, checks, lapsed,
                           old_law_day=as_of < CUTOVER or offence_on is not None or proceedings_on is not None)
    return QuestionFacts(
        as_of=as_of, dates=events, offence_on=offence_on, pending_since=proceedings_on,
        pending=today >= date.fromisoformat(CUTOVER) and (
            offence is not None or proceedings is not None or (
                named_pending(question) and not civil_evidence and not any(
                    e.kind in (EventKind.OFFENCE, EventKind.PROCEEDING) and e.phrase and e.start >= today_cutover
                    for e in events))),
        asks=asks, acts_named=acts, provisions_named=provisions,
        premises=premises, checks=checks, offence_by_story=story_dated,
        closed_on=closed.isoformat() if closed is not None else None,
        unknown_acts=_unknown_acts(checks, known_act), sums=tuple(sums_in(question)),
        personal_law=read_personal_law(question),
        asserted=asserts_law(question), child_accused=accuses_a_child(question), civil_evidence=civil_evidence,
    )  # fmt: skip



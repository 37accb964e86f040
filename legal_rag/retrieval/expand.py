"""Query expansion with curated terms of art (``data/retrieval/terms_of_art.jsonl``).

A query that uses a term of art ("dying declaration") gets the statute's own wording appended as
one more sentence, so BM25 finds the words and the heading channel gets a sentence to match.

Some entries put a client's account of the facts into the statute's words ("secretly filmed her" ->
"captures the image of a woman engaging in a private act"). Those are marked ``"when": "offence"``:
they describe an offence, and are appended only when the question asks about one (what offence, who is
liable, what punishment). Elsewhere they would pull the answer away from what was asked: "the victim
told the doctor who had attacked her; can her statement be used?" is about a dying declaration, not hurt.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from graph_schema.errors import IngestError
from legal_rag.retrieval.ages import age_statuses
from legal_rag.retrieval.hinglish import Glossary
from legal_rag.retrieval.jsonlines import json_objects, strings

_ASKER = r"(?:i|we|she|he|they|(?:my|the|our|her|his)\s+\w+)"
"""Who asks whether a case can be brought: "can I", "can my client", "can the victim"."""
_PENAL = r"(?:ipc|bns|i\.p\.c\.?|indian\s+penal\s+code|bharatiya\s+nyaya\s+sanhita|penal\s+code)\b"
ASKS_OFFENCE = re.compile(
    r"\b(?:what|which)\s+(?:\w+\s+){0,2}(?:offen[cs]es?|crimes?)\b|\bcharged?\s+(?:(?:him|her|them)\s+)?with\b"
    r"|\bguilty\s+of\b|\bcriminal(?:ly)?\s+liab(?:le|ility)\b|\bprosecuted\s+(?:for|under)\b"
    r"|\b(?:he|she|they|accused|client|person|husband|wife|man|woman)\s+be\s+charged\b"
    r"|\bpunish(?:ed|able|ment)\b|\bpenalt(?:y|ies)\b|\bsentence[ds]?\b"
    # how much prison the facts carry: "how much jail can he get", "jail term" (not "he is in jail", "spent three years
    # in jail as an undertrial")
    r"|\bhow\s+(?:much|many\s+years(?:\s+of)?)\s+(?:jail|prison|imprisonment)\b|\b(?:jail|prison)\s+(?:term|time)\b"
    r"|\bgo\s+to\s+(?:jail|prison)\b"
    r"|\bbook(?:ed)?\s+(?:(?:him|her|them)\s+)?(?:for|under)\b|\bbe\s+booked\b"
    r"|\b(?:case|complaint|fir|action)\s+against\b|\bis\s+(?:it|this|that)\s+(?:an?\s+)?(?:offen[cs]e|crime|criminal)\b"
    r"|\b(?:which|what)\s+(?:\w+\s+)?(?:sections?|provisions?)\s+(?:of\s+\w+\s+)?(?:apply|applies|attract|is|are|can|"
    r"could)\b"
    # what a charge sheet or an FIR cites is the offence ("Which murder provision should the charge sheet cite?")
    r"|\b(?:which|what)\s+(?:\w+\s+)?(?:sections?|provisions?)\s+(?:should|would|will|must|did|does)\s+(?:the\s+|"
    r"my\s+|his\s+|"
    r"her\s+)?(?:charge\s*-?sheet|chargesheet|FIR)\s+(?:\w+\s+)?(?:cite|mention|name|say|invoke|use|quote|carry|state|"
    r"show|have)\b"
    r"|\bunder\s+which\s+(?:section|provision)|\bhas\s+(?:he|she|they|it)\s+committed\b|\bcommitted\s+(?:an?\s+)?"
    r"(?:offen[cs]e|crime)\b"
    # whether what someone did is a crime, or what criminal case lies against them
    r"|\bwhat\s+(?:criminal|police)\s+(?:action|case|complaint)\b"
    rf"|\bcan\s+{_ASKER}\s+(?:file|lodge|register|bring)\s+(?:a\s+)?"
    r"(?:police|criminal)\s+(?:case|complaint)\b|\b(?:send|put)\s+(?:him|her|them)\s+(?:to|in|behind)\s+(?:jail|"
    r"prison|bars)\b"
    r"|\b(?:he|she|they|accused)\s+be\s+(?:jailed|imprisoned|prosecuted)\b"
    # which penal code the offence told is tried under: "will he be tried under the old IPC?", "prosecuted under the IPC
    # or the BNS?" ("tried in absentia", "convicted under the IPC in 2015 ... a government job?" are not)
    rf"|\bbe\s+(?:tried|prosecuted|charged|booked|punished)\s+under\s+(?:the\s+)?(?:old\s+|new\s+)?{_PENAL}"
    rf"|\b(?:tried|prosecuted|charged|booked|punished)\s+under\s+(?:the\s+)?(?:old\s+|new\s+)?{_PENAL}\s+or\s+"
    rf"(?:under\s+)?(?:the\s+)?(?:old\s+|new\s+)?{_PENAL}"
    r"|\bis\s+(?:it|this|that)\s+(?:illegal|punishable|against\s+the\s+law)\b"
    r"|\bis\s+(?:\w+\s+){1,6}(?:a\s+crime|an\s+offen[cs]e|punishable)\s*\?",
    re.IGNORECASE,
)
"""The question asks about an offence: which one the facts make out, who is liable, what punishment, or
what criminal case can be brought against someone. A bare "liable" counts only with ``CRIMINAL`` context: "are
the sons liable for his debts?" is about succession."""
CLIENT_ASK = re.compile(
    r"\bwhat\s+(?:legal\s+)?(?:action|case|complaint)\b(?!\s+law)|\bwhat\s+can\s+(?:i|we|she|he|they)\s+(?:do|file)\b"
    r"|\b(?:file|lodge|register)\s+(?:a\s+|an\s+)?(?:police\s+|criminal\s+)?(?:case|complaint|fir)\s+against\b"
    r"|\bfile\s+against\s+(?:him|her|them)\b"
    r"|\b(?:which|what)\s+laws?\s+(?:covers?|appl(?:y|ies)|deals?\s+with|is\s+(?:attracted|applicable))\b"
    rf"|\bcan\s+{_ASKER}\s+(?:file|lodge|register)\s+(?:a\s+|an\s+)?"
    r"(?:case|complaint|fir)\b",
    re.IGNORECASE,
)
"""A client's own ask, which may or may not be about an offence ("What can I do?", "Which law covers this?",
"What case can I file?"): it opens the gate for a lay account of an offence (``TermsOfArt.matches``), never
for the preference for offence provisions in an answer (``asks_offence``)."""
_LIABLE = re.compile(r"\bliab(?:le|ility)\b", re.IGNORECASE)
CRIMINAL = re.compile(
    r"\b(?:accused|police|fir|arrest\w*|murder\w*|kill\w*|stab\w*|assault\w*|beat\w*|crime|criminal|offen[cs]es?"
    r"|ipc|bns|theft|stole\w*|cheat\w*|rap(?:e|ed)|attack\w*|weapon|injur\w*|dowry|forg\w*|bribe\w*)\b",
    re.IGNORECASE,
)


def asks_offence(question: str) -> bool:
    """Whether ``question`` asks about an offence (``ASKS_OFFENCE``, or "liable" in a criminal matter)."""
    return bool(ASKS_OFFENCE.search(question)) or (bool(_LIABLE.search(question)) and bool(CRIMINAL.search(question)))


WHEN = frozenset({"always", "offence", "asked", "proof"})
_PROOF = re.compile(r"\b(?:evidence|evidentiary|prove[ds]?|proving|proof|admissib\w*|certificate|65\s?b|"
                    r"(?:be\s+)?(?:used|relied|accepted|produced)\s+(?:in|as|on|before|against|by)|"
                    r"rel(?:y|ied)\s+on|authentic\w*|tamper\w*)\b", re.IGNORECASE)
"""An ask about proving something ("Can the WhatsApp chats be used in court?", "Is a 65B certificate needed?")."""
SLOTS = {
    "{pron}": r"(?:my|his|her|their|our|your)",
    "{obj}": r"(?:me|him|her|them|us|you)",
}
"""Placeholders a term may use for the word that varies with who tells the story: "took {pron}" matches "took my",
"took his", ...; "locked {obj}" matches "locked me", "locked him", ..."""


SHAPE = ('{"terms": [strings], "expansion": string, "when": "always" | "offence" | "asked" | "proof", '
         '"with": [strings], '
         '"unless": [strings]}')
"""One line of the terms file (``when``, ``with`` and ``unless`` optional)."""


CODE_FAMILY = {"BNS": "IPC", "IPC": "BNS", "BNSS": "CRPC", "CRPC": "BNSS", "BSA": "IEA", "IEA": "BSA"}
"""Each criminal code and the code it replaced (or that replaced it) on 2024-07-01."""
_PHRASE_BREAK = re.compile(r"[;:]")
_EVIDENCE_ACT = re.compile(r"(?:^|;)\s*([A-Za-z][A-Za-z0-9]*)\b")


_SENTENCE_END = re.compile(r"(?<=[?!.])\s+(?=[A-Z\"'\u201c\u2018])|\n+")
"""A sentence's end: not the dot of "FIR No. 234/2024"."""
_BACK_REFERENCE = re.compile(r"\b(?:sign|lodge|register|file|submit|amend|withdraw|quash|cancel|verify|"
                             r"copy\s+of)\s+(?:it|them)\b", re.IGNORECASE)
"""An ask that acts on the step the story told, by a pronoun ("Within how many days must he go and sign it?", "Can I
get a copy of it?"); not one about something else done to it ("What punishment can they get for it?")."""


def _sentence_at(text: str, at: int) -> str:
    """The sentence of ``text`` that holds position ``at``."""
    start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, at)), default=0)
    end = next((m.start() for m in _SENTENCE_END.finditer(text, at)), len(text))
    return text[start:end]


def asking_sentences(text: str) -> str:
    """The sentences of ``text`` that ask (ending in "?"), without the story told before them; all of it when none
    ends in "?" ("I want to lodge an FIR against my neighbour. Police are refusing.")."""
    sentences = [x for x in _SENTENCE_END.split(text.strip()) if x.strip()]
    asking = [x for x in sentences if x.rstrip().endswith("?")]
    return " ".join(asking) or text


def evidence_acts(evidence: str) -> frozenset[str]:
    """The Act codes a term's ``evidence`` names, each at the start of a ";"-separated part: "BNS 106, 281; IPC 304A,
    279" -> {"BNS", "IPC"}; "CrPC 438" -> {"CRPC"}."""
    return frozenset(m.group(1).upper() for m in _EVIDENCE_ACT.finditer(evidence))


def _pattern(terms: list[str]) -> re.Pattern[str]:
    """Any of ``terms`` as whole words, case-insensitively: longest first, any run of spaces or hyphens between
    words ("in-laws" matches "in laws" and the other way round), each slot (``SLOTS``) replaced by its words."""
    out = []
    for t in sorted((t.strip() for t in terms), key=len, reverse=True):
        words = []
        for word in re.split(r"[\s-]+", t):
            pattern = re.escape(word)
            for slot, alternatives in SLOTS.items():
                pattern = pattern.replace(re.escape(slot), alternatives)
            words.append(pattern)
        out.append(r"[\s-]+".join(words))
    return re.compile(rf"(?<![\w-])(?:{'|'.join(out)})(?![\w-])", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Term:
    pattern: re.Pattern[str]
    expansion: str
    offence_only: bool = False
    """An account of facts in lay words: appended only to a question that asks about an offence."""
    asked_only: bool = False
    """A step of a proceeding a story often reports as done ("the FIR copy says '379 IPC'", "the chargesheet was
    filed in September 2024"): appended only when a sentence that asks names it ("How do I lodge an FIR?") or acts on
    what the story told ("... sent his complaint as an e-FIR. Within how many days must he sign it?")."""
    proof_only: bool = False
    """The means of proving something ("WhatsApp messages", "call recordings", "CCTV footage"): not appended to a
    question that asks about an offence or what to file and says nothing of proving ("He sent WhatsApp messages
    saying he would kill my children. What was the offence?"), where the evidence wording outweighed the offence."""
    context: re.Pattern[str] | None = None
    """Words of which one must also be in the question ("money from her parents" is a dowry demand only where a
    husband or in-laws are spoken of)."""
    unless: re.Pattern[str] | None = None
    """Words that put the facts under another provision, in whose presence in the term's own sentence the term does
    not apply: a death caused "carelessly" or "negligently" is, in the statute's words, "not amounting to culpable
    homicide" (IPC 304A, BNS 106), so "killed" is not glossed as murder there ("My father was careless with his
    health. My uncle killed my brother." keeps the gloss)."""
    acts: frozenset[str] = frozenset()
    """The Acts whose wording the expansion is (the codes its ``evidence`` names: "BNS 106, 281; IPC 304A" -> BNS,
    IPC); empty: any."""

    def applies_to(self, acts: frozenset[str] | None) -> bool:
        """Whether the term's wording can be found among ``acts`` (upper-case codes with their families,
        ``search_acts``; None: the whole index)."""
        return acts is None or not self.acts or bool(self.acts & acts)


def search_acts(acts: Collection[str] | None) -> frozenset[str] | None:
    """The Acts a search confined to ``acts`` reads the terms of, as upper-case codes. A criminal code and the one it
    replaced are one body of law: a gloss from the BNS applies to a search of the IPC ("snatching" for a 2023
    offence). None: the whole index."""
    if acts is None:
        return None
    wanted = {a.upper() for a in acts}
    return frozenset(wanted | {CODE_FAMILY[a] for a in wanted if a in CODE_FAMILY})


@dataclass(frozen=True, slots=True)
class TermsOfArt:
    terms: tuple[Term, ...]
    glossary: Glossary = Glossary(())
    """Hinglish words glossed into English before the terms are matched (``hinglish.py``)."""

    @classmethod
    def load(cls, path: Path, glossary: Path | None = None) -> TermsOfArt:
        """Read the curated file (and the Hinglish glossary, when given).

        Raises:
            IngestError: a malformed line (file:line named).
        """
        out: list[Term] = []
        words = Glossary.load(glossary) if glossary is not None else Glossary(())
        if not path.exists():
            return cls((), words)
        for n, obj in json_objects(path, SHAPE):
            terms, expansion, when = obj.get("terms"), obj.get("expansion"), obj.get("when", "always")
            context: list[str] | None = None
            unless: list[str] | None = None
            if not strings(terms):
                raise IngestError(f'{path}:{n}: "terms" must be a list of non-empty strings {SHAPE}')
            if not isinstance(expansion, str) or not expansion.strip():
                raise IngestError(f'{path}:{n}: "expansion" must be a non-empty string {SHAPE}')
            if not isinstance(when, str) or when not in WHEN:
                raise IngestError(f'{path}:{n}: "when" must be one of {sorted(WHEN)}, not {when!r}')
            if "with" in obj:
                given = obj["with"]
                if not strings(given):
                    raise IngestError(f'{path}:{n}: "with" must be a list of non-empty strings {SHAPE}')
                context = given
            if "unless" in obj:
                given = obj["unless"]
                if not strings(given):
                    raise IngestError(f'{path}:{n}: "unless" must be a list of non-empty strings {SHAPE}')
                unless = given
            for t in terms + (context or []) + (unless or []):
                bad = [b for b in re.findall(r"\{[^{}]*\}?|\}", t) if b not in SLOTS]
                if bad:
                    raise IngestError(f"{path}:{n}: unknown placeholder {bad[0]!r} in {t!r}; known: {', '.join(SLOTS)}")
            evidence = obj.get("evidence")
            out.append(Term(_pattern(terms), expansion.strip(), offence_only=when == "offence",
                            asked_only=when == "asked", proof_only=when == "proof",
                            context=_pattern(context) if context else None, unless=_pattern(unless) if unless else None,
                            acts=evidence_acts(evidence) if isinstance(evidence, str) else frozenset()))
        return cls(tuple(out), words)

    def found_in(self, texts: Mapping[str, str]) -> TermsOfArt:
        """These terms, each applying also to the Acts (``texts``: Act code -> its lower-cased headings and text) that
        use a phrase of its expansion (three words or more between ";" and ":"): "cheating by personation", glossed
        for "pretending to be" from the penal code (its ``evidence``), is the IT Act's word for 66D too."""
        out = []
        for t in self.terms:
            phrases = [p.strip().lower() for p in _PHRASE_BREAK.split(t.expansion) if len(p.split()) >= 3]
            found = {act for act, text in texts.items() if any(p in text for p in phrases)}
            out.append(replace(t, acts=t.acts | found) if t.acts and found - t.acts else t)
        return TermsOfArt(tuple(out), self.glossary)

    def matches(self, query: str, *, offence_told: bool = False,
                acts: Collection[str] | None = None) -> list[tuple[re.Match[str], Term]]:
        """The terms that apply to ``query``, each with where it first matched. ``offence_told``: the caller knows the
        question tells of an offence (its facts date one), so the offence terms apply whatever it asks. ``acts``: the
        search is confined to these Acts, so a term whose wording is another Act's does not apply ("drunk driving"
        glossed in the penal code's "rash driving" words pulls a search of the Motor Vehicles Act away from its own
        "Driving by a drunken person")."""
        out: list[tuple[re.Match[str], Term]] = []
        offence: bool | None = True if offence_told else None  # computed once, and only if an offence term matches
        searched = search_acts(acts)
        asking: str | None = None  # computed once, and only if a term applies when asked
        for t in self.terms:
            if not t.applies_to(searched):
                continue
            if t.asked_only:
                asking = asking_sentences(query) if asking is None else asking
                if t.pattern.search(asking) is None and not _BACK_REFERENCE.search(asking):
                    continue
            m = t.pattern.search(query)
            if m is None or (t.context is not None and not t.context.search(query)) or (
                    t.unless is not None and t.unless.search(_sentence_at(query, m.start()))):
                continue
            if t.offence_only or t.proof_only:
                offence = (asks_offence(query) or bool(CLIENT_ASK.search(query))) if offence is None else offence
                if (t.offence_only and not offence) or (t.proof_only and offence and not _PROOF.search(query)):
                    continue
            out.append((m, t))
        return out

    def expand(self, query: str, *, offence_told: bool = False, acts: Collection[str] | None = None) -> str:
        """``query`` plus its English gloss when it is Hinglish, plus the statutory wording of each term of art
        either uses and of the status each age it tells gives (``ages.py``) (each once; ``offence_told``: as for
        ``matches``)."""
        glossed = self.glossary.gloss(query)
        if glossed is not None:
            query = f"{query.rstrip()} {glossed}"
        terms = self.matches(query, offence_told=offence_told, acts=acts)
        extra = [t.expansion for _, t in terms] + age_statuses(query)
        extra = [e for e in dict.fromkeys(extra) if e.lower() not in query.lower()]
        if not extra:
            return query
        return query.rstrip() + ("" if query.rstrip().endswith((".", "?", "!")) else ".") + " " + ". ".join(extra) + "."

"""The offline generator: an answer made only of verbatim sentences of the retrieved provisions.

Each answer sentence is ``Section N of the <Act> provides: "<verbatim sentence>"``, grouped by
provision and citing the chunk it was copied from, so every quote verifies exactly and every
citation is one the graph can check. When retrieval is weak (the best passage barely relates to
the question) it says plainly that the loaded sources do not answer, instead of guessing.

How many provisions and sentences it quotes grows with the question's complexity.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from graph_schema.numbering import roman_value
from legal_rag.retrieval.expand import TermsOfArt, asks_offence
from legal_rag.retrieval.hybrid import OLD_TO_NEW
from legal_rag.retrieval.offences import (
    PENAL_CODES,
    PROCEDURE_CODES,
    is_offence,
    is_punishment_heading,
    offence_partners,
    punishes,
    read_with,
)
from legal_rag.retrieval.tokenize import ASK_VOCABULARY, light_stem
from legal_rag.workflow.amounts import admits, sums_in
from legal_rag.workflow.comparison import comparison_sides
from legal_rag.workflow.parts import question_parts
from legal_rag.workflow.relevance import Candidate, Decision, RelevanceModel, as_vector, choose
from legal_rag.workflow.types import PUT_FORWARD, AnswerSentence, Complexity, Generation, Passage, Pin

INSUFFICIENT = (
    "The loaded statutes do not answer this question: no retrieved provision is close enough to it. "
    "Rephrase it, name the provision, or check the position independently."
)

_SENT = re.compile(r"(?<=[.:])\s+(?=[A-Z(\"“])")
_WORD = re.compile(r"[A-Za-z][A-Za-z\-]+")
STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "for",
        "by",
        "with",
        "and",
        "or",
        "as",
        "at",
        "be",
        "is",
        "are",
        "was",
        "were",
        "been",
        "being",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "any",
        "such",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "how",
        "why",
        "shall",
        "may",
        "not",
        "no",
        "under",
        "section",
        "act",
        "sub",
        "clause",
        "provided",
        "person",
        "whoever",
        "said",
        "there",
        "their",
        "them",
        "they",
        "he",
        "she",
        "his",
        "her",
        "him",
        "if",
        "than",
        "other",
        "into",
        "upon",
        "from",
        "does",
        "do",
        "did",
        "can",
        "will",
        "would",
        "should",
        "could",
        "about",
        "also",
        "has",
        "have",
        "had",
        "one",
        "two",
        "all",
        "each",
        "every",
        "some",
        "more",
        "most",
        "only",
        "same",
        "so",
        "then",
        "provision",
        "provisions",
        "law",
        "legal",
        "court",
        "say",
        "says",
        "tell",
        "explain",
        "mean",
        "means",
        "meaning",
    ]
)

LAY_USABLE = 0.1
"""The lay channel's score (``Passage.told_score``, above its floor) at which a provision matched to the story may be
quoted however far its dense cosine is: a situation that barely clears the floor ("enticing a married woman" for a
girl of sixteen taken away) is no match."""
LAY_PLACE = 0.2
"""The lay channel's score at which the provision whose situation is closest to the story keeps a place."""
FUSED_TOP = 3
"""How many of retrieval's best sections by fused score may be quoted below the dense threshold (``fused_best``)."""
FUSED_FLOOR = 0.25
"""The dense cosine below which even one of retrieval's best sections by fused score is too far in meaning to quote."""
FUSED_BESIDE = 0.45
"""The dense cosine of some usable provision (or a lay situation at ``LAY_PLACE``) without which none of retrieval's
best by fused score is quoted below the threshold: beside provisions that only just clear it ("Who is the best
property lawyer in Lucknow?": "Charges" of property at 0.36), the question is likely one no statute answers."""


def fused_best(passages: Sequence[Passage], top: int = FUSED_TOP) -> set[tuple[str, str]]:
    """The ``top`` sections (Act, section) with the highest fused retrieval scores among those retrieval scored (not
    pinned: a pinned passage carries an infinite score, and is quoted for what the question names)."""
    best: dict[tuple[str, str], float] = {}
    for p in passages:
        if p.pinned is None and math.isfinite(p.score) and p.score > 0:
            key = (p.act, p.section)
            best[key] = max(best.get(key, p.score), p.score)
    return set(sorted(best, key=lambda k: -best[k])[:top])


PROVISIONS = {Complexity.SIMPLE: 2, Complexity.STANDARD: 3, Complexity.COMPLEX: 5, Complexity.ANALYTICAL: 5}
SENTENCES = {Complexity.SIMPLE: 3, Complexity.STANDARD: 2, Complexity.COMPLEX: 2, Complexity.ANALYTICAL: 2}


_SUFFIXES = ("ments", "ment", "ably", "able", "ible", "ings", "ing", "ions", "ion", "ies", "ed", "es", "s")


_IRREGULAR = {
    **dict.fromkeys(("sold", "sale", "sales", "sell", "sells", "selling"), "sell"),
    **dict.fromkeys(("died", "dies", "die", "dying", "dead", "death", "deaths"), "death"),
    **dict.fromkeys(("married", "marry", "marries", "marriage", "marriages"), "marry"),
    **dict.fromkeys(("bought", "buy", "buys", "buying"), "buy"),
    **dict.fromkeys(("stole", "stolen", "steal", "steals", "stealing"), "steal"),
    **dict.fromkeys(("paid", "pay", "pays", "paying", "payment", "payments"), "pay"),
    **dict.fromkeys(("lent", "lend", "lends", "lending"), "lend"),
    **dict.fromkeys(("gave", "given", "give", "gives", "giving"), "give"),
    **dict.fromkeys(("took", "taken", "take", "takes", "taking"), "take"),
    **dict.fromkeys(("born", "birth", "births"), "birth"),
    **dict.fromkeys(("broke", "broken", "break", "breaks", "breaking"), "break"),
    **dict.fromkeys(("threw", "thrown", "throw", "throws", "throwing"), "throw"),
    **dict.fromkeys(("sent", "send", "sends", "sending"), "send"),
    **dict.fromkeys(("kept", "keep", "keeps", "keeping"), "keep"),
    **dict.fromkeys(("held", "hold", "holds", "holding"), "hold"),
    **dict.fromkeys(("wrote", "written", "write", "writes", "writing"), "write"),
    **dict.fromkeys(("register", "registers", "registered", "registering", "registration", "registrable"), "register"),
}
"""English forms a suffix does not join (irregular pasts, a verb and its noun): "sold" and the statute's "sale",
"died" and "death"."""
_NEGATED = re.compile(r"^(?:non-?|un)")
"""A negating prefix that leaves the subject when what it negates is one of ``_IRREGULAR``'s words ("unregistered"
and "non-registration" are about registration); elsewhere it stays ("non-bailable" is not "bailable")."""


def stem(word: str) -> str:
    """A crude stem that conflates what statute text and questions vary: punishment / punished /
    punishable -> punish, extortion -> extort, arrested -> arrest, sold / sale -> sell."""
    w = word.lower()
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if (bare := _NEGATED.sub("", w)) in _IRREGULAR:
        return _IRREGULAR[bare]
    w = light_stem(w)
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 4:
            return w[: -len(suf)]
    return w


def content_stems(text: str) -> set[str]:
    return {stem(w) for w in _WORD.findall(text) if w.lower() not in STOP and len(w) > 2}


ASK_WORDS = frozenset(content_stems(ASK_VOCABULARY))
"""Words of what an ask wants (a punishment, a time limit, a forum ...), not of what it is about: a provision that
shares only these with a question ("Punishment for offence for which no punishment is provided" beside "What is the
punishment for extortion?") bears on no ask of it."""


def shares_subject(passages: Sequence[Passage], subject: set[str]) -> bool:
    """Whether a provision's heading or text, or the lay situation by which retrieval matched the question's story to
    it (``Passage.told``), holds a word of what the question is about, leniently: the parts of a compound
    ("house-trespass" for "trespass") and longer words that begin with one ("gunfire" for "gun")."""
    text = " ".join((passage_title(passages[0]), *(p.text for p in passages), *(p.told for p in passages)))
    stems = content_stems(text) | content_stems(text.replace("-", " "))
    return any(w in stems or (len(w) >= 3 and any(s.startswith(w) for s in stems)) for w in subject)


_ILLUSTRATION = re.compile(r"\b[A-Z]\b(?!\.)")  # "A threatens Z": illustrations name parties by single letters


def is_illustration(sentence: str) -> bool:
    return len(_ILLUSTRATION.findall(sentence)) >= 2


_HEADING_PREFIX = re.compile(r"^\S+\s+s\.\s*\S+\s+")
"""The "BNS s.303(2) " a chunk heading starts with."""
_DEATH_TOLD = re.compile(r"\b(?:death|deaths|dead|died|dies|die|dying|kill\w*|murder\w*|homicide|suicide|"
                         r"lost\s+(?:his|her|their)\s+lives?|passed\s+away|drowned|hanged|hanging|body|fatal\w*|"
                         r"succumbed|life|poison\w*|burnt|burned|jumped|set\s+(?:herself|himself)\s+(?:on\s+)?fire|"
                         r"deceased|post-?\s?mortem|autopsy|demise|no\s+more|stabb\w*|strangl\w*|shot|gunshot|"
                         r"attempt\w*|tried\s+to)\b",
                         re.IGNORECASE)
_DEATH_TITLE = re.compile(r"\b(?:death|murder|homicide|suicide)\b", re.IGNORECASE)
"""A provision's title whose offence or presumption a death makes ("Dowry death", "Presumption as to dowry death",
"Punishment for murder", "Abetment of suicide")."""


def tells_a_death(question: str, stems: Collection[str] = ()) -> bool:
    """Whether the question, or the statutes' wording its story was glossed with (``stems``), tells of a death."""
    return _DEATH_TOLD.search(question) is not None or any(_DEATH_TOLD.fullmatch(s) for s in stems)


def _bearing_on_a_death(
    groups: list[tuple[tuple[str, str], list[Passage]]], question: str, q: set[str],
) -> list[tuple[tuple[str, str], list[Passage]]]:
    """An offence a death makes ("Dowry death", "Murder"), or the code's presumption of one, bears on no story without
    one, however close its situation: a dowry demand with beatings is cruelty and a demand, not a dowry death. Other
    Acts' provisions that speak of a death ("Payment of compensation in case of death or permanent disablement")
    stay: they answer what the question asks of them."""
    if tells_a_death(question, q):
        return groups
    return [g for g in groups
            if not (g[0][0] in _DEATH_CODES and _DEATH_TITLE.search(passage_title(g[1][0])))]


_DEATH_CODES = PENAL_CODES | {"BSA", "IEA"}


FUSED_WEIGHT = 0.5
"""Weight in the hand ``fit`` of a candidate's fused retrieval score (over the best candidate's), chosen by replaying
the generator's recorded candidates for development questions (docs/evaluation.md, seventeenth session)."""
OFFENCE_BONUS = 0.3
"""Added to a provision that defines or punishes an offence when the question asks about one
(``expand.asks_offence``: "What offence has he committed?", "is she criminally liable", "punishment for ...")."""
PUNISHES_BONUS = 0.15
"""Added on top for one that punishes it, or defines it and has its punishing partner retrieved: a charge is
framed under the punishing section."""
BOUND_PENALTY = 0.5
"""Taken from a provision whose bounds on the value it governs exclude the sum the question tells (``amounts``)."""


def passage_title(p: Passage) -> str:
    """A passage's section heading without its "BNS s.303(2) " prefix: "Theft"."""
    return heading_title(p.heading)


def heading_title(heading: str) -> str:
    """A heading as a chunk or passage carries it, without its "BNS s.303(2) " prefix: "Theft"."""
    return _HEADING_PREFIX.sub("", heading)


_GENERIC_SIDE = frozenset({"offenc", "offence", "crime", "provision", "section", "law", "act", "code"})


def side_pick(
    side: str, groups: Sequence[tuple[tuple[str, str], list[Passage]]]
) -> tuple[tuple[str, str], list[Passage]] | None:
    """The provision headed by one side of a comparison: its heading holds every content word of the side
    ("Culpable homicide" for "culpable homicide"), the one with the fewest other words first ("Abetment of a
    thing" before "Punishment of abetment if ..."), then one that defines rather than punishes ("Abetment of a
    thing" before "Punishment for abetment": a comparison is between what things are), then retrieval order;
    None when no heading names it."""
    want = content_stems(side) - _GENERIC_SIDE
    if not want:
        return None
    best: tuple[float, bool, int] | None = None
    pick = None
    for rank, g in enumerate(groups):
        title = passage_title(g[1][0])
        heading = content_stems(title)
        if want <= heading:
            key = (len(want) / len(heading), not is_punishment_heading(title), -rank)
            if best is None or key > best:
                best, pick = key, g
    return pick
_LEAD_IN = re.compile(  # "Whoever,--", "the following, namely:"; not "... or with both:" before a proviso
    r"(?:(?:-|\u2014|\u2013)|(?:namely|following|as follows|that is to say|to wit|includes?|means)\W*:|,)\W*$")


def lead_in_only(text: str) -> bool:
    """A chunk that is nothing but the words a provision's clauses complete ("Whoever, while driving ... a motor
    vehicle,--"): no sentence of it can be quoted alone."""
    return bool(_LEAD_IN.search(text.strip())) and not quotable(sentences_of(text))


_PARTY = re.compile(  # "A is punishable", "(b) A has committed", "Z dies": a party of an illustration, not "A person"
    r"^(?:\(\w{1,4}\)\s*)?(?:[B-Z]\s+[a-z]|A\s+(?:is|has|was|had|and|being|commits|cheats|intending|knowing|"
    r"having|in|by|at|thereby|therefore|may|shall|did|does)\b|A,)")


def stands_alone(sentence: str) -> bool:
    """Can the sentence be quoted by itself? Not an illustration ("A has committed the offence defined in
    this section." says nothing without the facts before it), not a lead-in that ends in a dash or colon
    ("Whoever,--"), not a clause that starts in the middle of a sentence."""
    s = sentence.strip().strip('"\u201c\u201d')
    return bool(s) and not (is_illustration(s) or _PARTY.match(s) or _LEAD_IN.search(s) or s[0].islower())


def quotable(sentences: Sequence[str], *, pinned: bool = False) -> list[str]:
    """The sentences that stand alone. When none does, all of them for a provision the question named
    (``pinned``: a provision that is only a list still shows what it is when asked for), and none for
    one retrieval brought in ("The punishments to which offenders are liable ... are--" answers nothing)."""
    alone = [s for s in sentences if stands_alone(s)]
    return alone or (list(sentences) if pinned else [])


_ILLUSTRATIONS = re.compile(r"(?m)^[ \t]*Illustrations?\b[\s\S]*?(?=\n\s*Explanation\b|\Z)")
"""An "Illustrations." block, up to the next Explanation: examples ("A makes an attempt to steal some jewels
... He has done an act towards the commission of theft"), never the rule."""


def _quotable_in(passages: Sequence[Passage], *, pinned: bool = False) -> list[tuple[Passage, str]]:
    """The distinct sentences of a provision's passages, in order, that can be quoted (see ``quotable``);
    illustrations are left out."""
    pairs: dict[str, Passage] = {}
    for p in passages:
        for s in sentences_of(_ILLUSTRATIONS.sub(" ", p.text)):
            pairs.setdefault(s, p)
    keep = set(quotable(list(pairs), pinned=pinned))
    return [(p, s) for s, p in pairs.items() if s in keep]


def _leading(passages: Sequence[Passage]) -> bool:
    return any(p.pinned in LEADING for p in passages)


def sentences_of(text: str) -> list[str]:
    """Sentences of statute text, verbatim (whitespace as in the source)."""
    return [s.strip() for s in _SENT.split(text) if len(s.split()) >= 4]


@dataclass
class ExtractiveGenerator:
    """Offline default ``Generator``.

    Args:
        act_titles: Act code -> full title ("BNS" -> "Bharatiya Nyaya Sanhita, 2023"), so the
            citations read as a lawyer writes them and resolve in the verifier.
        weak: ``Passage.relevance`` below which a passage is taken not to answer the question.
    """

    act_titles: Mapping[str, str]
    weak: float = 0.35
    terms: TermsOfArt | None = None
    """Terms of art: "dying declaration" also matches the statute's "cause of his death"."""
    relevance: RelevanceModel | None = None
    """Ranks the retrieved provisions and leaves out those below its threshold (``workflow.relevance``); None:
    the hand-weighted ``fit``."""
    recorder: Callable[[Decision], None] | None = None
    """Called with each generation's candidates and their features (``legal-rag eval train-relevance`` collects
    them); never changes the answer."""
    name: str = "extractive"

    def generate(self, question: str, passages: Sequence[Passage], *, as_of: str, complexity: Complexity) -> Generation:
        # pinned for what the question names, or relevant, or matched to the story it tells by a lay situation (a
        # client's words are far in meaning from the statute's: "demanding 50k or he sends my pics" from extortion);
        # ``Pin.ASK`` is put forward for an ask's kind, not its subject
        usable = [p for p in passages if (p.pinned and p.pinned not in PUT_FORWARD) or p.relevance >= self.weak
                  or p.told_score >= LAY_USABLE]
        # ... or among retrieval's very best for the whole question (its fused score weighs the words the question
        # shares with the provision, which its dense cosine alone misses: "secondary evidence" of a lost agreement in
        # BSA 58, a tooth to be pulled out in "Grievous hurt"), where it is not far in meaning either; only beside a
        # provision that plainly bears on the question by its meaning (not one pinned for its dates, the savings or an
        # old code's counterpart): where none does, the question is likely one the statutes do not answer ("Who is the
        # best property lawyer in Lucknow?"), and shared words prove nothing
        if any(p.pinned in (None, Pin.CITED, Pin.DEFINITION) and (p.relevance >= FUSED_BESIDE
                                                                   or p.told_score >= LAY_PLACE) for p in usable):
            best, kept = fused_best(passages), {id(p) for p in usable}
            usable = [p for p in passages if id(p) in kept or (
                (p.act, p.section) in best and p.relevance >= FUSED_FLOOR)]
        if not usable:
            return Generation((AnswerSentence(INSUFFICIENT),), self.name, insufficient=True)
        # a term of art whose wording is in no Act at hand ("drunk driving" in the penal code's words, for a question
        # answered from the Motor Vehicles Act alone) would only favour what shares those words
        at_hand = {p.act for p in usable}
        q = content_stems(self.terms.expand(question, acts=at_hand) if self.terms else question)
        groups: dict[tuple[str, str], list[Passage]] = {}
        for p in usable:
            groups.setdefault((p.act, p.section), []).append(p)
        parts = question_parts(question)
        n = PROVISIONS[complexity] + _pinned_extra(usable) + max(0, len(parts) - 1)
        chosen = self._provisions(q, list(groups.items()), n, question=question, parts=parts, at_hand=at_hand)
        out: list[AnswerSentence] = []
        for _, ps in chosen:
            leading = _leading(ps)
            picked = self._sentences(q, ps, SENTENCES[complexity], pinned=leading,
                                     from_start=leading and not any(p.pinned is Pin.DEFINITION for p in ps))
            # A clause is quoted after the words that introduce it ("If any person ... refuses to maintain--" ...
            # "(a) his wife ..."), cited to the unit that holds both; clauses of one lead-in share a sentence.
            runs: list[tuple[tuple[Passage, str] | None, list[tuple[Passage, str]]]] = []
            for p, sentence in picked:
                lead = _lead_in(p, sentence, ps)
                if lead is not None and runs and runs[-1][0] is not None and runs[-1][0][0] is lead[0]:
                    runs[-1][1].append((p, sentence))
                else:
                    runs.append((lead, [(p, sentence)]))
            for lead, items in runs:
                if lead is None:
                    p, sentence = items[0]
                    out.append(AnswerSentence(f'{self._cite(p)}{_says(p)}: "{_nested(sentence)}"', (p.chunk_id,)))
                else:
                    lp, words = lead
                    items = _in_clause_order(items)
                    quotes = " \u2026 ".join(f'"{_nested(s)}"' for _, s in items)
                    out.append(AnswerSentence(f'{self._cite(lp)}{_says(lp)}: "{_nested(words)}" \u2026 {quotes}',
                                              (lp.chunk_id, *(p.chunk_id for p, _ in items))))
        if not out:
            return Generation((AnswerSentence(INSUFFICIENT),), self.name, insufficient=True)
        return Generation(tuple(out), self.name)

    def _provisions(
        self, q: set[str], groups: list[tuple[tuple[str, str], list[Passage]]], n: int, candidates: int = 8,
        question: str = "", parts: Sequence[str] = (), at_hand: Collection[str] | None = None,
    ) -> list[tuple[tuple[str, str], list[Passage]]]:
        """Provisions named in the question first; then, of the first ``candidates`` retrieved, those
        whose best sentence covers most of the question (retrieval order breaks ties): "punishment
        for theft" wants the section that says "whoever commits theft shall be punished", not the
        first section that mentions a punishment."""
        offence_q = asks_offence(question)
        pinned = [g for g in groups if _leading(g[1])]
        # A provision the question did not name is a candidate only if it has a sentence that can be quoted.
        others = [g for g in groups if g not in pinned and _quotable_in(g[1])]
        counterparts = [g for g in others if any(p.pinned is Pin.COUNTERPART for p in g[1])]
        # The provision whose heading names what an ask wants ("Jurisdiction" for "where do I file?") is quoted.
        decisive = [g for g in others if any(p.pinned in PUT_FORWARD for p in g[1])]
        rest = counterparts + [g for g in others if g not in counterparts and g not in decisive][:candidates]
        rest = _bearing_on_a_death(rest, question, q)
        partners = _partners(groups)

        Item = tuple[int, tuple[tuple[str, str], list[Passage]]]

        def evidence(item: Item, q: set[str]) -> tuple[float, set[str], float]:
            """What ``fit`` weighs: the best sentence's cover, the heading's stems and the offence bonus."""
            _, (_, ps) = item
            heading = content_stems(passage_title(ps[0]))
            # and under the lay situation by which retrieval matched the question's story to it ("my uncle produced
            # a will with grandfather's forged signature" for the forgery of a will, which says none of those words)
            told = content_stems(" ".join(p.told for p in ps))
            best = 0.0
            for _, s in _quotable_in(ps):
                stems = content_stems(s)
                hit = len(q & stems)
                # A sentence is read under its heading: BNS 109(1) never says "attempt" or "murder" ("whoever
                # does any act with such intention ... shall be punished"), its heading "Attempt to murder" does.
                # Recall of the question by both, plus precision: a short rule beats a long one.
                read = len(q & (stems | heading | told))
                best = max(best, read / (len(q) or 1) + 0.5 * hit / (len(stems) or 1))
            offence = 0.0
            if offence_q and is_offence(ps[0].act, title := passage_title(ps[0]), ps[0].text):
                # A charge is framed under the section that punishes ("IPC 457", not the definition in 444); a
                # definition whose punishing partner was retrieved is quoted with it, so the pair punishes.
                punishing = any(punishes(title, p.text) for p in ps) or f"{ps[0].act}:{ps[0].section}" in partners
                offence = OFFENCE_BONUS + (PUNISHES_BONUS if punishing else 0.0)
            return best, heading, offence

        # the provisions whose bounds on a sum exclude the one told ("does not exceed one crore rupees" for "paid Rs
        # 15 crore"), read once for every fit of them
        sums = sums_in(question)
        excluded = {key for key, ps in rest if sums and admits(" ".join(p.text for p in ps), sums) is False}

        top_score = max((p.score for _, ps in rest for p in ps if math.isfinite(p.score)), default=0.0)

        def fit(item: Item, q: set[str] = q) -> float:
            rank, (key, ps) = item
            best, heading, offence = evidence(item, q)
            offence -= BOUND_PENALTY if key in excluded else 0.0
            # Recall and precision of the heading: "Theft" names the subject of "punishment for theft" exactly;
            # "Punishment for intentionally running vessel aground ... to commit theft" mentions it in passing.
            head = 0.5 * len(q & heading) / (len(q) or 1) + 0.5 * len(q & heading) / (len(heading) or 1)
            # and retrieval's own judgement, which weighs the lexical, dense and lay channels together: the words a
            # provision shares with the question favour the one that repeats them ("divorce" in the Divorce Act's
            # grounds for a Hindu wife's bigamy story), the fused score the one retrieval found for the whole story
            return (best + 0.25 * head + 0.3 * max(p.relevance for p in ps) + 0.1 / (rank + 1)
                    + FUSED_WEIGHT * _fused(ps, top_score) + offence)

        def features(item: Item) -> tuple[float, ...]:
            """The relevance model's ``FEATURES`` for a candidate (computed only for a model or a recorder)."""
            rank, (key, ps) = item
            best, heading, offence = evidence(item, q)
            text = " ".join(p.text for p in ps)
            procedure = float(key[0] in PROCEDURE_CODES)
            return as_vector({
                "sentence_cover": best,
                "heading_recall": len(q & heading) / (len(q) or 1),
                "heading_precision": len(q & heading) / (len(heading) or 1),
                "dense": max(p.relevance for p in ps),
                "fused": _fused(ps, top_score),
                "rank": 1.0 / (rank + 1),
                "offence_asked": float(offence > 0),
                "punishes_asked": float(offence > OFFENCE_BONUS),
                "procedure_act": procedure,
                "offence_q_procedure": procedure * float(offence_q),
                "act_share": acts.count(key[0]) / len(acts),
                "same_act_as_first": float(key[0] == acts[0]),
                "text_cover": len(q & (content_stems(text) | heading)) / (len(q) or 1),
                "counterpart": float(any(p.pinned is Pin.COUNTERPART for p in ps)),
                "log_length": math.log1p(len(text)),
            })  # fmt: skip

        hand = [fit(item) for item in enumerate(rest)]
        ranked = [rest[i] for i in choose(hand, None, None, "gate", placed_first=False)]
        # A comparison quotes each side's own provision first ("theft" and "extortion": the sections so headed).
        sides: list[tuple[tuple[str, str], list[Passage]]] = []
        for side in comparison_sides(question):
            pick = side_pick(side, [g for g in others if g not in sides])
            if pick is not None:
                sides.append(pick)
        # A multi-part question quotes each ask's best provision ("punishment for theft" and "bail").
        asks: list[tuple[tuple[str, str], list[Passage]]] = []
        subject = q - ASK_WORDS
        for part in parts:
            part_q = content_stems(self.terms.expand(part, acts=at_hand) if self.terms else part)
            pool = [(r, g) for r, g in enumerate(rest) if g not in sides and g not in asks]
            if subject and not part_q - ASK_WORDS:
                # An ask of nothing but what it wants ("and how much jail can he get?") asks it of the question's
                # subject: its pick is the best on that subject and must share a word of it, or "jail" picks any section
                # with a prison (an OTP fraud answered with the punishment for rape).
                part_q = part_q | subject
                pool = [(r, g) for r, g in pool if shares_subject(g[1], subject)]
            if part_q and pool:
                asks.append(max(pool, key=lambda item: fit(item, part_q))[1])
        first = pinned + sides + [g for g in decisive if g not in sides] + asks
        if self.recorder is not None or self.relevance is not None:
            acts = [key[0] for key, _ in rest] or [""]
            vectors = [features(item) for item in enumerate(rest)]
            if self.recorder is not None:
                self.recorder(Decision(
                    question=question,
                    candidates=tuple(Candidate(g[0][0], g[0][1], v, h) for g, v, h in zip(rest, vectors, hand,
                                                                                          strict=True)),
                    places=max(0, n - len(first)), first=tuple(g[0] for g in first),
                ))  # fmt: skip
            if self.relevance is not None:
                # Below the model's threshold a provision bears on no ask; the first stays when nothing else would
                # be quoted (the answer then says how weak it is through its confidence).
                m = self.relevance
                order = choose(hand, [m.probability(v) for v in vectors], m.threshold, m.mode,
                               placed_first=bool(first))
                ranked = [rest[i] for i in order]
        # A provision that shares only the words of what is asked ("punishment") with the question, none of what it
        # is about ("extortion"), fills no place. The first ranked stays when nothing is pinned and it is at least as
        # close in meaning as every provision that shares a word: retrieval's best may answer in other words than the
        # question's (an RTI appeal for "45 days and no reply"), but "jail" in a rape section is not "escaping from
        # jail" when the sections on escape are closer.
        if subject and ranked:
            sharing = [g for g in ranked if g in first or shares_subject(g[1], subject)]
            lead = ranked[0]
            keep_lead = not first and lead not in sharing and all(
                max(p.relevance for p in lead[1]) >= max(p.relevance for p in g[1]) for g in sharing)
            ranked = [lead, *sharing] if keep_lead else sharing
        # The provision whose lay situation is closest to the story told ("a moneylender kept humiliating and
        # threatening my father until he took his life" for abetment of suicide) keeps a place, however few of the
        # question's words its text shares: the story is in the client's words, the statute in its own.
        storied = [g for g in ranked if g not in first and any(p.told_score >= LAY_PLACE for p in g[1])]
        story = max(storied, key=lambda g: max(p.told_score for p in g[1])) if storied else None
        # A pair (definition and punishment) takes two of the n places; a pair the n-th place would split keeps its
        # second half ("Murder" quoted without "Punishment for murder" answers no punishment ask): n + 1 at most.
        paired = _with_partners(first + [g for g in ranked if g not in first], groups, partners)
        keep = n + 1 if len(paired) > n and n and _pair(paired[n - 1], paired[n], partners) else n
        kept = _with_rules(paired[:keep], groups)
        return kept + ([story] if story is not None and story not in kept else [])

    def _sentences(
        self, q: set[str], passages: Sequence[Passage], n: int, *, pinned: bool, from_start: bool
    ) -> list[tuple[Passage, str]]:
        """The ``n`` sentences of a provision that share most with the question, in statute order.
        ``from_start``: a provision named in the question is quoted from its start (the lookup wants its text),
        a defining clause at the words that match."""
        cands: list[tuple[float, int, Passage, str]] = []
        for order, (p, s) in enumerate(_quotable_in(passages, pinned=pinned)):
            overlap = len(q & content_stems(s)) / (len(q) or 1)
            if is_illustration(s):
                overlap -= 0.6  # an example, not the rule: quoted only when nothing else matches
            cands.append((overlap + (0.5 if from_start and order == 0 else 0.0), order, p, s))
        if not cands:
            return []
        best = sorted(cands, key=lambda c: (-c[0], c[1]))[:n]
        if not pinned and best[0][0] == 0:
            best = best[:1]  # nothing in common with the question: one sentence to show what it is
        return [(p, s) for _, _, p, s in sorted(best, key=lambda c: c[1])]

    def _cite(self, p: Passage) -> str:
        sub = sub_of(p.chunk_id)
        title = self.act_titles.get(p.act, p.act)
        title = title[4:] if title.lower().startswith("the ") else title
        return f"Section {p.section}{sub} of the {title}"


def _fused(ps: Sequence[Passage], top_score: float) -> float:
    """A provision's fused retrieval score over the best candidate's ``top_score`` (0..1; 1 for one pinned)."""
    finite = [p.score for p in ps if math.isfinite(p.score)]
    return min(1.0, max(finite, default=top_score) / top_score) if top_score > 0 else 0.0


def _says(p: Passage) -> str:
    """How a quote is introduced: a provision "provides"; a sub-section never brought into force (BNS 106(2),
    excepted from the commencement notification S.O. 850(E)) and a provision no longer law (omitted, struck down, or
    repealed outside the saved codes) only "reads", and the answer says it is not law."""
    if p.status == "not_yet_in_force":
        return ", which has not been brought into force, reads"
    if p.status == "omitted" or (p.status == "repealed" and p.act not in SAVED_CODES):
        return ", which is no longer law, reads"  # quoted because the question names it (ITA s.66A, struck down)
    return " provides"


SAVED_CODES = frozenset(OLD_TO_NEW)
"""Repealed codes that still govern offences and proceedings before 2024-07-01 (BNS 358, BNSS 531, BSA 170): quoted
for such facts, they provide."""


LEADING = frozenset({Pin.CITED, Pin.SUCCESSOR, Pin.PREDECESSOR, Pin.SAVINGS, Pin.ATTEMPT, Pin.DEFINITION, Pin.MEANT,
                     Pin.TODAY})
"""Provisions named in the question, what replaced them or what they replaced, the repeal-and-savings
provision of a matter pending across 2024-07-01, the general attempt provision for an attempt the offence's
own section does not provide for, the clause defining the term a definition question asks about, and what a section
named by the other code's number was meant to be (``mixups.py``), and what governs today the subject of a lapsed
provision the question rests on: quoted first. (A definitions section is quoted
at the clause that matches, not from its start.) (COUNTERPART, the other side of the 2024 replacement added for
ANALYTICAL questions, competes with the rest on how well it covers the question.)"""


def _with_partners(
    chosen: list[tuple[tuple[str, str], list[Passage]]], groups: Sequence[tuple[tuple[str, str], list[Passage]]],
    partners: Mapping[str, str],
) -> list[tuple[tuple[str, str], list[Passage]]]:
    """``chosen`` in order, each offence provision followed by its partner when it was retrieved (moved up from
    wherever it was): the section that punishes the offence it defines, or defines the one it punishes (IPC 405
    "Criminal breach of trust" and 406 "Punishment for criminal breach of trust"). A provision named in the
    question is quoted alone. ``partners``: ``_partners(groups)``."""
    by_key = {_key(g): g for g in groups}
    out: list[tuple[tuple[str, str], list[Passage]]] = []
    for g in chosen:
        if g in out:
            continue
        out.append(g)
        other = _partner_of(g, partners)
        if other is not None and by_key[other] not in out:
            out.append(by_key[other])
    return out


def _key(group: tuple[tuple[str, str], list[Passage]]) -> str:
    """ "IPC:405": a group's section key, as ``partners`` holds it."""
    return f"{group[0][0]}:{group[0][1]}"


def _partner_of(group: tuple[tuple[str, str], list[Passage]], partners: Mapping[str, str]) -> str | None:
    """The key of the section quoted with ``group`` as its offence partner; None for one the question names (quoted
    alone) or one with no partner retrieved."""
    return None if _leading(group[1]) else partners.get(_key(group))


def _pair(first: tuple[tuple[str, str], list[Passage]], second: tuple[tuple[str, str], list[Passage]],
          partners: Mapping[str, str]) -> bool:
    """``second`` is ``first``'s offence partner, placed after it by ``_with_partners``."""
    return _partner_of(first, partners) == _key(second)


def _partners(groups: Sequence[tuple[tuple[str, str], list[Passage]]]) -> dict[str, str]:
    """``offence_partners`` among the retrieved provisions (section key "IPC:405" -> "IPC:406")."""
    return offence_partners({f"{act}:{section}": passage_title(ps[0]) for (act, section), ps in groups})


def _with_rules(
    chosen: list[tuple[tuple[str, str], list[Passage]]], groups: Sequence[tuple[tuple[str, str], list[Passage]]],
) -> list[tuple[tuple[str, str], list[Passage]]]:
    """``chosen``, each penalty followed by the retrieved rule it enforces (``read_with``: "ARMS:25" -> "ARMS:3"),
    as a charge is framed (s.25(1B)(a) read with s.3). The rule is quoted beside its penalty, not in place of a
    provision chosen for an ask; a penalty named in the question is quoted alone."""
    rules = read_with({f"{act}:{section}": (passage_title(ps[0]), [p.text for p in ps])
                       for (act, section), ps in groups})
    return _with_partners(chosen, groups, rules)  # a rule chosen later is moved up beside its penalty


def _pinned_extra(passages: Sequence[Passage]) -> int:
    """Provisions quoted first (``LEADING``: named in the question, their successor or predecessor, the savings
    and general attempt provisions, a defining clause) do not count against the limit."""
    return len({(p.act, p.section) for p in passages if p.pinned in LEADING})


_CLAUSE = re.compile(r"^\((?:[a-z]{1,4}|\d{1,3}[A-Za-z]?)\)\s+[a-z]")
"""A clause that continues its lead-in: "(a) his wife, unable to maintain herself; or"."""


_STRAIGHT_PAIR = re.compile(r'"([^"\n]*)"')


def _nested(sentence: str) -> str:
    """A statute's own quotation marks inside our quotation, made curly: '(28) "public servant" means' nested in
    straight quotes would end our quotation at the second mark (the verifier pairs curly marks by direction
    and compares them as straight ones). A mark the source left unpaired (CrPC 378(1)(b) ends 'in revision.";') is made
    a closing curly mark that nothing opened, which the verifier passes over: kept straight, it would end our quotation
    there and pair the rest of the answer's marks wrongly, so that every quotation after it reads as not verbatim."""
    return _STRAIGHT_PAIR.sub("\u201c\\1\u201d", sentence).replace('"', "\u201d")


def unit_of(chunk_id: str) -> str:
    """The innermost unit of a chunk: "a" for "BNS:2:28/a:0", "1" for "BNS:103:1:0", "" for a whole section."""
    parts = chunk_id.split(":")
    return "" if len(parts) < 4 or parts[2] in ("-", "") else parts[2].split("/")[-1]


def parent_prefix(chunk_id: str) -> str | None:
    """The id prefix of the chunks of the unit a sub-unit's chunk belongs to, whose text ends in its lead-in:
    "BNS:2:28:" for "BNS:2:28/a:0", "ITA:30:-:" for "ITA:30:a:0"; None for a whole section's chunk."""
    if not unit_of(chunk_id):
        return None
    act, section, path = chunk_id.split(":")[:3]
    return f"{act}:{section}:{'/'.join(path.split('/')[:-1]) or '-'}:"


def _in_clause_order(items: list[tuple[Passage, str]]) -> list[tuple[Passage, str]]:
    """Clauses of one lead-in in the statute's order ((a), (b), (c); (i), (ii), (iv)), whatever order they were
    picked in."""
    labels = [unit_of(p.chunk_id) for p, _ in items]
    roman = all(re.fullmatch(r"[ivx]+", x) for x in labels)

    def key(i: int) -> tuple[int, str]:
        x = labels[i]
        return (roman_value(x), x) if roman else (len(x), x)

    return [items[i] for i in sorted(range(len(items)), key=key)]


def _lead_in(p: Passage, sentence: str, passages: Sequence[Passage]) -> tuple[Passage, str] | None:
    """For a clause (``_CLAUSE``), the passage of the unit it belongs to and that unit's lead-in ("If any person
    having sufficient means neglects or refuses to maintain--"), when both were retrieved; else None."""
    prefix = parent_prefix(p.chunk_id)
    if not _CLAUSE.match(sentence) or prefix is None:
        return None
    for q in passages:
        if q.chunk_id.startswith(prefix):
            tail = _SENT.split(q.text.strip())[-1].strip()  # however short: "(2) Whoever,---"
            if tail and _LEAD_IN.search(tail) and not _CLAUSE.match(tail):
                return q, tail
    return None


def sub_of(chunk_id: str) -> str:
    """ "BNS:103:1:0" -> "(1)"; "HMA:13:1/ia:0" -> "(1)(ia)"; no sub-unit -> ""."""
    parts = chunk_id.split(":")
    if len(parts) < 4 or parts[2] in ("-", ""):
        return ""
    return "".join(f"({u})" for u in parts[2].split("/") if u and not u.lower().startswith("expl"))

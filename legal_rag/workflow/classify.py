"""Question complexity: route a lawyer's question to SIMPLE, STANDARD, COMPLEX or ANALYTICAL.

``RuleClassifier`` is the offline default: deterministic, no model, well under a millisecond or two
per question. It measures a handful of features and applies ordered rules, each leaving a reason:

1. ANALYTICAL: a comparative cue ("compare", "difference between", "vs", "distinguish"), an analytical
   cue ("implications", "analyse", "evolved", "how has ... changed", "critically", "before and after"),
   or both an old and a new criminal code named without a lookup cue (IPC and BNS, CrPC and BNSS,
   Evidence Act and BSA: the July 2024 replacement).
2. COMPLEX: several legal issues, Acts or parties, or several questions in one.
3. SIMPLE: a lookup cue ("what does ... say", "text of", "define", "is ... in force", "punishment for")
   about at most one provision and one issue, with no fact pattern.
4. STANDARD: everything else: one legal issue, usually applied to facts.

``ClaudeClassifier`` asks Claude through a forced tool call and falls back to another classifier
(normally the rule classifier) when the call fails.

``accuracy_report`` scores a classifier on the labelled set ``tests/data/complexity_questions.jsonl``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graph_schema.errors import GenerationError, LegalRagError
from legal_rag.workflow.types import Classification, Classifier, Complexity
from verification.extract import CitationExtractor, adjacent_sections
from verification.model import Citation, Label

if TYPE_CHECKING:
    from legal_rag.workflow.generators.claude import ClaudeClient

__all__ = ["ClaudeClassifier", "RuleClassifier", "accuracy_report", "format_confusion"]

# The July 2024 replacement of the criminal codes: naming both halves of a pair signals a question about
# the change (unless it is a plain correspondence lookup, caught by the lookup cues).
_OLD_NEW = (("IPC", "BNS"), ("CRPC", "BNSS"), ("IEA", "BSA"))

_LOOKUP = re.compile(
    r"""what\s+does\s+.{0,60}?\b(?:say|provide|state|cover|deal\s+with)\b
      | \b(?:bare\s+)?text\s+of\b | \bbare\s+(?:text|act)\b | \bread\s+out\b
      | \bdefin(?:e|ition\s+of)\b | \bmeaning\s+of\b
      | \b(?:still\s+)?(?:in\s+force|valid)\s*\?? | \bstill\s+(?:an?\s+)?(?:offence|crime|law|good\s+law)\b
      | \b(?:punishment|penalty|sentence|maximum\s+fine|fine)\s+(?:for|under|of)\b | \bpunishment\s*\?
      | \bwhat\s+is\s+(?:section|sec\.?|s\.|article|order)\s*\d
      | \bwhat\s+is\s+the\s+(?:age|definition|time\s+limit|limitation\s+period)\b
      | \blimitation\s+period\s+for\b | \b(?:section|sec|article)\s+\d+\w*\s+.{0,20}?\b(?:kya\s+hai|about)\b
      | \bcorrespond(?:s|ing)?\s+to\b | \bequivalent\s+(?:section|provision)\b
      | \bnew\s+(?:\w+\s+)?(?:section|provision)\s+(?:number|no\.?|for)\b
      | \bwhat\s+replaced\b | \breplaced\s+by\s+which\b
    """,
    re.I | re.X,
)
_COMPARATIVE = re.compile(
    r"\bcompar(?:e|ed|es|ing|ison)\b|\bdifferen(?:ce|ces|t\s+from)\b|\bdiffer\b|\bversus\b|\bvs\.?(?=\s)"
    r"|\bdistinguish\b|\bcontrast\b|\bold\s+(?:vs\.?|and|versus)\s+new\b",
    re.I,
)
_ANALYTICAL = re.compile(
    r"""\bimplications?\b | \banaly[sz](?:e|is|ing)\b | \bcritical(?:ly)?\b | \bevol(?:ved?|ution|ving)\b
      | \bimpact\b | \btrace\b | \bdevelopment\s+of\b | \bexamine\b | \bdiscuss\b | \bevaluate\b | \breform\b
      | \bpolicy\b | \bbefore\s+and\s+after\b | \bover\s+the\s+(?:years|decades|last)\b
      | \bhow\s+(?:has|have|did|do(?:es)?)\b.{0,80}?\bchange[sd]?\b | \bwhat\s+(?:has\s+)?changed\b
      | \b(?:has|have)\b.{0,60}?\bchanged\b | \bconstitutional(?:ly)?\s+valid(?:ity)?\b | \bimproved?\s+on\b
    """,
    re.I | re.X,
)
_FACTS = re.compile(
    r"\bmy\s+(?:client|husband|wife|father|mother|brother|sister|son|daughter|employer|landlord|tenant)\b"
    r"|\bmy\s+client's\b|\bI\s+(?:bought|was|am|have|had|got|received)\b|\bsomeone\b|\bwe\b",
    re.I,
)

# A curated lexicon of legal concepts: offences, remedies, proceedings and evidentiary questions. Each entry is
# one issue however it is phrased; a question touching several is likely COMPLEX.
_CONCEPTS: dict[str, str] = {
    "homicide": r"murder|culpable\s+homicide|death\s+by\s+negligence|304A|302\b",
    "dowry": r"dowry|stridhan",
    "cruelty": r"cruelty|harass\w*|498A",
    "sexual_offence": r"rape|sexual(?:ly)?\s+assault\w*|unnatural\s+sex|POCSO|stalking|outrag\w+\s+modesty",
    "hurt": r"\bhurt\b|assault\w*|grievous|lathi|attack\w*",
    "theft": r"theft|stole\b|stolen|robbery|dacoity|took\s+(?:her|his|their)\s+\w+",
    "cheating": r"cheat\w*|fraud\w*|420\b|siphon\w*|divert\w*|misappropriat\w*|criminal\s+breach\s+of\s+trust",
    "forgery": r"forg(?:e|ed|ery|ing)",
    "intimidation": r"threat\w*|intimidat\w*|extort\w*|ransom",
    "defamation": r"defam\w*",
    "cyber": r"hack\w*|fake\s+\w+\s+profile|data\s+leak|cyber|IT\s+Act",
    "trespass": r"trespass\w*|encroach\w*",
    "caste_atrocity": r"SC/ST|caste|atrocit\w*|dalit",
    "narcotics": r"NDPS|narcotic\w*|drugs?\b|commercial\s+quantity",
    "money_laundering": r"PMLA|money\s+laundering|\bED\b",
    "conspiracy": r"conspiracy|120B|common\s+intention|co-accused|approver",
    "negligence": r"negligen\w*|rash\w*|drunk|without\s+consent",
    "cheque_dishonour": r"cheques?\s+(?:bounce|dishono)\w*|cheques?\s+that\s+bounced|bounced|dishonou?r\w*|\b138\b",
    "bail": r"\bbail\b",
    "arrest": r"arrest\w*|custody\s+of\s+the\s+accused|police\s+custody|detention",
    "fir": r"\bFIR\b|register\w*\s+(?:an?\s+)?FIR|chargesheet|complaint\s+to\s+police",
    "quashing": r"quash\w*",
    "evidence": r"evidence|admissib\w*|confession|dying\s+declaration|testimony|65B",
    "maintenance": r"maintenance|stopped\s+sending\s+money",
    "divorce": r"divorce|desert\w*|dissolution\s+of\s+marriage",
    "custody": r"custody\s+of\s+(?:the\s+)?child|child\s+custody|custody\b(?!\s+of\s+the\s+accused)|took\s+the\s+child",
    "domestic_violence": r"domestic\s+violence|DV\s+Act",
    "succession": r"intestate|succession|inherit\w*|ancestral|share\s+in\b",
    "possession": r"possession|evict\w*|sublet\w*|vacat\w*",
    "rent": r"\brent\b|arrears|security\s+deposit",
    "sale": r"sale\s+deed|agreement\s+to\s+sell|sold|specific\s+performance",
    "consumer": r"consumer|deficiency|defective|refund\w*",
    "insurance": r"insur\w+|uninsured",
    # Not "MV Act": it governs licences, permits and traffic offences as much as accident claims, so naming it
    # is no accident issue. Acts about one subject (POCSO, NDPS, PMLA, the DV Act) do name their issue.
    "motor_accident": r"(?:road|motor|vehicle)\s+accident|hit[\s-]and[\s-]run|MACT",
    "compensation": r"compensation|damages|reimburse\w*|recover\s+the\s+money",
    "employment": r"terminat\w*|fired|salary|gratuity|wages|employer",
    "insolvency": r"insolvency|IBC",
    "real_estate": r"RERA|builder|homebuyers?",
    "limitation": r"limitation|time\s+limit|within\s+\d+\s+days|\d+\s+days\s+after",
    "investigation": r"investigat\w*",
    "passport": r"passport",
    "guardianship": r"guardian\w*|minor's\s+property",
}
# Every entry is anchored at a word start: "rash" must not match "crash", nor "son" "person".
_CONCEPT_RES = {name: re.compile(rf"\b(?:{pattern})", re.I) for name, pattern in _CONCEPTS.items()}

# Fields of law a question spans ("civil and criminal remedies", "under labour law and criminal law").
_AREAS = re.compile(
    r"\b(civil|criminal|labour|consumer|family|tax|service|constitutional|writ)"
    r"(?=\s+(?:law|remed|suit|case|complaint|proceeding|court|forum|liabilit)"
    r"|\s+and\s+\w+\s+(?:law|remed|case|proceeding))",
    re.I,
)

# Actors a fact pattern can involve. Each distinct word counts (the dealer, the manufacturer and the insurer
# are three parties); the groups only keep the lexicon readable.
_PARTIES: dict[str, str] = {
    "spouse": r"husband|wife|spouse",
    "in_laws": r"in-laws|husband's\s+family|brother-in-law|mother-in-law|relatives",
    "kin": r"brother|sister|siblings?|father|mother|son\b|daughter|children|child\b|minor",
    "employment": r"employer|employee|company|director|partners?\b|firm\b|ex-boss|boss",
    "bank": r"\bbank\b",
    "insurer": r"insurer|insurance\s+company",
    "builder": r"builder|developer|homebuyers?",
    "landlord_tenant": r"landlord|tenant",
    "accused": r"accused|co-accused|approver",
    "victim": r"victim|complainant|pedestrian|patient",
    "doctor": r"doctor|hospital",
    "school": r"school|contractor",
    "trader": r"dealer|manufacturer|buyer|seller|third\s+party|customers?",
    "neighbour": r"neighbou?r|villagers?|sarpanch|family\b",
    "driver": r"driver|vehicle\s+owner",
    "hacker": r"hacker",
    "agency": r"\bED\b|CBI|police",
}
_PARTY_RES = {name: re.compile(rf"\b(?:{pattern})", re.I) for name, pattern in _PARTIES.items()}



@dataclass(frozen=True, slots=True)
class _Features:
    provisions: int
    acts: int
    old_new_pair: bool
    issues: tuple[str, ...]
    parties: tuple[str, ...]
    areas: tuple[str, ...]
    comparative: bool
    analytical: bool
    lookup: bool
    facts: bool
    questions: int
    asks: int
    words: int

    def as_dict(self) -> dict[str, float]:
        return {
            "provisions": float(self.provisions),
            "acts": float(self.acts),
            "old_new_pair": float(self.old_new_pair),
            "issues": float(len(self.issues)),
            "parties": float(len(self.parties)),
            "areas": float(len(self.areas)),
            "comparative": float(self.comparative),
            "analytical": float(self.analytical),
            "lookup": float(self.lookup),
            "facts": float(self.facts),
            "questions": float(self.questions),
            "asks": float(self.asks),
            "words": float(self.words),
        }


# Clauses that each ask for something: "what offences", "what procedure for bail", "can the victim...".
_ASK = re.compile(
    r"\b(?:what|which|who|whom|how|can|could|whether|is|are|should|does|do)\b(?=\s+\w)",
    re.I,
)


def _count_asks(question: str) -> int:
    # Only interrogatives that open a clause (start, or after ; , . ? "and"), not "what" inside a noun phrase.
    clauses = re.split(r"[;?.]\s+|,\s*(?:and\s+)?|\band\s+(?=(?:what|which|who|how|can|whether|is)\b)", question)
    return sum(1 for c in clauses if _ASK.match(c.strip()))


def _features(question: str, citations: Iterable[Citation]) -> _Features:
    """Measure ``question`` given the citations the extractor found in it."""
    cits = list(citations)
    keys: set[tuple[str, str]] = set()
    acts: set[str] = set()
    for c in cits:
        if c.label is Label.PROVISION:
            keys.update((k.act, k.section) for k in c.keys)
            if not c.keys:  # Order 39 Rule 1: a provision without a section key
                keys.add((c.act or "", c.text))
            if c.act:
                acts.add(c.act)
        elif c.label is Label.STATUTE and not c.said:  # "the Act" is the statute named before: counted there
            acts.add(c.act or c.text.upper())
    # "IPC 124A", "BNS 318 and 316", "a 138 NI Act complaint": numbers beside, not inside, a statute span.
    keys.update((s.act or s.text.upper(), number) for _, s, number in adjacent_sections(question, cits))
    pair = any(old in acts and new in acts for old, new in _OLD_NEW)
    issues = tuple(name for name, rx in _CONCEPT_RES.items() if rx.search(question))
    party_words = {_singular(m.group(0).lower()) for rx in _PARTY_RES.values() for m in rx.finditer(question)}
    parties = tuple(sorted(party_words))
    areas = tuple(sorted({m.group(1).lower() for m in _AREAS.finditer(question)}))
    return _Features(
        provisions=len(keys),
        acts=len(acts),
        old_new_pair=pair,
        issues=issues,
        parties=parties,
        areas=areas,
        comparative=bool(_COMPARATIVE.search(question)),
        analytical=bool(_ANALYTICAL.search(question)),
        lookup=bool(_LOOKUP.search(question)),
        facts=bool(_FACTS.search(question)),
        questions=max(1, question.count("?")),
        asks=_count_asks(question),
        words=len(question.split()),
    )


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _decide(f: _Features) -> tuple[Complexity, tuple[str, ...]]:
    """The ordered rules. The first that fires decides; its reason says why."""
    if f.comparative:
        return Complexity.ANALYTICAL, ("comparative cue (compare / difference / vs / distinguish)",)
    if f.analytical:
        return Complexity.ANALYTICAL, ("analytical cue (implications / analyse / evolution / change / impact)",)
    if f.old_new_pair and not f.lookup:
        return Complexity.ANALYTICAL, ("names both an old code and its 2024 replacement without a lookup cue",)
    complex_reasons = _complex_reasons(f)
    if complex_reasons:
        return Complexity.COMPLEX, complex_reasons
    if f.lookup and f.provisions <= 1 and len(f.issues) <= 1 and not f.facts:
        return Complexity.SIMPLE, (f"lookup cue on {f.provisions} provision(s), {len(f.issues)} issue(s), no facts",)
    if f.words <= 6 and f.provisions == 1 and not f.facts:
        return Complexity.SIMPLE, ("a terse question about one provision",)
    return Complexity.STANDARD, (
        f"no lookup, comparison or multi-issue cue: {len(f.issues)} issue(s), {f.provisions} provision(s), "
        f"{len(f.parties)} part(ies)",
    )


def _complex_reasons(f: _Features) -> tuple[str, ...]:
    reasons: list[str] = []
    n_issues, n_parties = len(f.issues), len(f.parties)
    if n_issues >= 4:
        reasons.append(f"{n_issues} legal issues ({', '.join(f.issues)})")
    if n_issues >= 3 and (n_parties >= 2 or f.asks >= 2):
        reasons.append(f"{n_issues} issues across {n_parties} part(ies) / {f.asks} asks")
    if f.acts >= 3:
        reasons.append(f"{f.acts} distinct Acts")
    if f.provisions >= 3 and n_issues >= 2:
        reasons.append(f"{f.provisions} provisions and {n_issues} issues")
    if n_parties >= 3 and n_issues >= 2:
        reasons.append(f"{n_parties} parties ({', '.join(f.parties)})")
    if len(f.areas) >= 2:
        reasons.append(f"spans {len(f.areas)} fields of law ({', '.join(f.areas)})")
    if f.words >= 30 and n_issues >= 2:
        reasons.append(f"a {f.words}-word fact pattern raising {n_issues} issues")
    if f.asks >= 3 and n_issues >= 2:
        reasons.append(f"{f.asks} separate asks")
    return tuple(reasons)


class RuleClassifier:
    """Deterministic complexity rules over citation counts, a legal-concept lexicon and cue phrases.

    Args:
        extractor: finds provisions and statutes in the question; defaults to ``CitationExtractor()`` over
            the curated Acts (a spaCy blank pipeline with rule components: no model is loaded).
    """

    method = "rules"

    def __init__(self, extractor: CitationExtractor | None = None) -> None:
        self._extractor = extractor or CitationExtractor()

    def classify(self, question: str) -> Classification:
        f = _features(question, self._extractor.extract(question))
        complexity, reasons = _decide(f)
        return Classification(complexity=complexity, method=self.method, features=f.as_dict(), reasons=reasons)


_SYSTEM = """You route questions from Indian lawyers and their clients to a legal research workflow.
Classify each question's complexity:
- SIMPLE: a direct lookup of one provision or fact ("what does s.138 NI Act say", "text of section 103 BNS",
  "is section 498A IPC still in force?", "punishment for theft under BNS").
- STANDARD: one legal issue needing one or two provisions ("my client's cheque bounced, what remedy does the
  payee have", "can police arrest without a warrant for a cognizable offence").
- COMPLEX: several issues, Acts or parties in one fact pattern ("the husband's family harassed the wife for
  dowry, took her jewellery and threatened her brother; what offences and what procedure for bail?").
- ANALYTICAL: compare, analyse implications, or trace change over time, including IPC/CrPC/Evidence Act versus
  BNS/BNSS/BSA ("compare sedition under IPC 124A with BNS 152", "implications of BNSS on anticipatory bail").
Call the classify_complexity tool exactly once."""

_TOOL: dict[str, Any] = {
    "name": "classify_complexity",
    "description": "Record the complexity class of the user's legal question and why.",
    "input_schema": {
        "type": "object",
        "properties": {
            "complexity": {"type": "string", "enum": [c.value for c in Complexity]},
            "reason": {"type": "string", "description": "One sentence: what makes it this class."},
        },
        "required": ["complexity", "reason"],
    },
}


class ClaudeClassifier:
    """Claude classifies through a forced tool call; any project error falls back to ``fallback``.

    Args:
        client: a ``legal_rag.workflow.generators.claude.ClaudeClient`` (retries and error translation live
            there: rate limits, overload and 5xx arrive here as ``ModelOverloadedError`` after its retries, a
            refused key as ``ConfigurationError``, an unusable reply as ``GenerationError``).
        fallback: the classifier used when the call fails or returns something unusable, normally
            ``RuleClassifier()``. Its ``method`` ("rules") is what the result records.
    """

    method = "claude"

    def __init__(self, client: ClaudeClient, fallback: Classifier, *, max_tokens: int = 256) -> None:
        self._client = client
        self._fallback = fallback
        self._max_tokens = max_tokens

    def classify(self, question: str) -> Classification:
        try:
            data, _usage = self._client.call_tool(
                system=_SYSTEM,
                content=[{"type": "text", "text": question}],
                tool=_TOOL,
                cache_system=True,
                max_tokens=self._max_tokens,
            )
            complexity, reason = _parse_tool_input(data)
        except LegalRagError as exc:
            fb = self._fallback.classify(question)
            return Classification(
                complexity=fb.complexity,
                method=fb.method,
                features={**fb.features, "claude_failed": 1.0},
                reasons=(f"claude classifier failed, fell back to {fb.method}: {exc}", *fb.reasons),
            )
        return Classification(complexity=complexity, method=self.method, reasons=(reason,))


def _parse_tool_input(data: dict[str, Any]) -> tuple[Complexity, str]:
    raw = data.get("complexity")
    try:
        complexity = Complexity(str(raw).strip().upper())
    except ValueError as exc:
        raise GenerationError(f"classify_complexity returned an unknown complexity {raw!r}") from exc
    reason = data.get("reason")
    return complexity, reason if isinstance(reason, str) and reason else "no reason given"


def accuracy_report(path: str | Path, classifier: Classifier | None = None) -> dict[str, Any]:
    """Score ``classifier`` (default ``RuleClassifier()``) on a labelled JSONL file.

    Each line is ``{"id", "question", "complexity", "split"?}``. Returns, per split and for ``"all"``:
    ``{"n", "correct", "accuracy", "confusion": {gold: {predicted: count}}, "errors": [...]}``, plus
    ``"mean_ms"``, the mean classification time per question.
    """
    clf = classifier or RuleClassifier()
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    labels = [c.value for c in Complexity]
    report: dict[str, Any] = {}
    elapsed = 0.0
    for row in rows:
        t0 = time.perf_counter()
        got = clf.classify(row["question"])
        elapsed += time.perf_counter() - t0
        splits = ("all", row["split"]) if row.get("split") else ("all",)
        for split in splits:
            bucket = report.setdefault(
                split,
                {"n": 0, "correct": 0, "confusion": {g: dict.fromkeys(labels, 0) for g in labels}, "errors": []},
            )
            bucket["n"] += 1
            bucket["confusion"][row["complexity"]][got.complexity.value] += 1
            if got.complexity.value == row["complexity"]:
                bucket["correct"] += 1
            else:
                bucket["errors"].append(
                    {"id": row["id"], "gold": row["complexity"], "got": got.complexity.value, "reasons": got.reasons}
                )
    for bucket in report.values():
        bucket["accuracy"] = bucket["correct"] / bucket["n"] if bucket["n"] else 0.0
    report["mean_ms"] = 1000 * elapsed / len(rows) if rows else 0.0
    return report


def format_confusion(confusion: dict[str, dict[str, int]]) -> str:
    """A confusion matrix as a fixed-width table, gold classes down, predictions across."""
    labels = list(confusion)
    head = "gold \\ got".ljust(12) + "".join(label[:8].rjust(10) for label in labels)
    lines = [head]
    for gold in labels:
        lines.append(gold[:10].ljust(12) + "".join(str(confusion[gold][got]).rjust(10) for got in labels))
    return "\n".join(lines)

"""Scoring ``ask`` against labelled questions (``legal-rag eval answers``).

A labelled question names the provisions a correct answer must cite (``expect_cited``) and the ones the
question cites wrongly for its date, which a correct answer must flag (``expect_flagged``). An answer is
*fully right* when every expected provision is cited in the answer and verified for the date, and every
expected flag is raised (a citation of it reported as repealed, omitted, not found... or a warning naming it).

The report also measures whether the answer's confidence means anything: expected calibration error (ECE)
and AUROC of the confidence score against full rightness, overall and per split, so a held-out part of the
set shows what tuning on the rest did not fit.

A question may carry no ``as_of`` (the answerer is given none and reads the question's own dates, as it does for
a user), a false premise (``"premise": "false"`` with ``false_premise``: the provisions an answer must say no
longer exist or never did) or be unanswerable from the statutes (``"answerable": false``): such an answer is right
only when it corrects the premise, or when its confidence is below Medium. A *sealed* set (a file whose name
starts with ``sealed``) is reported in aggregate only (``is_sealed``), so that nobody tunes on its misses.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from graph_schema.dates import check_day
from graph_schema.errors import InvalidDateError, LegalRagError
from graph_schema.model import main_section
from legal_rag.workflow.mixups import MIXUP_WARNING
from legal_rag.workflow.results import AskResult
from legal_rag.workflow.types import Verdict
from verification.model import CitationStatus

__all__ = [
    "AnswerReport",
    "METRICS",
    "LabelledQuestion",
    "QuestionScore",
    "auroc",
    "expected_calibration_error",
    "held_out_sets",
    "is_sealed",
    "load_labelled",
    "reliability_bins",
    "run_answers",
    "score_answer",
    "write_report",
]

Provision = tuple[str, str]
"""(Act code, main section number): ``("BNS", "303")``."""

COMPLEXITIES = ("SIMPLE", "STANDARD", "COMPLEX", "ANALYTICAL")
BINS = 10


UNANSWERED = 0.6
"""An unanswerable question is answered rightly below this confidence (Low): the answer says not to rely on it."""
HIGH = 0.8
"""A wrong answer at or above this confidence (High) is the worst kind: ``wrong_at_high`` counts them."""


@dataclass(frozen=True, slots=True)
class LabelledQuestion:
    id: str
    question: str
    as_of: str | None
    """The date the user set, or None: the answerer is given no date (it reads the question's)."""
    expect_cited: tuple[Provision, ...]
    expect_flagged: tuple[Provision, ...] = ()
    complexity: str | None = None
    phrasing: str | None = None
    split: str | None = None
    false_premise: tuple[Provision, ...] | None = None
    """None: the premise holds. Otherwise the question rests on law that does not exist (the provisions named
    here, or an Act or section that never existed when empty): the answer must say so."""
    answerable: bool = True
    """False: the statutes cannot answer it; a right answer says so by its confidence (below ``UNANSWERED``)."""
    number_mixup: bool | None = None
    """True: the question cites a section by the other criminal code's number ("murder under section 302 BNS"), and a
    right answer says so; False: its citation is right, and a right answer does not question it; None: not
    labelled."""
    cited: Provision | None = None
    """The section the question cites (``number_mixup`` rows): the mix-up warning must name it."""


def is_sealed(path: Path) -> bool:
    """A sealed evaluation set is reported in aggregate only: its file name starts with ``sealed``."""
    return path.name.startswith("sealed")


HELD_OUT_LIST = "held_out.txt"
"""In the evaluation sets' folder: the names of the sets held out (read by nobody, trained on by nothing), one per
line."""


def held_out_sets(directory: Path) -> frozenset[str]:
    """The file names ``HELD_OUT_LIST`` in ``directory`` names ("probe16" or "probe16.jsonl"; "#" starts a comment).
    A folder without the list holds no held-out set.

    Raises:
        ValueError: the list cannot be read, or names a set the folder does not hold (naming it): a list that
            refuses nothing is no guard.
    """
    path = directory / HELD_OUT_LIST
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except FileNotFoundError:
        return frozenset()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: {exc}") from exc
    names = set()
    for line in lines:
        name = line.split("#", 1)[0].strip()
        if not name:
            continue
        name = name if name.endswith(".jsonl") else f"{name}.jsonl"
        if "/" in name or not (directory / name).is_file():
            raise ValueError(f"{path} names {line.strip()!r}, which is no set in {directory}: give a file name there")
        names.add(name)
    return frozenset(names)


def load_labelled(path: Path, resolve: Callable[[str], str]) -> list[LabelledQuestion]:
    """Read JSON Lines ``{"id", "question", "as_of", "expect_cited": [[act, section], ...],
    "expect_flagged": [...]}`` (optional ``complexity``, ``phrasing``, ``split``).

    ``resolve`` maps an Act code or alias ("CrPC", "Indian Penal Code") to the graph's code and raises
    for a name it does not know. Sections are reduced to their main number ("103(1)" -> "103").

    Raises:
        ValueError: anything malformed, named by file and line: not JSON, a missing or mistyped field, an
            unknown Act, a date that is not ISO, a duplicate id, an unknown complexity; or an empty file.
    """
    out: list[LabelledQuestion] = []
    seen: set[str] = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{where}: not JSON: {exc}") from exc
        q = _labelled(row, where, resolve)
        if q.id in seen:
            raise ValueError(f"{where}: duplicate id {q.id!r}")
        seen.add(q.id)
        out.append(q)
    if not out:
        raise ValueError(f"{path}: no questions")
    return out


def _labelled(row: Any, where: str, resolve: Callable[[str], str]) -> LabelledQuestion:
    if not isinstance(row, dict):
        raise ValueError(f"{where}: expected a JSON object")
    for key in ("id", "question", "expect_cited"):
        if key not in row:
            raise ValueError(f"{where}: missing {key!r}")
    if not isinstance(row["question"], str) or not row["question"].strip():
        raise ValueError(f"{where}: 'question' must be a non-empty string")
    as_of = row.get("as_of")
    if as_of is not None:
        try:
            check_day(as_of)
        except InvalidDateError as exc:
            raise ValueError(f"{where}: {exc}") from exc
    premise = row.get("premise", "true")
    if premise not in ("true", "false", True, False):
        raise ValueError(f"{where}: 'premise' must be \"true\" or \"false\", got {premise!r}")
    answerable = row.get("answerable", True)
    if not isinstance(answerable, bool):
        raise ValueError(f"{where}: 'answerable' must be true or false, got {answerable!r}")
    false_premise = None
    if "false_premise" in row and premise not in ("false", False):
        raise ValueError(f"{where}: 'false_premise' is given but 'premise' is not \"false\"")
    if premise in ("false", False):
        false_premise = _provisions(_without_no_act(row.get("false_premise", [])), "false_premise", where, resolve,
                                    lenient=True)
    mixup = row.get("number_mixup")
    if mixup is not None and not isinstance(mixup, bool):
        raise ValueError(f"{where}: 'number_mixup' must be true or false, got {mixup!r}")
    cited = None
    if mixup is not None:
        if "cited" not in row:
            raise ValueError(f"{where}: 'number_mixup' needs 'cited', the [act, section] the question cites")
        (cited,) = _provisions([row["cited"]], "cited", where, resolve)
    complexity = row.get("complexity")
    if complexity is not None and complexity not in COMPLEXITIES:
        raise ValueError(f"{where}: 'complexity' must be one of {', '.join(COMPLEXITIES)}, got {complexity!r}")
    return LabelledQuestion(
        id=str(row["id"]), question=row["question"].strip(), as_of=None if as_of is None else str(as_of),
        expect_cited=_provisions(row["expect_cited"], "expect_cited", where, resolve),
        expect_flagged=_provisions(row.get("expect_flagged", []), "expect_flagged", where, resolve, lenient=True),
        complexity=complexity, phrasing=row.get("phrasing"), split=row.get("split"),
        false_premise=false_premise, answerable=answerable, number_mixup=mixup, cited=cited,
    )  # fmt: skip


NO_ACT = "NONE"
"""The Act of a ``false_premise`` pair (``["NONE", "0"]``) for a question resting on an Act that does not exist at all
("the Digital India Act, 2023"): read as a premise naming no provision (``false_premise: []``)."""
UNKNOWN_ACT = "?"
"""Prefix of an Act a false premise names that the graph does not know (a repealed or made-up Act), kept as written."""


def _without_no_act(value: Any) -> Any:
    """A ``false_premise`` list without its ``["NONE", "0"]`` pairs (``NO_ACT``): an Act that does not exist at all
    is a premise naming no provision. Anything but a list is left for ``_provisions`` to refuse."""
    if not isinstance(value, list):
        return value
    return [p for p in value if not (isinstance(p, list) and p and p[0] == NO_ACT)]


def _provisions(value: Any, key: str, where: str, resolve: Callable[[str], str], *,
                lenient: bool = False) -> tuple[Provision, ...]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: {key!r} must be a list of [act, section] pairs")
    out: list[Provision] = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) and x.strip() for x in item)):
            raise ValueError(f"{where}: {key!r} entries must be [act, section] string pairs, got {item!r}")
        try:
            act = resolve(item[0].strip())
        except (LookupError, LegalRagError) as exc:
            if not lenient:
                raise ValueError(f"{where}: {key!r}: unknown Act {item[0]!r}") from exc
            act = UNKNOWN_ACT + item[0].strip()  # a premise may rest on an Act that is not (or no longer) law
        out.append((act, main_section(item[1].strip().upper())))
    return tuple(dict.fromkeys(out))


@dataclass
class QuestionScore:
    id: str
    fully_right: bool
    expected_verified: list[str]
    """Expected provisions the answer cites and the graph verified for the date (or, for one the label expects
    although it was repealed before the date, reported as repealed)."""
    missing: list[str]
    unexpected: list[str]
    """Provisions the answer cites that the label neither expects nor expects flagged."""
    flags_raised: list[str]
    flags_missed: list[str]
    wrong_flags: list[str]
    """Expected provisions the answer cites but that were reported not found, not in force, unchecked..."""
    cited: int
    """Distinct provisions the answer cites."""
    claims_kept: int
    unsupported_claims: int
    """Kept claims (shown to the user) that the aligner judged unsupported or contradicted."""
    removed_claims: int
    confidence: float
    confidence_label: str
    factors: dict[str, float]
    """The confidence factors' values (``benchmarks/fit_confidence.py`` refits the weights from them)."""
    latency_ms: float
    input_tokens: int
    output_tokens: int
    cost_usd: float
    complexity: str | None
    answered_complexity: str
    phrasing: str | None
    split: str | None
    premise_corrected: bool | None = None
    """For a false-premise question: whether the answer said the premise is wrong (None for the others)."""
    answerable: bool = True


    def misses(self) -> str:
        """What kept the answer from being fully right: "missing BNS 303; flag missed IPC 420"."""
        parts = [f"missing {', '.join(self.missing)}" if self.missing else "",
                 f"flag missed {', '.join(self.flags_missed)}" if self.flags_missed else "",
                 "premise not corrected" if self.premise_corrected is False else "",
                 "unanswerable, answered with confidence" if not self.answerable and not self.fully_right else ""]
        return "; ".join(p for p in parts if p)


def _key(act: str, section: str) -> str:
    return f"{act} {section}"


_WARNED = re.compile(r"([A-Z][A-Z0-9]{1,14})\s+s\.\s*(\d+[A-Z]{0,3})\b")
"""A warning that starts with the provision it is about: "IPC s.420 was repealed ... cite BNS s.318(4)"."""


_BAD = re.compile(r"\b(repealed|omitted|not (?:yet )?in force|does not exist|not found)\b")
_GONE = re.compile(r"\b(struck down|unconstitutional|no longer|not re-?enacted|no successor|does not exist|"
                   r"not found|never existed|repealed|omitted|dropped|read down|not an offence|void|illegal|"
                   r"not law|ha[sd] no (?:such )?(?:section|provision))\b", re.IGNORECASE)
"""Words by which an answer says that the law a question rests on is not (or no longer) law, that the section it
names is not there ("The BNS has no section 498A"), or that what the question takes to be allowed is void ("shall be
void and illegal")."""


_STILL_LAW = re.compile(r"\b(?:not|never)\s+(?:been\s+)?(?:repealed|struck\s+down|omitted|dropped)\b|"
                        r"\bis\s+(?:still\s+)?(?:an?\s+offen[cs]e|illegal|punishable)\s+under\b|\bremains?\s+law\b",
                        re.IGNORECASE)
"""A sentence that says the law still stands ("has not been repealed", "... is illegal under section 497"): it
corrects no premise however many of ``_GONE``'s words it holds."""


def _short_title(title: str | None) -> str | None:
    """"The Muslim Women (...) Act, 2019" -> "Muslim Women (...) Act" (answers write the title with or without
    "The" and the year)."""
    if not title:
        return None
    return re.sub(r",?\s*\d{4}$", "", re.sub(r"^the\s+", "", title.strip(), flags=re.IGNORECASE))


def premise_corrected(q: LabelledQuestion, result: AskResult) -> bool:
    """Whether the answer says that the law the question rests on does not exist: a citation of a
    ``false_premise`` provision reported as not (or no longer) law, or a sentence of the answer or a warning
    that names it (its Act code and number) beside such words. For a premise with no provision named (an Act
    or section that never existed), any citation of the question reported not found or unknown counts."""
    assert q.false_premise is not None
    if not q.false_premise:
        return any(c.where == "question" and c.status in (CitationStatus.NOT_FOUND, CitationStatus.UNKNOWN_ACT)
                   for c in result.citations)
    texts = [*re.split(r"(?<=[.!?])\s+|\n+", result.answer), *result.warnings]
    titles = {c.act: c.act_title for c in result.citations if c.act and c.act_title}
    for act, section in q.false_premise:
        if act.startswith(UNKNOWN_ACT):  # an Act the graph does not hold: its section said not to be checkable law
            if not any(c.where == "question" and c.status is not CitationStatus.VERIFIED and c.section
                       and main_section(c.section) == section for c in result.citations):
                return False
            continue
        # the Act by its code or by its title ("Section 3 of the Muslim Women (...) Act, 2019 provides: ...")
        name = "|".join(re.escape(n) for n in (act, _short_title(titles.get(act))) if n)
        named = re.compile(rf"\b(?:{name})\b[^.\n]{{0,40}}?\b(?:s\.\s*|section\s+)?{re.escape(section)}\b"
                           rf"|\b(?:s\.\s*|section\s+){re.escape(section)}\b(?:\(\w+\))*[^\n]{{0,40}}?(?:{name})",
                           re.IGNORECASE)
        if any(named.search(t) and _GONE.search(t) and not _STILL_LAW.search(t) for t in texts):
            continue
        if any(c.act == act and c.section is not None and main_section(c.section) == section
               and c.status is not CitationStatus.VERIFIED and _GONE.search(c.message) for c in result.citations):
            continue
        return False
    return True


def score_answer(q: LabelledQuestion, result: AskResult) -> QuestionScore:
    """Compare one ``AskResult`` with its label."""
    verified: set[Provision] = set()
    cited: set[Provision] = set()
    flagged: set[Provision] = set()
    bad_status: set[Provision] = set()
    for c in result.citations:
        if not (c.act and c.section):
            continue
        p = (c.act, main_section(c.section))
        if c.status is not CitationStatus.VERIFIED:
            flagged.add(p)
        if c.where == "answer":
            cited.add(p)
            # A provision the label expects although it was repealed before the date (the IPC side of
            # "how did theft change under the BNS?") is rightly cited and rightly reported as repealed.
            if c.status in (CitationStatus.VERIFIED, CitationStatus.REPEALED):
                verified.add(p)
            else:
                bad_status.add(p)
    for w in result.warnings:
        m = _WARNED.match(w)
        if m and _BAD.search(w):
            flagged.add((m.group(1), m.group(2)))
    for act, section in q.expect_flagged:  # an Act the graph does not hold: its citation could not be verified
        if act.startswith(UNKNOWN_ACT) and any(
                c.where == "question" and c.status is not CitationStatus.VERIFIED and c.section
                and main_section(c.section) == section for c in result.citations):
            flagged.add((act, section))
    expected = set(q.expect_cited)
    want_flags = set(q.expect_flagged)
    missing = expected - verified
    flags_missed = want_flags - flagged
    kept = [c for c in result.claims if c.kept]
    bad = (Verdict.UNSUPPORTED, Verdict.CONTRADICTED)
    corrected = premise_corrected(q, result) if q.false_premise is not None else None
    right = not missing and not flags_missed and corrected is not False
    if q.number_mixup is not None:  # the answer must say a confused number is one (that one), and only then
        said = [w for w in result.warnings if MIXUP_WARNING in w]
        named = q.cited is not None and any(w.startswith(f"{q.cited[0]} s.{q.cited[1]} ") for w in said)
        right = right and (named if q.number_mixup else not said)
    if not q.answerable:
        right = float(result.confidence.score) < UNANSWERED
    return QuestionScore(
        id=q.id, fully_right=right,
        expected_verified=_names(expected & verified), missing=_names(missing),
        unexpected=_names(cited - expected - want_flags), flags_raised=_names(want_flags & flagged),
        flags_missed=_names(flags_missed), wrong_flags=_names(expected & bad_status - verified), cited=len(cited),
        claims_kept=len(kept), unsupported_claims=sum(c.verdict in bad for c in kept),
        removed_claims=sum(not c.kept for c in result.claims), confidence=float(result.confidence.score),
        confidence_label=str(result.confidence.label.value),
        factors={f.name: f.value for f in result.confidence.factors},
        latency_ms=round(result.timings_ms.get("total", 0.0), 1),
        input_tokens=result.usage.input_tokens, output_tokens=result.usage.output_tokens,
        cost_usd=result.usage.cost_usd, complexity=q.complexity, answered_complexity=str(result.complexity.value),
        phrasing=q.phrasing, split=q.split, premise_corrected=corrected, answerable=q.answerable,
    )  # fmt: skip


def _names(ps: Iterable[Provision]) -> list[str]:
    return sorted(_key(*p) for p in ps)


def expected_calibration_error(conf: Sequence[float], correct: Sequence[bool], bins: int = BINS) -> float | None:
    """Sum over equal-width confidence bins of |accuracy - mean confidence| weighted by the bin's share.
    None for no questions (never NaN)."""
    if not conf:
        return None
    total = 0.0
    for b in reliability_bins(conf, correct, bins):
        if b["n"]:
            total += b["n"] / len(conf) * abs(b["accuracy"] - b["confidence"])
    return round(total, 4)


def reliability_bins(conf: Sequence[float], correct: Sequence[bool], bins: int = BINS) -> list[dict[str, Any]]:
    """Per equal-width bin of confidence: its range, count, mean confidence and accuracy (0 when empty)."""
    out = []
    for i in range(bins):
        lo, hi = i / bins, (i + 1) / bins
        idx = [j for j, c in enumerate(conf) if lo <= c < hi or (i == bins - 1 and c == 1.0)]
        n = len(idx)
        out.append({
            "lo": lo, "hi": hi, "n": n,
            "confidence": round(sum(conf[j] for j in idx) / n, 4) if n else 0.0,
            "accuracy": round(sum(bool(correct[j]) for j in idx) / n, 4) if n else 0.0,
        })  # fmt: skip
    return out


def auroc(conf: Sequence[float], correct: Sequence[bool]) -> float | None:
    """Probability that a fully right answer outscores a wrong one (ties count half): the Mann-Whitney U
    statistic over both classes. None when either class is empty, since nothing is there to separate."""
    pos = [c for c, ok in zip(conf, correct, strict=True) if ok]
    neg = [c for c, ok in zip(conf, correct, strict=True) if not ok]
    if not pos or not neg:
        return None
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return round(wins / (len(pos) * len(neg)), 4)


def _percentile(xs: Sequence[float], pct: float) -> float | None:
    """Nearest-rank percentile; None for no values."""
    if not xs:
        return None
    s = sorted(xs)
    return round(s[max(0, math.ceil(pct / 100 * len(s)) - 1)], 1)


def _ratio(num: float, den: float) -> float | None:
    return round(num / den, 4) if den else None


def summarise(scores: Sequence[QuestionScore]) -> dict[str, Any]:
    """The ``overall`` block: rates are None (never NaN) when their denominator is empty."""
    expected = sum(len(s.expected_verified) + len(s.missing) for s in scores)
    hit = sum(len(s.expected_verified) for s in scores)
    cited = sum(s.cited for s in scores)
    flag_questions = [s for s in scores if s.flags_raised or s.flags_missed]
    conf = [s.confidence for s in scores]
    right = [s.fully_right for s in scores]
    kept = sum(s.claims_kept for s in scores)
    return {
        "questions": len(scores),
        "fully_right": sum(right),
        "fully_right_rate": _ratio(sum(right), len(scores)),
        "citation_recall": _ratio(hit, expected),
        "citation_precision": _ratio(hit, cited),
        "flag_accuracy": _ratio(sum(1 for s in scores if not s.flags_missed and not s.wrong_flags), len(scores)),
        "flag_recall": _ratio(sum(len(s.flags_raised) for s in flag_questions),
                              sum(len(s.flags_raised) + len(s.flags_missed) for s in flag_questions)),
        "unsupported_claim_rate": _ratio(sum(s.unsupported_claims for s in scores), kept),
        "removed_claims": sum(s.removed_claims for s in scores),
        "mean_confidence": round(statistics.fmean(conf), 4) if conf else None,
        "ece": expected_calibration_error(conf, right),
        "auroc": auroc(conf, right),
        "low_confidence_when_wrong": _ratio(sum(1 for s in scores if not s.fully_right and s.confidence < 0.6),
                                            sum(1 for s in scores if not s.fully_right)),
        "wrong_at_high": sum(1 for s in scores if not s.fully_right and s.confidence >= HIGH),
        "unexpected_per_answer": round(statistics.fmean(len(s.unexpected) for s in scores), 3) if scores else None,
        "latency_ms_p50": _percentile([s.latency_ms for s in scores], 50),
        "latency_ms_p95": _percentile([s.latency_ms for s in scores], 95),
        "input_tokens": sum(s.input_tokens for s in scores),
        "output_tokens": sum(s.output_tokens for s in scores),
        "cost_usd": round(sum(s.cost_usd for s in scores), 6),
    }  # fmt: skip


@dataclass
class AnswerReport:
    questions: list[QuestionScore]
    overall: dict[str, Any]
    by_split: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_complexity: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_phrasing: dict[str, dict[str, Any]] = field(default_factory=dict)
    generator: str = ""

    def sealed(self) -> dict[str, Any]:
        """What a sealed set may show: the aggregate figures of the whole set and of each split only (no
        question, no miss, no per-phrasing or per-complexity count, no reliability bins)."""
        return {"generator": self.generator, "sealed": True, "overall": self.overall, "by_split": self.by_split}

    def as_dict(self) -> dict[str, Any]:
        return {
            "generator": self.generator,
            "overall": self.overall,
            "by_split": self.by_split,
            "by_complexity": self.by_complexity,
            "by_phrasing": self.by_phrasing,
            "reliability": reliability_bins([s.confidence for s in self.questions],
                                            [s.fully_right for s in self.questions]),
            "questions": [asdict(s) for s in self.questions],
        }  # fmt: skip


def _grouped(scores: Sequence[QuestionScore], key: Callable[[QuestionScore], str | None]) -> dict[str, Any]:
    groups: dict[str, list[QuestionScore]] = {}
    for s in scores:
        k = key(s)
        if k:
            groups.setdefault(k, []).append(s)
    return {k: summarise(v) for k, v in sorted(groups.items())}


def build_report(scores: Sequence[QuestionScore], generator: str = "") -> AnswerReport:
    scores = list(scores)
    return AnswerReport(
        questions=scores, overall=summarise(scores), by_split=_grouped(scores, lambda s: s.split),
        by_complexity=_grouped(scores, lambda s: s.complexity), by_phrasing=_grouped(scores, lambda s: s.phrasing),
        generator=generator,
    )  # fmt: skip


def run_answers(service: Any, questions: Sequence[LabelledQuestion],
                progress: Callable[[int, int], None] | None = None) -> AnswerReport:
    """Ask every question through ``service`` (an ``AskService``) and score the answers."""
    scores = []
    generator = ""
    for i, q in enumerate(questions, start=1):
        result = service.ask(q.question, q.as_of)
        generator = generator or result.generator
        scores.append(score_answer(q, result))
        if progress is not None:
            progress(i, len(questions))
    return build_report(scores, generator)


def write_report(report: AnswerReport, out_dir: Path) -> list[Path]:
    """``report.json`` (what ``--json`` prints), ``report.md`` (tables and the misses) and
    ``reliability.svg`` (the reliability diagram); returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    doc = report.as_dict()
    paths = [out_dir / "report.json", out_dir / "report.md", out_dir / "reliability.svg"]
    paths[0].write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    paths[1].write_text(_markdown(report, doc), encoding="utf-8")
    paths[2].write_text(reliability_svg(doc["reliability"], report.overall), encoding="utf-8")
    return paths


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


METRICS = ("questions", "fully_right_rate", "citation_recall", "citation_precision", "flag_accuracy",
           "unsupported_claim_rate", "mean_confidence", "ece", "auroc", "wrong_at_high", "unexpected_per_answer",
           "latency_ms_p50", "latency_ms_p95")
"""The summary metrics a report shows per group (the CLI's table and ``report.md``)."""


def _table(rows: dict[str, dict[str, Any]]) -> list[str]:
    lines = ["| group | " + " | ".join(METRICS) + " |", "|---" * (len(METRICS) + 1) + "|"]
    lines += [f"| {k} | " + " | ".join(_fmt(v.get(c)) for c in METRICS) + " |" for k, v in rows.items()]
    return lines


def _markdown(report: AnswerReport, doc: dict[str, Any]) -> str:
    lines = [f"# Answer evaluation ({report.generator or 'no answers'})", "", "## Overall", ""]
    lines += _table({"all": report.overall, **{f"split: {k}": v for k, v in report.by_split.items()}})
    for title, rows in (("By complexity", report.by_complexity), ("By phrasing", report.by_phrasing)):
        if rows:
            lines += ["", f"## {title}", "", *_table(rows)]
    lines += ["", "## Reliability", "", "![reliability diagram](reliability.svg)", "",
              "| confidence | n | mean confidence | fully right |", "|---|---|---|---|"]
    lines += [f"| {b['lo']:.1f}-{b['hi']:.1f} | {b['n']} | {b['confidence']:.3f} | {b['accuracy']:.3f} |"
              for b in doc["reliability"] if b["n"]]
    wrong = [s for s in report.questions if not s.fully_right]
    lines += ["", f"## Not fully right ({len(wrong)})", ""]
    for s in wrong:
        lines.append(f"- `{s.id}` ({s.complexity or '?'}, {s.split or '-'}, confidence {s.confidence:.2f}): "
                     + s.misses())
    return "\n".join(lines) + "\n"


def reliability_svg(bins: Sequence[dict[str, Any]], overall: dict[str, Any]) -> str:
    """A reliability diagram as a standalone SVG: per confidence bin a bar at the share fully right, the
    diagonal of perfect calibration, and each bin's count (no plotting library needed)."""
    w, h, pad = 420, 420, 50
    side = w - 2 * pad

    def x(v: float) -> float:
        return pad + v * side

    def y(v: float) -> float:
        return h - pad - v * side

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h + 20}" font-family="sans-serif" '
             'font-size="11">', f'<rect x="{pad}" y="{pad}" width="{side}" height="{side}" fill="none" stroke="#444"/>',
             f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(1)}" stroke="#999" stroke-dasharray="4 3"/>']
    for b in bins:
        if not b["n"]:
            continue
        bx, bw = x(b["lo"]) + 1, side * (b["hi"] - b["lo"]) - 2
        parts.append(f'<rect x="{bx:.1f}" y="{y(b["accuracy"]):.1f}" width="{bw:.1f}" '
                     f'height="{y(0) - y(b["accuracy"]):.1f}" fill="#4a7bb7" fill-opacity="0.8"/>')
        parts.append(f'<circle cx="{x(b["confidence"]):.1f}" cy="{y(b["confidence"]):.1f}" r="2.5" fill="#c33"/>')
        parts.append(f'<text x="{bx + bw / 2:.1f}" y="{y(b["accuracy"]) - 4:.1f}" text-anchor="middle">{b["n"]}</text>')
    for t in range(0, 11, 2):
        v = t / 10
        parts.append(f'<text x="{x(v):.1f}" y="{h - pad + 15}" text-anchor="middle">{v:.1f}</text>')
        parts.append(f'<text x="{pad - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>')
    parts.append(f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">confidence</text>')
    parts.append(f'<text x="14" y="{h / 2}" transform="rotate(-90 14 {h / 2})" text-anchor="middle">'
                 "share fully right</text>")
    parts.append(f'<text x="{w / 2}" y="{pad - 18}" text-anchor="middle">reliability: ECE {_fmt(overall.get("ece"))}, '
                 f'AUROC {_fmt(overall.get("auroc"))}, n={overall.get("questions")}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"

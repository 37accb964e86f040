"""GenGround per-claim alignment: does the evidence support each claim of an answer?

``OfflineAligner`` (the default, no network) scores every evidence passage against the claim and
then looks for hard contradictions in the passage the claim is about:

1. **Verbatim.** A claim found word for word in a passage (case, spacing, punctuation and clause
   labels aside; four words at least) is SUPPORTED, whatever else the evidence says.
2. **Similarity.** Each passage is split into sentences and sentence windows (a sentence with its
   neighbour, a list's lead-in with each item, the whole passage); the claim is embedded once and
   compared with every window by cosine. Window vectors are cached by text inside the aligner, so
   the passages that recur across the claims of an answer are embedded once.
3. **Coverage.** The share of the claim's content words (lemmatised; stop words, Act names and
   legal boilerplate such as "whoever", "provides", "section", "punishable" removed; quantities as
   values) that the passage and its heading contain.
4. **Citation.** When the claim cites a provision ("Section 318(4) BNS", read by
   ``verification.extract.CitationExtractor``), only passages of that provision are candidates; if
   the evidence holds none of them (or none of the cited Act), the claim is misattributed. A
   provision the evidence itself names ("the provisions of section 44 shall apply") is content
   the claim restates, not its source.
5. **Contradictions** (``verification.claims.contradictions``): numbers, durations and fines (words
   and digits alike), floors against ceilings, negation, shall against may, and exclusive terms of
   art (simple/rigorous imprisonment, bailable/non-bailable, a fine made optional), checked against
   the best window of the best passage.

Verdicts: CONTRADICTED when the passage the claim is clearly about (cosine at least ``about``, or
half its content words covered) contradicts it or is not the provision it cites; SUPPORTED when the
match score (``0.5 * cosine + 0.5 * coverage``) reaches ``supported`` and at least ``min_coverage``
of the claim is covered; PARTIALLY_SUPPORTED from ``partial`` with ``partial_coverage``;
UNSUPPORTED otherwise, and always for empty evidence.

Measured (``benchmarks/bench_aligner.py`` over the 549 claims of
``tests/data/aligner_perturbations.jsonl``, 5 passages each): detection precision 0.997, recall
0.971 (flag = CONTRADICTED or UNSUPPORTED); 99% of faithful paraphrases SUPPORTED. On this 2-core
machine under load the aligner's own work is ~0.9 ms per claim (p95 1.5 ms) once the evidence
windows are cached; the single forward pass that embeds the claim (~13-20 ms for all-MiniLM-L6-v2
on CPU) is the rest, so a claim costs 1.03x one bare ``embed([claim])``.

What it cannot see: meaning carried by words rather than form ("a mandatory death sentence" against
"death or imprisonment for life", "on payment of a fee" against "free of cost"), and a number right
for another clause of the same provision ("five years" for simple theft, where BNS s.303(2) gives
five years for a repeat conviction).

``legal_rag.workflow.align.ClaudeAligner`` asks Claude for the verdict and keeps this aligner's hard
contradictions above it.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from graph_schema.markers import strip_markers
from graph_schema.model import CitationKey
from verification.claims.contradictions import Conflict, ConflictKind, Reading, conflicts, is_number_word, lemma, read
from verification.claims.terms import STOPWORDS
from verification.claims.types import Alignment, Embedder, Passage, Verdict

if TYPE_CHECKING:
    from verification.model import Citation

__all__ = ["OfflineAligner", "is_verbatim"]

# -- text ------------------------------------------------------------------------------------------

_SENTENCE = re.compile(r"(?<=[.;:—])\s+(?=[(A-Z\"“])")
_LABEL = re.compile(r"\((?:\d{1,3}[A-Za-z]?|[a-zA-Z]{1,3}|[ivxlIVXL]{1,6})\)")
_NON_WORD = re.compile(r"[^0-9a-z]+")
_MAX_WINDOWS = 16

# Words that say nothing about what a provision provides: how claims introduce it ("Section 318 of
# the BNS provides that whoever ..."), Act names, and the scaffolding of penal sections.
_BOILERPLATE = frozenset((
    "section", "sections", "sub", "subsection", "clause", "act", "code", "sanhita", "adhiniyam", "bharatiya", "nyaya",
    "nagarik", "nagrik", "suraksha", "sakshya", "penal", "bns", "bnss", "bsa", "ipc", "crpc", "iea", "hma", "nia",
    "provision", "provisions", "provide", "provides", "provided", "state", "states", "say", "says", "stipulate",
    "stipulates", "lay", "lays", "laid", "prescribe", "prescribes", "according", "accordance", "law", "under",
    "whoever", "anyone", "someone", "person", "persons", "one", "said", "aforesaid", "hereinafter", "hereinbefore",
    "thereof", "therein", "herein", "whereof", "either", "description", "term", "also", "shall", "may", "must",
    "will", "can", "not", "no", "never", "nothing", "namely", "following", "mean", "means", "case", "cases",
    "manner", "thereby", "therefore", "every", "within", "extend", "extends", "extending", "exceed", "exceeding",
    "least", "less", "more", "maximum", "minimum", "upto", "liable", "commit", "commits", "committed", "faces",
    "face", "attract", "attracts", "punish", "punishable", "punished", "punishment", "imprisonment", "imprison",
    "below", "under", "above", "over", "upto", "before", "after", "between", "during", "upon", "completely",
    "deal", "deals", "make", "makes", "made", "carry", "carries", "entail", "entails", "apply", "applies",
))  # fmt: skip
_BOILERPLATE_LEMMAS = frozenset(lemma(w) for w in _BOILERPLATE)
# Lemmas that paraphrases use for the statute's word.
_SYNONYMS = {
    "jail": "imprison", "prison": "imprison", "incarcerat": "imprison", "penalty": "punish", "penalis": "punish",
    "penaliz": "punish", "sentenc": "punish", "individual": "person", "anybody": "person", "somebody": "person",
    "kill": "death", "killing": "death", "marry": "marriage", "married": "marriage", "wed": "marriage",
    "husband": "spouse", "wife": "spouse", "approv": "permiss", "courts": "court", "judg": "court",
    "policeman": "police", "cop": "police", "monetary": "fine", "fin": "fine", "cheating": "cheat",
    "deceiv": "cheat", "fraudulent": "fraud", "fraudulently": "fraud", "dishonestly": "dishonest",
    "dishonesty": "dishonest", "goods": "property", "lifelong": "life", "groom": "bridegroom", "fir": "information",
    "undertrial": "trial",
}  # fmt: skip


def _canonical_where(p: Passage) -> str:
    """ "BNS s.318(4)" from the heading "BNS s.318(4) Cheating", else from the Act and section."""
    m = re.match(r"\s*(\S+\s+s\.\s*\S+)", p.heading or "")
    return m.group(1) if m else f"{p.act} s.{p.section}"


def _passage_sub(p: Passage) -> str | None:
    """The top-level sub-unit a passage is drawn from ("4" for BNS:318:4:0), None for a whole section."""
    parts = p.chunk_id.split(":")
    if len(parts) == 4 and parts[0] == p.act and parts[1] == p.section:
        return None if parts[2] == "-" else parts[2].split("/")[0]
    m = re.match(r"\s*\S+\s+s\.\s*[0-9A-Za-z]+\(([^)]+)\)", p.heading or "")
    return m.group(1) if m else None


def _flat(text: str) -> str:
    """Lower case, clause labels and punctuation dropped, spaces collapsed: the verbatim test's form."""
    text = unicodedata.normalize("NFKC", strip_markers(text)).lower().replace("**", " ")
    return " " + _NON_WORD.sub(" ", _LABEL.sub(" ", text)).strip() + " "


def is_verbatim(claim: str, evidence: Sequence[Passage]) -> Passage | None:
    """The passage that contains ``claim`` word for word (at least four words), if any."""
    flat = _flat(claim)
    if len(flat.split()) < 4:
        return None
    return next((p for p in evidence if flat in _flat(p.text)), None)


@lru_cache(maxsize=1 << 12)
def _windows(text: str) -> tuple[tuple[str, ...], int]:
    """Sentences, adjacent pairs, a list's lead-in with each item, and the whole text; and how many of
    the first windows are single sentences."""
    text = " ".join(text.replace("**", " ").split())
    segments = list(dict.fromkeys(s.strip() for s in _SENTENCE.split(text) if len(s.split()) >= 3))
    if len(segments) <= 1:
        return (text,), 1
    out = list(segments)
    out.extend(f"{a} {b}" for a, b in zip(segments, segments[1:], strict=False))
    if segments[0].endswith((":", "—", "-")):
        out.extend(f"{segments[0]} {s}" for s in segments[2:])
    out.append(text)
    unique = list(dict.fromkeys(out))
    if len(unique) > _MAX_WINDOWS:
        unique = [*unique[: _MAX_WINDOWS - 1], text]
    return tuple(unique), min(len(segments), _MAX_WINDOWS - 1)


@lru_cache(maxsize=1 << 14)
def _reading(text: str) -> Reading:
    return read(text)


def _terms(reading: Reading) -> frozenset[str]:
    """Content lemmas and quantity values ("#7") of a text."""
    out = {f"#{q.value:g}" for q in reading.quantities}
    for tok in reading.tokens:
        if not tok.isalpha() or tok in STOPWORDS or tok in _BOILERPLATE or is_number_word(tok) or len(tok) < 2:
            continue
        lem = lemma(tok)
        lem = _SYNONYMS.get(lem, lem)
        if lem not in _BOILERPLATE_LEMMAS:
            out.add(lem)
    return frozenset(out)


@lru_cache(maxsize=1 << 12)
def _passage_terms(heading: str, text: str) -> frozenset[str]:
    return _terms(_reading(heading)) | _terms(_reading(text))


# -- the offline aligner ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Scored:
    passage: Passage
    cosine: float
    coverage: float
    window: str
    match: float
    where: str
    sentences: tuple[tuple[str, float], ...]
    """The passage's single sentences and their cosine to the claim."""


class OfflineAligner:
    """Embedding similarity + content-word coverage + hard contradiction checks; no network.

    Args:
        embedder: Any ``Embedder`` (the real one is ``SentenceTransformerEmbedder``); the claim is
            embedded once per call, evidence windows once per aligner (cached by text).
        supported: Match score (``0.5 * cosine + 0.5 * coverage``) from which a claim is SUPPORTED.
        partial: Match score from which a claim is PARTIALLY_SUPPORTED.
        min_coverage: Share of the claim's content words the passage must contain for SUPPORTED.
        partial_coverage: Share it must contain for PARTIALLY_SUPPORTED: a passage on the claim's
            topic that contains none of what the claim asserts ("dowry death is non-bailable" against
            the punishment for dowry death) does not support part of it.
        about: Cosine from which the best passage is "what the claim is about", so that its
            contradictions make the claim CONTRADICTED (below it they make it UNSUPPORTED). A
            passage covering half the claim's content words is about it too.
        extract_citations: Text -> citations; defaults to ``CitationExtractor().extract``, built
            on first use.
        cache_size: Evidence windows whose vectors are kept.
    """

    name = "offline"
    _CONTEXT_MARGIN = 0.12

    def __init__(
        self,
        embedder: Embedder,
        *,
        supported: float = 0.66,
        partial: float = 0.5,
        min_coverage: float = 0.6,
        partial_coverage: float = 0.4,
        about: float = 0.55,
        extract_citations: Callable[[str], list[Citation]] | None = None,
        cache_size: int = 20_000,
    ) -> None:
        if not 0 <= partial <= supported <= 1:
            raise ValueError(f"thresholds must satisfy 0 <= partial <= supported <= 1, got {partial}, {supported}")
        self._embedder = embedder
        self.supported = supported
        self.partial = partial
        self.min_coverage = min_coverage
        self.partial_coverage = partial_coverage
        self.about = about
        self._extract = extract_citations
        self._cache: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        # The citations a passage names, read once per passage text (``_names``).
        self._passage_citations = lru_cache(maxsize=2048)(self._citations)
        self._cache_size = cache_size
        self._lock = threading.Lock()

    # -- public ------------------------------------------------------------------------------------

    def align(self, claim: str, evidence: Sequence[Passage]) -> Alignment:
        """Judge ``claim`` against ``evidence`` (see the module docstring for the rules)."""
        if not claim.strip():
            raise ValueError("cannot align an empty claim")
        if not evidence:
            return Alignment(Verdict.UNSUPPORTED, 0.0, ("no evidence passages were retrieved for this claim",))
        verbatim = is_verbatim(claim, evidence)
        if verbatim is not None:
            return Alignment(Verdict.SUPPORTED, 1.0, (f"quoted verbatim from {_canonical_where(verbatim)}",),
                             verbatim.chunk_id)  # fmt: skip
        claim_reading = _reading(claim)
        # The Act's and provision's names say where the claim comes from, not what it asserts: their
        # words ("Scheduled Tribes", "Prevention of Atrocities") are not content the evidence must hold.
        claim_terms = _terms(_reading(self._without_names(claim)))
        scored = self._score(claim, claim_terms, evidence)
        pool, citation = self._cited(claim, scored)
        best = max(pool, key=lambda s: s.match)
        found = self._conflicts(claim_reading, best, scored)
        found = citation + found
        if found:
            is_about = best.cosine >= self.about or best.coverage >= 0.5
            verdict = Verdict.CONTRADICTED if is_about else Verdict.UNSUPPORTED
            reasons = tuple(c.message for c in found)
            if not is_about:
                reasons += (f"the closest passage, {best.where}, is not clearly about the claim "
                            f"(similarity {best.cosine:.2f}, coverage {best.coverage:.2f})",)  # fmt: skip
            score = 0.0 if verdict is Verdict.CONTRADICTED else round(best.match, 3)
            return Alignment(verdict, score, reasons, best.passage.chunk_id)
        verdict = self._verdict(best)
        union = self._union_coverage(claim_terms, evidence)
        # A claim spread across several passages is partly supported, but only if the best one grounds some
        # of it and every number it states is in the evidence: words scattered over unrelated sections do
        # not support "twenty-five years" or "amended in 2025".
        if (verdict is Verdict.UNSUPPORTED and union >= self.min_coverage and best.cosine >= self.about
                and best.coverage > 0 and self._numbers_found(claim_terms, evidence)):
            verdict = Verdict.PARTIALLY_SUPPORTED
        reasons = (f"{verdict.value.lower().replace('_', ' ')} by {best.where}: similarity {best.cosine:.2f}, "
                   f"{best.coverage:.0%} of the claim's content words found",)  # fmt: skip
        missing = sorted(claim_terms - _passage_terms(best.passage.heading, best.passage.text))
        if missing and verdict is not Verdict.SUPPORTED:
            reasons += ("not in the evidence: " + ", ".join(t.lstrip("#") for t in missing[:8]),)
        return Alignment(verdict, round(best.match, 3), reasons, best.passage.chunk_id)

    # -- scoring -----------------------------------------------------------------------------------

    def _verdict(self, s: _Scored) -> Verdict:
        if s.match >= self.supported and s.coverage >= self.min_coverage:
            return Verdict.SUPPORTED
        if s.match >= self.partial and s.coverage >= self.partial_coverage:
            return Verdict.PARTIALLY_SUPPORTED
        return Verdict.UNSUPPORTED

    def _score(self, claim: str, claim_terms: frozenset[str], evidence: Sequence[Passage]) -> list[_Scored]:
        windows = [_windows(p.text) for p in evidence]
        vectors, claim_vec = self._vectors([w for ws, _ in windows for w in ws], claim)
        out: list[_Scored] = []
        for p, (ws, n) in zip(evidence, windows, strict=True):
            sims = [float(np.dot(vectors[w], claim_vec)) for w in ws]
            k = int(np.argmax(sims))
            terms = _passage_terms(p.heading, p.text)
            coverage = len(claim_terms & terms) / len(claim_terms) if claim_terms else 0.0
            cosine = max(0.0, sims[k])
            match = 0.5 * cosine + 0.5 * coverage
            sentences = tuple(zip(ws[:n], sims[:n], strict=True))
            out.append(_Scored(p, cosine, coverage, ws[k], match, _canonical_where(p), sentences))
        return out

    def _vectors(
        self, texts: list[str], claim: str
    ) -> tuple[dict[str, npt.NDArray[np.float32]], npt.NDArray[np.float32]]:
        """Window vectors (from the cache where possible) and the claim's, in one ``embed`` call."""
        with self._lock:
            found = {t: self._cache[t] for t in texts if t in self._cache}
            for t in found:
                self._cache.move_to_end(t)
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        embedded = self._embedder.embed([*missing, claim])
        with self._lock:
            for t, v in zip(missing, embedded[:-1], strict=True):
                found[t] = v
                self._cache[t] = v
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return found, embedded[-1]

    @staticmethod
    def _numbers_found(claim_terms: frozenset[str], evidence: Sequence[Passage]) -> bool:
        numbers = {t for t in claim_terms if t.startswith("#")}
        if not numbers:
            return True
        union: set[str] = set()
        for p in evidence:
            union |= _passage_terms(p.heading, p.text)
        return numbers <= union

    def _union_coverage(self, claim_terms: frozenset[str], evidence: Sequence[Passage]) -> float:
        if not claim_terms:
            return 0.0
        union: set[str] = set()
        for p in evidence:
            union |= _passage_terms(p.heading, p.text)
        return len(claim_terms & union) / len(claim_terms)

    def _conflicts(self, claim: Reading, s: _Scored, scored: Sequence[_Scored]) -> list[Conflict]:
        """Conflicts with the best window of ``s``, unless the claim's version is stated in a sentence
        of the same section about as close to the claim (the claim may restate a section across its
        sub-units: BNSS s.480(1) "may be released on bail", 480(1)(i) "shall not be so released").
        Sentences further from the claim do not count: a proviso that "the detention shall be
        authorised" in a remand home does not answer "no Magistrate of the second class shall authorise".
        Numbers and terms are looked up in the whole section (a list spreads its values over clauses)."""
        same = [o for o in scored if o.passage.act == s.passage.act and o.passage.section == s.passage.section]
        near = [sentence for o in same for sentence, sim in o.sentences if sim >= s.cosine - self._CONTEXT_MARGIN]
        context = " ".join(dict.fromkeys([s.window, *near]))
        section = " ".join(o.passage.text for o in same)
        return conflicts(claim, _reading(s.window), _reading(context), _reading(section), s.where)

    # -- citations ---------------------------------------------------------------------------------

    def _without_names(self, claim: str) -> str:
        from verification.model import Label

        spans = sorted((c.start, c.end) for c in self._citations(claim)
                       if c.label in (Label.STATUTE, Label.PROVISION))  # fmt: skip
        if not spans:
            return claim
        out, pos = [], 0
        for a, b in spans:
            if a >= pos:
                out.append(claim[pos:a])
                pos = b
        out.append(claim[pos:])
        return " ".join(out)

    def _names(self, p: Passage, k: CitationKey) -> bool:
        """Does passage ``p`` itself name provision ``k``, so that a claim citing it restates the passage?

        "in section 2 of the Information Technology Act" names the IT Act's section 2, not the Juvenile
        Justice Act's: a section the passage names of another Act does not excuse a claim that cites
        that number of its own Act. A bare "section 44" is the passage's own Act's.
        """
        if not _mentions_section(p.text, k.section):
            return False
        if not k.act:
            return True
        from verification.model import Label

        wanted = _norm_section(k.section)
        return any(_norm_section(pk.section) == wanted and (pk.act or p.act) == k.act
                   for c in self._passage_citations(p.text) if c.label is Label.PROVISION
                   for pk in c.keys)  # fmt: skip

    def _citations(self, claim: str) -> list[Citation]:
        if self._extract is None:
            from verification.extract import CitationExtractor

            self._extract = CitationExtractor().extract
        return self._extract(claim)

    def _cited(self, claim: str, scored: list[_Scored]) -> tuple[list[_Scored], list[Conflict]]:
        """The candidate passages (those of the cited provision when the claim cites one) and a
        citation conflict when the evidence holds no passage of what the claim cites.

        A provision or Act the evidence itself mentions ("the provisions of section 44 shall apply",
        "under the Bharatiya Nyaya Sanhita, 2023") is part of what the claim restates, not the claim's
        source, and is not checked.
        """
        from verification.model import Label

        cits = self._citations(claim) if re.search(r"\d|[A-Z]{2,}|Act|Sanhita|Adhiniyam|Code", claim) else []
        texts = [s.passage.text for s in scored]
        keys = [k for c in cits if c.label is Label.PROVISION for k in c.keys
                if k.section and not any(self._names(s.passage, k) for s in scored)]  # fmt: skip
        acts = {c.act for c in cits if c.label is Label.STATUTE and c.act and not c.said
                and not any(c.text.lower() in t.lower() for t in texts)}  # fmt: skip
        best = max(scored, key=lambda s: s.match)
        if keys:
            same_section = [s for s in scored if any(_same_section(k, s.passage) for k in keys)]
            exact = [s for s in same_section if any(_same_sub(k, s.passage) for k in keys)]
            if exact:
                return exact, []
            cited = ", ".join(dict.fromkeys(_key_label(k) for k in keys))
            if same_section:
                near = max(same_section, key=lambda s: s.match)
                return [near], [Conflict(ConflictKind.CITATION, f"claim cites {cited}, the evidence is {near.where}")]
            return [best], [Conflict(ConflictKind.CITATION, f"claim cites {cited}, the evidence is {best.where}")]
        if acts and not any(s.passage.act in acts for s in scored):
            named = ", ".join(sorted(acts))
            return [best], [Conflict(ConflictKind.CITATION, f"claim attributes this to the {named}, "
                                                            f"the evidence is {best.where}")]  # fmt: skip
        return scored, []


def _mentions_section(text: str, section: str) -> bool:
    """Does ``text`` refer to section ``section`` ("section 44", "sections 494 and 495", "section 13(1)",
    the seventeenth of "sections 166A, 354A, ..., 376DB")?"""
    pattern = rf"(?i)\bs(?:ections?|s?\.)\s*(?:[\dA-Z()]+\s*(?:,|and|or|to)\s*){{0,40}}{re.escape(section)}(?![\dA-Z])"
    return re.search(pattern, text) is not None


def _norm_section(s: str) -> str:
    return s.replace("-", "").replace(" ", "").upper()


def _same_section(k: CitationKey, p: Passage) -> bool:
    return (not k.act or k.act == p.act) and _norm_section(k.section) == _norm_section(p.section)


def _same_sub(k: CitationKey, p: Passage) -> bool:
    sub = _passage_sub(p)
    return not k.sub or sub is None or k.sub[0].lower() == sub.lower()


def _key_label(k: CitationKey) -> str:
    return f"{k.act} s.{k.label}" if k.act else f"s.{k.label}"

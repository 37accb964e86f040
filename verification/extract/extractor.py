"""Citation extraction: the public entry point of the extractor.

>>> ex = CitationExtractor()
>>> [(c.text, c.label.value) for c in ex.extract("convicted under Section 302 r/w 34 IPC")]
[('Section 302 r/w 34', 'PROVISION'), ('IPC', 'STATUTE')]

The work is done by a spaCy pipeline (``verification.extract.pipeline``): rule components propose spans with exact
character offsets, a resolver keeps a non-overlapping set, and ``verification.extract.linking`` resolves Act codes
and links every provision to its statute.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from spacy.language import Language
from spacy.tokens import Doc

from graph_schema.acts import CURATED, REPEALED_CODES, ActResolver, normalise_alias, slug_year, title_aliases
from graph_schema.errors import UnknownActError
from graph_schema.model import Act
from verification.extract.linking import CONSTITUTION_CODE, build_citations
from verification.extract.pipeline import build_pipeline
from verification.extract.tagger import PrecedentRetagger
from verification.model import Citation, Label

__all__ = ["CitationExtractor", "citations_to_json", "default_act_resolver"]

CONSTITUTION = Act(
    code=CONSTITUTION_CODE,
    title="Constitution of India",
    aliases=("Constitution", "Constitution of India", "Indian Constitution", "Constn", "Bharat Ka Samvidhan"),
)


def default_act_resolver() -> Callable[[str], str]:
    """Resolver over the curated Acts, the repealed criminal codes and the Constitution (no I/O)."""
    repealed = {a.code for a in REPEALED_CODES}
    # Each with its slug's year, so that "Arbitration Act, 1940" is not taken for the 1996 Act.
    curated = [Act(code=c.code, title=c.aliases[0], aliases=c.aliases, year=slug_year(c.slug))
               for c in CURATED if c.code not in repealed]  # fmt: skip
    return _FastFail([*REPEALED_CODES, *curated, CONSTITUTION]).resolve


class _FastFail:
    """``ActResolver.resolve``, but names no Act could match fail at once.

    Most statutes in a judgment are not curated ("Companies Act, 1956"); ``ActResolver`` ranks suggestions
    for each of those, which is most of the extraction time on a long text, and we never show them.
    """

    def __init__(self, acts: list[Act]) -> None:
        self._resolver = ActResolver(acts)
        names = (n for a in acts for n in (a.code, a.title, *a.aliases, *title_aliases(a.title)))
        self._keys = {_stripped(normalise_alias(n)) for n in names}

    def resolve(self, name: str) -> str:
        key = normalise_alias(name)
        if _stripped(key) not in self._keys and key not in self._keys:
            raise UnknownActError(name)
        return self._resolver.resolve(name)


def _stripped(key: str) -> str:
    # The same fallback as ``ActResolver.resolve``: "hma act 1955" -> "hma".
    return re.sub(r"\s+(?:act\s*)?(?:\d{4})?$", "", key).strip()


class CitationExtractor:
    """Finds provisions, statutes, precedents and notifications in text, with exact character spans.

    Args:
        resolve_act: maps a statute name as written ("Indian Penal Code, 1860", "N.I. Act") to an Act code,
            raising ``graph_schema.errors.LegalRagError`` when it cannot. Defaults to
            ``default_act_resolver()``; pass a resolver built from the graph's Acts to resolve every
            central Act.
        precedent_retagger: re-draws the rules' PRECEDENT spans: the learned tagger that ships with the package
            by default (``tagger.shipped_tagger()``), ``tagger.RulesOnly()`` for the rules alone.
    """

    def __init__(
        self,
        resolve_act: Callable[[str], str] | None = None,
        *,
        precedent_retagger: PrecedentRetagger | None = None,
    ) -> None:
        self._resolve_act = resolve_act or default_act_resolver()
        self.nlp: Language = build_pipeline(precedent_retagger)

    def extract(self, text: str) -> list[Citation]:
        """Every citation in ``text``, sorted by start, non-overlapping, with ``text == source[start:end]``.

        The citations are also left on the spaCy doc as ``doc._.citations`` by :meth:`extract_doc`.
        """
        cits: list[Citation] = self.extract_doc(text)._.citations
        return cits

    def extract_doc(self, text: str) -> Doc:
        """The processed spaCy ``Doc``; ``doc._.citations`` holds the citations, ``doc.spans["citations"]``
        the same spans on token boundaries (widened where a citation starts or ends inside a token)."""
        doc = self.nlp(text)
        doc._.citations = build_citations(text, doc._.candidates or [], self._resolve_act)
        return doc


def citations_to_json(text: str, cits: list[Citation]) -> list[dict[str, object]]:
    """JSON-ready dicts ``{"start", "end", "text", "label", "key"}`` for ``legal-rag extract-citations``.

    ``key`` is, for a PROVISION, ``{"act", "section", "sub", "keys", "kind"}`` (the first key, every key the span
    names, and "section", "article", "order", "rule", "chapter"...; an Order/Rule or a Rule of some Rules has no
    section key and adds ``"refs"``, e.g. "O39R1"); for a STATUTE ``{"act"}``; for a PRECEDENT or NOTIFICATION
    the normalised citation string.
    """
    out: list[dict[str, object]] = []
    for c in cits:
        assert text[c.start : c.end] == c.text
        key: object
        if c.label is Label.PROVISION:
            keys = [{"act": k.act or None, "section": k.section, "sub": list(k.sub)} for k in c.keys]
            first = keys[0] if keys else {"act": c.act, "section": None, "sub": []}
            key = {**first, "keys": keys, "kind": c.kind}
            if "refs" in c.extra:
                key["refs"] = c.extra["refs"].split("; ")
        elif c.label is Label.STATUTE:
            key = {"act": c.act}
        else:
            key = c.normalised
        out.append({"start": c.start, "end": c.end, "text": c.text, "label": c.label.value, "key": key})
    return out

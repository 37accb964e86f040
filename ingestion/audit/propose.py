"""Draft curation rows for the Acts the statutes name that the graph lacks (``legal-rag audit --propose-acts``)."""

from __future__ import annotations

import difflib
import re
from collections import defaultdict

from graph_schema.acts import generated_code, normalise_alias
from ingestion.audit.checks import FindingKind, act_names
from ingestion.audit.corpus import Corpus, loaded_sections
from ingestion.audit.report import AuditReport

_AMENDING = re.compile(r"\bAmendment\b|\bAmending\b|\bRepealing\b")
_REPEALS_IT = re.compile(r"\b(?:hereby\s+repealed|is\s+repealed|are\s+repealed|stands?\s+repealed)\b", re.I)
_BY_IT = re.compile(r"\b(?:Rep\.|Repealed|Omitted|Subs\.|Ins\.)\s*by\s+(?:the\s+)?$", re.I)
_SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[(A-Z])")


def propose_named_acts(corpus: Corpus, report: AuditReport) -> list[dict[str, object]]:
    """Draft curation rows for the unresolved ``unknown_act`` findings, from the statute text itself.

    A name that is a variant spelling of an Act the graph holds ("Indian Stamps Act, 1899" for the
    Indian Stamp Act, 1899) gets a ``reviewed.jsonl`` row (``"record": "review"``). Any other becomes an
    Act for ``named_acts.jsonl``, with status ``repealed`` when a sentence naming it repeals it ("The
    Motor Vehicles Act, 1939 (4 of 1939) ... are hereby repealed", MVA 1988 s.217: the naming section is
    the authority); ``amending`` when its title says it amends or repeals ("Marriage Laws (Amendment)
    Act, 1976") or the text names it as the instrument of an amendment ("Rep. by the Amending Act, 1934");
    otherwise ``named``: a statute names it, its status is not held. The number is the "(N of YYYY)" after
    the name. A person reviews each row before it is committed.
    """
    loaded = loaded_sections(corpus)
    wanted = {f.detail: f for f in report.unresolved if f.kind is FindingKind.UNKNOWN_ACT}
    seen: dict[str, list[tuple[str, str, str, int]]] = defaultdict(list)
    for (act, number), s in loaded.items():
        for sentence in _SENTENCE_END.split(s.text or ""):
            sentence = re.sub(r"\s+", " ", sentence).strip()
            for name in act_names(sentence):
                if name in wanted:
                    seen[name].append((act, number, sentence, sentence.find(name[: -6])))
    titles = {a.code: a.title for a in corpus.acts}
    taken = set(titles)
    rows: list[dict[str, object]] = []
    for name in sorted(seen):
        where = seen[name]
        year = int(name[-4:])
        act, sec, sent, _ = where[0]
        quote = f"{act} s.{sec} names it: \u201c{sent[:300]}\u201d"
        variant = max(((difflib.SequenceMatcher(None, normalise_alias(name), normalise_alias(t)).ratio(), c, t)
                       for c, t in titles.items() if t.endswith(str(year))), default=(0.0, "", ""))  # fmt: skip
        if variant[0] >= 0.85:
            f = wanted[name]
            rows.append({"record": "review", "kind": f.kind.value, "act": f.act, "section": f.section, "detail": name,
                         "authority": f"a variant spelling of {variant[2]} ({variant[1]}), which the graph holds; "
                                      + quote})  # fmt: skip
            continue
        act_number = next((m.group(1) for _, _, t, _ in where
                       if (m := re.search(re.escape(name) + r"\s*\(\s*(\d+)\s+of\s+" + name[-4:] + r"\s*\)", t))),
                      None)  # fmt: skip
        repeal = next(((a, n, t) for a, n, t, at in where if _REPEALS_IT.search(t) and not _BY_IT.search(t[:at])), None)
        instrument = next(((a, n, t) for a, n, t, at in where if at > 0 and _BY_IT.search(t[:at])), None)
        if repeal:
            status, by = "repealed", f"repealed by {repeal[0]} s.{repeal[1]}"
            quote = f"{repeal[0]} s.{repeal[1]} repeals it: \u201c{repeal[2][:300]}\u201d"
        elif _AMENDING.search(name) or instrument:
            status, by = "amending", "an amending Act: its amendments are part of the Acts it amended"
            if instrument:
                quote = f"{instrument[0]} s.{instrument[1]} names it as the amending instrument: " \
                        f"\u201c{instrument[2][:300]}\u201d"
        else:
            status, by = "named", "named by a statute; its own status is not held"
        code = generated_code(f"The {name}", year)
        while code in taken:
            code += "N"
        taken.add(code)
        rows.append({"record": "act", "code": code, "title": f"The {name}", "year": year, "number": act_number,
                     "status": status, "source": f"curation/named_acts.jsonl: {by}", "authority": quote})
    return rows

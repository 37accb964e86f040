"""Audit of the shipped statute sources: what they disagree on, and which curation record settles it.

``legal-rag audit`` reads every source that carries a section (India Code full text, the two copies of
the new codes, the legacy codes, the curation files), compares them and reports findings:

* ``duplicate_text``: one source gives two sections the same text (BNSS 58 and 59 in India Code);
* ``heading_mismatch``: a source's text under a heading is another section's text in another source;
* ``text_disagrees``: the text ingestion loads is confirmed by no other source that carries the section;
* ``empty_text``: a section in force (or in force until 2024-07-01) that ingestion would load without text;
* ``truncated_title``: a loaded title cut from another source's at an apostrophe or hyphen ("Police officer");
* ``numbering_gap``: sub-sections (1), (3), (4): a number missing that no omission footnote or mark explains;
* ``no_change_differs``: a correspondence-table link whose summary says "no change" between texts
  that differ materially;
* ``unknown_act``: an Act the statute text names ("the Motor Vehicles Act, 1939") that the graph lacks;
* ``undated_insertion``: a section wrapped whole in an insertion marker that ingestion cannot date;
* ``bad_record``: a curation row that ingestion rejects.

Each finding is resolved by a curation record (``data/corpus/curation``): a correction ingestion applies,
a commencement date, an Act added, a relation corrected, or a review that names the source confirming the text
as it is. ``corpus`` reads the sources, ``checks`` finds, ``report`` matches findings to records, ``propose``
drafts records for Acts the statutes name; everything after the reading is pure.
"""

from ingestion.audit.checks import (
    Finding,
    FindingKind,
    act_names,
    compare_texts,
    duplicate_texts,
    empty_texts,
    heading_mismatches,
    no_change_links,
    numbering_gaps,
    truncated_titles,
    undated_insertions,
    unknown_acts,
)
from ingestion.audit.corpus import Corpus, read_corpus
from ingestion.audit.propose import propose_named_acts
from ingestion.audit.report import AuditReport, Resolution, audit

__all__ = [
    "AuditReport",
    "Corpus",
    "Finding",
    "FindingKind",
    "Resolution",
    "act_names",
    "audit",
    "compare_texts",
    "duplicate_texts",
    "empty_texts",
    "heading_mismatches",
    "no_change_links",
    "numbering_gaps",
    "propose_named_acts",
    "read_corpus",
    "truncated_titles",
    "undated_insertions",
    "unknown_acts",
]

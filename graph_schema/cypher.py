"""Every Cypher statement the project runs. Nothing else builds Cypher.

Values are always ``$parameters``; writes ``MERGE`` on stable keys and batch with ``UNWIND $rows``
so that re-running ingestion is harmless. Each write statement is one query, which FalkorDB
executes atomically and Neo4j runs in one transaction: a batch lands whole or not at all.

The same statements run on FalkorDB and Neo4j 5. Only index/constraint DDL differs between the two
engines, so it is kept per dialect at the bottom of this module.
"""

from __future__ import annotations

# --- existing hashes (for idempotent writes) -------------------------------------------------

ACT_HASHES = """
UNWIND $keys AS k
MATCH (a:Act {code: k})
RETURN a.code AS key, a.row_hash AS row_hash
"""

SECTION_HASHES = """
UNWIND $keys AS k
MATCH (s:Section {key: k})
RETURN s.key AS key, s.row_hash AS row_hash
"""

# Anchored on the old section's indexed key: an unanchored relationship match scans every section.
REPLACEMENT_HASHES = """
UNWIND $keys AS k
MATCH (:Section {key: k.old})-[r:REPLACED_BY {edge_key: k.edge}]->(:Section)
RETURN r.edge_key AS key, r.row_hash AS row_hash
"""

AMENDMENT_HASHES = """
UNWIND $keys AS k
MATCH (m:Amendment {key: k})
RETURN m.key AS key, m.row_hash AS row_hash
"""

PRIMARY_SECTIONS = """
UNWIND $keys AS k
MATCH (s:Section {key: k})
WHERE coalesce(s.existence_only, false) = false
RETURN s.key AS key
"""

CASE_HASHES = """
UNWIND $keys AS k
MATCH (c:Case {key: k})
RETURN c.key AS key, c.row_hash AS row_hash
"""

FIND_CASES = """
UNWIND $keys AS k
MATCH (:CaseCitation {key: k})-[:OF]->(c:Case)
RETURN k AS cited, c.key AS key, c.citations AS citations, c.parties AS parties, c.court AS court,
       c.date AS date
"""

SECTIONS_OF_ACT = """
MATCH (s:Section {act: $act})
WHERE s.has_text = true
OPTIONAL MATCH (s)-[:HAS_UNIT]->(u:SubUnit)
RETURN s.number AS number, s.text AS text, collect([u.path, u.text]) AS units
"""

# Everything retrieval indexes: sections with text, with their Act's dates as defaults.
TEXT_SECTIONS = """
MATCH (a:Act)-[:HAS_SECTION]->(s:Section)
WHERE s.has_text = true
OPTIONAL MATCH (s)-[:HAS_UNIT]->(u:SubUnit)
RETURN s.act AS act, s.number AS number, s.title AS title, s.text AS text, s.status AS status,
       coalesce(s.in_force_from, a.in_force_from) AS in_force_from,
       coalesce(s.in_force_to, a.in_force_to) AS in_force_to, s.source AS source,
       s.not_in_force AS not_in_force, collect([u.path, u.text]) AS units
"""

SECTION_ENRICHMENT = """
UNWIND $keys AS k
MATCH (s:Section {key: k})
RETURN s.key AS key, s.chapter AS chapter, s.text AS text, s.source AS source, s.title AS title,
       s.in_force_from AS in_force_from, s.in_force_to AS in_force_to, s.not_in_force AS not_in_force,
       s.commencement_note AS commencement_note
"""

CHAPTER_HASHES = """
UNWIND $keys AS k
MATCH (c:Chapter {key: k})
RETURN c.key AS key, c.row_hash AS row_hash
"""

# --- writes ----------------------------------------------------------------------------------

UPSERT_ACTS = """
UNWIND $rows AS r
MERGE (a:Act {code: r.code})
SET a.title = r.title, a.number = r.number, a.year = r.year,
    a.in_force_from = r.in_force_from, a.in_force_to = r.in_force_to, a.status = r.status,
    a.aliases = r.aliases, a.slug = r.slug, a.source = r.source, a.row_hash = r.row_hash
RETURN count(a) AS n
"""

UPSERT_CHAPTERS = """
UNWIND $rows AS r
MATCH (a:Act {code: r.act})
MERGE (c:Chapter {key: r.key})
SET c.act = r.act, c.number = r.number, c.title = r.title, c.row_hash = r.row_hash
MERGE (a)-[:HAS_CHAPTER]->(c)
RETURN count(c) AS n
"""

# Sub-units are replaced wholesale when a section changes; the chapter edge is re-pointed.
UPSERT_SECTIONS = """
UNWIND $rows AS r
MATCH (a:Act {code: r.act})
MERGE (s:Section {key: r.key})
SET s.act = r.act, s.number = r.number, s.title = r.title, s.text = r.text,
    s.has_text = r.has_text, s.content_hash = r.content_hash, s.status = r.status,
    s.in_force_from = r.in_force_from, s.in_force_to = r.in_force_to, s.chapter = r.chapter,
    s.order = r.order, s.source = r.source, s.existence_only = r.existence_only, s.row_hash = r.row_hash,
    s.not_in_force = r.not_in_force, s.commencement_note = r.commencement_note
MERGE (a)-[:HAS_SECTION]->(s)
WITH s, r
OPTIONAL MATCH (s)-[:HAS_UNIT]->(old:SubUnit)
DETACH DELETE old
WITH DISTINCT s, r
OPTIONAL MATCH (s)<-[oc:CONTAINS]-(:Chapter)
DELETE oc
WITH DISTINCT s, r
FOREACH (u IN r.subunits |
  CREATE (s)-[:HAS_UNIT]->(:SubUnit {key: r.key + ':' + u.path, section_key: r.key, path: u.path, text: u.text}))
FOREACH (c IN CASE WHEN r.chapter IS NULL THEN [] ELSE [r.chapter] END |
  MERGE (ch:Chapter {key: c})
  MERGE (ch)-[:CONTAINS]->(s))
RETURN count(s) AS n
"""

UPSERT_REPLACEMENTS = """
UNWIND $rows AS r
MATCH (o:Section {key: r.old_key})
MATCH (n:Section {key: r.new_key})
MERGE (o)-[e:REPLACED_BY {edge_key: r.edge_key}]->(n)
SET e.old_label = r.old_label, e.new_label = r.new_label, e.relation = r.relation,
    e.note = r.note, e.effective = r.effective, e.source = r.source, e.row_hash = r.row_hash
RETURN count(e) AS n
"""

UPSERT_AMENDMENTS = """
UNWIND $rows AS r
MATCH (s:Section {key: r.section_key})
MERGE (m:Amendment {key: r.key})
SET m.footnote = r.footnote, m.kind = r.kind, m.amending_act = r.amending_act,
    m.effective = r.effective, m.text = r.text, m.row_hash = r.row_hash
MERGE (s)-[:AMENDED_BY]->(m)
RETURN count(m) AS n
"""

UPSERT_ACT_REPEALS = """
UNWIND $rows AS r
MATCH (o:Act {code: r.old})
MATCH (n:Act {code: r.new})
MERGE (o)-[e:REPEALED_BY]->(n)
SET e.effective = r.effective, e.provision = r.provision
RETURN count(e) AS n
"""

UPSERT_CASES = """
UNWIND $rows AS r
MERGE (c:Case {key: r.key})
SET c.citations = r.citations, c.parties = r.parties, c.court = r.court, c.court_level = r.court_level,
    c.date = r.date, c.source = r.source, c.row_hash = r.row_hash
WITH c, r
UNWIND r.citations AS cit
MERGE (k:CaseCitation {key: cit})
MERGE (k)-[:OF]->(c)
RETURN count(DISTINCT c) AS n
"""

SET_NO_SUCCESSOR = """
UNWIND $rows AS r
MATCH (s:Section {key: r.key})
SET s.no_successor = r.reason, s.no_successor_authority = r.authority, s.no_successor_today = r.today
RETURN count(s) AS n
"""

# --- reads -----------------------------------------------------------------------------------

ALL_ACTS = """
MATCH (a:Act)
RETURN a.code AS code, a.title AS title, a.number AS number, a.year AS year,
       a.in_force_from AS in_force_from, a.in_force_to AS in_force_to, a.status AS status,
       a.aliases AS aliases, a.slug AS slug, a.source AS source
"""

# One or many sections in one round trip (grouping keys a, s keep each section's lists apart).
GET_SECTIONS = """
UNWIND $keys AS k
MATCH (a:Act)-[:HAS_SECTION]->(s:Section {key: k})
OPTIONAL MATCH (s)-[:HAS_UNIT]->(u:SubUnit)
WITH a, s, collect([u.path, u.text]) AS units
OPTIONAL MATCH (s)-[r:REPLACED_BY]->(n:Section)
WITH a, s, units, collect([n.act, r.new_label, r.relation, r.note, r.old_label]) AS succ
OPTIONAL MATCH (p:Section)-[q:REPLACED_BY]->(s)
WITH a, s, units, succ, collect([p.act, q.old_label, q.relation, q.note, q.new_label]) AS pred
OPTIONAL MATCH (s)-[:AMENDED_BY]->(m:Amendment)
WITH a, s, units, succ, pred, collect([m.footnote, m.kind, m.amending_act, m.effective, m.text]) AS amendments
OPTIONAL MATCH (c:Chapter)-[:CONTAINS]->(s)
RETURN s.key AS key, a.title AS act_title, a.in_force_from AS act_from, a.in_force_to AS act_to,
       s.act AS act, s.number AS number, s.title AS title, s.text AS text, s.has_text AS has_text,
       s.status AS status, s.in_force_from AS in_force_from, s.in_force_to AS in_force_to,
       s.chapter AS chapter, c.number AS chapter_number, c.title AS chapter_title,
       s.no_successor AS no_successor, units, succ, pred, amendments,
       s.not_in_force AS not_in_force, s.commencement_note AS commencement_note
"""

LAPSED_SECTIONS = """
MATCH (s:Section)
WHERE s.no_successor IS NOT NULL
RETURN s.act AS act, s.number AS section, s.title AS title, s.text AS text, s.no_successor AS reason,
       s.no_successor_authority AS authority, coalesce(s.no_successor_today, []) AS today
ORDER BY act, section
"""

ACT_REPEALED_BY = """
MATCH (o:Act {code: $code})-[e:REPEALED_BY]->(n:Act)
RETURN n.code AS code, e.effective AS effective, e.provision AS provision
"""

SECTION_NUMBERS = """
MATCH (s:Section {act: $act})
RETURN s.number AS number
"""

CHAPTER_TITLE = """
MATCH (c:Chapter {key: $key})
RETURN c.number AS number, c.title AS title
"""

COUNTS = """
MATCH (n)
RETURN labels(n)[0] AS label, count(n) AS n
"""

COUNT_REPLACEMENTS = """
MATCH ()-[r:REPLACED_BY]->()
RETURN count(r) AS n
"""

DELETE_ALL = """
MATCH (n)
DETACH DELETE n
"""

# --- schema DDL, per dialect ---------------------------------------------------------------

INDEXED: tuple[tuple[str, str], ...] = (
    ("Act", "code"),
    ("Section", "key"),
    ("Section", "act"),
    ("SubUnit", "key"),
    ("Chapter", "key"),
    ("Amendment", "key"),
    ("Case", "key"),
    ("CaseCitation", "key"),
)
UNIQUE: tuple[tuple[str, str], ...] = (
    ("Act", "code"),
    ("Section", "key"),
    ("SubUnit", "key"),
    ("Chapter", "key"),
    ("Amendment", "key"),
    ("Case", "key"),
    ("CaseCitation", "key"),
)


def falkor_index(label: str, prop: str) -> str:
    """FalkorDB range index (required before a unique constraint)."""
    return f"CREATE INDEX FOR (n:{label}) ON (n.{prop})"


def neo4j_constraint(label: str, prop: str) -> str:
    """Neo4j 5 uniqueness constraint (it brings its own index)."""
    return f"CREATE CONSTRAINT {label.lower()}_{prop}_unique IF NOT EXISTS FOR (n:{label}) REQUIRE n.{prop} IS UNIQUE"


def neo4j_index(label: str, prop: str) -> str:
    return f"CREATE INDEX {label.lower()}_{prop}_idx IF NOT EXISTS FOR (n:{label}) ON (n.{prop})"

"""Graph stores: the ``GraphReader`` and ``GraphWriter`` Protocols (``GraphStore`` is both, with
``open``/``close``) and two implementations running the same Cypher.

* ``FalkorGraphStore`` - the embedded default, FalkorDB spoken to with the native ``falkordb``
  client (never Bolt: FalkorDB's Bolt port crashes on parameter lists and temporal values).
* ``Neo4jGraphStore`` - production, the official ``neo4j`` driver.

Constructors assemble; ``open()`` connects and checks the server. A store that cannot be reached
raises ``StoreUnavailableError`` (retryable). It never answers "not found" for "could not ask".
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from graph_schema import cypher
from graph_schema.errors import ConfigurationError, StoreUnavailableError
from graph_schema.model import (
    Act,
    Amendment,
    Case,
    Chapter,
    ProvisionRef,
    Replacement,
    Section,
    SectionRecord,
    SectionStatus,
)

Row = dict[str, Any]


@runtime_checkable
class GraphReader(Protocol):
    """What a caller that only reads may ask of the statute graph (verification, retrieval, lookups)."""

    def existing_hashes(self, kind: str, keys: Sequence[str]) -> dict[str, str]: ...

    def primary_keys(self, keys: Sequence[str]) -> set[str]: ...

    def section_enrichment(self, keys: Sequence[str]) -> dict[str, dict[str, Any]]: ...

    def find_cases(self, citations: Sequence[str]) -> dict[str, dict[str, Any]]: ...

    def act_texts(self, act: str) -> dict[str, str]: ...

    def text_sections(self) -> list[dict[str, Any]]: ...

    def all_acts(self) -> list[Act]: ...

    def get_section(self, act: str, number: str) -> SectionRecord | None: ...

    def get_sections(self, keys: Sequence[tuple[str, str]]) -> dict[str, SectionRecord]: ...

    def act_repealed_by(self, code: str) -> tuple[str, str, str] | None: ...

    def lapsed_sections(self) -> list[dict[str, str | None]]: ...

    def section_numbers(self, act: str) -> set[str]: ...

    def counts(self) -> dict[str, int]: ...


@runtime_checkable
class GraphWriter(Protocol):
    """What ingestion may do to the statute graph: idempotent upserts (MERGE on stable keys) and upkeep."""

    def ensure_schema(self) -> None: ...

    def upsert_acts(self, acts: Sequence[Act]) -> None: ...

    def upsert_chapters(self, chapters: Sequence[Chapter]) -> None: ...

    def upsert_sections(self, sections: Sequence[Section]) -> None: ...

    def upsert_replacements(self, replacements: Sequence[Replacement]) -> None: ...

    def upsert_amendments(self, amendments: Sequence[Amendment]) -> None: ...

    def upsert_act_repeals(self, rows: Sequence[tuple[str, str, str, str]]) -> None: ...

    def set_no_successor(self, rows: Sequence[tuple[str, str, str, Sequence[str]]]) -> None: ...

    def upsert_cases(self, cases: Sequence[Case]) -> None: ...

    def clear(self) -> None: ...

    def compact(self) -> None: ...


@runtime_checkable
class GraphStore(GraphReader, GraphWriter, Protocol):
    """A store that both reads and writes, with its connection: what the entry point opens and owns.

    Ingestion reads as it writes (stored hashes, enrichment) and takes this; a caller that only reads
    takes a ``GraphReader``.
    """

    def open(self) -> None: ...

    def close(self) -> None: ...


_HASH_QUERIES = {
    "act": cypher.ACT_HASHES,
    "section": cypher.SECTION_HASHES,
    "replacement": cypher.REPLACEMENT_HASHES,
    "amendment": cypher.AMENDMENT_HASHES,
    "chapter": cypher.CHAPTER_HASHES,
    "case": cypher.CASE_HASHES,
}

_CHUNK = 2000


class CypherGraphStore(ABC):
    """The domain operations, written once over two primitives: ``_read`` and ``_write``."""

    @abstractmethod
    def open(self) -> None: ...

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def ensure_schema(self) -> None: ...

    @abstractmethod
    def _read(self, query: str, params: Row | None = None) -> list[Row]: ...

    @abstractmethod
    def _write(self, query: str, params: Row | None = None) -> None:
        """Run one write statement atomically."""

    # -- writes --

    def existing_hashes(self, kind: str, keys: Sequence[str]) -> dict[str, str]:
        query = _HASH_QUERIES[kind]
        out: dict[str, str] = {}
        for i in range(0, len(keys), _CHUNK):
            chunk: list[Any] = list(keys[i : i + _CHUNK])
            if kind == "replacement":  # edge keys are "<old section key>|<old label>-><new ...>"
                chunk = [{"old": k.split("|", 1)[0], "edge": k} for k in chunk]
            for row in self._read(query, {"keys": chunk}):
                out[row["key"]] = row["row_hash"]
        return out

    def primary_keys(self, keys: Sequence[str]) -> set[str]:
        out: set[str] = set()
        for i in range(0, len(keys), _CHUNK):
            out.update(r["key"] for r in self._read(cypher.PRIMARY_SECTIONS, {"keys": list(keys[i : i + _CHUNK])}))
        return out

    def section_enrichment(self, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Stored chapter, text, title, source and commencement of sections (what enrichment and curation files
        contributed)."""
        out: dict[str, dict[str, Any]] = {}
        for i in range(0, len(keys), _CHUNK):
            for r in self._read(cypher.SECTION_ENRICHMENT, {"keys": list(keys[i : i + _CHUNK])}):
                out[r["key"]] = r
        return out

    def upsert_acts(self, acts: Sequence[Act]) -> None:
        if acts:
            self._write(cypher.UPSERT_ACTS, {"rows": [a.row() for a in acts]})

    def upsert_chapters(self, chapters: Sequence[Chapter]) -> None:
        if chapters:
            self._write(cypher.UPSERT_CHAPTERS, {"rows": [c.row() for c in chapters]})

    def upsert_sections(self, sections: Sequence[Section]) -> None:
        """Write sections in one atomic statement (the caller sizes the batch)."""
        if sections:
            self._write(cypher.UPSERT_SECTIONS, {"rows": [s.row() for s in sections]})

    def upsert_replacements(self, replacements: Sequence[Replacement]) -> None:
        if replacements:
            self._write(cypher.UPSERT_REPLACEMENTS, {"rows": [r.row() for r in replacements]})

    def upsert_amendments(self, amendments: Sequence[Amendment]) -> None:
        if amendments:
            self._write(cypher.UPSERT_AMENDMENTS, {"rows": [a.row() for a in amendments]})

    def upsert_act_repeals(self, rows: Sequence[tuple[str, str, str, str]]) -> None:
        """Rows of (old act, new act, effective date, repealing provision)."""
        if rows:
            self._write(
                cypher.UPSERT_ACT_REPEALS,
                {"rows": [{"old": o, "new": n, "effective": e, "provision": p} for o, n, e, p in rows]},
            )

    def set_no_successor(self, rows: Sequence[tuple[str, str, str, Sequence[str]]]) -> None:
        """Rows of (section key, reason, authority, the provisions that govern its subject today: "BNS 226")."""
        if rows:
            self._write(
                cypher.SET_NO_SUCCESSOR,
                {"rows": [{"key": k, "reason": r, "authority": a, "today": list(t)} for k, r, a, t in rows]},
            )

    def upsert_cases(self, cases: Sequence[Case]) -> None:
        if cases:
            self._write(cypher.UPSERT_CASES, {"rows": [c.row() for c in cases]})

    def find_cases(self, citations: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Registry entries by canonical citation (any of a case's parallel citations)."""
        if not citations:
            return {}
        return {r["cited"]: r for r in self._read(cypher.FIND_CASES, {"keys": list(citations)})}

    def act_texts(self, act: str) -> dict[str, str]:
        """Text of every section of ``act`` that has text, and of their sub-units ("103(1)")."""
        out: dict[str, str] = {}
        for r in self._read(cypher.SECTIONS_OF_ACT, {"act": act}):
            out[r["number"]] = r["text"]
            for path, text in r["units"]:
                if path is not None:
                    out[r["number"] + "".join(f"({p})" for p in path.split("/"))] = text
        return out

    def text_sections(self) -> list[dict[str, Any]]:
        """Every section that has text, with its sub-units and effective dates (for indexing)."""
        rows = self._read(cypher.TEXT_SECTIONS)
        for r in rows:
            r["units"] = {p: t for p, t in r["units"] if p is not None}
        return rows

    def clear(self) -> None:
        self._write(cypher.DELETE_ALL)

    def compact(self) -> None:  # noqa: B027 - deliberately a no-op default (Neo4j needs nothing)
        """Make the store cheap to restart after a large write (no-op where not needed)."""

    # -- reads --

    def all_acts(self) -> list[Act]:
        return [
            Act(
                code=r["code"],
                title=r["title"],
                number=r["number"],
                year=r["year"],
                in_force_from=r["in_force_from"],
                in_force_to=r["in_force_to"],
                status=SectionStatus(r["status"] or "in_force"),
                aliases=tuple(r["aliases"] or ()),
                slug=r["slug"],
                source=r["source"],
            )
            for r in self._read(cypher.ALL_ACTS)
        ]

    def get_section(self, act: str, number: str) -> SectionRecord | None:
        return self.get_sections([(act, number)]).get(f"{act}:{number}")

    def get_sections(self, keys: Sequence[tuple[str, str]]) -> dict[str, SectionRecord]:
        """Sections by (act, number) in one round trip; keys that do not exist are simply absent."""
        if not keys:
            return {}
        rows = self._read(cypher.GET_SECTIONS, {"keys": list(dict.fromkeys(f"{a}:{n}" for a, n in keys))})
        return {r["key"]: _record(r) for r in rows}

    def act_repealed_by(self, code: str) -> tuple[str, str, str] | None:
        rows = self._read(cypher.ACT_REPEALED_BY, {"code": code})
        if not rows:
            return None
        return rows[0]["code"], rows[0]["effective"], rows[0]["provision"]

    def lapsed_sections(self) -> list[dict[str, str | None]]:
        """Sections that are not law today and have nothing in their place (curated ``no_successor`` records):
        ``{"act", "section", "title", "text", "reason", "authority", "today"}`` each (``today``: the provisions that
        govern the subject now, as "BNS 226", or ``[]``), ordered by act and section."""
        return [dict(r) for r in self._read(cypher.LAPSED_SECTIONS)]

    def section_numbers(self, act: str) -> set[str]:
        return {r["number"] for r in self._read(cypher.SECTION_NUMBERS, {"act": act})}

    def counts(self) -> dict[str, int]:
        out = {r["label"]: int(r["n"]) for r in self._read(cypher.COUNTS)}
        out["REPLACED_BY"] = int(self._read(cypher.COUNT_REPLACEMENTS)[0]["n"])
        return out


def _record(r: Row) -> SectionRecord:
    return SectionRecord(
        act=r["act"],
        act_title=r["act_title"],
        number=r["number"],
        title=r["title"],
        text=r["text"],
        has_text=bool(r["has_text"]),
        status=SectionStatus(r["status"]),
        in_force_from=r["in_force_from"] or r["act_from"],
        # An Act's end date applies to its sections in force; a section repealed or omitted on its
        # own keeps its own end date, and claims none when that is unknown.
        in_force_to=r["in_force_to"] or (r["act_to"] if r["status"] == SectionStatus.IN_FORCE.value else None),
        chapter=r["chapter_number"],
        chapter_title=r["chapter_title"],
        subunits={p: t for p, t in r["units"] if p is not None},
        successors=_refs(r["succ"]),
        predecessors=_refs(r["pred"]),
        amendments=tuple(
            {"footnote": f, "kind": k, "amending_act": a, "effective": e, "text": t}
            for f, k, a, e, t in r["amendments"]
            if f is not None
        ),
        no_successor=r["no_successor"],
        not_in_force=tuple(r.get("not_in_force") or ()),
        commencement_note=r.get("commencement_note"),
    )


def _refs(items: Iterable[list[Any]]) -> tuple[ProvisionRef, ...]:
    out = []
    for act, label, relation, note, other_label in items:
        if act is None:
            continue
        out.append(ProvisionRef(act=act, section=label, relation=relation, note=note, via=other_label))
    return tuple(sorted(set(out), key=lambda p: (p.act, _natural(p.section), p.via or "")))


def _natural(label: str) -> tuple[int, str]:
    digits = ""
    for ch in label:
        if not ch.isdigit():
            break
        digits += ch
    return (int(digits) if digits else 0, label)




class FalkorGraphStore(CypherGraphStore):
    """FalkorDB through the native ``falkordb`` client (unix socket or host/port)."""

    def __init__(
        self,
        *,
        graph: str = "statutes",
        unix_socket_path: str | None = None,
        host: str = "127.0.0.1",
        port: int = 6379,
        password: str | None = None,
        timeout_s: float = 10.0,
    ) -> None:
        self._graph_name = graph
        self._socket = unix_socket_path
        self._host = host
        self._port = port
        self._password = password
        self._timeout = timeout_s
        self._db: Any = None
        self._g: Any = None

    def open(self) -> None:
        import redis
        from falkordb import FalkorDB

        try:
            if self._socket:
                self._db = FalkorDB(
                    unix_socket_path=self._socket,
                    password=self._password,
                    socket_timeout=self._timeout,
                    socket_connect_timeout=self._timeout,
                )
            else:
                self._db = FalkorDB(
                    host=self._host,
                    port=self._port,
                    password=self._password,
                    socket_timeout=self._timeout,
                    socket_connect_timeout=self._timeout,
                )
            self._db.connection.ping()
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError) as exc:
            raise StoreUnavailableError(f"FalkorDB at {self._where} is not reachable: {exc}") from exc
        self._g = self._db.select_graph(self._graph_name)

    @property
    def _where(self) -> str:
        return self._socket or f"{self._host}:{self._port}"

    def close(self) -> None:
        if self._db is not None:
            try:
                self._db.connection.close()
            finally:
                self._db = None
                self._g = None

    def ensure_schema(self) -> None:
        """Range indexes on every key.

        No GRAPH.CONSTRAINT here: FalkorDB 4.16 appends it to the AOF in a form that fails on replay
        ("Constraint already exists"), and the server then refuses to start. Uniqueness does not
        need it: FalkorDB runs write queries one at a time and every write MERGEs on an indexed key.
        """
        import redis

        for label, prop in cypher.INDEXED:
            try:
                self._write(cypher.falkor_index(label, prop))
            except redis.exceptions.ResponseError as exc:
                if "already indexed" not in str(exc).lower():
                    raise

    def compact(self) -> None:
        """Rewrite FalkorDB's append-only file as a snapshot (fast restarts after an ingest)."""
        import redis

        try:
            self._db.connection.bgrewriteaof()
        except redis.exceptions.ResponseError:
            pass  # a rewrite is already running
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
            raise StoreUnavailableError(str(exc)) from exc

    def _graph(self) -> Any:
        if self._g is None:
            raise StoreUnavailableError("FalkorDB store used before open()")
        return self._g

    def _read(self, query: str, params: Row | None = None) -> list[Row]:
        import redis

        try:
            res = self._call(lambda g: g.ro_query(query, params or {}))
        except redis.exceptions.ResponseError as exc:
            if "empty key" in str(exc):  # the graph does not exist yet: it holds nothing
                return []
            raise
        names = [h[1] if isinstance(h, list | tuple) else h for h in res.header]
        return [dict(zip(names, row, strict=True)) for row in res.result_set]

    def _write(self, query: str, params: Row | None = None) -> None:
        self._call(lambda g: g.query(query, params or {}))

    def _call(self, fn: Any) -> Any:
        import redis

        g = self._graph()
        try:
            return fn(g)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError) as exc:
            raise StoreUnavailableError(f"FalkorDB at {self._where} stopped answering: {exc}") from exc
        except redis.exceptions.BusyLoadingError as exc:
            raise StoreUnavailableError(f"FalkorDB at {self._where} is still loading: {exc}") from exc


class Neo4jGraphStore(CypherGraphStore):
    """Neo4j 5 through the official driver. Writes run in one managed transaction each."""

    def __init__(self, *, uri: str, user: str, password: str, database: str | None = None) -> None:
        if not uri:
            raise ConfigurationError("Neo4jGraphStore needs a URI (settings.graph.neo4j_uri / NEO4J_URI)")
        self._uri = uri
        self._auth = (user, password)
        self._database = database
        self._driver: Any = None

    def open(self) -> None:
        import neo4j
        from neo4j import exceptions as nx

        try:
            self._driver = neo4j.GraphDatabase.driver(self._uri, auth=self._auth)
            self._driver.verify_connectivity()
        except (nx.ServiceUnavailable, nx.SessionExpired, OSError) as exc:
            raise StoreUnavailableError(f"Neo4j at {self._uri} is not reachable: {exc}") from exc

    def close(self) -> None:
        if self._driver is not None:
            self._driver.close()
            self._driver = None

    def ensure_schema(self) -> None:
        for label, prop in cypher.UNIQUE:
            self._write(cypher.neo4j_constraint(label, prop))
        for label, prop in cypher.INDEXED:
            if (label, prop) not in cypher.UNIQUE:
                self._write(cypher.neo4j_index(label, prop))

    def _session(self) -> Any:
        if self._driver is None:
            raise StoreUnavailableError("Neo4j store used before open()")
        return self._driver.session(database=self._database) if self._database else self._driver.session()

    def _read(self, query: str, params: Row | None = None) -> list[Row]:
        return self._call(lambda s: s.execute_read(lambda tx: [r.data() for r in tx.run(query, params or {})]))  # type: ignore[no-any-return]

    def _write(self, query: str, params: Row | None = None) -> None:
        self._call(lambda s: s.execute_write(lambda tx: tx.run(query, params or {}).consume()))

    def _call(self, fn: Any) -> Any:
        from neo4j import exceptions as nx

        try:
            with self._session() as session:
                return fn(session)
        except (nx.ServiceUnavailable, nx.SessionExpired, nx.TransientError, OSError) as exc:
            raise StoreUnavailableError(f"Neo4j at {self._uri} stopped answering: {exc}") from exc

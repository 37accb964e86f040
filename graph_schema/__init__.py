"""The statute graph: ontology, Cypher and stores. Imports no sibling package.

Siblings use what ``__all__`` lists (and the submodules for Cypher-level work in tests).
"""

from graph_schema.acts import ActResolver
from graph_schema.errors import (
    IngestError,
    LegalRagError,
    RetryableError,
    StoreUnavailableError,
    UnknownActError,
)
from graph_schema.model import CitationKey, SectionRecord, SectionStatus, StatusOnDate
from graph_schema.store import FalkorGraphStore, GraphReader, GraphStore, GraphWriter, Neo4jGraphStore

__all__ = [
    "ActResolver",
    "CitationKey",
    "FalkorGraphStore",
    "GraphReader",
    "GraphStore",
    "GraphWriter",
    "IngestError",
    "LegalRagError",
    "Neo4jGraphStore",
    "RetryableError",
    "SectionRecord",
    "SectionStatus",
    "StatusOnDate",
    "StoreUnavailableError",
    "UnknownActError",
]

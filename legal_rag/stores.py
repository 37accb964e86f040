"""Factories that turn Settings into ready stores. The only place that picks an implementation."""

from __future__ import annotations

from graph_schema.embedded import EmbeddedFalkorDB
from graph_schema.store import FalkorGraphStore, GraphStore, Neo4jGraphStore
from legal_rag.settings import GraphBackend, Settings


def embedded_server(settings: Settings) -> EmbeddedFalkorDB:
    return EmbeddedFalkorDB(settings.falkordb_dir, startup_timeout_s=settings.graph.startup_timeout_s)


def build_graph_store(settings: Settings) -> GraphStore:
    """Assemble (without connecting) the graph store the settings ask for."""
    g = settings.graph
    backend = g.resolved_backend()
    if backend is GraphBackend.NEO4J:
        return Neo4jGraphStore(
            uri=g.neo4j_uri or "",
            user=g.neo4j_user,
            password=g.neo4j_password.get_secret_value(),
            database=g.neo4j_database,
        )
    password = g.falkordb_password.get_secret_value() if g.falkordb_password else None
    if backend is GraphBackend.FALKORDB:
        return FalkorGraphStore(graph=g.graph_name, host=g.falkordb_host, port=g.falkordb_port, password=password)
    return FalkorGraphStore(graph=g.graph_name, unix_socket_path=embedded_server(settings).socket_path)


def open_graph_store(settings: Settings) -> GraphStore:
    """Start the embedded server if that is the backend, then connect and ensure the schema."""
    if settings.graph.resolved_backend() is GraphBackend.EMBEDDED:
        embedded_server(settings).start()
    store = build_graph_store(settings)
    store.open()
    store.ensure_schema()
    return store


def broker_url(settings: Settings) -> str:
    """Celery broker: configured URL, or the embedded server's socket (database 1)."""
    if settings.jobs.broker_url:
        return settings.jobs.broker_url
    return f"redis+socket://{embedded_server(settings).socket_path}?virtual_host=1"


def result_backend_url(settings: Settings) -> str:
    if settings.jobs.result_backend:
        return settings.jobs.result_backend
    if settings.jobs.broker_url and settings.jobs.broker_url.startswith("redis"):
        return settings.jobs.broker_url
    return f"redis+socket://{embedded_server(settings).socket_path}?virtual_host=2"

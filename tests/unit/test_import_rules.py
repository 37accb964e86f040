"""The architecture as a test: the faces go through the one door, and packages do not import each other in a loop.

Imports are read with ``ast`` from the source (every import: top level, inside functions and under
``TYPE_CHECKING``), so a lazy import cannot slip past.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("legal_rag", "verification", "graph_schema", "ingestion", "finetune")

FACE_MAY_IMPORT = (
    "legal_rag.app",  # the one door
    "legal_rag.results",  # the typed results it returns
    "graph_schema.errors",  # the one exception tree
    "legal_rag.settings",
    "legal_rag.roles",
)
"""What ``legal_rag/cli`` and ``legal_rag/api`` may import from the project, besides their own package."""

FACE_EXTRA = {"legal_rag.cli": ("legal_rag.api.app",)}
"""``legal-rag serve`` builds the API app: the one face that starts another."""


def _imports(path: Path) -> Iterator[tuple[int, str, tuple[str, ...]]]:
    """``(line, module, names)`` of every absolute import in a file (names empty for ``import x``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in sorted(ast.walk(tree), key=lambda n: getattr(n, "lineno", 0)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                yield node.lineno, "." * node.level + (node.module or ""), tuple(a.name for a in node.names)
            else:
                yield node.lineno, node.module or "", tuple(a.name for a in node.names)


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def face_violations(face: str) -> list[str]:
    """Every import in the face package ``face`` (``legal_rag.cli``) that goes around the door."""
    allowed = (*FACE_MAY_IMPORT, face, *FACE_EXTRA.get(face, ()))
    found = []
    for path in sorted((ROOT / Path(*face.split("."))).rglob("*.py")):
        where = path.relative_to(ROOT)
        for line, module, names in _imports(path):
            if module.startswith("."):
                found.append(f"{where}:{line}: relative import {module}")
                continue
            if module.split(".")[0] not in PACKAGES:
                continue
            if not any(_within(module, a) for a in allowed):
                found.append(f"{where}:{line}: imports {module}")
            elif not _within(module, face):
                found += [f"{where}:{line}: imports the private name {module}.{n}" for n in names if n.startswith("_")]
    return found


@pytest.mark.parametrize("face", ["legal_rag.cli", "legal_rag.api"])
def test_faces_import_only_the_application_its_results_and_the_errors(face: str) -> None:
    assert face_violations(face) == []


def test_the_face_check_sees_a_face_going_around_the_door(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself: a module that opens a store, or reaches a private name, is reported (on a copy)."""
    face = tmp_path / "legal_rag" / "cli"
    face.mkdir(parents=True)
    (face / "bad.py").write_text("def f():\n    from legal_rag.stores import open_graph_store\n"
                                 "from legal_rag.app import _private\nfrom legal_rag.cli.common import _ok\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    assert face_violations("legal_rag.cli") == [
        "legal_rag/cli/bad.py:2: imports legal_rag.stores",
        "legal_rag/cli/bad.py:3: imports the private name legal_rag.app._private",
    ]


def package_imports() -> dict[str, set[str]]:
    """Top-level package -> the other top-level packages it imports anywhere."""
    edges: dict[str, set[str]] = {p: set() for p in PACKAGES}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for _, module, _ in _imports(path):
                top = module.split(".")[0]
                if top in PACKAGES and top != package:
                    edges[package].add(top)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every elementary cycle's packages, each once, starting from its smallest name (the graph has five nodes)."""
    found: set[tuple[str, ...]] = set()

    def walk(path: list[str]) -> None:
        for nxt in sorted(edges[path[-1]]):
            if nxt == path[0]:
                i = path.index(min(path))
                found.add(tuple(path[i:] + path[:i]))
            elif nxt not in path and nxt > path[0]:
                walk([*path, nxt])

    for start in sorted(edges):
        walk([start])
    return [list(c) for c in sorted(found)]


def test_cycles_finds_a_loop() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_packages() -> None:
    assert cycles(package_imports()) == []


def test_graph_schema_imports_no_sibling_package() -> None:
    assert package_imports()["graph_schema"] == set()

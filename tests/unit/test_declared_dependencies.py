"""Every third-party module the five packages import is declared in pyproject.toml (a fresh install must
not depend on what another package happens to pull in)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("graph_schema", "ingestion", "verification", "legal_rag", "finetune")


def _imported(package: str) -> set[str]:
    out: set[str] = set()
    for f in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                out.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                out.add(node.module.split(".")[0])
    return out


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    reqs = list(project["dependencies"]) + [r for extra in project["optional-dependencies"].values() for r in extra]
    return {_canonical(re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0]) for r in reqs}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_third_party_import_is_declared() -> None:
    local = set(PACKAGES) | {"__future__"}
    third_party = {m for p in PACKAGES for m in _imported(p)} - local - set(sys.stdlib_module_names)
    dists = packages_distributions()
    declared = _declared()
    undeclared = sorted(m for m in third_party if not {_canonical(d) for d in dists.get(m, [m])} & declared)
    assert undeclared == []

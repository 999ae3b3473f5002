"""The rooms of the code and who may import whom (issue 45; docs/architecture.md draws
them).  Walks every module's imports (those inside functions too) and fails on an import
against the rules: a lower room importing a higher one, a tool or anything above the
`Game` API importing the runtime's internals, or an import circle among the modules.
The few exceptions are listed with their reasons; a new one fails until it is argued here."""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {"tests", "docs", "rulesets", "examples", "node_modules",
           "build", "dist"}  # what `pip install .` leaves in the checkout (build/lib/meeple/...)

# Each room and the rooms it may import (besides itself).  The runtime's internals are its
# modules other than the API's.
RUNTIME = "interpreter.runtime"
MAY_IMPORT = {
    "dsl": set(),
    RUNTIME: {"dsl"},
    "interpreter.codegen": {"dsl", RUNTIME},
    "interpreter": {"dsl", RUNTIME},  # the package itself: the public names
    "interpreter.analysis": {"dsl", "interpreter", RUNTIME, "interpreter.presentation"},
    "interpreter.presentation": {"dsl", "interpreter", RUNTIME},
    "interpreter.persistence": {"dsl", "interpreter", RUNTIME},
}
ABOVE = {"cli", "web", "bots", "adapters", "simulation", "authoring", "benchmarks"}
# The API: the Game and what it hands out (states, moves, outcomes, errors, packed states), the
# loading of rulesets, what a seat may know, the seeded generator a state carries, and the
# flow compiled from the declarations (its graph of points).
API = {"game", "state", "moves", "outcome", "loading", "context", "knowledge", "packing", "rng", "flowgraph"}
# (importing module, imported module) -> why it is allowed
EXCEPTIONS = {
    ("interpreter.runtime.loading", "interpreter.codegen.backend"):
        "the runtime chooses its back end when a ruleset is loaded (the compiled one is generated code)",
    ("interpreter.runtime.game", "interpreter.presentation.display"):
        "Game.render, the screen of one seat, offered on the API for every front end",
    ("interpreter.runtime.game", "interpreter.presentation.narration"):
        "Game.narrate: the recorded step (runtime/recording.py) told in the words of one seat",
    ("interpreter.runtime.game", "interpreter.presentation.texts"):
        "Game.item_text: a kind's `text:` in a seat's language, offered on the API for screens and hover",
    ("adapters.closed", "interpreter.runtime.invariant_deps"):
        "the closed-world adapter asks which parts of the state an action's choices read, the static "
        "analysis the runtime's invariant cache makes of the same declarations",
}


def _modules() -> dict:
    found = {}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in SKIPPED or rel.parts[0].startswith(".") or "__pycache__" in rel.parts:
            continue
        name = ".".join(rel.with_suffix("").parts)
        found[name[:-9] if name.endswith(".__init__") else name] = path
    return found


def _imports(modules: dict):
    """(importer, imported) for every import of one project module by another."""
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name.removeprefix("meeple.") for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    base = parts[: len(parts) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = (node.module or "").removeprefix("meeple.")
                targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module for a in node.names]
            else:
                continue
            for target in targets:
                if target in modules and target != name:
                    yield name, target


def _room(module: str) -> str:
    parts = module.split(".")
    if parts[0] == "interpreter" and len(parts) > 2:
        return ".".join(parts[:2])
    if parts[0] == "interpreter" and len(parts) == 2 and (ROOT / "interpreter" / parts[1]).is_dir():
        return module
    return parts[0]


def _against_the_rules(importer: str, imported: str) -> str | None:
    a, b = _room(importer), _room(imported)
    internal = b == RUNTIME and imported.rpartition(".")[2] not in API
    if a in ABOVE:
        return "above the API, into the runtime's internals" if internal else None
    if a == b or a not in MAY_IMPORT:
        return None
    if b not in MAY_IMPORT[a]:
        return f"room {a} may not import room {b}"
    if internal and a not in ("interpreter.codegen",):
        return "a tool into the runtime's internals"
    return None


def test_every_import_keeps_to_the_rooms():
    modules = _modules()
    broken = sorted({f"{i} -> {t}: {why}" for i, t in _imports(modules)
                     if (why := _against_the_rules(i, t)) and (i, t) not in EXCEPTIONS})
    assert broken == []


def test_every_exception_is_still_needed():
    modules = _modules()
    edges = set(_imports(modules))
    assert {pair for pair in EXCEPTIONS if pair not in edges or not _against_the_rules(*pair)} == set()


def test_no_module_imports_itself_round_a_circle():
    graph = nx.DiGraph(_imports(_modules()))
    assert [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1] == []


def test_the_interpreter_keeps_at_most_a_dozen_modules_at_its_top_level():
    assert len([p for p in (ROOT / "interpreter").glob("*.py")]) <= 12


def test_no_module_is_over_800_lines():
    long = {name: n for name, path in _modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 800}
    assert long == {}


def test_every_package_is_installed():
    """A folder of modules that pyproject.toml does not list is missing from an installed
    meeple (a non-editable install finds only the packages named there)."""
    import tomllib
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = {"meeple." + ".".join(p.parent.relative_to(ROOT).parts) for p in ROOT.rglob("__init__.py")
               if p.relative_to(ROOT).parts[0] not in SKIPPED and not p.relative_to(ROOT).parts[0].startswith(".")}
    assert folders - set(setup["packages"]) == set()
    assert folders - set(setup["package-dir"]) == set()

"""The import rule, read from the source: each module imports only its own layer and the ones
below it (DEVELOPING.md, "How the code is organised"), including imports inside functions.

    front ends (cli, magics, ui)  ->  actions, charts  ->  engine  ->  join  ->  search
    ->  index  ->  lake  ->  base (errors, config, frames, formats, hashing, xash, spark, embed,
    demo)

The Spark build (indexing) sits beside search: it may use lake, index, base and the pure
functions of search; nothing below the engine imports it. Library code never imports a front
end. Registries are explicit lists, so nothing here can hide behind an import side effect.
"""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "lakejoin_jupyter"

RANK = {"_version": 0, "errors": 0, "config": 0, "frames": 0, "formats": 0, "hashing": 0, "xash": 0,
        "textfold": 0, "spark": 0, "embed": 0, "demo": 0, "lake": 1, "index": 2, "search": 3,
        "indexing": 4, "join": 5, "engine": 6, "actions": 7, "charts": 7, "index_report": 7,
        "magics": 8, "ui": 8, "cli": 8, "__init__": 9}
# imports that go up a rank on purpose: none. (Add here with the reason if ever needed.)
ALLOWED_UP: set = set()


def layer_of(module: str) -> str:
    """'lakejoin_jupyter.search.josie' -> 'search'."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def import_target(node: ast.ImportFrom, package: list) -> str:
    """The module a ``from ... import`` names, a relative one resolved against ``package``
    (the importing module's package, as parts)."""
    if node.level:
        base = package[: len(package) - node.level + 1]
        return ".".join(base + ([node.module] if node.module else []))
    return node.module or ""


def imports_of(path: Path):
    """(line, imported lakejoin_jupyter module) for every import in the file."""
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    module_parts = list(rel.parts)
    if module_parts[-1] == "__init__":
        module_parts = module_parts[:-1]
    package = module_parts if path.name == "__init__.py" else module_parts[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("lakejoin_jupyter"):
                    yield node.lineno, a.name
        elif isinstance(node, ast.ImportFrom):
            target = import_target(node, package)
            if not target.startswith("lakejoin_jupyter"):
                continue
            if target == "lakejoin_jupyter" or (node.module is None and node.level):
                for a in node.names:          # from . import engine / from .. import search
                    yield node.lineno, f"{target}.{a.name}"
            else:
                yield node.lineno, target


def violations():
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "demo_lake" in path.parts:
            continue
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        me = ".".join(p for p in rel.parts if p != "__init__") if rel.parts[-1] == "__init__" \
            else ".".join(rel.parts)
        mine = layer_of(me) if me != "lakejoin_jupyter" else "__init__"
        for line, target in imports_of(path):
            theirs = layer_of(target)
            if theirs not in RANK:
                out.append(f"{path.relative_to(PACKAGE)}:{line} imports {target}: unknown layer")
                continue
            up = RANK[theirs] > RANK[mine]
            if theirs == "indexing" and mine not in ("indexing",) and RANK[mine] < RANK["engine"]:
                up = True                     # only the engine and front ends start a build
            if up and (mine, theirs) not in ALLOWED_UP:
                out.append(f"{path.relative_to(PACKAGE)}:{line} ({mine}) imports {target} "
                           f"({theirs})")
    return out


def test_every_module_has_a_layer():
    for path in PACKAGE.iterdir():
        if path.name.startswith((".", "__pycache__")) or path.name in ("static", "demo_lake"):
            continue
        name = path.stem if path.suffix == ".py" else path.name
        assert name in RANK, f"{path.name}: give it a layer in RANK (and in DEVELOPING.md)"


def test_imports_go_down_the_layers_only():
    assert violations() == []


def test_the_checker_sees_a_violation(tmp_path, monkeypatch):
    """The rule can fail: a search module importing the engine is reported."""
    fake = PACKAGE / "search" / "_layer_probe.py"
    fake.write_text("def f():\n    from ..engine import Engine\n    return Engine\n")
    try:
        assert any("_layer_probe.py:2 (search) imports lakejoin_jupyter.engine" in v
                   for v in violations())
    finally:
        fake.unlink()


def module_graph() -> dict:
    """module -> the lakejoin_jupyter modules it imports (anywhere in the file)."""
    graph = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "demo_lake" in path.parts:
            continue
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        me = ".".join(parts)
        targets = set()
        for _, target in imports_of(path):
            # "from .x import name" may name a submodule or an attribute: keep the module
            while target not in _MODULES and "." in target:
                target = target.rsplit(".", 1)[0]
            if target != me and target in _MODULES:
                targets.add(target)
        graph[me] = targets
    return graph


_MODULES = {".".join(p for p in path.relative_to(PACKAGE.parent).with_suffix("").parts
                     if p != "__init__")
            for path in PACKAGE.rglob("*.py") if "demo_lake" not in path.parts}


def cycles(graph: dict) -> list:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


# package __init__ modules that re-export their children (import-time wiring, not a cycle of
# logic): the router imports its subcommand modules, which import the router's context
PACKAGE_REEXPORTS = {"lakejoin_jupyter", "lakejoin_jupyter.magics", "lakejoin_jupyter.ui",
                     "lakejoin_jupyter.join.autojoin"}


def test_no_import_cycles_between_modules():
    graph = {m: {t for t in ts if t not in PACKAGE_REEXPORTS}
             for m, ts in module_graph().items()}
    assert cycles(graph) == []


def test_the_cycle_check_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# The widget and the magics reach the library through the engine's public API (and the
# actions and charts above it), never the layers below it (join, search, indexing, index,
# lake); the base modules (errors, frames, formats...) are shared by every layer. These
# imports predate the rule: each is a debt to move behind the engine, and none may be added.
FRONT_END_DEBTS = {
    ("magics/cmd_autojoin.py", "lakejoin_jupyter.index.tables"),
    ("magics/cmd_autojoin.py", "lakejoin_jupyter.join.autojoin"),
    ("magics/cmd_index.py", "lakejoin_jupyter.index.store"),
    ("magics/cmd_index.py", "lakejoin_jupyter.indexing.pipeline"),
    ("magics/cmd_predicate.py", "lakejoin_jupyter.join.schemaless"),
    ("magics/cmd_search.py", "lakejoin_jupyter.search.registry"),
    ("ui/query_panel.py", "lakejoin_jupyter.search.registry"),
    ("ui/session.py", "lakejoin_jupyter.join.plan"),
    ("ui/widget.py", "lakejoin_jupyter.index.store"),
    ("ui/widget.py", "lakejoin_jupyter.indexing.pipeline"),
    ("ui/widget.py", "lakejoin_jupyter.join.plan"),
    ("ui/widget.py", "lakejoin_jupyter.join.union"),
    ("ui/widget.py", "lakejoin_jupyter.lake.discover"),
    ("ui/widget.py", "lakejoin_jupyter.search.union"),
}
BELOW_THE_ENGINE = ("join", "search", "indexing", "index", "lake")


def front_end_bypasses() -> set:
    """(file, module) of each import by the widget or the magics of a layer below the
    engine."""
    out = set()
    for folder in ("magics", "ui"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            for _, target in imports_of(path):
                if layer_of(target) in BELOW_THE_ENGINE:
                    out.add((path.relative_to(PACKAGE).as_posix(), target))
    return out


def test_front_ends_call_the_engine_not_the_layers_below():
    assert front_end_bypasses() - FRONT_END_DEBTS == set()


def test_front_end_debts_are_still_there():
    """A debt paid off is taken off the list (the list only shrinks)."""
    assert FRONT_END_DEBTS - front_end_bypasses() == set()


def test_the_front_end_check_sees_a_bypass():
    """A magic calling the fuzzy join's module instead of ``engine.fuzzy_join`` is found."""
    fake = PACKAGE / "magics" / "_bypass_probe.py"
    fake.write_text("def f():\n    from ..join.fuzzy import fuzzy_join\n    return fuzzy_join\n")
    try:
        assert front_end_bypasses() - FRONT_END_DEBTS == \
            {("magics/_bypass_probe.py", "lakejoin_jupyter.join.fuzzy")}
    finally:
        fake.unlink()

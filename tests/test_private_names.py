"""No module of the package reads another module's private name (one starting with a single
"_"), read from the source with ast: ``from X import _name`` and ``X._name`` where X is
another lakejoin_jupyter module (imports inside functions included). A name two modules
share is public in the module that defines it. Nothing is allowed on purpose.
"""
import ast
from pathlib import Path

from test_layers import PACKAGE, import_target


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def module_of(path: Path) -> tuple[str, list]:
    """('lakejoin_jupyter.join.keys', its package's parts) of a file of the package."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), parts[:-1]
    return ".".join(parts), parts[:-1]


def private_reads(path: Path, source: str | None = None) -> list:
    """'file:line what' for every private name of another package module the file reads."""
    me, package = module_of(path)
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    where = path.relative_to(PACKAGE)
    modules: dict = {}                   # local name -> the package module it is bound to
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = import_target(node, package)
            if not target.startswith("lakejoin_jupyter"):
                continue
            for a in node.names:
                if _private(a.name) and target != me:
                    out.append(f"{where}:{node.lineno} from {target} import {a.name}")
                modules[a.asname or a.name] = f"{target}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("lakejoin_jupyter"):
                    modules[a.asname or a.name.split(".")[0]] = \
                        a.name if a.asname else a.name.split(".")[0]
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        chain, value = [node.attr], node.value
        while isinstance(value, ast.Attribute):
            chain.append(value.attr)
            value = value.value
        if isinstance(value, ast.Name) and value.id in modules \
                and modules[value.id] != me:
            out.append(f"{where}:{node.lineno} {value.id}.{'.'.join(reversed(chain))}")
    return out


def test_no_module_reads_another_modules_private_names():
    found = [v for path in sorted(PACKAGE.rglob("*.py")) for v in private_reads(path)]
    assert not found, "\n".join(found)


def test_the_check_sees_each_form():
    """By hand: each way of reading another module's private name is found, a module's own
    and dunder names are not."""
    path = PACKAGE / "join" / "autojoin" / "discovery.py"
    source = "\n".join([
        "from .pairs import _hidden",                               # 1 relative
        "from lakejoin_jupyter.lake.read import _reader",           # 2 absolute
        "def f():",
        "    from ..keys import _k",                                # 4 inside a function
        "    from . import pairs",
        "    return pairs._g",                                      # 6 module attribute
        "import lakejoin_jupyter.lake.read as lr",
        "x = lr._r",                                                # 8 aliased import
        "from .discovery import _own",                              # its own: allowed
        "from .pairs import __doc__, whole_keys",                   # dunder, public: allowed
        "y = whole_keys.__name__",
    ])
    lines = sorted(int(v.split(" ", 1)[0].rsplit(":", 1)[1]) for v in private_reads(path, source))
    assert lines == [1, 2, 4, 6, 8]

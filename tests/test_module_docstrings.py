"""Every module of the package and of bench/ says what it does in a docstring of at most 30
lines (the repository's standard: history and figures go to docs/ and bench/results/)."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MOST_LINES = 30


def docstring_lines(path: Path) -> int:
    """Lines of the module docstring of ``path`` (0 without one)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    return len(doc.splitlines()) if doc else 0


def test_docstring_lines_by_hand(tmp_path):
    (tmp_path / "a.py").write_text('"""One.\n\nThree."""\nx = 1\n')
    (tmp_path / "b.py").write_text("x = 1\n")
    assert docstring_lines(tmp_path / "a.py") == 3 and docstring_lines(tmp_path / "b.py") == 0


@pytest.mark.parametrize("folder", ["lakejoin_jupyter", "bench"])
def test_module_docstrings_are_at_most_30_lines(folder):
    long = {str(p.relative_to(ROOT)): n for p in sorted((ROOT / folder).rglob("*.py"))
            if (n := docstring_lines(p)) > MOST_LINES}
    assert not long, f"module docstrings over {MOST_LINES} lines: {long}"

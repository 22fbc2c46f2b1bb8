"""Shared by the tools/make_*.py notebook scripts: write cells as an output-free notebook
under example_notebooks/, with stable cell ids (regenerating gives no diff noise)."""
from pathlib import Path

import nbformat
from nbformat.v4 import new_notebook


def write_notebook(cells, name: str, id_prefix: str) -> Path:
    for i, cell in enumerate(cells):
        cell.id = f"{id_prefix}-{i:02d}"
    nb = new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"}})
    out = Path(__file__).resolve().parent.parent / "example_notebooks" / name
    nbformat.write(nb, out)
    print(f"wrote {out}")
    return out

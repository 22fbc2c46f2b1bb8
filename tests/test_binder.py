"""Binder's postBuild prebuilds every index the example notebooks open with ``--reuse``,
with the components their ``--with`` options ask for (a missing one stops "Run all")."""
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def notebook_indexes() -> dict:
    """index file -> the components the notebooks' ``%lakejoin index ... --reuse`` ask for."""
    out = {}
    for nb in sorted((ROOT / "example_notebooks").glob("*.ipynb")):
        for cell in json.loads(nb.read_text())["cells"]:
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("%lakejoin index") and "--reuse" in line:
                    name = re.search(r"--out\s+(\S+)", line).group(1)
                    out.setdefault(name, set()).update(re.findall(r"--with\s+(\w+)", line))
    return out


def postbuild_indexes() -> dict:
    """index file -> the components binder/postBuild builds it with."""
    text = (ROOT / "binder" / "postBuild").read_text()
    out = {}
    for call in re.findall(r"build_index\((.*?)\)\n", text, flags=re.S):
        name = re.search(r'"example_notebooks/([^"]+)"', call).group(1)
        comps = re.search(r"components=\[([^\]]*)\]", call)
        out[name] = set(re.findall(r'"(\w+)"', comps.group(1))) if comps else set()
    return out


def test_postbuild_builds_what_the_notebooks_reuse():
    wanted, built = notebook_indexes(), postbuild_indexes()
    assert wanted, "no --reuse index cell found in the notebooks"
    for name, comps in wanted.items():
        assert name in built, f"binder/postBuild does not build {name}"
        assert comps <= built[name], (f"{name}: the notebooks ask for {sorted(comps)}, "
                                      f"postBuild builds {sorted(built[name])}")

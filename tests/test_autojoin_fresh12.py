"""The committed Auto-Join case set fresh12 (bench/data/autojoin-fresh12; never tuned on until round 15, development since) meets its
admission criteria (bench/results/autojoin_fresh12_cases.md), checked with the case maker's
hand-written reference functions only (no learner runs here, and neither the package nor the
evaluator is imported): every case is in FRESH12_CASES and split_of names it, no other split
holds it, the target key is a key, the join is 1:1 or N:1, neither table has duplicate rows
or rows the evaluator cannot tell apart, tables have at most 2,000 rows, every ground-truth
row names a source and a target row, there are at least 10 truth pairs, and the reference
function writes the target key of at least 90 % of them. Criterion (a) is checked on the
case maker's source.

Regenerating the cases needs their sources (pip packages, Python 3.11.7's standard library
and Debian 12's packages at the pinned versions and file contents); the regeneration test
skips, naming what differs, where they are not here.
"""
from __future__ import annotations

import ast
import filecmp
import hashlib
import importlib.util
import re
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "autojoin-fresh12"
MAKER_PATH = ROOT / "bench" / "autojoin_make_cases.py"
# The modules fresh12's section of the case maker may import: its pool's, and importlib / re /
# shutil / subprocess / json / inspect (versions, package files, dpkg-query, parsing).
ALLOWED_IMPORTS = {"altair", "jupyterlab", "logging", "pydoc", "pydoc_data", "sqlite3",
                   "syslog", "importlib", "re", "shutil", "subprocess", "json", "inspect"}
# Sources read by an earlier set's cases or held in an earlier set's pool (criterion (a)).
EARLIER = {
    "airportsdata", "babel", "holidays", "pandas", "pycountry", "requests", "tzdata", "us",
    "vega_datasets",                                                                 # fresh8
    "ca-certificates", "certifi", "charset-normalizer", "distro-info-data", "dpkg", "duckdb",
    "hypothesis", "idna", "jedi", "locales", "netbase", "numpy", "publicsuffix", "pyarrow",
    "pygments", "python-apt-common", "scipy", "shared-mime-info", "webcolors", "webencodings",
    "x11-common",                                                                    # fresh9
    "faker", "phonenumbers", "python-stdnum", "libc6",                               # fresh10
    "base-passwd", "cmake-data", "git", "libc6-dev", "postgresql-15", "psycopg2-binary",
    "pyspark",                                                                       # fresh11
}
EARLIER_STDLIB = {"calendar", "encodings", "html", "http", "locale", "mimetypes", "unicodedata",
                  "__future__", "errno", "keyword", "opcode", "os", "signal", "socket", "ssl",
                  "stringprep", "sys", "token", "ctypes", "email", "stat", "struct", "imaplib",
                  "lib2to3", "telnetlib"}


def _maker():
    spec = importlib.util.spec_from_file_location("autojoin_make_cases_fresh12", MAKER_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKER = _maker()
REFERENCE = MAKER.FRESH12_REFERENCE


def _eval_splits() -> dict:
    """The split constants and split_of of bench/autojoin_eval.py, run from its parsed
    source (not imported: importing the evaluator would import the learner)."""
    tree = ast.parse((ROOT / "bench" / "autojoin_eval.py").read_text())
    body = [n for n in tree.body
            if (isinstance(n, ast.Assign) and len(n.targets) == 1
                and getattr(n.targets[0], "id", "").endswith(("_CASES", "DEV_EXTRA")))
            or (isinstance(n, ast.FunctionDef) and n.name == "split_of")]
    ns = {"hashlib": hashlib}
    exec(compile(ast.Module(body=body, type_ignores=[]), "autojoin_eval splits", "exec"), ns)
    return ns


def _read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _section() -> str:
    """The case maker's fresh12 section (from its rule line to the next)."""
    text = MAKER_PATH.read_text()
    rule = "# " + "-" * 66 + " "
    start = text.index(rule + "fresh12 validation")
    return text[start:text.index(rule, start + len(rule))]


def test_cases_split_and_references_agree():
    folders = {p.name for p in DATA.iterdir() if p.is_dir()}
    splits = _eval_splits()
    assert "FRESH12_CASES" in splits, "FRESH12_CASES is missing from bench/autojoin_eval.py"
    assert folders == set(REFERENCE) == set(splits["FRESH12_CASES"])
    assert 8 <= len(folders) <= 12
    assert {splits["split_of"](case) for case in folders} == {"fresh12"}
    others = set().union(*(v for k, v in splits.items()
                           if k.endswith("_CASES") and k != "FRESH12_CASES"))
    assert not folders & others


def check_case(folder: Path, key: str, ref) -> float:
    """Criteria (b), (c) and (g) on one committed case folder; returns the reference
    function's coverage. Raises AssertionError (or KeyError: a truth row in no table)."""
    source = _read(folder / "source.csv")
    target = _read(folder / "target.csv")
    truth = _read(folder / "ground_truth.csv")
    ns = source.shape[1]
    assert truth.shape[1] == ns + target.shape[1]
    assert target[key].is_unique, "the target key column is not a key"
    assert not source.duplicated().any() and not target.duplicated().any(), "duplicate rows"
    for side in (source, target):
        norm = {MAKER._norm_row(r) for r in side.itertuples(index=False)}
        assert len(norm) == len(side), "rows the evaluator cannot tell apart"
    assert max(len(source), len(target)) <= 2000
    src_rows = {tuple(r): i for i, r in enumerate(source.itertuples(index=False))}
    tgt_rows = {tuple(r): j for j, r in enumerate(target.itertuples(index=False))}
    pairs = [(src_rows[tuple(r[:ns])], tgt_rows[tuple(r[ns:])])
             for r in truth.itertuples(index=False)]     # KeyError: a row not in the table
    assert len(pairs) >= 10
    assert len(set(pairs)) == len(pairs), "a truth pair listed twice"
    assert len({i for i, _ in pairs}) == len(pairs), "a source row joins twice (1:N)"
    rows = source.to_dict("records")
    keys = target[key].tolist()
    covered = sum(ref(rows[i]) == keys[j] for i, j in pairs) / len(pairs)
    assert covered >= 0.9, f"reference coverage {covered:.3f} < 0.9"
    return covered


@pytest.mark.parametrize("case", sorted(REFERENCE))
def test_case_meets_admission_criteria(case):
    key, ref = REFERENCE[case]
    check_case(DATA / case, key, ref)


def test_a_broken_case_fails(tmp_path):
    """The check above fails on copies of a case broken on purpose, one criterion each."""
    import shutil
    case = "gdb_syscalls_linux_numbers"
    key, ref = REFERENCE[case]

    def broken(name, edit):
        folder = tmp_path / name
        shutil.copytree(DATA / case, folder)
        edit(folder)
        return folder

    def dup_source_row(folder):
        s = _read(folder / "source.csv")
        pd.concat([s, s.iloc[:1]]).to_csv(folder / "source.csv", index=False)

    def dup_target_key(folder):
        t = _read(folder / "target.csv")
        t.loc[1, "macro"] = t.loc[0, "macro"]
        t.to_csv(folder / "target.csv", index=False)

    def one_to_many(folder):
        g = _read(folder / "ground_truth.csv")
        t = _read(folder / "target.csv")
        extra = g.iloc[:1].copy()
        extra[["macro", "syscall number"]] = t.iloc[5].tolist()
        pd.concat([g, extra]).to_csv(folder / "ground_truth.csv", index=False)

    def unknown_row(folder):
        g = _read(folder / "ground_truth.csv")
        g.loc[0, "syscall"] = "no_such_call"
        g.to_csv(folder / "ground_truth.csv", index=False)

    for name, edit in (("dup_source_row", dup_source_row), ("dup_target_key", dup_target_key),
                       ("one_to_many", one_to_many), ("unknown_row", unknown_row)):
        with pytest.raises((AssertionError, KeyError)):
            check_case(broken(name, edit), key, ref)
    with pytest.raises(AssertionError):     # a reference function that writes other keys
        check_case(DATA / case, key, lambda r: "__NR_" + r["syscall"].upper())


def test_references_on_hand_checked_rows():
    """A few rows written by hand, so a broken reference function cannot pass unseen."""
    ref = {case: f for case, (_, f) in REFERENCE.items()}
    assert ref["altair_channel_classes"]({"class": "X"}) == "x"
    assert ref["altair_channel_classes"]({"class": "StrokeDashValue"}) == "strokeDash"
    assert ref["altair_channel_classes"]({"class": "XError2Value"}) == "xError2"
    assert ref["altair_channel_classes"]({"class": "ColorDatum"}) == "color"
    assert ref["altair_mark_methods"]({"method": "mark_errorband"}) == "errorband"
    assert ref["gdb_syscalls_linux_numbers"]({"syscall": "read"}) == "__NR_read"
    assert ref["x11_event_masks_xcb"]({"event mask": "KeyPressMask"}) == \
        "XCB_EVENT_MASK_KEY_PRESS"
    assert ref["x11_event_masks_xcb"]({"event mask": "Button1MotionMask"}) == \
        "XCB_EVENT_MASK_BUTTON_1_MOTION"
    assert ref["x11_event_masks_xcb"]({"event mask": "NoEventMask"}) == "XCB_EVENT_MASK_NO_EVENT"
    assert ref["gdb_syscall_man7_urls"]({"name": "read"}) == \
        "https://man7.org/linux/man-pages/man2/read.2.html"
    assert ref["iproute2_dscp_nft_names"]({"dsfield name": "AF11"}) == "af11"
    assert ref["jupyterlab_settings_paths"]({"plugin": "@jupyterlab/notebook-extension:tracker"}) \
        == "~/.jupyter/lab/user-settings/@jupyterlab/notebook-extension/tracker.jupyterlab-settings"
    assert ref["perl_release_dates"]({"released": "2022-05-28"}) == "28/05/2022"
    assert ref["udev_pci_class_codes"]({"class": "0C", "subclass": "03"}) == "0c03"


def test_reads_no_lake_file_and_only_pool_modules():
    """Criteria (a) and (h), on the case maker's source: the fresh12 section reads no lake
    file, imports only its pool's modules (never the learner's or an earlier set's), and
    every case is made by make_fresh12."""
    section = _section().split("_FRESH12_POOL = (")[1]      # the code, not the criteria
    assert '"fivethirtyeight/' not in section and '"reference/' not in section
    assert "_read(" not in section and "lake /" not in section
    assert "demo_lake" not in section and "package-lists" not in section
    imported = set(re.findall(r"^\s*(?:from|import) ([\w]+)", section, re.M))
    assert imported <= ALLOWED_IMPORTS, imported - ALLOWED_IMPORTS
    assert "lakejoin_jupyter" not in imported and not imported & EARLIER_STDLIB
    made = re.search(r"def make_fresh12.*?return \[(.*?)\]", section, re.S).group(1)
    assert set(re.findall(r"(\w+)\(lake, out\)", made)) == set(REFERENCE)


def test_reads_only_pinned_files_of_new_sources():
    """Criterion (a) for the Debian files: every absolute path in the section is a file (or
    folder) whose content the case maker pins, none is an earlier set's, and no source of
    the pool or of the pins is one an earlier set read or held."""
    section = _section().split("_FRESH12_POOL = (")[1]      # the code, not the criteria
    paths = set(re.findall(r'"(/(?:usr|etc|lib)/[^"]*)"', section))
    assert paths == set(MAKER.FRESH12_FILES)
    assert all(len(h) == 64 for h in MAKER.FRESH12_FILES.values())
    earlier_files = set(MAKER.FRESH9_FILES) | set(MAKER.FRESH10_FILES) | set(MAKER.FRESH11_FILES)
    assert not paths & earlier_files
    assert not any(p.startswith(("/usr/share/zoneinfo", "/usr/share/iso-codes", "/etc/mime.types",
                                 "/usr/share/mime", "/etc/services", "/etc/protocols",
                                 "/usr/share/X11", "/usr/share/i18n", "/usr/share/package-lists",
                                 "/usr/include/x86_64-linux-gnu/bits", "/usr/include/arpa"))
                   for p in paths)
    pool = {p.split()[0] for p in MAKER._FRESH12_POOL}
    assert not pool & EARLIER
    pinned = (set(MAKER.FRESH12_VERSIONS) | set(MAKER.FRESH12_DEBIAN)) - {"python"}
    assert pinned <= pool and not pinned & EARLIER
    earlier_pins = (set(MAKER.FRESH8_VERSIONS) | set(MAKER.FRESH9_VERSIONS)
                    | set(MAKER.FRESH10_VERSIONS) | set(MAKER.FRESH11_VERSIONS)
                    | set(MAKER.FRESH9_DEBIAN) | set(MAKER.FRESH10_DEBIAN)
                    | set(MAKER.FRESH11_DEBIAN)) - {"python"}
    assert not pinned & earlier_pins


def test_making_the_cases_imports_no_learner(tmp_path):
    """Criterion (h): loading the case maker and making the cases (where the sources are
    here) imports neither the package nor the evaluator; run in a fresh interpreter, since
    other tests of the suite import the package."""
    import subprocess
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('m', {str(MAKER_PATH)!r})\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "made = not m.fresh12_version_mismatches()\n"
        f"made and m.make_fresh12(None, __import__('pathlib').Path({str(tmp_path)!r}))\n"
        "print(made, sorted(n for n in sys.modules\n"
        "                   if n.split('.')[0] in ('lakejoin_jupyter', 'autojoin_eval')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split(" ", 1)
    assert out[1].strip() == "[]", out


def test_regenerated_cases_are_identical(tmp_path):
    wrong = MAKER.fresh12_version_mismatches()
    if wrong:
        pytest.skip("fresh12 needs its sources at the pinned versions: " + "; ".join(wrong))
    MAKER.make_fresh12(None, tmp_path)
    for case in REFERENCE:
        for name in ("source.csv", "target.csv", "ground_truth.csv"):
            assert filecmp.cmp(DATA / case / name, tmp_path / case / name, shallow=False), \
                f"{case}/{name} differs"

"""Optional check on a real lake (not in CI: tests never need data outside the repository).

    LAKEJOIN_REAL_LAKE=path/to/fivethirtyeight LAKEJOIN_REAL_INDEX=/tmp/i538 \
        pytest tests/test_real_lake.py

builds the index with the CLI if LAKEJOIN_REAL_INDEX does not exist yet, then checks that
`lakejoin search` returns the same top-10 overlaps as an oracle computed independently:
every table read with pandas (its own CSV parser, encodings tried in turn), values
normalized, overlaps counted with Python sets.
"""
import io
import json
import os
from pathlib import Path

import pandas as pd
import pytest

from lakejoin_jupyter.cli import main as cli
from lakejoin_jupyter.lake.normalize import normalize_many

LAKE = os.environ.get("LAKEJOIN_REAL_LAKE")
INDEX = os.environ.get("LAKEJOIN_REAL_INDEX")
pytestmark = [pytest.mark.spark,
              pytest.mark.skipif(not (LAKE and INDEX), reason="set LAKEJOIN_REAL_LAKE and LAKEJOIN_REAL_INDEX")]


def pandas_read(path: Path):
    raw = path.read_bytes()
    for enc in ("utf-8-sig", "utf-16", "cp1252", "latin-1"):
        try:
            text = raw.decode(enc)
            if enc == "utf-16" and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
                continue
            return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False,
                               header=0, on_bad_lines="skip", engine="python")
        except (UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError):
            continue
    return None


@pytest.fixture(scope="module")
def oracle():
    sets = {}
    root = Path(LAKE)
    for f in sorted(root.rglob("*.csv")):
        df = pandas_read(f)
        if df is None or df.empty:
            continue
        name = f.relative_to(root).as_posix()[:-4]
        for j, c in enumerate(df.columns):
            toks = {t for t in normalize_many(df.iloc[:, j].tolist()) if t is not None}
            sets[(name, j)] = toks
    return sets


def test_cli_top10_equals_independent_oracle(oracle, capsys):
    if not Path(INDEX, "manifest.json").exists():
        assert cli(["index", LAKE, "--out", INDEX, "-q"]) == 0
        capsys.readouterr()
    checked = 0
    by_table = {}
    for (name, j), toks in oracle.items():
        by_table.setdefault(name, []).append((j, toks))
    for name in sorted(by_table)[::7]:
        for j, toks in by_table[name][:2]:
            if len(toks) < 10:
                continue
            df = pandas_read(Path(LAKE) / f"{name}.csv")
            col = df.columns[j]
            assert cli(["search", INDEX, "--table", name, "--column", col, "-k", "10",
                        "--format", "json", "--no-verify"]) == 0
            got = [r["overlap"] for r in json.loads(capsys.readouterr().out)]
            want = sorted((len(toks & other) for key, other in oracle.items()
                           if key != (name, j) and toks & other), reverse=True)[:10]
            assert got == want, (name, col)
            checked += 1
    assert checked >= 20

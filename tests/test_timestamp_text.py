"""Timestamps written as ISO-8601 text (pandas' to_csv and to_json, Spark's CSV writer) are
the keys of the timestamps they write, in the build and in a query (new user 9, item 4)."""
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from lakejoin_jupyter.lake.normalize import normalize_array, normalize_text, normalize_value

TS = pd.to_datetime(["2026-03-29 12:00:00", "2026-03-30 08:15:30.250", "2026-03-31 00:00:00",
                     "1999-12-31 23:59:59.000001", "2026-10-25 01:30:00"], format="ISO8601")


def _texts(ts: pd.Series) -> list:
    """Every text pandas writes for these timestamps, each with the timestamp it holds
    (to_json keeps milliseconds)."""
    frame = pd.DataFrame({"ts": ts})
    csv = frame.to_csv(index=False).splitlines()[1:]
    js = pd.read_json(pd.io.common.StringIO(frame.to_json(orient="records", lines=True,
                                                          date_format="iso")),
                      lines=True, dtype=False, convert_dates=False)["ts"].tolist()
    return (list(zip([str(t) for t in ts], ts)) + list(zip([t.isoformat() for t in ts], ts))
            + list(zip(csv, ts)) + list(zip(js, ts.dt.tz_convert("UTC").dt.floor("ms") if ts.dt.tz else
                                           ts.dt.floor("ms"))))


@pytest.mark.parametrize("zone", [None, "UTC", "Europe/Paris", "Asia/Kolkata"])
def test_pandas_texts_of_a_timestamp_are_its_key(zone):
    rng = np.random.default_rng(7)
    extra = pd.to_datetime(rng.integers(0, 2 ** 62, 50, dtype=np.int64) // 10 ** 9 * 10 ** 9
                           + rng.integers(0, 10 ** 9, 50) * (rng.random(50) < 0.5) // 1000 * 1000)
    ts = pd.Series(TS.append(extra))
    ts = ts.dt.tz_localize("UTC").dt.tz_convert(zone) if zone else ts
    texts, stamps = zip(*_texts(ts))
    oracle = [normalize_value(t) for t in stamps]
    assert [normalize_text(t) for t in texts] == oracle
    assert normalize_array(pa.array(list(texts))).to_pylist() == oracle   # the build's path
    assert normalize_text("2026-03-29T12:00Z") == normalize_text("2026-03-29 14:00+02:00") \
        == "2026-03-29t12:00:00"


def test_what_is_not_an_iso_timestamp_is_text():
    for text in ["2026-13-29 12:00:00", "2026-03-29 12:00:00 utc", "03/29/2026 12:00",
                 "2026-03-29 25:00:00", "2026-03-29t12"]:
        assert normalize_text(text) == " ".join(text.lower().split())
        assert normalize_array(pa.array([text])).to_pylist() == [normalize_text(text)]


@pytest.mark.spark
def test_a_datetime_frame_finds_and_joins_its_text_copies(spark, tmp_path):
    from conftest import write_lake
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    q = pd.DataFrame({"ts": TS, "n": range(len(TS))})
    rows = pd.DataFrame({"ts": TS[[0, 1, 2, 4]], "label": ["a", "b", "c", "e"]})
    utc = rows.assign(ts=rows["ts"].dt.tz_localize("UTC"))
    lake = write_lake(tmp_path / "lake", {
        "naive/t.csv": rows, "utc/t.csv": utc,
        "paris/t.csv": utc.assign(ts=utc["ts"].dt.tz_convert("Europe/Paris")),
        "lines/t.jsonl": rows.to_json(orient="records", lines=True, date_format="iso")})
    spark.createDataFrame(utc).coalesce(1).write.csv(str(lake / "spark"), header=True)
    build(lake, tmp_path / "i", spark=spark, progress=False)
    engine = open_index(tmp_path / "i")
    hits = engine.search(q, "ts", k=10)
    assert sorted(h.table.split("/part-")[0] for h in hits) == ["lines/t", "naive/t", "paris/t", "spark", "utc/t"]
    for hit in hits:
        assert hit.overlap == 4
        joined = hit.join(q)
        ns = {"df": q}
        exec(hit.code("df", "out"), ns)
        pd.testing.assert_frame_equal(ns["out"], joined)
        # the oracle: pandas parses the file's text and merges on the UTC instant
        other = engine.table(hit.table)
        other = other.assign(at=pd.to_datetime(other[hit.column], utc=True, format="ISO8601"))
        expected = q.assign(at=q["ts"].dt.tz_localize("UTC")).merge(
            other[["at", "label"]], on="at", how="left")
        assert joined["label"].tolist() == expected["label"].where(
            expected["label"].notna(), None).tolist()
    dmy = engine.search(pd.DataFrame({"d": pd.to_datetime(["1980-01-01", "1980-01-02"])}),
                        "d", k=3)
    assert not len(dmy) and "03/29/2026" in dmy.empty_message

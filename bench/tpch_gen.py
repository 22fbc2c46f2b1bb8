"""A small TPC-H-like generator: the eight tables with their keys and value domains.

Follows the TPC-H specification (v3, §4.2) closely enough that the join structure is the
real one: the same columns in the same order, the same key ranges and sparse order keys,
the composite partsupp key with its supplier formula, lineitem's (partkey, suppkey) drawn from
partsupp, and the same value domains for the non-key columns (so integer, date and decimal
columns collide across tables as they do in dbgen output). Values are the text dbgen writes
(.tbl): decimals with two digits, dates as YYYY-MM-DD. Comments are random word sequences.

    python bench/tpch_gen.py OUT_DIR --sf 0.01       # writes one CSV per table

The declared keys (`FOREIGN_KEYS`) are the ground truth of bench/schemaless_tpch.py.
"""
from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path

import numpy as np
import pandas as pd

REGIONS = ["AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"]
NATIONS = [("ALGERIA", 0), ("ARGENTINA", 1), ("BRAZIL", 1), ("CANADA", 1), ("EGYPT", 4),
           ("ETHIOPIA", 0), ("FRANCE", 3), ("GERMANY", 3), ("INDIA", 2), ("INDONESIA", 2),
           ("IRAN", 4), ("IRAQ", 4), ("JAPAN", 2), ("JORDAN", 4), ("KENYA", 0),
           ("MOROCCO", 0), ("MOZAMBIQUE", 0), ("PERU", 1), ("CHINA", 2), ("ROMANIA", 3),
           ("SAUDI ARABIA", 4), ("VIETNAM", 2), ("RUSSIA", 3), ("UNITED KINGDOM", 3),
           ("UNITED STATES", 1)]
COLORS = ("almond antique aquamarine azure beige bisque black blanched blue blush brown "
          "burlywood burnished chartreuse chiffon chocolate coral cornflower cornsilk cream "
          "cyan dark deep dim dodger drab firebrick floral forest frosted gainsboro ghost "
          "goldenrod green grey honeydew hot indian ivory khaki lace lavender lawn lemon light "
          "lime linen magenta maroon medium metallic midnight mint misty moccasin navajo navy "
          "olive orange orchid pale papaya peach peru pink plum powder puff purple red rose "
          "rosy royal saddle salmon sandy seashell sienna sky slate smoke snow spring steel "
          "tan thistle tomato turquoise violet wheat white yellow").split()
TYPES = (["STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"],
         ["ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"],
         ["TIN", "NICKEL", "BRASS", "STEEL", "COPPER"])
CONTAINERS = (["SM", "LG", "MED", "JUMBO", "WRAP"],
              ["CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"])
SEGMENTS = ["AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"]
PRIORITIES = ["1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"]
INSTRUCT = ["DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"]
MODES = ["REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"]
WORDS = ("furiously sly careful blithe quick fluffy slow quiet ruthless thin close dogged "
         "daring brave stealthy permanent enticing idle busy regular final ironic even bold "
         "silent foxes ideas theodolites pinto beans instructions dependencies excuses "
         "platelets asymptotes courts dolphins multipliers sauternes warthogs frets dinos "
         "attainments somas Tiresias patterns forges braids hockey players frays warhorses "
         "dugouts notornis epitaphs pearls tithes waters orbits gifts sheaves depths sentiments "
         "decoys realms pains grouches escapades sleep wake are were might could haggle nag "
         "use boost affix detect integrate maintain nod was lose sublate solve thrash promise "
         "engage hinder print x-ray breach eat grow impress mold poach serve run dazzle snooze "
         "doze unwind kindle play hang believe doubt cajole above against along among around "
         "at atop before behind beneath beside between beyond by despite during except for "
         "from in inside instead of into near of on outside over past since through "
         "throughout to toward under until up upon without with within quickly carefully "
         "blithely slowly quietly ruthlessly thinly closely doggedly daringly bravely").split()

START = dt.date(1992, 1, 1)
END = dt.date(1998, 12, 31)
CURRENT = dt.date(1995, 6, 17)

# (referencing table, its columns) -> (referenced table, its key columns) [TPC-H §1.4.2]
FOREIGN_KEYS = [
    ("nation", ["n_regionkey"], "region", ["r_regionkey"]),
    ("supplier", ["s_nationkey"], "nation", ["n_nationkey"]),
    ("customer", ["c_nationkey"], "nation", ["n_nationkey"]),
    ("partsupp", ["ps_partkey"], "part", ["p_partkey"]),
    ("partsupp", ["ps_suppkey"], "supplier", ["s_suppkey"]),
    ("orders", ["o_custkey"], "customer", ["c_custkey"]),
    ("lineitem", ["l_orderkey"], "orders", ["o_orderkey"]),
    ("lineitem", ["l_partkey", "l_suppkey"], "partsupp", ["ps_partkey", "ps_suppkey"]),
]


def _comments(rng, n, lo=3, hi=12):
    lens = rng.integers(lo, hi + 1, n)
    words = np.array(WORDS, dtype=object)[rng.integers(0, len(WORDS), int(lens.sum()))]
    out, i = [], 0
    for k in lens:
        out.append(" ".join(words[i:i + k]))
        i += k
    return out


def _money(x):
    return [f"{v:.2f}" for v in x]


def _phones(rng, nationkeys):
    a, b, c = rng.integers(100, 1000, len(nationkeys)), rng.integers(100, 1000, len(nationkeys)), \
        rng.integers(1000, 10000, len(nationkeys))
    return [f"{nk + 10}-{x}-{y}-{z}" for nk, x, y, z in zip(nationkeys, a, b, c)]


def _addresses(rng, n):
    alphabet = np.array(list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,. "))
    lens = rng.integers(10, 41, n)
    chars = alphabet[rng.integers(0, len(alphabet), int(lens.sum()))]
    out, i = [], 0
    for k in lens:
        out.append("".join(chars[i:i + k]).strip() or "x")
        i += k
    return out


def _dates(days):
    return [(START + dt.timedelta(days=int(d))).isoformat() for d in days]


def _retail_price(partkey):
    pk = np.asarray(partkey)
    return (90000 + ((pk // 10) % 20001) + 100 * (pk % 1000)) / 100.0


def _supplier_of(partkey, i, n_supp):
    """The i-th (0..3) supplier of a part [TPC-H §4.2.3, PS_SUPPKEY]."""
    pk = np.asarray(partkey)
    return (pk + (i * ((n_supp // 4) + (pk - 1) // n_supp))) % n_supp + 1


def generate(sf: float = 0.01, seed: int = 0) -> dict[str, pd.DataFrame]:
    """The eight tables at scale factor ``sf`` as string-valued DataFrames."""
    rng = np.random.default_rng(seed)
    n_supp = max(4, round(10_000 * sf))
    n_cust = max(3, round(150_000 * sf))
    n_part = max(1, round(200_000 * sf))
    n_ord = max(1, round(1_500_000 * sf))
    n_clerk = max(1, round(1_000 * sf))
    t = {}
    t["region"] = pd.DataFrame({"r_regionkey": [str(i) for i in range(5)], "r_name": REGIONS,
                                "r_comment": _comments(rng, 5)})
    t["nation"] = pd.DataFrame({"n_nationkey": [str(i) for i in range(25)],
                                "n_name": [n for n, _ in NATIONS],
                                "n_regionkey": [str(r) for _, r in NATIONS],
                                "n_comment": _comments(rng, 25)})
    sk = np.arange(1, n_supp + 1)
    snk = rng.integers(0, 25, n_supp)
    t["supplier"] = pd.DataFrame({
        "s_suppkey": sk.astype(str), "s_name": [f"Supplier#{k:09d}" for k in sk],
        "s_address": _addresses(rng, n_supp), "s_nationkey": snk.astype(str),
        "s_phone": _phones(rng, snk), "s_acctbal": _money(rng.uniform(-999.99, 9999.99, n_supp)),
        "s_comment": _comments(rng, n_supp)})
    ck = np.arange(1, n_cust + 1)
    cnk = rng.integers(0, 25, n_cust)
    t["customer"] = pd.DataFrame({
        "c_custkey": ck.astype(str), "c_name": [f"Customer#{k:09d}" for k in ck],
        "c_address": _addresses(rng, n_cust), "c_nationkey": cnk.astype(str),
        "c_phone": _phones(rng, cnk), "c_acctbal": _money(rng.uniform(-999.99, 9999.99, n_cust)),
        "c_mktsegment": np.array(SEGMENTS)[rng.integers(0, 5, n_cust)],
        "c_comment": _comments(rng, n_cust)})
    pk = np.arange(1, n_part + 1)
    colors = np.array(COLORS)
    names = [" ".join(colors[rng.choice(len(colors), 5, replace=False)]) for _ in pk]
    mfgr = rng.integers(1, 6, n_part)
    t["part"] = pd.DataFrame({
        "p_partkey": pk.astype(str), "p_name": names,
        "p_mfgr": [f"Manufacturer#{m}" for m in mfgr],
        "p_brand": [f"Brand#{m}{n}" for m, n in zip(mfgr, rng.integers(1, 6, n_part))],
        "p_type": [" ".join(x) for x in zip(np.array(TYPES[0])[rng.integers(0, 6, n_part)],
                                            np.array(TYPES[1])[rng.integers(0, 5, n_part)],
                                            np.array(TYPES[2])[rng.integers(0, 5, n_part)])],
        "p_size": rng.integers(1, 51, n_part).astype(str),
        "p_container": [" ".join(x) for x in zip(np.array(CONTAINERS[0])[rng.integers(0, 5, n_part)],
                                                 np.array(CONTAINERS[1])[rng.integers(0, 8, n_part)])],
        "p_retailprice": _money(_retail_price(pk)), "p_comment": _comments(rng, n_part, 1, 4)})
    ps_pk = np.repeat(pk, 4)
    ps_sk = _supplier_of(ps_pk, np.tile(np.arange(4), n_part), n_supp)
    t["partsupp"] = pd.DataFrame({
        "ps_partkey": ps_pk.astype(str), "ps_suppkey": ps_sk.astype(str),
        "ps_availqty": rng.integers(1, 10_000, len(ps_pk)).astype(str),
        "ps_supplycost": _money(rng.uniform(1.0, 1000.0, len(ps_pk))),
        "ps_comment": _comments(rng, len(ps_pk), 8, 20)})
    # orders: sparse keys (8 of every 32), customers whose key is not a multiple of 3
    idx = np.arange(n_ord)
    ok = (idx // 8) * 32 + (idx % 8) + 1
    valid_cust = ck[ck % 3 != 0] if n_cust >= 3 else ck
    ocust = valid_cust[rng.integers(0, len(valid_cust), n_ord)]
    span = (END - START).days - 151
    odate = rng.integers(0, span + 1, n_ord)
    # lineitem
    n_lines = rng.integers(1, 8, n_ord)
    l_ord = np.repeat(np.arange(n_ord), n_lines)
    L = len(l_ord)
    l_line = np.concatenate([np.arange(1, k + 1) for k in n_lines])
    l_pk = rng.integers(1, n_part + 1, L)
    l_sk = _supplier_of(l_pk, rng.integers(0, 4, L), n_supp)
    qty = rng.integers(1, 51, L)
    price = qty * _retail_price(l_pk)
    disc = rng.integers(0, 11, L) / 100.0
    tax = rng.integers(0, 9, L) / 100.0
    ship = odate[l_ord] + rng.integers(1, 122, L)
    commit = odate[l_ord] + rng.integers(30, 91, L)
    receipt = ship + rng.integers(1, 31, L)
    cur = (CURRENT - START).days
    rflag = np.where(receipt <= cur, np.where(rng.random(L) < 0.5, "R", "A"), "N")
    lstatus = np.where(ship > cur, "O", "F")
    t["lineitem"] = pd.DataFrame({
        "l_orderkey": ok[l_ord].astype(str), "l_partkey": l_pk.astype(str),
        "l_suppkey": l_sk.astype(str), "l_linenumber": l_line.astype(str),
        "l_quantity": qty.astype(str), "l_extendedprice": _money(price),
        "l_discount": _money(disc), "l_tax": _money(tax), "l_returnflag": rflag,
        "l_linestatus": lstatus, "l_shipdate": _dates(ship), "l_commitdate": _dates(commit),
        "l_receiptdate": _dates(receipt),
        "l_shipinstruct": np.array(INSTRUCT)[rng.integers(0, 4, L)],
        "l_shipmode": np.array(MODES)[rng.integers(0, 7, L)],
        "l_comment": _comments(rng, L, 2, 6)})
    total = np.bincount(l_ord, weights=price * (1 + tax) * (1 - disc), minlength=n_ord)
    all_f = np.bincount(l_ord, weights=(lstatus == "F"), minlength=n_ord) == n_lines
    all_o = np.bincount(l_ord, weights=(lstatus == "O"), minlength=n_ord) == n_lines
    t["orders"] = pd.DataFrame({
        "o_orderkey": ok.astype(str), "o_custkey": ocust.astype(str),
        "o_orderstatus": np.where(all_f, "F", np.where(all_o, "O", "P")),
        "o_totalprice": _money(total), "o_orderdate": _dates(odate),
        "o_orderpriority": np.array(PRIORITIES)[rng.integers(0, 5, n_ord)],
        "o_clerk": [f"Clerk#{c:09d}" for c in rng.integers(1, n_clerk + 1, n_ord)],
        "o_shippriority": ["0"] * n_ord, "o_comment": _comments(rng, n_ord, 4, 10)})
    order = ["region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"]
    return {k: t[k] for k in order}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--sf", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    for name, df in generate(a.sf, a.seed).items():
        df.to_csv(a.out / f"{name}.csv", index=False)
        print(f"{name}: {len(df):,} rows")


if __name__ == "__main__":
    main()

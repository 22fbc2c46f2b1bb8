"""CPU time of a search whose own-table check (Engine.own_tables) runs: the demo's queries
(fifa.country, the gdp table as a frame, a list of values), mean of --repeat after a
warm-up; with the per-frame memo, "fresh" (emptied before each search) and "again".

    python bench/own_check_speed.py INDEX [--repeat 5]

Compare two trees by alternating runs under the same load (PYTHONPATH=<tree>)."""
import argparse
import time

from lakejoin_jupyter import open_index
from lakejoin_jupyter.demo import demo_query


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("index", help="the demo lake's index (lakejoin index <demo_lake>)")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    e = open_index(a.index)
    fifa = demo_query()
    gdp = e.table("reference/gdp")
    cases = [("fifa k=10 overlap", lambda: e.search(fifa, "country", k=10)),
             ("fifa k=1 overlap", lambda: e.search(fifa, "country", k=1)),
             ("gdp frame k=3", lambda: e.search(gdp, "Country Code", k=3)),
             ("values k=10", lambda: e.search(["France", "Germany", "Chile", "Peru"], k=10)),
             ("fifa k=10 useful", lambda: e.search(fifa, "country", k=10, rank="useful"))]
    memo = hasattr(e, "forget_own_checks")
    print("| search | mode | ms CPU | hits |\n|---|---|---|---|")
    for name, run in cases:
        run()
        for mode in (["fresh", "again"] if memo else ["no memo"]):
            total = 0.0
            for _ in range(a.repeat):
                if mode == "fresh":
                    e.forget_own_checks()
                t = time.process_time()
                r = run()
                total += time.process_time() - t
            print(f"| {name} | {mode} | {total / a.repeat * 1000:.1f} | {len(r)} |", flush=True)


if __name__ == "__main__":
    main()

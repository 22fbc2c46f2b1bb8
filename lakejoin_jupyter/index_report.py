"""What an open index holds, in lines: the one report ``lakejoin info`` prints and
``%lakejoin info`` shows (counts with the added generations' tables, the generations,
components, search methods, skipped and left-out files, advice, and the tables with
``tables``), so the two cannot drift apart."""
from __future__ import annotations

from .formats import clip_all


def example_name(engine) -> str:
    """A table name to show as an example: an indexed one (a skipped file is no table)."""
    t = engine.index.tables
    names = t.loc[t["status"] == "indexed", "name"]
    return str(names.iloc[0]) if len(names) else "folder/table"


def index_lines(engine, info: dict, tables: bool = False, methods: bool = True,
                tables_hint: str = "--tables lists them; a name is what "
                                   "`lakejoin search --table` takes") -> list[str]:
    """The report of ``engine``'s index (``info``: ``engine.info()``), a line each: its
    path, then, indented (those under a heading further): where and when it was built, its tables (the
    base's and every added generation's), columns and values, its generations and
    components; with ``methods``, its search methods and their options; skipped and
    left-out files, advice; with ``tables``, every table (name, status, rows, first
    columns), else how many and one name (``tables_hint``: how to list them)."""
    from .indexing.pipeline import left_out_lines
    ix = engine.index
    c = info["counts"]
    out = [f"built {info['created']} from {info['lake']}",
           f"{len(ix.tables)} tables ({int((ix.tables['status'] == 'indexed').sum())} indexed), "
           f"{ix.n_sets:,} columns, {c['tokens']:,} distinct values in the base, "
           f"{c['postings']:,} postings"]
    if info["generations"]:
        out.append(f"{len(info['generations'])} added generation(s): "
                   f"{', '.join(info['generations'])}")
    out.append(f"components: {', '.join(info['components'])}")
    if methods:
        out.append("search methods:")
        for m in engine.methods():
            out.append(f"  {m.name:<16} {m.shown_kind:<12} {m.label}")
            if m.params:
                out.append(f"  {'':<16} options (-O NAME=VALUE): " + ", ".join(
                    f"{p.name}={'auto' if p.default is None else p.default}" for p in m.params))
        for m, how in engine.missing_methods():
            out.append(f"  ({m.name}: needs component(s) {', '.join(m.requires)}; {how})")
        if "union" in info["components"]:
            out.append("table union search: `lakejoin union` (component union)")
        else:
            out.append("(table union search, `lakejoin union`: needs component union; rebuild "
                       "with --with union)")
    if info["skipped"]:
        out.append(f"skipped {len(info['skipped'])} file(s):")
        out += [f"  {s['path']}: {s['reason']}" for s in info["skipped"]]
    if info["left_out"]:
        out += [line[0].lower() + line[1:] for line in
                left_out_lines([(x["path"], x["reason"]) for x in info["left_out"]])]
    out += list(info["advice"])         # a lake change among them, with its rebuild command
    if tables:
        out.append("tables (name, status, rows, columns):")
        by_name = ix.tables.sort_values("name")
        repeated = ix.tables["name"].duplicated(keep=False)[by_name.index]
        for t, again in zip(by_name.itertuples(), repeated):
            cols = ix.columns.loc[ix.columns["table_id"] == t.table_id, "name"].tolist() \
                if t.status == "indexed" else []
            # names cut where they differ would read alike: cut in the part they share
            shown = ", ".join(clip_all(cols[:6], fallback="shared")) + (
                f", ... ({len(cols)})" if len(cols) > 6 else "")
            # a name two tables share (an --add older than the check): their files tell apart
            where = f"  ({t.uri}, generation {t.generation})" if again else ""
            out.append(f"  {t.name}  {t.status}  {int(t.n_rows or 0):,} rows  [{shown}]{where}")
    elif len(ix.tables):
        out.append(f"tables: {len(ix.tables)}, e.g. {example_name(engine)!r} ({tables_hint})")
    return [f"Index {info['path']}"] + ["  " + line for line in out]

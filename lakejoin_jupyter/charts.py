"""Altair charts that render offline in JupyterLab 4 and Notebook 7.

altair 5.5's default renderer loads vega from a CDN, which fails offline (and on Binder
behind a strict proxy); the ``mimetype`` renderer emits ``application/vnd.vegalite.v5+json``
that JupyterLab's built-in vega 5 extension draws without network.
:func:`enable_offline_rendering` switches to it; the extension calls it when loaded and the
widget when created. The charts are views of results shared by the actions and front ends.
"""
from __future__ import annotations

import pandas as pd

BLUE, GREY, ORANGE = "#4a78c2", "#d0d7de", "#e8883a"


def enable_offline_rendering() -> None:
    import altair as alt
    if alt.renderers.active != "mimetype":
        alt.renderers.enable("mimetype")


# JupyterLab's theme colours as CSS variables, with a grey for a page without them (the
# classic notebook, an exported HTML file) that reads on a light and on a dark background
INK = "var(--jp-ui-font-color1, #777)"
INK2 = "var(--jp-ui-font-color2, #888)"
RULE = "var(--jp-border-color2, #999)"
THEME = {"axis": {"labelColor": INK, "titleColor": INK, "domainColor": INK2, "tickColor": INK2,
                  "gridColor": RULE},
         "title": {"color": INK, "subtitleColor": INK2},
         "legend": {"labelColor": INK, "titleColor": INK},
         "view": {"stroke": RULE},
         "style": {"guide-label": {"fill": INK}, "guide-title": {"fill": INK},
                   "group-title": {"fill": INK}}}


def themed(chart):
    """``chart`` as the widget and the magics show it: no background of its own, drawn as
    SVG, with its axis, title and legend text and lines coloured by JupyterLab's theme
    variables (``var(--jp-ui-font-color1)``...): an SVG attribute's ``var()`` is resolved
    by the page's current theme, so the chart follows the light or dark theme, a later
    switch included, with no stylesheet of ours on the page (a magic's output outside the
    widget; a canvas would keep the colours of the theme it was drawn in). The widget's
    stylesheet (js/lakejoin.css) says the same. The theme colours are the top-level config
    (a chart with them can no longer be concatenated): apply this when showing. None
    stays None."""
    if chart is None:
        return None
    meta = dict(getattr(chart, "usermeta", None) or {}) if _is_set(chart, "usermeta") else {}
    meta["embedOptions"] = {**meta.get("embedOptions", {}), "renderer": "svg"}
    # over JupyterLab's vega "dark" theme, given at draw time (a spec's config outranks it),
    # merged into the chart's own config (altair's configure_* would replace its parts)
    import altair as alt
    config = chart.config.to_dict() if _is_set(chart, "config") else {}
    for part, colours in THEME.items():
        config[part] = {**config.get(part, {}), **colours}
    out = chart.properties(background="transparent", usermeta=meta)
    out.config = alt.Config(**config)
    return out


def _is_set(chart, name: str) -> bool:
    from altair.utils.schemapi import Undefined
    return getattr(chart, name, Undefined) is not Undefined


def _containment(hit) -> float:
    if hit.containment is not None:
        return float(hit.containment)
    return float(hit.estimated_containment or 0.0)


def results_chart(result, width: int = 360):
    """One bar per hit: the share of the query's distinct values it contains."""
    import altair as alt
    rows = [{"hit": f"{h.rank}. {h.table.rsplit('/', 1)[-1]} · {', '.join(h.columns)}",
             "containment": _containment(h), "overlap": h.overlap, "method": h.method,
             "estimated": not h.exact} for h in result.hits]
    df = pd.DataFrame(rows, columns=["hit", "containment", "overlap", "method", "estimated"])
    return (alt.Chart(df, title=f"Query values found in each hit ({result.query.size:,} distinct)")
            .mark_bar(color=BLUE)
            .encode(x=alt.X("containment:Q", title="containment of the query",
                            scale=alt.Scale(domain=[0, 1]),
                            # a tick every 10% ran "90%100%" together at 360 px
                            axis=alt.Axis(format="%", values=[0, 0.25, 0.5, 0.75, 1])),
                    y=alt.Y("hit:N", sort=None, title=None),
                    opacity=alt.condition("datum.estimated", alt.value(0.5), alt.value(1.0)),
                    tooltip=["hit", alt.Tooltip("containment:Q", format=".1%"), "overlap",
                             "method", "estimated"])
            .properties(width=width))


def coverage_frame(hit, query_frame=None) -> pd.DataFrame:
    """Matched / unmatched counts of the query's distinct values (and rows, when the query
    frame is at hand): how much of the query this hit covers."""
    from .lake.normalize import normalize_many
    matched = len(hit.matches)
    unmatched = len(hit.unmatched)
    what = "distinct key tuples" if len(hit.query_columns) > 1 else "distinct values"
    rows = [{"measure": what, "status": "matched", "count": matched},
            {"measure": what, "status": "not matched", "count": unmatched}]
    if query_frame is not None and len(hit.query_columns) == 1 and isinstance(query_frame, pd.DataFrame) \
            and hit.query_columns[0] in query_frame.columns:
        matched_tokens = set(normalize_many(hit.matches))
        toks = normalize_many(query_frame[hit.query_columns[0]].tolist())
        n_match = sum(1 for t in toks if t is not None and t in matched_tokens)
        n_null = sum(1 for t in toks if t is None)
        rows += [{"measure": "rows", "status": "matched", "count": n_match},
                 {"measure": "rows", "status": "not matched", "count": len(toks) - n_match - n_null},
                 {"measure": "rows", "status": "null key", "count": n_null}]
    return pd.DataFrame(rows)


TITLE_CHAR_PX = 7.5       # a chart title's letter (13 px bold), on average, in pixels


def coverage_chart(hit, query_frame=None, width: int = 360):
    """Stacked bars: how many of the query's values (and rows) find a partner in the hit."""
    import altair as alt
    df = coverage_frame(hit, query_frame)
    from .formats import clip
    start = f"Coverage of {', '.join(map(str, hit.query_columns))} by "
    # no wider than the chart with its labels (TITLE_CHAR_PX a bold title letter): a long
    # name is cut in its middle, as the results list cuts it, not by the chart's edge
    room = max(12, int((width + 80) / TITLE_CHAR_PX) - len(start))
    title = start + clip(hit.table.rsplit("/", 1)[-1], room)
    return (alt.Chart(df, title=title).mark_bar()
            .encode(x=alt.X("sum(count):Q", stack="normalize", title="share",
                            axis=alt.Axis(format="%", values=[0, 0.25, 0.5, 0.75, 1])),
                    y=alt.Y("measure:N", title=None),
                    color=alt.Color("status:N", scale=alt.Scale(
                        domain=["matched", "not matched", "null key"],
                        range=[BLUE, GREY, ORANGE]), legend=alt.Legend(orient="bottom")),
                    tooltip=["measure", "status", "count"])
            .properties(width=width, height=70))


def predicate_chart(result, hit_key=None):
    """Bar chart of the preference score of the best considered predicates, and of the
    hit's key (``hit_key``: its row of a comparison table) when the search did not list it."""
    import altair as alt

    from .join.schemaless import PREFERENCES
    df = result.comparison(10)
    if df.empty:
        return None
    data = pd.DataFrame({"predicate": df["predicate"].str.slice(0, 60),
                         "score": df[result.preference].astype(float),
                         "chosen": df["chosen"].map({True: "chosen", False: "other"})})
    if hit_key is not None and len(hit_key):
        data = pd.concat([data, pd.DataFrame({
            "predicate": hit_key["predicate"].str.slice(0, 60),
            "score": hit_key[result.preference].astype(float), "chosen": "the hit's key"})],
            ignore_index=True)
    kinds = ["chosen", "other", "the hit's key"]
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("score:Q", title=f"{result.preference} ({PREFERENCES[result.preference].label})"),
        y=alt.Y("predicate:N", sort="-x", title=None),
        color=alt.Color("chosen:N", scale=alt.Scale(domain=kinds,
                                                    range=["#4a78c2", "#c8d3e6", "#e8883a"]),
                        legend=None if hit_key is None or not len(hit_key) else
                        alt.Legend(title=None, orient="bottom")),
        tooltip=["predicate", "score", alt.Tooltip("chosen:N", title="which")]
    ).properties(height=alt.Step(18), width=320)


def alignment_chart(hit, query_columns, width: int = 300):
    """One bar per query column: the unionability of the lake column aligned with it
    (no bar: not aligned)."""
    import altair as alt
    df = hit.alignment_frame(query_columns)
    df["pair"] = [f"{q} ← {c}" if c is not None else f"{q} (not aligned)"
                  for q, c in zip(df["query column"], df["lake column"])]
    df["score"] = df["score"].fillna(0.0).astype(float)
    return (alt.Chart(df[["pair", "score"]],
                      title=f"Alignment with {hit.table.rsplit('/', 1)[-1]}")
            .mark_bar(color=BLUE)
            .encode(x=alt.X("score:Q", title="column unionability",
                            scale=alt.Scale(domain=[0, 1])),
                    y=alt.Y("pair:N", sort=None, title=None),
                    tooltip=["pair", alt.Tooltip("score:Q", format=".3f")])
            .properties(width=width, height=alt.Step(18)))

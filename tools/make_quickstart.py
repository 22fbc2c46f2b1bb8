"""Writes example_notebooks/quickstart.ipynb (run: python tools/make_quickstart.py).

The notebook is kept as this script so its cells are reviewed as code; the .ipynb is
committed without outputs. tests/test_notebook.py runs it top to bottom and checks them.
"""
from nbformat.v4 import new_code_cell, new_markdown_cell

from notebook_file import write_notebook

cells = [
    new_markdown_cell(
        "# lakejoin quickstart: which tables of the lake join with my DataFrame?\n\n"
        "This notebook indexes the small demo lake that ships with `lakejoin_jupyter` "
        "(FiveThirtyEight tables and public-domain reference tables), searches it with a "
        "DataFrame column, joins the best hit, then uses the joined frame for a second search "
        "(multi-hop augmentation) and draws a chart. Everything runs offline.\n\n"
        "*On Binder:* the first launch of a commit builds its image (installing Spark and "
        "JupyterLab, then indexing the demo lake twice, `binder/postBuild`): expect about 10 "
        "to 15 minutes. Later launches of the same commit reuse the image and open in about "
        "a minute."),
    new_code_cell("%load_ext lakejoin_jupyter\n"
                  "import lakejoin_jupyter as lj\n"
                  "from lakejoin_jupyter.demo import demo_query"),
    new_markdown_cell(
        "## 1. Index the lake\n"
        "The build is a Spark job (local mode here; any Spark master works), with a progress "
        "bar; the stop button interrupts it without leaving a half-written index. `--reuse` "
        "opens the index if it is already there: on Binder, `binder/postBuild` built it when "
        "the image was built, so this cell only opens it; elsewhere the first run builds it "
        "(a minute or two)."),
    new_code_cell("%lakejoin index --demo --out demo.index --reuse"),
    new_markdown_cell("## 2. A query DataFrame\nFiveThirtyEight's FIFA TV audience table, "
                      "one row per country."),
    new_code_cell("fifa = demo_query()\nfifa.head()"),
    new_markdown_cell(
        "## 3. Search, then join a hit\nWhich lake columns contain the values of "
        "`fifa.country`? Values are compared after normalization (case, spacing, number "
        "formats). `--save hits` keeps the ranked hits in the variable `hits`; a join names "
        "the search it comes from, so *Run all* always joins what these cells say."),
    new_code_cell("%lakejoin search fifa.country -k 8 --save hits"),
    new_markdown_cell(
        "Hit 2 is the reference table of country codes. `%lakejoin join` binds the joined "
        "frame (to `--into`, or by default to a name made of both tables, "
        "`fifa_country_codes`) and shows the code that reproduces it (`--insert` puts that "
        "code in a new cell)."),
    new_code_cell("%lakejoin join 2 --from hits --into fifa_codes"),
    new_markdown_cell(
        "## 4. The discovery widget\n"
        "`%lakejoin ui fifa.country` searches at once. Pick another DataFrame, column(s) or "
        "method and press **Search**; sort the hits by a column header, move through them "
        "with the arrow keys. Click a hit (or press Enter) to see its matched and unmatched "
        "values, a coverage chart and a preview; below them the actions panel has a tab per "
        "action, each with its own parameters: **Join**, **Find transformation**, **Fuzzy "
        "join** (its threshold is *auto*, chosen for the precision target, until you set "
        "one), **Best join predicate**. Running an action binds the result to a variable "
        "named after both tables (`fifa_country_codes`, `fifa_country_codes_fuzzy`...) and "
        "writes the code that reproduces it into a cell below the widget: one cell per "
        "action, updated in place when you run it again. The widget writes its search too "
        "(`%lakejoin search fifa.country -k 10 --save fifa_hits`): nothing it does is hidden "
        "from *Run all*."),
    new_code_cell("%lakejoin ui fifa.country"),
    new_markdown_cell("## 5. The same from Python, with the reproducing code"),
    new_code_cell(
        "engine = lj.open_index(\"demo.index\")\n"
        "res = engine.search(fifa, \"country\", k=8)\n"
        "hit = next(h for h in res if h.table == \"reference/country-codes\")\n"
        "joined = hit.join(fifa)\n"
        "print(f\"{hit.table} . {hit.column}: {hit.overlap} of {res.query.size} countries \"\n"
        "      f\"({hit.containment:.0%}); joined shape {joined.shape}\")\n"
        "print(\"not matched:\", hit.unmatched[:8])"),
    new_code_cell("print(hit.code(\"fifa\", \"fifa_codes\"))"),
    new_markdown_cell(
        "## 6. A second hop\nThe joined frame carries ISO 3166 alpha-3 codes; searching with "
        "them finds the World Bank GDP table, whose country *names* did not match as well."),
    new_code_cell("res2 = engine.search(fifa_codes, \"ISO3166-1-Alpha-3\", k=5)\nres2"),
    new_code_cell(
        "gdp_hit = next(h for h in res2 if h.table == \"reference/gdp\")\n"
        "with_gdp = gdp_hit.join(fifa_codes, how=\"inner\")\n"
        "latest = (with_gdp.assign(year=with_gdp[\"Year\"].astype(int),\n"
        "                          gdp=with_gdp[\"Value\"].astype(float))\n"
        "          .sort_values(\"year\").groupby(\"country\").tail(1))\n"
        "print(f\"{latest['country'].nunique()} countries with a GDP figure\")\n"
        "latest[[\"country\", \"confederation\", \"tv_audience_share\", \"year\", \"gdp\"]].head()"),
    new_markdown_cell("## 7. Charts (altair, rendered offline)"),
    new_code_cell(
        "import altair as alt\n"
        "alt.Chart(latest).mark_circle(size=60).encode(\n"
        "    x=alt.X(\"gdp:Q\", scale=alt.Scale(type=\"log\"), title=\"GDP (US$, latest year)\"),\n"
        "    y=alt.Y(\"tv_audience_share:Q\", title=\"share of the 2010 World Cup TV audience (%)\"),\n"
        "    color=\"confederation:N\", tooltip=[\"country\", \"year\", \"gdp\", \"tv_audience_share\"],\n"
        ").properties(width=420, height=260)"),
    new_code_cell("from lakejoin_jupyter.charts import coverage_chart, results_chart\n"
                  "results_chart(res) & coverage_chart(hit, fifa)"),
]

write_notebook(cells, "quickstart.ipynb", "quickstart")

"""Writes example_notebooks/quickstart.ipynb (run: python tools/make_quickstart.py).

The notebook is kept as this script so its cells are reviewed as code; the .ipynb is
committed without outputs. tests/test_notebook.py runs it top to bottom and checks them.
"""
from nbformat.v4 import new_code_cell, new_markdown_cell

from notebook_file import write_notebook

BINDER = ("https://mybinder.org/v2/gh/OWNER/lakejoin_jupyter/HEAD"
          "?labpath=example_notebooks%2Fquickstart.ipynb")

cells = [
    new_markdown_cell(
        "# lakejoin quickstart: which tables of the lake join with my DataFrame?\n\n"
        "This notebook indexes the small demo lake that ships with `lakejoin_jupyter` "
        "(FiveThirtyEight tables and public-domain reference tables), searches it with a "
        "DataFrame column, joins the best hit, then uses the joined frame for a second search "
        "(multi-hop augmentation) and draws a chart. Everything runs offline."),
    new_code_cell("%load_ext lakejoin_jupyter\n"
                  "import lakejoin_jupyter as lj\n"
                  "from lakejoin_jupyter.demo import demo_query"),
    new_markdown_cell(
        "## 1. Index the lake\n"
        "The build is a Spark job (local mode here; any Spark master works). `--reuse` opens "
        "the index if it is already there (Binder builds it at launch)."),
    new_code_cell("%lakejoin index --demo --out demo.index --reuse"),
    new_markdown_cell("## 2. A query DataFrame\nFiveThirtyEight's FIFA TV audience table, "
                      "one row per country."),
    new_code_cell("fifa = demo_query()\nfifa.head()"),
    new_markdown_cell(
        "## 3. Search\nWhich lake columns contain the values of `fifa.country`? Values are "
        "compared after normalization (case, spacing, number formats)."),
    new_code_cell("%lakejoin search fifa.country -k 8"),
    new_markdown_cell(
        "## 4. The discovery widget\nPick a DataFrame and column(s), a method, press "
        "**Search**; click a hit to see its matched and unmatched values and a preview, then "
        "**Join**: the joined DataFrame is bound to a variable named after both tables and "
        "the code that reproduces it is inserted below."),
    new_code_cell("%lakejoin ui fifa.country"),
    new_markdown_cell("## 5. The same from Python, with the reproducing code"),
    new_code_cell(
        "engine = lj.open_index(\"demo.index\")\n"
        "res = engine.search(fifa, \"country\", k=8)\n"
        "hit = next(h for h in res if h.table == \"reference/country-codes\")\n"
        "fifa_codes = hit.join(fifa)\n"
        "print(f\"{hit.table} . {hit.column}: {hit.overlap} of {res.query.size} countries \"\n"
        "      f\"({hit.containment:.0%}); joined shape {fifa_codes.shape}\")\n"
        "print(\"not matched:\", hit.unmatched[:8])"),
    new_code_cell("print(hit.code(fifa, name=\"fifa\", variable=\"fifa_codes\"))"),
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
    new_code_cell("from lakejoin_jupyter.ui.charts import coverage_chart, results_chart\n"
                  "results_chart(res) & coverage_chart(hit, fifa)"),
]

write_notebook(cells, "quickstart.ipynb", "quickstart")

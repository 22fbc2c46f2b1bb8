"""The fuzzy join as it is shown (newuser18 D7, D9): values equal after the featurization
at distance exactly 0 (one threshold, not float noise), the widget's estimate tables in
fixed notation with whole counts, and a union's configurations named in the order they
were added, each with the matched values it joined, in the repr, explain(), the widget's
summary and the code's comment."""
import numpy as np
import pandas as pd
import pytest

from lakejoin_jupyter.join import fuzzy

# a city's districts as its register writes them (upper case), and a survey's names
LAKE = ("SAULT-AU-RÉCOLLET|SAINT-SULPICE|AHUNTSIC|BORDEAUX-CARTIERVILLE|OUEST|EST|CENTRE|"
        "DARLINGTON|CÔTE-DES-NEIGES|SNOWDON|NOTRE-DAME-DE-GRÂCE|LOYOLA|DU CANAL|"
        "J.-ÉMERY-PROVOST|FORT-ROLLAND|SAULT-SAINT-LOUIS|CECIL-P.-NEWMAN|PIERRE-FORETIER|"
        "DENIS-BENJAMIN-VIGER|JACQUES-BIZARD|SAINTE-GENEVIÈVE|TÉTREAULTVILLE|"
        "MAISONNEUVELONGUE-POINTE|HOCHELAGA|LOUIS-RIEL|MARIE-CLARAC|OVIDE-CLERMONT|"
        "CLAUDE-RYAN|JOSEPH-BEAUBIEN|ROBERT-BOURASSA|JEANNE-SAUVÉ|BOIS-DE-LIESSE|"
        "CAP-SAINT-JACQUES|MILE-END|DE LORIMIER|JEANNE-MANCE|LA POINTE-AUX-PRAIRIES|"
        "POINTE-AUX-TREMBLES|RIVIÈRE-DES-PRAIRIES|SAINT-ÉDOUARD|ÉTIENNE-DESMARTEAU|"
        "VIEUX-ROSEMONT|MARIE-VICTORIN|CÔTE-DE-LIESSE|NORMAN-MCLAREN|SAINT-LÉONARD-EST|"
        "SAINT-LÉONARD-OUEST|SAINT-HENRIPETITE-BOURGOGNEPOINTE-SAINT-CHARLES|SAINT-PAULÉMARD|"
        "CHAMPLAINL'ÎLE-DES-SOEURS|DESMARCHAIS-CRAWFORD|PETER-MCGILL|SAINT-JACQUES|"
        "SAINTE-MARIE|SAINT-MICHEL|FRANÇOIS-PERRAULT|VILLERAY|PARC-EXTENSION").split("|")
NAMES = ("Bois-de-Liesse|Cap-Saint-Jacques|Sault-au-Récollet|Mile-End|DeLorimier|Jeanne-Mance|"
         "Saint-Sulpice|La Pointe-aux-Prairies|Pointe-aux-Trembles|Rivière-des-Prairies|"
         "Ahuntsic|Saint-Édouard|Étienne-Desmarteau|Vieux-Rosemont|Marie-Victorin|"
         "Bordeaux-Cartierville|Côte-de-Liesse|Norman-McLaren|Saint-Léonard-Est|"
         "Saint-Léonard-Ouest|Saint-HenriPetite-BourgognePointe-Saint-Charles|Saint-PaulÉmard|"
         "ChamplainL'Île-des-Soeurs|Desmarchais-Crawford|Peter-McGill|Saint-Jacques|"
         "Sainte-Marie|Saint-Michel|François-Perrault").split("|")
# 10 places the register lacks and 5 spellings of districts it holds
JUNK = ["Laval", "Longueuil", "Toronto", "Brossard", "Westmount", "Saint-Laurent", "Verdun",
        "Outremont", "Lachine", "Anjou", "St-Sulpice", "Ahuntsik", "Mile End",
        "Cote des Neiges", "Vieux Rosemont"]
NGRAM = [f for f in fuzzy.JOIN_FUNCTIONS if f != "semantic"]
COSINE = [f for f in NGRAM if fuzzy.JOIN_FUNCTIONS[f][2] == "cosine"]


def _join(names, target, functions=NGRAM):
    return fuzzy.fuzzy_join(pd.DataFrame({"nom": LAKE}), pd.DataFrame({"name": names}),
                            on=("nom", "name"), precision_target=target, functions=functions)


def test_values_equal_but_for_case_are_at_distance_zero():
    """28 names equal to their register entry but for case: their cosine distances are 0 up
    to round-off (0 .. 3.7e-08, which the tab showed as seven thresholds). matches() gives
    them distance 0, the tab's curve one row at 0 with all 28, and a threshold of 0 given
    by hand joins all 28 (it joined the 11 at exactly 0)."""
    from lakejoin_jupyter.actions import fuzzy_estimates_table
    upper = {n.upper() for n in LAKE}
    same = [n for n in NAMES if n.upper() in upper]
    assert len(same) == 28                              # by hand: all but DeLorimier
    fj = _join(NAMES, 0.9, COSINE)
    c = fj._cands[fj.function]
    r = [i for i, k in enumerate(fj._rkeys) if k in same]
    assert 0 < c.r_dist[r].max() < fuzzy.ROUNDOFF      # the round-off this is about
    m = fj.matches()
    assert (m.loc[m["right"].isin(same), "distance"] == 0.0).all()
    assert (m.loc[~m["right"].isin(same), "distance"] > 0.1).all()
    curve = fuzzy_estimates_table(fj.curve)
    assert curve["threshold"].iloc[0] == 0.0 and curve["matches"].iloc[0] == 28
    assert (curve["threshold"].iloc[1:] > 0.1).all()
    # the main function at 0 (the union's other configurations kept beside it)
    at0 = fj.matches(0.0)
    assert set(same) <= set(at0["right"]) and fj.estimate(0.0)["matches"] == 28
    assert sorted(at0.loc[at0["function"] == fj.function, "right"]) == sorted(same)


@pytest.fixture(scope="module")
def widget_result():
    from lakejoin_jupyter.actions import get
    from lakejoin_jupyter.engine import Hit

    class FakeEngine:
        def fuzzy_join(self, table, frame, on, precision_target):
            return fuzzy.fuzzy_join(pd.DataFrame({"nom": LAKE}), frame, on=on,
                                    precision_target=precision_target, functions=NGRAM)

    hit = Hit(rank=1, table="mtl/registre", table_id=0, columns=("nom",), column_ids=(1,),
              score=1.0, overlap=28, containment=0.9, jaccard=0.5, method="josie", exact=True,
              query_columns=("name",))
    return get("fuzzy_join")(FakeEngine(), hit, pd.DataFrame({"name": NAMES + JUNK}))


def test_the_widget_estimate_tables_are_in_fixed_notation_with_whole_counts(widget_result):
    """The Fuzzy join tab's "estimate vs threshold" and "join functions" tables: no
    scientific notation (0.000000e+00, 7.002230e-01), thresholds to 3 decimals as the
    summary writes them, matches as integers (29, not 29.0)."""
    fj = widget_result.result
    curve = widget_result.tables["estimate vs threshold"]
    funcs = widget_result.tables["join functions"]
    for df in (curve, funcs):
        page = df.to_html()
        assert "e-0" not in page and "e+0" not in page and "e-1" not in page
        assert str(df["matches"].dtype) == "Int64"
        assert (df["threshold"].dropna() == df["threshold"].dropna().round(3)).all()
    assert curve["threshold"].iloc[0] == 0.0 and curve["matches"].iloc[0] == 31
    assert f"{fj.threshold:.3f}" in widget_result.summary or len(fj.configs) > 1
    shown = dict(zip(funcs["function"], funcs["threshold"]))
    for f, t in zip(fj.functions["function"], fj.functions["threshold"]):
        if t == t and t is not None:
            assert shown[f] == round(float(t), 3)


def _counts_from_matches(fj):
    """Oracle: matched values per (function, threshold) of matches(), in configs order."""
    m = fj.matches()
    got = m.groupby(["function", "threshold"]).size().to_dict()
    return [got.get((f, float(t)), 0) for f, t in fj.configs]


def test_the_configurations_are_named_in_the_order_added_with_their_matches(widget_result):
    """newuser18 D9: at target 0.9 the choice adds char3-idf at 0.771 (34 matches), then two
    configurations that add one each, the last char3-idf again at 1.177: the repr named
    1.177 as *the* threshold and 0.771 as "again". Now every text lists the configurations
    as ``configs`` (explain()) holds them, each with the values it joined (oracle: matches())."""
    fj = _join(NAMES + JUNK, 0.9)
    assert len(fj.configs) > 1 and fj.configs[0][0] == fj.function
    assert fj.threshold == max(t for f, t in fj.configs if f == fj.function)   # the slider's
    assert fj.threshold > fj.configs[0][1]       # the case reported: the main function twice
    counts = _counts_from_matches(fj)
    assert fj.config_matches() == counts and counts[0] == max(counts) == 34
    text = fuzzy.configs_scaled_text(fj.configs, counts=counts)
    assert f"join functions in the order chosen: {text}: " in fj.summary()
    # the repr's one line: those that joined the most first (newuser19 D4)
    line = fuzzy.configs_scaled_text(fj.configs, counts=counts, most=fuzzy.HEADLINE_CONFIGS,
                                     keep=fj.function)
    assert f"join functions, most matched values first: {line}: " in repr(fj)
    first, *_ = fj.configs
    assert repr(fj).index(f"{first[0]} at {first[1]:.3f}") < repr(fj).index(
        f"{fj.function} again at {fj.threshold:.3f}")
    lines = fj.explain().splitlines()[1:1 + len(fj.configs)]
    assert lines[:sum(n > 0 for n in counts)] == [
        f"  {f} at threshold {t:.3f}: {n} matched value{'s' if n != 1 else ''}"
        for (f, t), n in zip(fj.configs, counts) if n]
    comment = next(x for x in fj.code("df", "out").splitlines() if "configuration(s) chosen" in x)
    assert comment.endswith(fuzzy._configs_text(fj.configs))
    pos = [comment.index(f"{f} at {t:.3f}") for f, t in fj.configs]
    assert pos == sorted(pos)
    # the widget: the same configurations (its own run, n-gram functions), the same order
    w = widget_result.result
    assert w.configs == fj.configs
    n = sum(c > 0 for c in w.config_matches())      # newuser20 D10: those that joined a value
    assert f"Chose {n} configurations, in the order the choice added them: " \
           f"{text}, for precision target 90%" in widget_result.summary


def test_a_threshold_at_the_largest_distance_says_it_joins_every_value():
    """At target 0.6 the choice takes char3-idf up to 1.414, the largest distance of unit
    vectors, where every value joins its nearest: the texts say so."""
    fj = _join(NAMES + JUNK, 0.6)
    top = [(f, t) for f, t in fj.configs if t >= fuzzy.distance_range(f) - 5e-4]
    assert top, fj.configs
    made = dict(zip(fj.configs, fj.config_matches()))
    for f, t in top:
        assert (fj._cands[f].r_dist[np.isfinite(fj._cands[f].r_dist)] <= t).all()
        # the summary and the repr's one line name each that joined a value (newuser19 D4,
        # newuser20 D10: one that joined none is only counted, "and N more matched nothing")
        for text in [fj.summary(), repr(fj)] if made[(f, t)] else []:
            assert f"{f} again at {t:.3f} (of 0..1.41, its largest distance: every value " \
                   f"joins its nearest;" in text or f"{f} at {t:.3f} (of 0..1.41, its " \
                   f"largest distance" in text
        assert f"{f} at {t:.3f} (its largest distance)" in fuzzy._configs_text(fj.configs)
    # the repr's one line cuts the long chosen list, the summary names every configuration
    assert len(fj.configs) > fuzzy.HEADLINE_CONFIGS + 1 and "more joining" in repr(fj)
    assert "more joining" not in fj.summary()
    assert all(f" at {t:.3f} (of 0..{fuzzy.distance_range(f):.2f}" in fj.summary()
               for (f, t), n in made.items() if n)
    one = fuzzy.fuzzy_join(pd.DataFrame({"nom": LAKE}), pd.DataFrame({"name": NAMES + JUNK}),
                           on=("nom", "name"), functions=["char3-idf"],
                           threshold=fuzzy.distance_range("char3-idf"))
    assert "threshold 1.414 of 0..1.41 (its largest distance: every value joins its nearest)" \
        in repr(one)
    assert len(one.matches()) == len(NAMES + JUNK)


def test_a_long_chosen_list_is_cut_in_the_repr():
    # at a low target the choice may add dozens of configurations: the repr names the
    # first HEADLINE_CONFIGS, then how many more and what they joined (explain() has all)
    from lakejoin_jupyter.join.fuzzy import HEADLINE_CONFIGS, configs_scaled_text
    configs = [("char3-idf", 0.1 * i) for i in range(1, 10)]
    counts = list(range(9, 0, -1))
    text = configs_scaled_text(configs, counts=counts, most=HEADLINE_CONFIGS)
    assert text.count(" at ") == HEADLINE_CONFIGS
    rest = counts[HEADLINE_CONFIGS:]
    assert text.endswith(f"and {len(rest)} more joining {sum(rest)} matched values "
                         f"(explain() lists them)")
    # a threshold at its function's largest distance is named even past the cut
    far = configs + [("char3-idf", 1.4142135623730951)]
    text = configs_scaled_text(far, counts=counts + [4], most=HEADLINE_CONFIGS)
    assert "at 1.414 (of 0..1.41, its largest distance" in text and "and 4 more joining" in text
    # one more than the limit is named whole (no "and 1 more")
    six = configs_scaled_text(configs[:HEADLINE_CONFIGS + 1], most=HEADLINE_CONFIGS)
    assert "more" not in six and six.count(" at ") == HEADLINE_CONFIGS + 1

"""The threshold a fuzzy join shows (newuser19 D4): a union can hold a configuration that
joined no matched value (every value it reaches is joined, more probably, by another);
the threshold the repr, the widget's slider note and the chart name is the largest of the
main function that joined one, and a join at it as shown (3 decimals) is the chosen join.
The repr's one line names the configurations that joined the most values first."""
import pandas as pd
import pytest

from lakejoin_jupyter.join import fuzzy

# US states and territories (a reference table), and 30 names a user typed: 24 misspelt
# or as written of states it holds, 6 places it lacks
STATES = ("Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|"
          "Georgia|Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|"
          "Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|"
          "Nevada|New Hampshire|New Jersey|New Mexico|New York|North Carolina|North Dakota|"
          "Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|"
          "Rhode Island and Providence Plantations|South Carolina|South Dakota|Tennessee|"
          "Texas|Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming|"
          "District of Columbia|D.C.|American Samoa|Guam|Northern Mariana Islands|"
          "Puerto Rico|U.S. Virgin Islands|Virgin Islands|United States Virgin Islands").split("|")
TYPED = ["Californa", "Texas", "new york", "Massachusets", "N. Carolina", "Pensylvania",
         "Florida ", "Ilinois", "Washington State", "Georgia", "Virgina", "West Virgina",
         "Ohio", "Tennesee", "Arizona", "Mississipi", "Kentuky", "Oregon", "Puerto Rico",
         "Ontario", "Quebec", "Bavaria", "Yukon", "Tasmania", "Sonora", "Nevada", "Missouri",
         "Conneticut", "Wisconson", "Minesota"]


@pytest.fixture(scope="module")
def joins():
    fj = fuzzy.fuzzy_join(pd.DataFrame({"name": STATES}), pd.DataFrame({"st": TYPED}),
                          on=("name", "st"), precision_target=0.9)     # "semantic" included
    return {0.9: fj, 0.7: fj.at_target(0.7)}


def _made(fj):
    """Oracle: matched values per chosen configuration, from matches() (each value with
    the function and the threshold of the configuration that joined it)."""
    got = fj.matches().groupby(["function", "threshold"]).size().to_dict()
    return [got.get((f, float(t)), 0) for f, t in fj.configs]


@pytest.mark.parametrize("target", [0.9, 0.7])
def test_the_threshold_shown_made_matches(joins, target):
    fj = joins[target]
    made = _made(fj)
    assert fj.config_matches() == made
    # the case reported: the main function chosen again higher, joining nothing there
    assert any(f == fj.function and n == 0 and t > fj.threshold
               for (f, t), n in zip(fj.configs, made))
    m = fj.matches()
    own = m[m["function"] == fj.function]
    assert (own["threshold"] == fj.threshold).any()          # it joined values
    assert fj.threshold >= own["distance"].max()
    # the chart's chosen point and rule sit at it
    spec = fj.chart().to_dict()
    rules = [v for k, v in spec.get("datasets", {}).items()
             if v and set(v[0]) == {"x"}]
    assert rules == [[{"x": fj.threshold}]]
    # typed as shown (3 decimals), it joins as the choice did
    typed = round(fj.threshold, 3)
    assert fj.join(threshold=typed).equals(fj.join())
    assert fj.matches(typed).equals(m)
    # explain() lists every configuration: a line per one that joined a value, then the
    # 0-match ones on one line (newuser20 D10)
    some = sum(n > 0 for n in made)
    lines = fj.explain().splitlines()[1:2 + some]
    assert lines == [f"  {f} at threshold {t:.3f}: {n} matched value{'s' if n != 1 else ''}"
                     for (f, t), n in zip(fj.configs, made) if n] + [
        f"  {made.count(0)} more matched nothing: "
        + ", ".join(f"{f} at {t:.3f}" for (f, t), n in zip(fj.configs, made) if not n)]


def test_the_repr_names_the_configurations_that_matched_first(joins):
    fj = joins[0.7]
    made = _made(fj)
    assert made.count(0) > fuzzy.HEADLINE_CONFIGS and sum(n > 0 for n in made) > 5
    line = repr(fj)
    assert "; 0 matched values" not in line    # the 0-match ones are only counted
    zero = made.count(0)
    hidden = sorted((n for n in made if n > 0), reverse=True)[fuzzy.HEADLINE_CONFIGS:]
    assert f"and {len(hidden)} more joining {sum(hidden)} matched values, and {zero} more " \
           f"matched nothing (explain() lists them)" in line


def test_configs_scaled_text_orders_by_matched_values():
    """By hand: 1.2 and 1.3 of f joined nothing; g at 0.4 joined 3, more than f at 0.9."""
    configs = [("char3", 0.5), ("char3", 1.2), ("word-idf", 0.4), ("char3", 1.3),
               ("char3", 0.9)]
    text = fuzzy.configs_scaled_text(configs, counts=[20, 0, 3, 0, 1], most=2, keep="char3")
    assert text == ("char3 at 0.500 (of 0..1.41; 20 matched values), "
                    "word-idf at 0.400 (of 0..1.41; 3 matched values), "
                    "char3 again at 0.900 (of 0..1.41; 1 matched value), "
                    "and 2 more matched nothing (explain() lists them)")
    # without ``most`` (summary): all that joined a value, in the order chosen
    assert fuzzy.configs_scaled_text(configs, counts=[20, 0, 3, 0, 1]).startswith(
        "char3 at 0.500 (of 0..1.41; 20 matched values), word-idf at 0.400")

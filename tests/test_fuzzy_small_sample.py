"""A fuzzy join on a tiny query states the lower bound its choice compared with the target
and the number of pairs it rests on, and warns when too few pairs are there to check the
estimate (new user 13, defect 2: "UK" joined "Ukraine" at an estimated 100% on 7 pairs)."""
from __future__ import annotations

import pandas as pd
import pytest

from lakejoin_jupyter.join import fuzzy

# the countries of FiveThirtyEight's soccer-spi elo_blatter table (England, no United Kingdom)
COUNTRIES = [c.strip() for c in """
    Afghanistan | Albania | Algeria | Andorra | Angola | Anguilla | Antigua and Barbuda
    | Argentina | Armenia | Aruba | Australia | Austria | Azerbaijan | Bahamas | Bahrain
    | Bangladesh | Barbados | Belarus | Belgium | Belize | Benin | Bermuda | Bhutan |
    Bolivia | Bosnia and Herzegovina | Botswana | Brazil | British Virgin Islands |
    Brunei | Bulgaria | Burkina Faso | Burundi | Cambodia | Cameroon | Canada | Cape
    Verde | Cayman Islands | Central African Republic | Chad | Chile | China | Colombia
    | Comoros | Congo | Cook Islands | Costa Rica | Croatia | Cuba | Curacao | Cyprus |
    Czechia | Democratic Republic of Congo | Denmark | Djibouti | Dominica | Dominican
    Republic | East Timor | Eastern Samoa | Ecuador | Egypt | El Salvador | England |
    Equatorial Guinea | Eritrea | Estonia | Ethiopia | Faroe Islands | Fiji | Finland |
    France | Gabon | Gambia | Georgia | Germany | Ghana | Greece | Grenada | Guam |
    Guatemala | Guinea | Guinea-Bissau | Guyana | Haiti | Honduras | Hong Kong | Hungary
    | Iceland | India | Indonesia | Iran | Iraq | Ireland | Israel | Italy | Ivory Coast
    | Jamaica | Japan | Jordan | Kazakhstan | Kenya | Kuwait | Kyrgyzstan | Laos |
    Latvia | Lebanon | Lesotho | Liberia | Libya | Liechtenstein | Lithuania |
    Luxembourg | Macao | Macedonia | Madagascar | Malawi | Malaysia | Maldives | Mali |
    Malta | Mauritania | Mauritius | Mexico | Moldova | Mongolia | Montenegro |
    Montserrat | Morocco | Mozambique | Myanmar | Namibia | Nepal | Netherlands | New
    Caledonia | New Zealand | Nicaragua | Niger | Nigeria | North Korea | Northern
    Ireland | Norway | Oman | Pakistan | Palestine | Panama | Papua New Guinea |
    Paraguay | Peru | Philippines | Poland | Portugal | Puerto Rico | Qatar | Romania |
    Russia | Rwanda | Saint Kitts and Nevis | Saint Lucia | Saint Vincent and the
    Grenadines | San Marino | Sao Tome e Principe | Saudi Arabia | Scotland | Senegal |
    Serbia | Seychelles | Sierra Leone | Singapore | Slovakia | Slovenia | Solomon
    Islands | Somalia | South Africa | South Korea | South Sudan | Spain | Sri Lanka |
    Sudan | Surinam | Swaziland | Sweden | Switzerland | Syria | Tahiti | Taiwan |
    Tajikistan | Tanzania | Thailand | Togo | Tonga | Trinidad and Tobago | Tunisia |
    Turkey | Turkmenistan | Turks and Caicos | US Virgin Islands | Uganda | Ukraine |
    United Arab Emirates | United States | Uruguay | Uzbekistan | Vanuatu | Venezuela |
    Vietnam | Wales | Western Samoa | Yemen | Zambia | Zimbabwe
""".split("|")]
QUERY = ["Untied States", "Germny", "Brasil", "Japan", "South Korea", "Ivory Coast", "UK"]


@pytest.fixture(scope="module")
def users_join():
    left = pd.DataFrame({"country": COUNTRIES})
    right = pd.DataFrame({"country": QUERY, "v": range(7)})
    return fuzzy.fuzzy_join(left, right, on=("country", "country"), precision_target=0.9)


def test_the_summary_states_the_bound_the_chooser_computed(users_join):
    fj = users_join
    assert len(COUNTRIES) == 209 and fj.ok
    avg, bound, tp = fuzzy.union_rating(fj._cands, fj.configs)
    # the union rated as the chooser rated it: its estimate and true matches are the join's
    assert avg == pytest.approx(fj.estimated_precision)
    assert tp / len(QUERY) == pytest.approx(fj.estimated_recall)
    assert bound >= fj.precision_target - 1e-12         # what made the choice
    assert fj.bound() == pytest.approx(bound)
    head = fj.summary().splitlines()[0]
    assert (f"estimated precision {fj.estimated_precision:.1%} on 7 matched value pairs "
            f"(the model's lower bound {bound:.1%}, one-sided 95%)") in head


def test_too_few_pairs_to_check_the_estimate_is_a_warning(users_join):
    fj = users_join
    warning = fj.sample_warning()
    assert warning and "rests on 7 matched value pairs, too few to check it" in warning
    assert f"the precision is above {0.05 ** (1 / 7):.0%} (95% confidence)" in warning
    assert "65%" in warning
    assert "Warning: The estimate rests on 7 matched value pairs" in fj.summary()
    assert any("too few to check it" in w for w in fj.explain().splitlines())


@pytest.mark.parametrize("n,target,warned", [(28, 0.9, True), (29, 0.9, False),
                                             (2, 0.5, True), (5, 0.5, False),
                                             (500, 1.0, True), (0, 0.9, False)])
def test_the_sample_check_by_hand(users_join, monkeypatch, n, target, warned):
    """n pairs, all right, show a precision of at least 0.05 ** (1/n) at 95% (one-sided):
    0.05 ** (1/28) = 0.8985 < 0.9 <= 0.05 ** (1/29) = 0.9019; 0.05 ** (1/4) = 0.473 <
    0.5 <= 0.05 ** (1/5) = 0.549; no sample shows 100%; no pair, nothing to check."""
    fj = users_join
    monkeypatch.setattr(fuzzy.FuzzyJoin, "n_pairs", lambda self, threshold=None: n)
    monkeypatch.setattr(fj, "precision_target", target)
    assert (fj.sample_warning() is not None) == warned


def test_a_given_threshold_states_the_main_functions_bound(users_join):
    fj = users_join
    t = fj.threshold
    curve = fj._curves[fj.function]
    row = curve[(curve["threshold"] - t).abs() < 1e-12]
    assert len(row) == 1
    assert fj.bound(t) == pytest.approx(float(row["est_bound"].iloc[0]))
    given = fuzzy.fuzzy_join(pd.DataFrame({"country": COUNTRIES}),
                             pd.DataFrame({"country": QUERY}), on="country",
                             functions=[fj.function], threshold=t)
    assert given.bound() == pytest.approx(fj.bound(t))
    assert f"lower bound {given.bound():.1%}" in given.summary().splitlines()[0]


def test_the_two_bounds_say_which_is_which(users_join):
    """New user 14: "lower bound 100%, one-sided 95%" and "at least 61% only (one-sided
    95%)" in one paragraph read as two answers to one question. The first is the model's
    bound, the second what a check by hand could show: each says so."""
    fj = users_join
    head, warning = fj.summary().splitlines()[:2]
    assert f"(the model's lower bound {fj.bound():.1%}, one-sided 95%)" in head
    assert ("finding all 7 pairs right would prove only that the precision is above 65%"
            in warning)
    assert "the model's lower bound holds only as far as that assumption does" in warning


def test_equal_pairs_one_bound_and_what_a_check_could_prove():
    """New user 21: 12 pairs equal after normalization read "the model's lower bound 100.0%,
    one-sided 95%" and, below, "a precision of at least 78% only (one-sided 95%)": two lower
    bounds for one join. The warning's figure is now what a check by hand of 12 pairs could
    prove, said not to be this join's precision, and no second "lower bound" or "one-sided"
    in it; the summary, repr and explain carry the same text."""
    zones = ("Africa/Windhoek America/Los_Angeles America/New_York America/Santiago "
             "America/Sao_Paulo Asia/Kolkata Asia/Tokyo Australia/Sydney Europe/Berlin "
             "Europe/London Europe/Paris Pacific/Auckland").split()
    others = ("Abidjan Accra Addis_Ababa Algiers Asmara Bamako Bangui Banjul Bissau Blantyre "
              "Brazzaville Bujumbura Cairo Casablanca Ceuta Conakry Dakar Dar_es_Salaam "
              "Djibouti Douala El_Aaiun Freetown Gaborone Harare Johannesburg Juba Kampala "
              "Khartoum Kigali Kinshasa Lagos Libreville Lome Luanda").split()
    left = pd.DataFrame({"tz": zones + [f"Africa/{c}" for c in others]})
    right = pd.DataFrame({"tz": [z.upper() + " " for z in zones]})   # equal once normalized
    fj = fuzzy.fuzzy_join(left, right, on="tz", precision_target=0.9)
    assert fj.ok and fj.n_pairs() == 12
    warning = fj.sample_warning()
    level = f"{0.05 ** (1 / 12):.0%}"
    assert level == "78%"
    assert (f"finding all 12 pairs right would prove only that the precision is above 78% "
            f"(95% confidence), short of the target 90%; that is the most a check of so few "
            f"pairs can prove, not an estimate of this join's precision") in warning
    assert "one-sided" not in warning and "at least 78%" not in warning
    summary = fj.summary()
    head = summary.splitlines()[0]
    assert summary.count("one-sided") == 1 and "one-sided 95%)" in head
    assert f"(the model's lower bound {fj.bound():.1%}, one-sided 95%)" in head
    assert f"Warning: {warning[0].upper()}{warning[1:]}" in summary
    assert f"Warning: {warning[0].upper()}{warning[1:]}" in fj.explain()
    assert f"the model's lower bound {fj.bound():.1%}" in repr(fj)


def test_the_chart_draws_the_bound_the_choice_compares(users_join):
    """The chart draws the lower bound beside the estimate and says the choice rule, so a
    threshold whose estimate lies above the target but was not chosen shows why."""
    fj = users_join
    spec = fj.chart().to_dict()
    rows = [r for rows in spec["datasets"].values() for r in rows
            if r.get("estimate") == "precision's lower bound"]
    curve = fj.curve
    assert [r["threshold"] for r in rows] == pytest.approx(curve["threshold"].tolist())
    assert [r["value"] for r in rows] == pytest.approx(curve["est_bound"].clip(lower=0).tolist())
    assert "chosen: the most recall whose lower bound reaches the target" in \
        spec["title"]["subtitle"]
    given = fj.chart(fj.threshold)          # a threshold given by the join: the same rule
    assert "lower bound" in str(given.to_dict()["title"]["subtitle"])

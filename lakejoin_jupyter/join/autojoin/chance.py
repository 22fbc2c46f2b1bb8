"""How often an output meets a key of a set of short codes by chance, and what that rate
decides (an extension of thesis §4.4.1-4.4.2, whose independent evidence, rare q-grams,
short codes do not have; docs/algorithms/autojoin.md, deviations 47-48).

A key set holding n_L keys of L characters, written with the characters A_L,i at each
position i, fills n_L of prod_i |A_L,i| slots: an output that fits those characters and a
program gives by no rule meets a key with probability p_L = n_L / prod_i |A_L,i| (249
two-letter country codes: 0.37; 5-letter words: about 0); an output of another length or
character meets none. A length with fewer than ``MIN_KEYS`` keys has no rate: a few keys
are their own characters at each position, and their slots would be counted as full. Uses:

- a program joining every key of another plus u more wins only when u chance hits among
  the outputs giving them are unlikely (Poisson-binomial tail at most ``ALPHA``);
- the precision of a join of short codes: its wrong outputs meet keys at q and miss at
  1 - q, so m rows whose output is no key imply m q / (1 - q) rows joined wrongly; q is the
  rate of the outputs' own characters, each position drawn apart from the others (the
  outputs permuted per position), never below p: outputs and keys made from the first
  letters of names share their letters, which p takes as even (deviation 48);
  with misses, distinct inputs meeting one key beyond one per key are wrong where a 1:1
  join is possible (deviation 54: the permutation misses how a code's letters go together);
- a transformation hit whose distinct joined keys are not above chance is a coincidence;
- so is one whose outputs are numbers of a small range (a day cut out of dates) that the
  other side's numbers fill: n distinct numbers drawn from a range of N holding c keys
  meet a hypergeometric count of them (:func:`range_tail`);
- so is one whose outputs are dates of the keys' shape that meet them no more often than
  random field combinations within the keys' span would, and less often than a rule's
  valid dates would (:func:`dates_by_chance`): a dense date column fills the per-position
  rate's slots far above p_L, so its dates are measured in their own (y, m, d) space.
"""
from __future__ import annotations

import math
import re
from collections import defaultdict

ALPHA = 0.05       # a gain of keys whose chance tail is above this is not evidence
SHORT_CODE = 3     # keys of at most this many characters are short codes (the estimate)
MIN_RATE = 1e-3    # a length whose chance rate is under this is never met by chance
MIN_KEYS = 20      # a length with fewer keys has no chance rate
# a range of at most this many integers is small: the fields of a date or a time (a day, a
# month, an hour, a minute, the year of one century), an age; identifiers span more
SMALL_SPAN = 100
_INTEGER = re.compile(r"-?[0-9]+")


def code_rates(keys) -> dict:
    """Per key length L: (p_L, the characters of the keys of length L at each position)."""
    by_len: dict = defaultdict(set)
    for k in keys:
        if k:
            by_len[len(k)].add(k)
    out = {}
    for n, ks in by_len.items():
        if len(ks) < MIN_KEYS:
            continue
        at = tuple(frozenset(k[i] for k in ks) for i in range(n))
        slots = 1.0
        for chars in at:
            slots *= len(chars)
        out[n] = (len(ks) / slots, at)
    return out


def hit_rate(output, rates: dict) -> float:
    """The chance that ``output``, given by no rule, is a key (0 for another shape)."""
    if not output:
        return 0.0
    got = rates.get(len(output))
    if got is None or got[0] < MIN_RATE:
        return 0.0
    p, at = got
    return min(p, 1.0) if all(ch in chars for ch, chars in zip(output, at)) else 0.0


def tail(rates: list, u: int) -> float:
    """P(at least ``u`` of independent events with these probabilities happen)."""
    if u <= 0:
        return 1.0
    rates = [p for p in rates if p > 0]
    if len(rates) < u:
        return 0.0
    below = [1.0] + [0.0] * (u - 1)          # P(exactly j so far), j < u
    for p in rates:
        for j in range(u - 1, 0, -1):
            below[j] = below[j] * (1 - p) + below[j - 1] * p
        below[0] *= 1 - p
    return max(0.0, 1.0 - sum(below))


def chance_gain(outputs_a: list, outputs_b: list, keys: set, rates: dict) -> bool:
    """Does program A (``outputs_a``, one per source row) join every key program B joins
    and more, the more keys being no more than chance hits among A's distinct outputs on
    the rows where the two differ would give (tail above ``ALPHA``)?"""
    ka = {o for o in outputs_a if o is not None and o in keys}
    kb = {o for o in outputs_b if o is not None and o in keys}
    gained = len(ka) - len(kb)
    if gained <= 0 or not kb <= ka:
        return False
    tries = {a for a, b in zip(outputs_a, outputs_b) if a is not None and a != b
             and a not in kb}
    return tail([hit_rate(o, rates) for o in tries], gained) > ALPHA


def short_codes(outputs, keys: set, rates: dict) -> bool:
    """Are the keys the outputs join codes of at most ``SHORT_CODE`` characters, met by
    chance at a rate of ``MIN_RATE`` or more?"""
    joined = [o for o in outputs if o is not None and o in keys]
    return bool(joined) and all(len(o) <= SHORT_CODE and hit_rate(o, rates) > 0
                                for o in joined)


def shuffle_rates(outputs, keys: set, rates: dict) -> dict:
    """Per key length L with a chance rate: the share of keys among the strings made by
    drawing the character at each position from the outputs of that length that fit the
    keys' characters (``hit_rate`` above 0), one row's output each, apart from the other
    positions: sum over the keys k of prod_i f_i(k_i), f_i the outputs' characters at
    position i by row (a permutation of the outputs per position; p_L when they are even)."""
    fit: dict = defaultdict(list)
    for o in outputs:
        if o is not None and hit_rate(o, rates) > 0:
            fit[len(o)].append(o)
    out = {}
    for n, outs in fit.items():
        counts = [defaultdict(int) for _ in range(n)]
        for o in outs:
            for i, ch in enumerate(o):
                counts[i][ch] += 1
        q = 0.0
        for k in keys:
            if len(k) == n:
                share = 1.0
                for i, ch in enumerate(k):
                    share *= counts[i].get(ch, 0) / len(outs)
                q += share
        out[n] = q
    return out


def miss_precision(outputs, keys: set, rates: dict, inputs=None) -> float | None:
    """The share of joined rows that are right, if a program's wrong outputs meet keys at
    the rate of its outputs' characters (:func:`shuffle_rates`, never below the chance
    rate): each row whose output fits the keys' characters but is no key stands for
    q / (1 - q) rows joined wrongly (None when no row is joined). ``inputs`` (the program's
    input per row): where some output misses and the distinct inputs joined are no more
    than the keys (a 1:1 join is possible), the rows beyond one distinct input per key are
    wrong, if the rate says fewer (:func:`folded_rows`, deviation 54)."""
    outputs = list(outputs)
    shuffled = shuffle_rates(outputs, keys, rates)
    joined = wrong = 0.0
    missed = False
    for o in outputs:
        if o is None:
            continue
        if o in keys:
            joined += 1
        else:
            p = hit_rate(o, rates)
            if p > 0:
                missed = True
                q = min(max(p, shuffled[len(o)]), 1.0)
                wrong += q / (1 - q) if q < 1 else 1.0
    if not joined:
        return None
    if missed and inputs is not None:
        wrong = max(wrong, folded_rows(outputs, keys, inputs))
    return max(0.0, 1.0 - wrong / joined)


def folded_rows(outputs, keys: set, inputs) -> int:
    """Joined rows beyond one distinct input per key (a key met by r distinct inputs has at
    most one of them right in a 1:1 join: r - 1 wrong, each over as many rows as hold it),
    when the distinct inputs joined are no more than the keys; 0 otherwise (more distinct
    inputs than keys: the join is N:1, a state's code for each of its towns)."""
    by_key: dict = defaultdict(lambda: defaultdict(int))
    for o, v in zip(outputs, inputs):
        if o is not None and o in keys:
            by_key[o][v] += 1
    if sum(len(vs) for vs in by_key.values()) > len(keys):
        return 0
    return sum(sum(vs.values()) - max(vs.values()) for vs in by_key.values())


def chance_precision(outputs, keys: set, inputs=None) -> float | None:
    """The estimated precision of a join of short codes (:func:`miss_precision`; ``inputs``:
    the program's input per row), None unless every key the outputs join is a short code
    with a chance rate."""
    outputs = list(outputs)
    rates = code_rates(keys)
    return miss_precision(outputs, keys, rates, inputs) \
        if short_codes(outputs, keys, rates) else None


def above_chance(outputs: dict, keys: set, rates: dict | None = None) -> bool:
    """Do the distinct ``outputs`` meet more of ``keys`` than chance would (tail at most
    ``ALPHA``)? Outputs of no short-code shape are never met by chance. An output whose
    shape the keys fill (rate 1: "X-000".."X-199") tells a rule from chance in no way and is
    left out of the test; when no other output meets a key, the hit stands."""
    rates = code_rates(keys) if rates is None else rates
    told = [(o, hit_rate(o, rates)) for o in outputs]
    told = [(o, p) for o, p in told if p < 1.0]
    hit = sum(1 for o, _ in told if o in keys)
    return hit == 0 or tail([p for _, p in told], hit) <= ALPHA


def integers(values) -> list:
    """The values written as integers ("7", "-3"), as ints."""
    return [int(v) for v in values if v is not None and _INTEGER.fullmatch(v)]


def range_tail(outputs, keys, span_limit: int = SMALL_SPAN) -> float | None:
    """P(at least as many of the distinct integer ``outputs`` meet ``keys`` as do), were
    the outputs as many distinct integers drawn at random from their range [lo, hi] (of N
    integers, c of them keys: a hypergeometric tail). None when the test does not apply:
    an output that meets a key is not an integer, no output meets one, or the range holds
    more than ``span_limit`` integers (numbers of a wide range, ids, are told apart by
    their values). A day of the month cut out of one month of dates (1..31) against a
    column holding every number from 1 to 31 gives 1: any 31 numbers would meet as many."""
    outs = set(integers(outputs))
    met = [o for o in outputs if o is not None and o in keys]
    if not met or not outs or any(not _INTEGER.fullmatch(o) for o in met):
        return None
    lo, hi = min(outs), max(outs)
    span = hi - lo + 1
    if span > span_limit:
        return None
    c = sum(1 for k in set(integers(keys)) if lo <= k <= hi)
    n, h = len(outs), len(set(int(o) for o in met))
    total = math.comb(span, n)
    return sum(math.comb(c, j) * math.comb(span - c, n - j)
               for j in range(h, min(n, c) + 1)) / total


# dates written as three numbers with one separator: "18.10.2024", "3/3/24", "2024-10-18"
_DATE_TEXT = re.compile(r"([0-9]{1,4})([./-])([0-9]{1,4})\2([0-9]{1,4})")
# field order of a date as (position of the year, the month, the day)
DATE_ORDERS = ((0, 1, 2), (2, 1, 0), (2, 0, 1))       # y-m-d, d.m.y, m/d/y
DATE_SHARE = 0.95    # a separator's keys are dates when this share reads as dates in one order
RULE_RATE = 0.99     # a rule's outputs in a dense date space meet keys at most this often
DATE_SPACE = 2_000_000   # field combinations counted at most per date shape
_MONTH_DAYS = (0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _date_fields(text: str):
    """(separator, field widths, field numbers) of a date-like text, or None."""
    m = _DATE_TEXT.fullmatch(text) if text else None
    if m is None:
        return None
    f = (m.group(1), m.group(3), m.group(4))
    return m.group(2), tuple(len(x) for x in f), tuple(int(x) for x in f)


def _ymd(widths, nums, order):
    """(year, month, day) of date fields in ``order`` when the widths fit it (a year of 2
    or 4 digits, a month and day of 1 or 2), else None."""
    y, m, d = order
    if widths[y] not in (2, 4) or widths[m] > 2 or widths[d] > 2:
        return None
    return nums[y], nums[m], nums[d]


def _valid(y: int, m: int, d: int) -> bool:
    return 1 <= m <= 12 and 1 <= d <= _MONTH_DAYS[m] and \
        (m != 2 or d < 29 or ((y if y >= 100 else 2000 + y) % 4 == 0))


def date_spaces(keys) -> dict:
    """Per date shape of the keys (separator, field widths) with ``MIN_KEYS`` keys or more:
    (field order, the keys' first and last date as y*10^4 + m*100 + d, their dates). The
    order is the one reading the most of a separator's keys as valid dates (at least
    ``DATE_SHARE`` of them), year-month-day first in ties."""
    by_sep: dict = defaultdict(list)
    for k in keys:
        got = _date_fields(k) if k else None
        if got is not None:
            by_sep[got[0]].append(got[1:])
    out = {}
    for sep, fields in by_sep.items():
        counts = [sum(1 for w, n in fields if (t := _ymd(w, n, o)) and _valid(*t))
                  for o in DATE_ORDERS]
        best = max(range(len(DATE_ORDERS)), key=lambda i: (counts[i], -i))
        if counts[best] < DATE_SHARE * len(fields):
            continue
        order = DATE_ORDERS[best]
        shapes: dict = defaultdict(set)
        for w, n in fields:
            t = _ymd(w, n, order)
            if t and _valid(*t):
                shapes[w].add(t[0] * 10_000 + t[1] * 100 + t[2])
        for w, codes in shapes.items():
            if len(codes) >= MIN_KEYS:
                out[(sep, w)] = (order, min(codes), max(codes), codes)
    return out


def _space_rates(tries: list, lo: int, hi: int, codes: set) -> tuple | None:
    """(chance rate, rule rate) of outputs of one date shape inside the keys' span
    (``tries``: their (y, m, d)): the field combinations within the outputs' ranges of
    year, month and day that fall in the span [lo, hi] make the space a random output of
    the program's shape is drawn from; the keys among them over the space is the chance
    rate, over its valid dates the rate a rule's outputs meet keys at."""
    ys, ms, ds = (range(min(t[i] for t in tries), max(t[i] for t in tries) + 1)
                  for i in range(3))
    if len(ys) * len(ms) * len(ds) > DATE_SPACE:
        return None
    import numpy as np
    Y, M, D = np.meshgrid(np.array(ys), np.array(ms), np.array(ds), indexing="ij")
    code = (Y * 10_000 + M * 100 + D).ravel()
    inside = (code >= lo) & (code <= hi)
    space = int(inside.sum())
    Yi, Mi, Di = Y.ravel()[inside], M.ravel()[inside], D.ravel()[inside]
    month_days = np.array(_MONTH_DAYS)[np.clip(Mi, 0, 12)]
    year = np.where(Yi >= 100, Yi, 2000 + Yi)
    leap = (year % 4 == 0)
    valid = (Mi >= 1) & (Mi <= 12) & (Di >= 1) & (Di <= month_days) & \
        ((Mi != 2) | (Di < 29) | leap)
    held = int(np.isin(code[inside], np.fromiter(codes, dtype=np.int64)).sum())
    if not space or not held:
        return None
    return held / space, held / max(int(valid.sum()), 1)


def dates_by_chance(outputs, keys: set, spaces: dict | None = None) -> bool:
    """Do a program's distinct ``outputs`` of the keys' date shapes meet the keys no more
    often than outputs drawn at random from those shapes would, while a rule's outputs
    would meet more? Per date shape (:func:`date_spaces`), the outputs inside the keys'
    span are tried: each meets a key at the chance rate of :func:`_space_rates` (the
    share of keys among the field combinations the outputs range over: a daily table of
    two years holds 61 of the 120 "minute.hour.2024" combinations of hours 10-11) and, were
    the program a rule, at its rule rate (the keys among the valid dates there, at most
    ``RULE_RATE``: a rule writes no 45th day). Chance when the hits are not above the
    chance rates' tail (``ALPHA``) and are below the rule rates' lower tail (``ALPHA``).
    A dense key space fills both rates: its hits tell nothing, and the misses decide."""
    dated = [(o, got) for o in outputs if o and (got := _date_fields(o)) is not None]
    if not any(o in keys for o, _ in dated):
        return False                        # no date met: the keys need not be read
    if spaces is None:
        seps = {got[0] for _, got in dated}
        spaces = date_spaces(k for k in keys if k and k[-1].isdigit() and
                             any(sep in k for sep in seps))
    if not spaces:
        return False
    tried: dict = defaultdict(list)
    for o, got in dated:
        if (got[0], got[1]) not in spaces:
            continue
        order, lo, hi, _codes = spaces[(got[0], got[1])]
        t = _ymd(got[1], got[2], order)
        if t is not None and lo <= t[0] * 10_000 + t[1] * 100 + t[2] <= hi:
            tried[(got[0], got[1])].append((t, o in keys))
    chance, rule, hits = [], [], 0
    for shape, got in tried.items():
        rates = _space_rates([t for t, _ in got], spaces[shape][1], spaces[shape][2],
                             spaces[shape][3])
        if rates is None:
            continue
        chance += [rates[0]] * len(got)
        rule += [min(rates[1], RULE_RATE)] * len(got)
        hits += sum(1 for _, met in got if met)
    if not hits:
        return False
    above = tail(chance, hits) <= ALPHA
    below_rule = 1.0 - tail(rule, hits + 1) <= ALPHA
    return not above and below_rule

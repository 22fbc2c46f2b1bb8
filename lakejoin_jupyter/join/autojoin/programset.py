"""Ordered program sets for rows that need different programs, and the estimated precision
of a learned transformation (extensions of thesis §4.4.2, Algorithm 5).

The thesis keeps the one program joining the most target keys and names the case this
leaves behind ("duke cs profs": the join needs more than one transformation). Here the
learner runs again on the residual: the row pairs (§4.4.1; recomputed among the unjoined
rows where few are left) whose source row and key the current set leaves unjoined. Each
program learned there, and each of the first round, is tried as a branch of a
:class:`~.dsl.ProgramSet`: after the set, before it, or before it under a guard learned
from the rows each branch joins (residual sets also within one delimiter form of the cell).
The branch adding the most keys is kept if it adds at least ``min_gain`` keys (and
``min_gain_fraction`` of them), some beyond its own examples, and gives a key to more rows
than it re-keys (N:1: keys can be gained by moving joined rows); branches that never fire
are dropped; up to ``max_programs`` branches. A single program learned there (also from
the pairs of unjoined source rows to keys already joined, N:1) that joins every key the
set joins, through more source rows, replaces the set; a branch adding no key may join more
rows onto joined keys, none re-keyed, most confirmed by row pairs, e.g. under a guard on a
value's last word ("XValue" onto "x", 38); a row onto a key the set joins through a row
whose own 1:1 evidence names it, or a pair through a piece of another number, confirms
nothing (41, 54). Estimated precision: among the joined rows (not taught) that also have
a 1-to-1 match of a 6+ character q-gram or of a rare token bag, the share whose matched
row holds the derived key (a value's evidence holds for its every row; None under 3
distinct observations, 50); N:1 evidence checks only keys joined through 2+ rows (39); in
a 1:1 join, evidence naming only keys other rows' evidence confirms checks nothing (60);
bags of one size that differ contradict a row where bags pair the join, a count over every
joined row (56); a key part's whole values' evidence names the derived key alone (51). An
unjoined row's pair is taught with the set's own examples of other keys (44), as is a
residual pair of a source form they lack (63), only to replace the set. A replacement's new
rows are mostly confirmed by row pairs (46); a refutation counts one evidence and key once
(49); a guard's last word ends 2 distinct inputs (53). Deviations: docs/algorithms/autojoin.md.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from .chance import chance_gain, code_rates
from .dsl import PATTERN_KINDS, Guard, ProgramSet, pattern_of
from .learn import (Candidate, Example, LearnSettings, distinct_row_pairs, example_sets,
                    try_learn_transform)
from .pairs import ColumnValues, PairGroup, find_pair_group, fold, signatures


WORD_GUARD_SUPPORT = 2   # distinct inputs a "last word" guard's word must be wanted by (53)
FORM_PAIRS = 2     # residual pairs per source form taught with the set's examples (63)
N1_MIXED = 2       # rows per joined key from which a set is N:1 for mixed example sets
EVIDENCE_Q = 6     # q-grams this long (Prop. 4.4.1's q) or token bags are evidence of a pair
MIN_EVIDENCE = 3   # distinct observations an estimate needs (1 or 2 are chance matches' size)


@dataclass
class SetSettings:
    max_programs: int = 3          # branches of a program set (1: the thesis's single program)
    min_gain: int = 3              # keys a new branch must add ...
    min_gain_fraction: float = 0.02   # ... and at least this fraction of the target's keys
    residual_sets: int = 24        # example sets learned from the residual pairs per round
    pattern_sets: int = 16         # ... and from its pairs grouped by the source cell's
                                   # delimiters (one word / two words), round-robin
    repair_groups: int = 2         # column pairs whose row pairs may be recomputed on the residual
    consider: int = 12             # first-round programs tried as branches (best first)
    rejoin_sets: int = 8           # example sets learned from unjoined source rows' pairs to
                                   # keys already joined (N:1), per round (deviation 33)
    max_replacements: int = 2      # times the set may be replaced by one such program
    mixed_sets: int = 4            # example sets of one such pair and the set's own examples
                                   # (a form for both, deviation 44), per round
    residual_mixed_sets: int = 4   # ... of one residual pair (unjoined key) and them (63)


@dataclass
class Scored:
    """A program (or set) with its outputs on the source sample and what they join."""
    program: object
    outputs: list
    coverage: int
    joined_rows: int
    examples: dict = field(default_factory=dict)     # branch program -> its examples


def branches_of(program) -> tuple:
    return program.branches if isinstance(program, ProgramSet) else ((None, program),)


def as_transformation(branches: tuple):
    return branches[0][1] if len(branches) == 1 and branches[0][0] is None else ProgramSet(branches)


def score(program, outputs: list, keys: set, examples: dict | None = None) -> Scored:
    joined = [o for o in outputs if o is not None and o in keys]
    branches = {p for _g, p in branches_of(program)}
    kept = {p: ex for p, ex in (examples or {}).items() if p in branches}
    return Scored(program, outputs, len(set(joined)), len(joined), kept)


def outputs_of(program, cells: dict, n: int) -> list:
    return program.evaluate({c: cells[c] for c in program.columns}, n)


def _guard(column: str, kind: str, cells: list, positive: list, negative: list,
           inputs: list | None = None):
    """The patterns of ``column`` that more rows want the new branch for (``positive``) than
    against it (``negative``); None when there is none. A last word must be wanted by rows
    of ``WORD_GUARD_SUPPORT`` distinct ``inputs`` (the branch program's input per row)."""
    pos = Counter(pattern_of(cells[i], kind) for i in positive)
    neg = Counter(pattern_of(cells[i], kind) for i in negative)
    least = WORD_GUARD_SUPPORT if kind == "last word" else 1
    inputs = inputs if inputs is not None else cells
    held = Counter(p for p, _ in {(pattern_of(cells[i], kind), inputs[i]) for i in positive})
    chosen = frozenset(p for p, c in pos.items()
                       if p is not None and c > neg.get(p, 0) and held[p] >= least)
    return Guard(column, kind, chosen) if chosen else None


def combine(current: Scored, new: Scored, keys: set, cells: dict, n: int) -> list:
    """The ways to add ``new`` to the ordered set ``current``, each as a Scored: after it,
    before it, and before it under a guard on each column either reads."""
    cur, out = current.outputs, new.outputs
    options = []
    after = [c if c is not None else o for c, o in zip(cur, out)]
    options.append((branches_of(current.program) + branches_of(new.program), after))
    before = [o if o is not None else c for c, o in zip(cur, out)]
    options.append((branches_of(new.program) + branches_of(current.program), before))
    positive = [i for i in range(n) if out[i] in keys and cur[i] not in keys]
    negative = [i for i in range(n) if cur[i] in keys and out[i] is not None and out[i] != cur[i]]
    if positive and negative and len(branches_of(new.program)) == 1:
        columns = list(dict.fromkeys(new.program.columns + current.program.columns))
        inputs = [tuple(cells[c][i] for c in new.program.columns) for i in range(n)]
        for column in columns:
            for kind in PATTERN_KINDS:
                g = _guard(column, kind, cells[column], positive, negative, inputs)
                if g is None:
                    continue
                guarded = [o if o is not None and g.test(cells[column][i]) else c
                           for i, (c, o) in enumerate(zip(cur, out))]
                options.append((((g, new.program),) + branches_of(current.program), guarded))
    examples = {**current.examples, **new.examples}
    return [score(as_transformation(b), o, keys, examples) for b, o in options]


def _gains_rows(current: list, option: list, keys: set) -> bool:
    """Whether more rows get a key they did not have (joined by ``option``, not by
    ``current``) than rows lose the key they had (joined by both, to different keys): in
    an N:1 join a branch can add keys while re-keying rows that were already right."""
    gained = changed = 0
    for c, o in zip(current, option):
        if o is None or o not in keys:
            continue
        if c is None or c not in keys:
            gained += 1
        elif c != o:
            changed += 1
    return gained > changed


def prune(option: Scored, keys: set, cells: dict, n: int, rows: bool = False) -> Scored:
    """Drop the branches whose removal joins no fewer keys (a branch that another, earlier
    one always pre-empts on the sample); ``rows``: no fewer keys and rows."""
    branches = branches_of(option.program)
    i = 0
    while len(branches) > 1 and i < len(branches):
        rest = branches[:i] + branches[i + 1:]
        program = as_transformation(rest)
        trial = score(program, outputs_of(program, cells, n), keys, option.examples)
        if trial.coverage >= option.coverage and (
                not rows or trial.joined_rows >= option.joined_rows):
            branches, option = rest, trial
        else:
            i += 1
    return option


def residual_groups(groups: list, target_column: str, joined: list, joined_keys: set,
                    tcells: list, src_cells: dict, settings) -> list:
    """The candidate pairs among the rows the current set leaves unjoined: the first
    round's pairs restricted to them and, for the ``repair_groups`` best column pairs left
    with fewer than top-k pairs, Algorithm 3 run again on the unjoined rows only (a q-gram
    shared by joined rows may be rare among the others)."""
    out = []
    open_rows = [not j for j in joined]
    tkeep = [v if v is not None and v not in joined_keys else None for v in tcells]
    t_vals = ColumnValues.from_cells(target_column, tkeep)
    repair = settings.program_set.repair_groups
    for g in groups:
        if g.target_column != target_column:
            continue
        kept = [p for p in g.pairs if open_rows[p.source_row] and tkeep[p.target_row] is not None]
        fresh = PairGroup(g.source_column, target_column, [])
        if (repair > 0 and len(kept) < settings.learn.top_k   # too few pairs left to learn from
                and g.source_column in src_cells):                # (not a joined column)
            repair -= 1
            cells = [v if o else None for v, o in zip(src_cells[g.source_column], open_rows)]
            fresh = find_pair_group(ColumnValues.from_cells(g.source_column, cells), t_vals,
                                    settings.min_score)
        seen = {(p.source_row, p.target_row) for p in fresh.pairs}
        pairs = fresh.pairs + [p for p in kept if (p.source_row, p.target_row) not in seen]
        if pairs:
            out.append(PairGroup(g.source_column, target_column, pairs))
    out.sort(key=lambda g: (-g.average_score, -len(g.pairs)))
    return out


def rejoin_groups(groups: list, target_column: str, joined: list, joined_keys: set,
                  tcells: list) -> list:
    """The candidate pairs from source rows the current set leaves unjoined to keys it
    already joins through other rows: in an N:1 join ("aa_DJ" and "aa_DJ.UTF-8" onto
    "aa_DJ") they are the rows a program of the one-row form misses (deviation 33)."""
    out = []
    for g in groups:
        if g.target_column != target_column:
            continue
        pairs = [p for p in g.pairs if not joined[p.source_row]
                 and tcells[p.target_row] in joined_keys]
        if pairs:
            out.append(PairGroup(g.source_column, target_column, pairs))
    out.sort(key=lambda g: (-g.average_score, -len(g.pairs)))
    return out


def _keeps_keys(current: Scored, new: Scored, keys: set) -> bool:
    """Every source row ``current`` joins keeps its key under ``new``."""
    return all(n == o for o, n in zip(current.outputs, new.outputs)
               if o is not None and o in keys)


def mixed_sets(rejoin: list, current: Scored, keys: set, tcells: list,
               learn: LearnSettings) -> list:
    """Example sets of one pair of an unjoined source row (``rejoin_groups``) and the
    current set's own examples of other keys: the rows a program of one form misses
    ("/usr/share/man/man1/x.1.gz" beside ".../de/man1/x.1.gz") taught with the rows it
    joins, so that one program must fit both forms (deviation 44). Returns (group, examples)
    pairs, an example standing for its pair (it has ``source_row`` and ``target_row``).
    Only where the set joins ``N1_MIXED`` rows per key or more (an N:1 join: in a join
    mostly 1:1 a second row onto a joined key is more likely chance), for pairs onto a key
    it joins through 2+ rows; their programs may only replace the set, keeping every
    joined row's key."""
    own = [ex for _g, p in branches_of(current.program) for ex in current.examples.get(p, [])]
    many = Counter(o for o in current.outputs if o is not None and o in keys)
    out = []
    if sum(many.values()) < N1_MIXED * len(many):
        return out
    for group in rejoin:
        for pair in distinct_row_pairs(group.pairs, learn.top_k):
            if many[tcells[pair.target_row]] < 2:
                continue
            others = [ex for ex in own if ex.target_row != pair.target_row
                      and ex.source_row != pair.source_row][:max(learn.examples_per_set) - 1]
            if others:
                out.append((group, [pair] + others))
    return out


def _chance_keys(current: Scored, new: Scored, keys: set) -> bool:
    """Does ``new`` join every key ``current`` joins and more only by keys that chance hits
    of short codes among its differing outputs explain (deviation 47's test, for a program
    of a residual form replacing the set, deviation 63: a locale's bare "syr" read as
    "SY")?"""
    return chance_gain(new.outputs, current.outputs, keys, code_rates(keys))


def _form(text) -> str:
    """A cell's form: :func:`~.dsl.cell_pattern`'s shape with each run's length ("NGC 637"
    -> "A3 03", "NGC 7009" -> "A3 04")."""
    out = []
    for ch in text:
        c = "0" if ch.isdigit() else "A" if ch.isupper() else "a" if ch.isalpha() else ch
        if out and out[-1][0] == c and c.isalnum():
            out[-1][1] += 1
        else:
            out.append([c, 1])
    return "".join(f"{c}{n}" if c.isalnum() else c for c, n in out)


def residual_mixed_sets(residual: list, current: Scored, cells: dict,
                        learn: LearnSettings) -> list:
    """Example sets of one residual pair (an unjoined source row onto a key the set leaves
    unjoined, ``residual_groups``) and the current set's own examples: a program of one form
    misses rows of another ("NGC 7009" -> "NGC7009" read without the space misses "NGC 637"
    -> "NGC0637"), and only a set teaching both forms learns the program that fits every
    row (the number padded to 4; deviation 63). Unlike :func:`mixed_sets`, in any join: the
    pair's key is joined by no row, so it is no second row onto a key. Their programs may
    only replace the set, keeping every joined row's key. The pairs come from source cells
    of a form (:func:`_form`) none of the set's examples has, the forms holding the most
    residual rows first, the first ``FORM_PAIRS`` pairs of each (best first, one per source
    row and key); a joined or combined column (no single cell) gives none."""
    own = [ex for _g, p in branches_of(current.program) for ex in current.examples.get(p, [])]
    by_form: dict = {}
    for group in residual:
        column = cells.get(group.source_column)
        if column is None:
            continue
        taught = {_form(column[ex.source_row]) for ex in own if column[ex.source_row]}
        for pair in distinct_row_pairs(group.pairs, len(group.pairs)):
            cell = column[pair.source_row]
            form = cell is not None and _form(cell)
            if form and form not in taught:
                by_form.setdefault((group.source_column, form), (group, []))[1].append(pair)
    forms = sorted(by_form.values(), key=lambda gp: -len(gp[1]))
    out = []
    for group, pairs in forms:
        for pair in pairs[:FORM_PAIRS]:
            others = [ex for ex in own if ex.target_row != pair.target_row
                      and ex.source_row != pair.source_row][:max(learn.examples_per_set) - 1]
            if others:
                out.append((group, [pair] + others))
    return out


def pattern_groups(residual: list, cells: dict, kind: str = "delimiters") -> list:
    """The residual groups' pairs split by the pattern of their source cell (a deviation):
    rows needing different programs often differ in form ("Iowa" / "New York" -> "IA" /
    "NY"), and an example set drawn across forms fits no program. A group whose pairs all
    share one pattern is not split; parts with fewer than 3 distinct pairs are dropped."""
    out = []
    for g in residual:
        column = cells.get(g.source_column)
        if column is None:
            continue                    # a joined or combined column: no single cell
        parts: dict = {}
        for p in g.pairs:
            parts.setdefault(pattern_of(column[p.source_row], kind), []).append(p)
        if len(parts) < 2:
            continue
        out += [PairGroup(g.source_column, g.target_column, pairs) for pairs in parts.values()
                if len(distinct_row_pairs(pairs, 3)) >= 3]
    return out


def _widens(current: list, option: list, keys: set, taught: set, partners: list,
            owners: dict | None = None) -> int:
    """Source rows (not among ``taught``) that ``option`` gives a key and ``current`` does
    not and whose new key is among their candidate partners (``partners[i]``: the keys
    step 1 paired row i with), when every row ``current`` joins keeps its key and more
    than half of the rows given a key are so confirmed; 0 otherwise (deviation 38: in an
    N:1 join a guarded branch can join more rows onto the keys already joined, "XValue"
    and "XDatum" onto "x" beside "X"). A row's new key that ``current`` joins through a row
    whose own 1:1 evidence names it (``owners``: key -> such rows) does not confirm it: the
    evidence says that key's row is another one (deviation 41)."""
    owners = owners or {}
    gained = confirmed = 0
    for i, (c, o) in enumerate(zip(current, option)):
        if c is not None and c in keys:
            if o != c:
                return 0
        elif o is not None and o in keys and i not in taught:
            gained += 1
            owned = any(current[j] == o for j in owners.get(o, ()) if j != i)
            confirmed += o in partners[i] and not owned
    return confirmed if 2 * confirmed > gained else 0


def partner_keys(groups: list, src, tcells: list, target_column: str) -> list:
    """Per source row, the keys of ``target_column`` step 1 paired it with (any score; a
    value's pairs hold for every row holding it, as in the pipeline's paired rows), but for
    pairs whose q-gram cuts a number of the value (:func:`cuts_number`, deviation 54) and,
    in a column whose row pairs show equal token bags, q-gram pairs whose value and key
    read as bags of one size that differ (:func:`reads_apart`: "10/30/17" and "10/30/2018"
    share "10/30/" and differ in the year; deviation 57)."""
    out = [set() for _ in src.positions]
    real = set(src.columns)
    for g in groups:
        if g.target_column != target_column or g.source_column not in real:
            continue
        column = src.cells(g.source_column)
        bagged = any(p.gram == "" and p.score >= 1.0 for p in g.pairs)
        by_value: dict = {}
        for p in g.pairs:
            value, key = column[p.source_row], tcells[p.target_row]
            if cuts_number(p.gram, value) or (bagged and p.gram and value is not None
                                              and reads_apart(_bags(value), _bags(key))):
                continue
            by_value.setdefault(value, set()).add(key)
        for i, cell in enumerate(column):
            found = by_value.get(cell)
            if found:
                out[i] |= found
    return out


def cuts_number(gram: str, value) -> bool:
    """Does the (folded) q-gram ``gram`` occur in ``value`` only with a digit beside a digit
    of its own end ("432" in "1432", "14" in "1432"): the pair matches a piece of another
    number, not the number (deviation 54)? A bag pair (no gram) cuts nothing."""
    if not gram or value is None:
        return False
    text = fold(value)
    at = text.find(gram)
    if at < 0:
        return False
    while at >= 0:
        end = at + len(gram)
        if not ((at > 0 and text[at - 1].isdigit() and gram[0].isdigit())
                or (end < len(text) and text[end].isdigit() and gram[-1].isdigit())):
            return False
        at = text.find(gram, at + 1)
    return True


def _replaces(current: Scored, new: Scored, keys: set, taught: set = frozenset(),
              partners: list | None = None) -> bool:
    """Whether the single program ``new`` joins every key ``current`` joins, through more
    source rows, and gives a key to more rows than it re-keys (an N:1 join: "aa_DJ.UTF-8"
    and "aa_DJ" both onto "aa_DJ", where the identity joins the second only), and (given
    ``partners``) whether more than half of the rows it newly gives a key (not its
    examples, ``taught``) have that key among their step-1 partners (deviation 46)."""
    if len(branches_of(new.program)) != 1 or new.joined_rows <= current.joined_rows \
            or new.coverage < current.coverage:
        return False
    have = {o for o in current.outputs if o is not None and o in keys}
    got = {o for o in new.outputs if o is not None and o in keys}
    if not (have <= got and _gains_rows(current.outputs, new.outputs, keys)):
        return False
    return partners is None or _confirmed(current.outputs, new.outputs, keys, taught, partners)


def _confirmed(current: list, option: list, keys: set, taught: set, partners: list) -> bool:
    """More than half of the rows (not among ``taught``) that ``option`` gives a key and
    ``current`` does not have that key among their candidate partners (deviation 46: a
    replacement that joins more rows must be confirmed by the row pairs, as a widening
    branch is, deviation 38)."""
    gained = confirmed = 0
    for i, (c, o) in enumerate(zip(current, option)):
        if (c is None or c not in keys) and o is not None and o in keys and i not in taught:
            gained += 1
            confirmed += o in partners[i]
    return 2 * confirmed > gained


def learn_program_set(best: Candidate, candidates: list, groups: list, src, tcells: list,
                      settings, cache: dict, accept=None) -> Candidate:
    """Extend ``best`` into an ordered program set while a branch adds enough keys (module
    docstring), or replace it by a program learned on the residual that joins every key it
    joins through more source rows (``accept(program, examples, scored)``: the caller's
    checks of a first-round program). Returns ``best`` itself when nothing changes."""
    ss: SetSettings = settings.program_set
    if ss.max_programs <= 1:
        return best
    keys = {v for v in tcells if v is not None}
    n_src = len(src.positions)
    cells = {c: src.cells(c) for c in src.columns}
    current = score(best.program, outputs_of(best.program, cells, n_src), keys,
                    {best.program: best.examples})
    need = max(ss.min_gain, math.ceil(ss.min_gain_fraction * len(keys)))
    need_rows = max(ss.min_gain, math.ceil(ss.min_gain_fraction * n_src))
    partners = partner_keys(groups, src, tcells, best.target_column)
    owners = key_owners(row_evidence(src, tcells, groups, best.target_column)[0])
    pool = [(c.program, c.examples) for c in candidates if c.target_column == best.target_column
            and c.program != best.program][:ss.consider]
    learn: LearnSettings = settings.learn
    learned: set = set()           # programs learned on a residual (replacement candidates)
    replaced = 0
    while len(branches_of(current.program)) < ss.max_programs:
        joined = [o is not None and o in keys for o in current.outputs]
        joined_keys = {o for o, j in zip(current.outputs, joined) if j}
        branching = len(keys) - len(joined_keys) >= need   # enough keys left for a branch
        rejoin = rejoin_groups(groups, best.target_column, joined, joined_keys, tcells) \
            if replaced < ss.max_replacements else []
        if not branching and not rejoin:
            break
        tried = {p for _g, p in branches_of(current.program)}
        mixed: list = []
        n_mixed = 0
        drawn = [(rejoin[gi], pairs) for gi, sets in enumerate(example_sets(rejoin, learn))
                 for pairs in sets][:ss.rejoin_sets]
        if rejoin:      # ... with the set's own examples: one form for both (deviation 44)
            mixed = mixed_sets(rejoin, current, keys, tcells, learn)[:ss.mixed_sets]
        if rejoin:      # ... and within one last word of the source cell (deviation 38)
            by_word = pattern_groups(rejoin, cells, "last word")
            rounds = example_sets(by_word, learn)
            drawn += [(by_word[gi], sets[i]) for i in range(max(map(len, rounds), default=0))
                      for gi, sets in enumerate(rounds) if i < len(sets)][:ss.rejoin_sets]
        news = []
        if branching:
            residual = residual_groups(groups, best.target_column, joined, joined_keys,
                                       tcells, cells, settings)
            news = [(p, ex) for p, ex in pool if p not in tried]
            drawn += [(residual[gi], pairs) for gi, sets
                      in enumerate(example_sets(residual, learn))
                      for pairs in sets][:ss.residual_sets]
            by_pattern = pattern_groups(residual, cells)
            rounds = example_sets(by_pattern, learn)
            drawn += [(by_pattern[gi], sets[i]) for i in range(max(map(len, rounds), default=0))
                      for gi, sets in enumerate(rounds) if i < len(sets)][:ss.pattern_sets]
            # ... an unjoined row's pair onto an unjoined key with the set's own examples:
            # one form for both, replacing the set (deviation 63)
            n_mixed = len(mixed)
            mixed += residual_mixed_sets(residual, current, cells, learn)[:ss.residual_mixed_sets]
        only_replace: set = set()     # learned from a mixed set (deviation 44)
        by_form: set = set()          # ... of a residual form (deviation 63)
        for n_drawn, (group, pairs) in enumerate(drawn + mixed):
            examples = [Example(src.row(p.source_row), tcells[p.target_row], p.source_row,
                                p.target_row) for p in pairs]
            taught = {p.source_row for p in pairs}
            validation = [Example(src.row(p.source_row), tcells[p.target_row], p.source_row,
                                  p.target_row) for p in group.top(learn.top_k)
                          if p.source_row not in taught]
            program = try_learn_transform(examples, src.columns, learn, cache, validation)
            if program is not None and program not in tried:
                tried.add(program)
                learned.add(program)
                if n_drawn >= len(drawn):
                    only_replace.add(program)
                if n_drawn >= len(drawn) + n_mixed:
                    by_form.add(program)
                news.append((program, examples))
        best_option, best_gain = None, 0
        widest, widest_rows = None, 0    # same keys through more rows (N:1, deviation 38)
        for program, examples in news:
            new = score(program, outputs_of(program, cells, n_src), keys, {program: examples})
            taught = {ex.output for ex in examples}
            taught_rows = {ex.source_row for ex in examples}
            if program in learned and _replaces(current, new, keys, taught_rows, partners) \
                    and (program not in only_replace or _keeps_keys(current, new, keys)) \
                    and (program not in by_form or not _chance_keys(current, new, keys)) \
                    and (accept is None or accept(program, examples, new)):
                # one program joining every key the set joins, through more source rows
                # (deviation 33): MaxByCoverage with deviation 27's tie rule
                if best_option is None or (new.coverage, new.joined_rows, -program.size) > (
                        best_option.coverage, best_option.joined_rows,
                        -best_option.program.size):
                    best_option, best_gain = new, new.coverage - current.coverage
            if program in only_replace:
                continue
            for option in combine(current, new, keys, cells, n_src):
                gain = option.coverage - current.coverage
                rows = _widens(current.outputs, option.outputs, keys, taught_rows, partners,
                               owners)
                if rows >= need_rows and (widest is None or rows > widest_rows or (
                        rows == widest_rows and option.program.size < widest.program.size)) \
                        and (accept is None or accept(option.program, examples, option)):
                    widest, widest_rows = option, rows
                added = {o for o in option.outputs if o in keys} - joined_keys
                if gain < need or not added - taught \
                        or not _gains_rows(current.outputs, option.outputs, keys):
                    continue
                if (gain > best_gain or (gain == best_gain and option.program.size
                                         < best_option.program.size)) \
                        and (accept is None or accept(option.program, examples, option)):
                    best_option, best_gain = option, gain
        widening = widest is not None and (best_option is None or (
            best_gain == 0 and widest.joined_rows > best_option.joined_rows))
        if widening:    # no key added: the option joining the most rows (deviations 33, 38)
            best_option = widest
        if best_option is None:
            break
        replaced += len(branches_of(best_option.program)) == 1 and best_option.program in learned
        current = prune(best_option, keys, cells, n_src, rows=widening)
    if current.program is best.program:
        return best
    examples = [ex for _g, p in branches_of(current.program) for ex in current.examples.get(p, [])]
    out = Candidate(current.program, best.group, best.target_column, examples,
                    learned_times=best.learned_times, extra=dict(best.extra))
    out.coverage, out.joined_rows = current.coverage, current.joined_rows
    out.extra["branches"] = len(branches_of(current.program))
    return out


def estimated_precision(program, src, tcells: list, groups: list, target_column: str,
                        examples=(), whole: bool = False) -> float | None:
    """The module docstring's estimate on the (sampled) source rows; None when the checked
    rows hold fewer than ``MIN_EVIDENCE`` distinct observations (deviation 50). A row whose
    value and key read as token bags of one size that differ, in a join whose row pairs
    show equal bags, is contradicted (:func:`read_apart`): that reading covers every joined
    row without evidence, so its contradicted rows are a count over the joined rows (not
    taught), and the share of the checked rows that agree stands for the rest (deviation
    56; with no checked row, the rest is taken as right). ``whole``: ``groups`` pair the
    whole values of a composite column whose key part is ``tcells``; a row agrees only if
    its evidence names the derived key alone (the rest of the value names no other row;
    deviation 51)."""
    outs = program.evaluate({c: src.cells(c) for c in program.columns}, len(src.positions))
    found = _checked(outs, src, tcells, groups, target_column, examples)
    apart = read_apart(program, src, tcells, groups, target_column, examples, set(found), outs)
    if len(set(found.values()) | set(apart)) < MIN_EVIDENCE:
        return None
    if whole:
        agree = sum(evidence == {o} for evidence, o in found.values())
    else:
        agree = sum(o in evidence for evidence, o in found.values())
    rate = agree / len(found) if found else 1.0
    if not apart:
        return rate
    keys = {v for v in tcells if v is not None}
    taught = {ex.source_row for ex in examples}
    joined = sum(1 for i, o in enumerate(outs) if o is not None and o in keys
                 and i not in taught)
    return rate * (joined - len(apart)) / joined


BAG_VIEWS = ("bag", "cut")      # readings of every token of a value (pairs.signatures)


def read_apart(program, src, tcells: list, groups: list, target_column: str, examples=(),
               skip: set = frozenset(), outs: list | None = None) -> list:
    """(frozenset(), key) per joined row (not taught, not in ``skip``) that a token-bag
    reading contradicts: where a row pair of ``target_column`` shows a value of a column
    the program reads and the key the program derives from it reading as one bag (the join
    writes the same tokens differently: "8/7/2018" and "8/7/18"), a row whose value and key
    read in such a view as bags of the same size, different in every such view, is given a
    key of other tokens ("3/13/2019" onto "3/13/18": a constant year; deviation 51); with
    two such columns (a poll's start and end date), in each of them (deviation 54)."""
    keys = {v for v in tcells if v is not None}
    taught = {ex.source_row for ex in examples}
    if outs is None:
        outs = program.evaluate({c: src.cells(c) for c in program.columns}, len(src.positions))
    real = set(src.columns)
    readers = []         # the columns whose bags equal the derived keys' on a row pair
    for g in groups:
        if g.target_column != target_column or g.source_column not in real \
                or g.source_column not in program.columns or g.source_column in readers:
            continue
        if any(p.gram == "" and p.score >= 1.0 and outs[p.source_row] == tcells[p.target_row]
               for p in g.pairs):
            readers.append(g.source_column)
    if not readers:
        return []
    out = []
    for i, o in enumerate(outs):
        if o is None or o not in keys or i in taught or i in skip:
            continue
        key = _bags(o)
        read = [reads_apart(_bags(cell), key)    # per reader column with a cell
                for cell in (src.cells(c)[i] for c in readers) if cell is not None]
        if read and all(read):
            out.append((frozenset(), o))
    return out


def row_evidence(src, tcells: list, groups: list, target_column: str) -> tuple:
    """(partners, shared): per source row, the keys of ``target_column`` its independent
    evidence (a 1-to-1 match of a q-gram of ``EVIDENCE_Q``+ characters or of a rare token
    bag) names, split by whether the evidence was made for that row alone (``partners``: a
    value no other row holds, a joined-columns pair) or for a value several rows hold
    (``shared``, N:1)."""
    partners: dict = {}          # row -> keys of evidence made for that row alone
    shared: dict = {}            # row -> keys of a value other rows hold as well (N:1)
    by_value: dict = {}          # source column -> cell -> keys: a value's pairs are made for
    real = set(src.columns)      # its first row, and every row holding it has that evidence
    for g in groups:
        if g.target_column != target_column:
            continue
        column = src.cells(g.source_column) if g.source_column in real else None
        for p in g.pairs:
            if p.score >= 1.0 and (len(p.gram) >= EVIDENCE_Q or p.gram == ""):
                if column is None:
                    partners.setdefault(p.source_row, set()).add(tcells[p.target_row])
                else:
                    by_value.setdefault(g.source_column, {}).setdefault(
                        column[p.source_row], set()).add(tcells[p.target_row])
    for c, found in by_value.items():
        cells = src.cells(c)
        held = Counter(cell for cell in cells if cell in found)
        for i, cell in enumerate(cells):
            hit = found.get(cell)
            if hit is not None:
                (partners if held[cell] == 1 else shared).setdefault(i, set()).update(hit)
    return partners, shared


def key_owners(partners: dict) -> dict:
    """Per key, the source rows whose evidence made for them alone names it (1:1)."""
    owners: dict = {}
    for i, found in partners.items():
        for k in found:
            owners.setdefault(k, set()).add(i)
    return owners


def evidence_counts(program, src, tcells: list, groups: list, target_column: str,
                    examples=(), distinct: bool = False, apart: bool = False) -> tuple:
    """(agree, checked): the rows of :func:`checked_rows` and those whose evidence holds
    the key the program derives. ``distinct``: rows whose evidence names the same partners
    and that get the same key are one observation, counted once (deviation 49).
    ``apart``: the rows :func:`read_apart` contradicts are checked too, as in the estimate
    (deviation 54)."""
    outs = program.evaluate({c: src.cells(c) for c in program.columns}, len(src.positions))
    found = _checked(outs, src, tcells, groups, target_column, examples)
    rows = list(found.values())
    if apart:
        rows += read_apart(program, src, tcells, groups, target_column, examples, set(found),
                           outs)
    if distinct:
        rows = list(dict.fromkeys(rows))
    return sum(o in evidence for evidence, o in rows), len(rows)


def reads_apart(value: dict, key: dict) -> bool:
    """Do a value and a key (their :func:`_bags`) read, in every token-bag view both have
    (one at least), as bags of the same size that differ: the same tokens but one written
    as another ("3/13/2019" and "3/13/18"; deviation 51)?"""
    shared = [v for v in BAG_VIEWS if v in key and v in value]
    return bool(shared) and all(len(key[v]) == len(value[v]) and key[v] != value[v]
                                for v in shared)


def _bags(text: str) -> dict:
    """View -> reading of ``text`` in the token-bag views (``BAG_VIEWS``)."""
    return {v: k for v, k in signatures(fold(text)) if v in BAG_VIEWS}


def checked_rows(program, src, tcells: list, groups: list, target_column: str,
                 examples=()) -> list:
    """(evidence, key) per joined row (not taught) that has independent evidence: the keys
    the evidence names (a frozenset) and the key the program derives.

    A value's evidence holds for every row holding it; a value held by several rows pairs
    them N:1, and that evidence checks a row only where the program also joins its key
    through more than one row: a key the program gives one row alone is a 1:1 join of that
    row, which N:1 evidence of a coarser column cannot check (an RPC procedure's stub
    against the one stub of its program, deviation 39). In a 1:1 join (every key joined
    through one row), a row whose evidence names only keys the program gives other rows,
    each confirmed by that row's own evidence, is not checked: a key has one right row
    there, and the evidence is a mention ("see also --coverdir"), not the row's partner
    (deviation 60)."""
    outs = program.evaluate({c: src.cells(c) for c in program.columns}, len(src.positions))
    return list(_checked(outs, src, tcells, groups, target_column, examples).values())


def _checked(outs: list, src, tcells: list, groups: list, target_column: str,
             examples=()) -> dict:
    """:func:`checked_rows` by source row, ``outs`` the program's output per source row."""
    partners, shared = row_evidence(src, tcells, groups, target_column)
    if not partners and not shared:
        return {}
    keys = {v for v in tcells if v is not None}
    taught = {ex.source_row for ex in examples}
    rows_per_key = Counter(o for o in outs if o is not None and o in keys)
    out = {}
    for i, o in enumerate(outs):
        if o is None or o not in keys or i in taught:
            continue
        if i in partners:
            evidence = partners[i] | shared.get(i, set())
        elif i in shared and rows_per_key[o] > 1:
            evidence = shared[i]
        else:
            continue
        out[i] = (frozenset(evidence), o)
    if all(n == 1 for n in rows_per_key.values()):      # a 1:1 join (deviation 60)
        owner = {o: i for i, (evidence, o) in out.items() if o in evidence}
        out = {i: (evidence, o) for i, (evidence, o) in out.items()
               if o in evidence or any(owner.get(k, i) == i for k in evidence)}
    return out

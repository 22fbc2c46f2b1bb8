"""Auto-Join deviation 41: a widening branch (deviation 38: more rows onto keys already
joined) gets no confirmation from a row whose new key the set joins through another row
whose own 1:1 evidence names that key (hand-built: a hash module's Python functions
against its C functions, where the hasher classes' methods look like the functions)."""
import pandas as pd

from lakejoin_jupyter.join.autojoin.pipeline import autojoin
from lakejoin_jupyter.join.autojoin.programset import _widens, key_owners

SUFFIXES = ["digest", "sintdigest", "uintdigest", "stupledigest", "utupledigest"]
METHODS = ["dealloc", "new", "init", "update", "digest", "sintdigest", "uintdigest",
           "stupledigest", "utupledigest", "copy", "get_name"]


def _functions() -> list:
    py = ["hash", "hash_from_buffer", "hash64", "hash128", "hash_bytes"]
    py += [f"mur3_32_{s}" for s in SUFFIXES[:3]]
    return py + [f"mur3_{a}_128_{s}" for a in ("x64", "x86") for s in SUFFIXES]


def _c_functions() -> list:
    # the module's C function of each Python function, and the hasher classes' methods
    # ("Mur3Hasher128x64_digest" is a method, not the function "mur3_x64_128_digest")
    c = [f"mur3_{f}" for f in _functions()]
    for cls in ("Mur3Hasher32", "Mur3Hasher128x64", "Mur3Hasher128x86"):
        c += [f"{cls}_{m}" for m in METHODS]
    return c


def test_key_owners_hand_checked():
    assert key_owners({0: {"a"}, 1: {"a", "b"}, 3: set()}) == {"a": {0, 1}, "b": {1}}
    assert key_owners({}) == {}


def test_a_key_whose_evidence_names_another_row_confirms_no_widening():
    keys = {"a", "b", "c"}
    current = ["a", "b", None, None, "c"]           # rows 0, 1, 4 joined
    option = ["a", "b", "a", "b", "c"]              # rows 2 and 3 widened onto a and b
    partners = [{"a"}, {"b"}, {"a"}, {"b", "c"}, {"c"}]
    assert _widens(current, option, keys, set(), partners) == 2               # as before
    # row 0's own evidence names "a": row 2 is not confirmed (1 of 2: not more than half)
    assert _widens(current, option, keys, set(), partners, {"a": {0}}) == 0
    # evidence naming the widened row itself, or a row the set does not join onto the key,
    # refutes nothing
    assert _widens(current, option, keys, set(), partners, {"a": {2}}) == 2
    assert _widens(current, option, keys, set(), partners, {"a": {4}}) == 2
    # three widened rows, one of them onto an owned key: 2 of 3 still confirm
    current3 = current + [None]
    option3 = option + ["c"]
    assert _widens(current3, option3, keys, set(), partners + [{"c"}], {"a": {0}}) == 2


def test_hasher_methods_are_not_joined_onto_the_module_functions():
    # main's learner added a branch guarded by the shape of "Mur3Hasher128x64_digest":
    # "mur3_x" + letters 15-16 + "_128" + the rest, 10 methods onto the functions
    # "mur3_x64_128_digest" ... whose own C functions ("mur3_mur3_x64_128_digest") the
    # evidence names; 28 joined rows, 10 wrong
    left = pd.DataFrame({"function": _functions()})
    right = pd.DataFrame({"C function": _c_functions()})
    res = autojoin(left, right, fuzzy=False)
    assert res.found
    j = res.join()
    assert len(j) == 18
    assert set(zip(j["function"], j["C function"])) == {(f, "mur3_" + f) for f in _functions()}


# deviation 42: a value's 1-to-1 q-grams longer than its common whole key are kept beside
# the whole key's pair (hand-built: a package's programs against their man page titles)

TOOLS = ["ssh", "ssh-add", "ssh-agent", "ssh-keygen", "ssh-keyscan", "ssh-copy-id",
         "ssh-argv0", "scp", "sftp"]
HELPERS = ["ssh-keysign", "ssh-sk-helper", "ssh-pkcs11-helper"]


def test_one_to_one_grams_kept_beside_a_common_whole_key():
    from lakejoin_jupyter.join.autojoin.pairs import ColumnValues, find_pair_group
    src = ColumnValues.from_cells("program", [f"/usr/bin/{t}" for t in TOOLS])
    tgt = ColumnValues.from_cells("title", [t.upper() for t in TOOLS] + ["SSH_CONFIG"])
    # "ssh" is a whole word of 7 programs and a gram of 8 titles: 7 * 8 / 16 > 1, so
    # "ssh" pairs as the common whole key (score 1, N:1); "/usr/bin/ssh-add" also holds
    # "ssh-add", which one program and one title hold (1-to-1). Since deviation 51 "ssh" is
    # no key of "/usr/bin/ssh-add", which holds the whole key "ssh-add" around it ...
    pairs = find_pair_group(src, tgt, min_score=1 / 16).pairs
    of_add = {(p.target_row, p.gram, p.score, p.whole) for p in pairs if p.source_row == 1}
    assert of_add == {(1, "ssh-add", 1.0, False)}
    # ... but where the titles carry a section ("SSH-ADD(1)"), "ssh-add" is no whole key
    # and the 1-to-1 gram is kept beside the common whole key's pair
    sections = ColumnValues.from_cells("title", [t.upper() + "(1)" if t != "ssh" else "SSH"
                                                 for t in TOOLS] + ["SSH_CONFIG"])
    of_add = {(p.target_row, p.gram, p.score, p.whole) for p in
              find_pair_group(src, sections, min_score=1 / 16).pairs if p.source_row == 1}
    assert of_add == {(0, "ssh", 1.0, True), (1, "ssh-add", 1.0, False)}
    # the value equal to the whole key, and values without it, are as before
    assert {(p.target_row, p.whole) for p in pairs if p.source_row == 0} == {(0, True)}
    assert {(p.target_row, p.gram) for p in pairs if p.source_row == 7} == {(7, "scp")}


def test_programs_join_their_titles_through_the_last_part():
    # main's learner: the path -> title direction drew its example sets from the whole key
    # "ssh" alone (one key) and the summaries, learned nothing, and the other direction's
    # "/usr/bin/s" + lower(title from letter 2) joined 9 of the 12 programs
    left = pd.DataFrame({"program": [f"/usr/bin/{t}" for t in TOOLS + ["slogin"]]
                         + [f"/usr/lib/openssh/{t}" for t in HELPERS + ["agent-launch"]]})
    right = pd.DataFrame({
        "title": [t.upper() for t in TOOLS] + ["SSH_CONFIG"] + [t.upper() for t in HELPERS],
        "section": ["1"] * 9 + ["5"] + ["8"] * 3})
    res = autojoin(left, right, fuzzy=False)
    assert res.found
    j = res.join()
    assert len(j) == 12
    assert all(p.rsplit("/", 1)[1].upper() == t for p, t in zip(j["program"], j["title"]))

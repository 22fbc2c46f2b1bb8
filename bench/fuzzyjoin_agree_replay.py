"""What the replays of the functions' agreement on a low-ratio join share
(bench/fuzzyjoin_agree_low.py, round 27; fuzzyjoin_agree_uncapped.py, round 28;
fuzzyjoin_split_low.py, round 29; results in bench/results/fuzzyjoin_calibration.md): the
suites they read, the family distances put in place of the dump's (``prepare``) and the
command line, where each script names only its variants' ratings.

The family distances are cached in ``W/family/``.
"""
from __future__ import annotations

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)
import fuzzyjoin_admissible as admissible
from lakejoin_jupyter.join import fuzzy

SUITES = ["autofj", "rl", "fresh1", "fresh2", "fresh3", "fresh4", "fresh6", "fresh7", "fresh9",
          "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15"]
STATE = {"variant": "base", "work": None, "folders": None}
JOIN_AGREED = fuzzy.agreed_probability      # the join's own, before any variant replaces it


def prepare(d: dict) -> None:
    """The dataset's family distances (round 23's, which the join computes) in place of
    the dump's nearest distances."""
    for fn, near in admissible.cached_family(d, STATE).items():
        d["raw"][fn]["r_near"] = near


def run(doc: str, variants, agreed: dict, argv=None, configure=None, subcommands=None,
        also_prepare=None):
    """``replay.variant_run`` with the family distances: ``agreed`` maps a variant to the
    function that replaces ``fuzzy.agreed_probability`` (a variant not in it: the join's
    own), ``configure(variant)``, if given, sets anything else the variant changes;
    ``also_prepare(d)``, if given, runs per dataset after the family distances."""
    def setup(variant: str) -> None:
        fuzzy.agreed_probability = agreed.get(variant, JOIN_AGREED)
        if configure is not None:
            configure(variant)

    def prepared(d: dict) -> None:
        prepare(d)
        if also_prepare is not None:
            also_prepare(d)
    return replay.variant_run(doc, variants, argv, configure=setup, prepare=prepared,
                              state=STATE, suites=SUITES, subcommands=subcommands)

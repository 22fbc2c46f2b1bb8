"""``%lakejoin open``: open an index built before (memory-mapped, about a second)."""
from __future__ import annotations

from .context import Subcommand


def configure(p):
    p.add_argument("path", help="index folder")
    p.add_argument("--no-verify", action="store_true",
                   help="skip the checksum verification of the index files")


def run(ctx, a):
    import warnings

    from ..engine import open_index
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        engine = open_index(a.path, verify=not a.no_verify)
    ctx.session.engine = engine
    print(f"Opened {engine.path}: {engine.index.size_label}; methods: "
          f"{', '.join(m.name for m in engine.methods())}.")
    for w in caught:
        print(f"warning: {w.message}")
    return None


SUBCOMMAND = Subcommand("open", "open an index (memory-mapped, about a second)", configure, run)

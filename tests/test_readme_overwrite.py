"""README documents `--overwrite` where it documents `--out` of `lakejoin join` and
`lakejoin union --stack` (both refuse an existing file without it)."""
from __future__ import annotations

import argparse
import re
from pathlib import Path

from lakejoin_jupyter import cli

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_the_join_and_stack_overwrite_flag_is_in_the_readme_beside_out():
    parser = cli._parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in ("join", "union"):                      # the flag exists on both commands
        flags = {o for a in sub.choices[name]._actions for o in a.option_strings}
        assert {"--out", "--overwrite"} <= flags
    text = " ".join(README.split())
    assert re.search(r"lakejoin join [^`]*--out [^`]*--overwrite", text)
    assert re.search(r"lakejoin union [^`]*--stack [^`]*--out [^`]*--overwrite", text)
    out_paragraph = text[text.index("`--out`'s missing folders are created"):][:600]
    assert "--overwrite" in out_paragraph and "lake" in out_paragraph

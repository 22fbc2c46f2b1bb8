"""Auto-Join deviation 44: the rows a program of one form misses are also taught together
with the rows it joins, so that one program fits both forms (hand-built: manual page files
at two folder depths, "/usr/share/man/de/man1/x.1.gz" and "/usr/share/man/man1/x.1.gz",
against the programs they document, N:1; every best pair is of the deeper form)."""
import pandas as pd

from lakejoin_jupyter.join.autojoin.pipeline import autojoin

NAMES = ["mkfifo", "mknod", "mktemp", "mkdir"]
LANGS = ["de", "es", "fr", "it", "nl"]


def _pages() -> list:
    """Each program's page in five languages, then untranslated (a folder less)."""
    return ([f"/usr/share/man/{lang}/man1/{n}.1.gz" for lang in LANGS for n in NAMES]
            + [f"/usr/share/man/man1/{n}.1.gz" for n in NAMES])


def test_pages_of_both_depths_join_their_program():
    """Before, the program cut the path at a fixed letter that fits the deeper pages only
    (20 of 24 rows)."""
    pages = _pages()
    src = pd.DataFrame({"page file": pages,
                        "bytes": [str(1000 + 7 * i) for i in range(len(pages))]})
    tgt = pd.DataFrame({"program": [f"/usr/bin/{n}" for n in NAMES]})
    aj = autojoin(src, tgt, fuzzy=False)
    assert aj.found
    joined = aj.join(src)
    assert len(joined) == len(pages)
    assert list(joined["program"]) == [
        "/usr/bin/" + p.rsplit("/", 1)[1].split(".")[0] for p in pages]

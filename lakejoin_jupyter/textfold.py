"""The one value fold behind every fuzzy comparison of values (the embedders, the fuzzy
join's negative rules, Auto-Join's fuzzy step) and behind readable identifiers: case,
accents and punctuation variants folded, and the Latin letters that NFKD leaves whole
(ø, æ, œ, ł, đ, ð, þ, ı, ħ, ŋ, ...) written in ASCII as Unicode's Latin-ASCII transform
writes them (CLDR common/transforms/Latin-ASCII.xml), which unidecode mostly shares.

Note:
    Deviations (why: docs/algorithms/fuzzyjoin.md, "Folding"): letters only (Latin-1
    Supplement, Latin Extended-A, and the Extended-B/IPA letters on which Latin-ASCII and
    unidecode agree), not its symbols; ŋ -> n and ĸ -> q with Latin-ASCII where unidecode
    writes ng and k; ɔ and ə, which Latin-ASCII leaves, are left.
"""
from __future__ import annotations

import unicodedata

# what an embedder's spec records as "fold": a change to fold() changes it, so an index
# built with another fold is refused instead of mixing vectors of two folds
FOLD_ID = "nfkd-casefold-strip-accents-latin-ascii"

_PUNCT_MAP = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'", "“": '"', "”": '"',
                            "‐": "-", "–": "-", "—": "-", "−": "-"})

# lower-case letters NFKD does not decompose -> ASCII (Latin-ASCII; capitals derived below)
LATIN_ASCII = {
    # Latin-1 Supplement
    "æ": "ae", "ð": "d", "ø": "o", "þ": "th", "ß": "ss",
    # Latin Extended-A
    "đ": "d", "ħ": "h", "ı": "i", "ĸ": "q", "ŀ": "l", "ł": "l", "ŉ": "'n", "ŋ": "n", "œ": "oe", "ŧ": "t",
    # Latin Extended-B and IPA letters of current orthographies (Latin-ASCII = unidecode)
    "ƀ": "b", "ɓ": "b", "ƈ": "c", "ȼ": "c", "ɖ": "d", "ɗ": "d", "ƌ": "d", "ȡ": "d",
    "ɛ": "e", "ɇ": "e", "ƒ": "f", "ǥ": "g", "ɨ": "i", "ɉ": "j", "ȷ": "j", "ƙ": "k",
    "ƚ": "l", "ȴ": "l", "ɲ": "n", "ƞ": "n", "ȵ": "n", "ƥ": "p", "ɍ": "r", "ȿ": "s",
    "ƫ": "t", "ƭ": "t", "ʈ": "t", "ȶ": "t", "ʉ": "u", "ƴ": "y", "ɏ": "y", "ƶ": "z",
    "ȥ": "z", "ɀ": "z", "ⱥ": "a",
}


def _with_capitals(table: dict) -> dict:
    """The table plus each letter's capital (Ø -> O, Þ -> TH; ẞ, whose small letter's
    upper case is "SS", added by hand)."""
    out = dict(table)
    for low, ascii_ in table.items():
        cap = low.upper()
        if len(cap) == 1 and cap != low and not cap.isascii():
            out[cap] = ascii_.upper()
    out["ẞ"] = "SS"
    return out


_LETTERS = str.maketrans(_with_capitals(LATIN_ASCII))


def _strip_marks(s: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", s)
                   if not unicodedata.combining(ch))


def transliterate(text: str) -> str:
    """``text`` with accents stripped (NFKD, combining marks dropped) and the Latin letters
    NFKD leaves whole written in ASCII ("Herøya" -> "Heroya", "Łódź" -> "Lodz"); case and
    everything else kept (readable identifiers: join/plan.py ``python_name``)."""
    s = str(text)
    return s if s.isascii() else _strip_marks(s.translate(_LETTERS)).translate(_LETTERS)


def fold(text: str) -> str:
    """Case-, accent-, punctuation-variant and Latin-letter folding used before comparing
    values fuzzily ("Herøya" and "HEROYA" -> "heroya"; whitespace runs -> one space).
    The letters are written in ASCII before NFKD (ŀ, which NFKD splits into l and a
    middle dot) and after it (ǿ, which it splits into ø and an accent); NFKD runs before
    and after case folding, so that a letter NFKD turns into a capital ("ℌ") folds too
    and ``fold(fold(x)) == fold(x)``."""
    s = str(text)
    if s.isascii():
        return " ".join(s.lower().split())
    s = unicodedata.normalize("NFKD", s.translate(_PUNCT_MAP).translate(_LETTERS)).casefold()
    s = _strip_marks(s).translate(_LETTERS)
    return " ".join(s.split())

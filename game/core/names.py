"""Telling names (and chat lines) apart as people see them, not as Unicode spells them.

- `skeleton`: a name folded so that look-alikes meet: compatibility forms (fullwidth, bold
  maths letters) and accents dropped, letters of other scripts that look like Latin ones
  (Greek "Α", Cyrillic "о", Cherokee "Ꭺ", ...) replaced by them, case folded. "Αdmin" (a Greek
  alpha), "Mоderator" and "Вot Ada" (Cyrillic letters) fold to "admin", "moderator", "bot ada".
  The table of look-alikes is Unicode's (confusables.txt, from the confusable_homoglyphs
  package); only characters outside ASCII are replaced, so plain names are never changed.
- `cap_marks`: at most MAX_MARKS combining marks on a character (every language's letters
  need no more; "zalgo" text stacks dozens).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import utils as homoglyphs

MAX_MARKS = 2  # combining marks a character may carry (Vietnamese needs two)


@lru_cache(maxsize=1)
def _latin() -> dict[str, str]:
    """Each non-ASCII character that looks like an ASCII letter or digit: that letter or digit."""
    table = {}
    for char, alikes in homoglyphs.load("confusables.json").items():
        if char.isascii():
            continue
        for alike in alikes:
            if len(alike["c"]) == 1 and alike["c"].isascii() and alike["c"].isalnum():
                table[char] = alike["c"]
                break
    return table


def _marks(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Me")


@lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """What `text` looks like, folded: two names with one skeleton are confusable."""
    latin = _latin()
    decomposed = unicodedata.normalize("NFKD", text)
    folded = "".join(latin.get(ch, ch) for ch in decomposed if not _marks(ch))
    return " ".join(unicodedata.normalize("NFKC", folded).casefold().split())


def cap_marks(text: str, most: int = MAX_MARKS) -> str:
    """`text` with at most `most` combining marks on each character (marks on nothing dropped)."""
    kept, run, base = [], 0, False
    for ch in unicodedata.normalize("NFC", text):
        if _marks(ch):
            run += 1
            if base and run <= most:
                kept.append(ch)
            continue
        kept.append(ch)
        run, base = 0, not ch.isspace()
    return "".join(kept)

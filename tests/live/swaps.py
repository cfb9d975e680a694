"""What a socket message swaps in: the ids of its top-level elements (htmx's socket extension
swaps each one for the element with its id)."""

from __future__ import annotations

from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _TopLevel(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.depth, self.ids = 0, []

    def handle_starttag(self, tag, attrs) -> None:
        if self.depth == 0:
            found = dict(attrs)
            if found.get("hx-swap-oob", "true") == "true" and found.get("id"):
                self.ids.append(found["id"])
        if tag not in VOID:
            self.depth += 1

    def handle_startendtag(self, tag, attrs) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.depth -= 1

    def handle_endtag(self, tag) -> None:
        if tag not in VOID:
            self.depth -= 1


def swapped_ids(html: str) -> list[str]:
    """The ids a message swaps in by id, in order (not the log lines it appends)."""
    parser = _TopLevel()
    parser.feed(html)
    return parser.ids

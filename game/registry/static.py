"""A static files finder for the games' own files: each registered Kind's `<folder>/static/` (its
stylesheet, `Kind.stylesheet`), as game.registry.templates finds their partials. Django's app
finder looks only in installed apps' folders, and the games are folders of the one app `game`;
this finder asks the registry at each look-up, so a game added at run time (the tests' third
game) is found too, and `collectstatic` gathers every listed game's files."""

from __future__ import annotations

import os

from django.contrib.staticfiles import utils
from django.contrib.staticfiles.finders import BaseFinder, searched_locations
from django.core.files.storage import FileSystemStorage
from django.utils._os import safe_join

from game import registry


def _roots() -> list[str]:
    return [str(kind.folder / "static") for kind in registry.KINDS.values() if (kind.folder / "static").is_dir()]


class Finder(BaseFinder):
    def check(self, **kwargs) -> list:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs):
        matches = []
        for root in _roots():
            if root not in searched_locations:
                searched_locations.append(root)
            found = safe_join(root, path)
            if os.path.exists(found):
                if not find_all:
                    return found
                matches.append(found)
        return matches

    def list(self, ignore_patterns):
        for root in _roots():
            storage = FileSystemStorage(location=root)
            for path in utils.get_files(storage, ignore_patterns):
                yield path, storage

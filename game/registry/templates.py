"""A template loader for the games' own partials: each registered Kind's `<folder>/templates/`.

Django's app loader looks only in installed apps' folders; the games are folders of the one
app `game`, so this loader serves them, asking the registry at each look-up (a game added at run
time, as the tests' third game is, is found too; the cached loader in front keeps what it read).
"""

from __future__ import annotations

from django.template.loaders.filesystem import Loader as FilesystemLoader

from game import registry


class Loader(FilesystemLoader):
    def get_dirs(self):
        return [kind.folder / "templates" for kind in registry.KINDS.values()]

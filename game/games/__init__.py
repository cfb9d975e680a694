"""The games the site plays, each whole in a folder of its own here (engine, bots, faces, log
sentences, table pieces and partials, rulebook, and its Kind in kind.py). The platform reaches
them only through game.registry."""

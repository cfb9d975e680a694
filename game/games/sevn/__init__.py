"""SEVN, the push-your-luck card game: everything about it in one folder (engine, bots, faces,
log sentences, table pieces and partials, rulebook pictures, and its Kind in kind.py)."""

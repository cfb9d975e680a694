"""Sevens (Fan Tan), the second game: everything about it in one folder (engine, bots, faces,
log sentences, table pieces and partials, rulebook pictures, and its Kind in kind.py), with the
same file names as game/games/sevn for the same jobs."""

"""How the process guards and measures itself at run time: rate limits, capacity and
admission, a shared service down, the trusted proxy, request bodies, CPU by stage of a move.
Nothing of a game; imports only game.core."""

"""Staff tools in Django's admin: the tables (tables.py: tables, seats, games, events, presence)
and the moderators' review (review.py: reports, sanctions, chat, the moderators' log). Every change
they make goes through game.services, and its update is broadcast like a player's."""

"""What both games draw alike: the pieces kit (a piece, its partial and the one memo of drawn
HTML), what every table has (its meta, presence, turn pill, rematch, seat names) and the log
sentences of what the table itself does. The games build their tables from it."""

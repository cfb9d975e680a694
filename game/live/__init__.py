"""The live table: the table socket (moves, chat, presence), its transport guard and origin check,
the watcher that resyncs screens from the database, and the timers that fire deadlines. Writes
go through game.services; HTML comes from game.screen."""

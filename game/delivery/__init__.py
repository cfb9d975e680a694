"""Telling every screen of a table to redraw: the channel layers (process-local and Redis) and the
broadcast of a service's update to each process's sockets once."""

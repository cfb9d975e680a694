"""The web pages, one module per page family (home, table, chat, reports, accounts), the create
form, the middleware and the language switcher. Writes go through game.services."""

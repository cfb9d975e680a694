"""Sevens (Fan Tan): the site's second game. `engine` holds the rules, `bots` the computer players;
both are pure Python (no Django), so the web app, benches and tests share them."""

"""`meeple serve`: the games played in a browser (the optional `web` extra).

It stands above the `Game` API like the CLI and the bots: every page and message for a
seat is built from that seat's view (`Game.view`), the moves it may make
(`Game.legal_moves`, named by `Game.move_text` as that seat reads them) and the display
modules that draw a view; a table's state stays in the server process and never leaves
it whole.  docs/web.md describes the pages, the seat links and why nothing leaks.
"""

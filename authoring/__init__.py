"""Tools for people writing rulesets, above the language's front end (dsl): the
scaffold of a new ruleset (`meeple new`) and the language server behind `meeple lsp`.

Nothing here runs a game.  Everything reads what the pipeline already knows (the
checker's diagnostics, the built ruleset, the schema of the language, the function
library) and answers an author's or an editor's questions about it; only `server.py`
speaks the Language Server Protocol.
"""

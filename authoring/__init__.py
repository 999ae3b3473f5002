"""Help for people writing rulesets in an editor: the language server behind `meeple lsp`.

Everything here reads what the pipeline already knows (the checker's diagnostics, the
built ruleset, the schema of the language, the function library) and answers an editor's
questions about it; only `server.py` speaks the Language Server Protocol.
"""

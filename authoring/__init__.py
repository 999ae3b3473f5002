"""Tools for people writing rulesets, above the language's front end (dsl): the
scaffold of a new ruleset (`meeple new`) and the language server (`meeple lsp`).
Nothing here runs a game; it reads and checks rulesets as the loader does."""

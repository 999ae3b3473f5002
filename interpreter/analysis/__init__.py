"""Tools built on the `Game` API: exploration, lint, conformance, scenarios, playthroughs, differential runs and sampling."""

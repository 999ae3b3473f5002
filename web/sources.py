"""Which rulesets the lobby offers: the shipped ones, the folders given to `meeple serve`,
and any folder typed in, but only while the server listens on this computer alone.

A folder typed into a page is read by the server; its diagnostics quote the file's lines.
Served to a network, that would let anyone who reaches the lobby read files of the
server's, so a server bound to another address takes only what its command line named.
"""
from __future__ import annotations

from pathlib import Path

from meeple.dsl.diagnostics import RulesetError
from meeple.interpreter import find_ruleset, list_rulesets, load_rules

from .tables import Refused

LOOPBACK = ("127.0.0.1", "localhost", "::1")


class Sources:
    def __init__(self, folders=(), any_folder: bool = False):
        self.folders = [str(Path(f).resolve()) for f in folders]
        self.any_folder = any_folder
        self._titles: dict = {}  # source -> (newest file's time, title, player counts)

    def listed(self) -> list[str]:
        return list_rulesets() + self.folders

    def title(self, source: str) -> tuple[str, str]:
        """(title, player counts) for the lobby's list; read again only when a file changed
        (reading and checking every ruleset takes seconds)."""
        folder = Path(source) if source in self.folders else find_ruleset(source)
        stamp = max((f.stat().st_mtime_ns for f in folder.rglob("*.yaml")), default=0)
        kept = self._titles.get(source)
        if kept is None or kept[0] != stamp:
            try:
                info = self.rules(source)[1].ruleset.game
            except Refused:
                kept = (stamp, source, "?")
            else:
                players = str(info.min_players) if info.min_players == info.max_players \
                    else f"{info.min_players}–{info.max_players}"
                kept = (stamp, info.title or info.name, players)
            self._titles[source] = kept
        return kept[1], kept[2]

    def rules(self, source: str):
        """(where the ruleset is, its compiled rules); read again when its files changed."""
        shipped = list_rulesets()
        if source not in shipped:
            if "/" not in source and "\\" not in source:
                raise Refused(404, "W404", "no ruleset '{name}'; the shipped ones are {names}", name=source,
                              names=", ".join(shipped))
            folder = str(Path(source).expanduser().resolve())
            if folder not in self.folders and not self.any_folder:
                raise Refused(403, "W403", "folders are accepted only when the server listens on this computer alone")
            if not Path(folder).exists():
                raise Refused(404, "W404", "no ruleset '{name}'", name=source)
            source = folder
        try:
            return source, load_rules(source)
        except RulesetError as exc:
            raise Refused(400, "W400", "the ruleset has errors",
                          details="\n".join(d.render() for d in exc.diagnostics)) from None
        except (FileNotFoundError, OSError) as exc:
            raise Refused(404, "W404", "no ruleset '{name}'", name=source, details=str(exc)) from None

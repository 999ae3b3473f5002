"""Which rulesets the lobby offers: the shipped ones, the folders given to `meeple serve`,
and any folder typed in, but only while the server listens on this computer alone.

A folder typed into a page is read by the server; its diagnostics quote the file's lines.
Served to a network, that would let anyone who reaches the lobby read files of the
server's, so a server bound to another address takes only what its command line named.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from meeple.dsl.diagnostics import RulesetError
from meeple.interpreter import find_ruleset, list_rulesets, load_rules

from .tables import Refused

LOOPBACK = ("127.0.0.1", "localhost", "::1")


class Sources:
    def __init__(self, folders=(), any_folder: bool = False):
        self.folders = [str(Path(f).resolve()) for f in folders]
        self.any_folder = any_folder

    def listed(self) -> list[str]:
        return list_rulesets() + self.folders

    def title(self, source: str) -> tuple[str, str]:
        """(title, player counts) for the lobby's list, from the `game:` section as written
        (reading and checking every ruleset would take seconds); a section that does not
        read plainly is left to the loader, whose diagnostics the setup page then shows."""
        folder = Path(source) if source in self.folders else find_ruleset(source)
        for path in sorted(folder.glob("*.y*ml")):
            try:
                info = yaml.safe_load(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, yaml.YAMLError):
                continue
            game = info.get("game") if isinstance(info, dict) else None
            if isinstance(game, dict):
                players = game.get("players")
                if isinstance(players, dict):
                    players = f"{players.get('min')}–{players.get('max')}"
                return str(game.get("title") or game.get("name") or folder.name), str(players).replace("-", "–")
        return folder.name, "?"

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

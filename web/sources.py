"""Which rulesets the lobby offers, and which a request may make the server read.

The server reads from disk only what its command line named: the shipped rulesets and
the folders given with `--rules`.  A path typed into a request is refused without a look
at the disk, unless the server was started with `--allow-paths`, and even then only from
a POST: a GET is what any page can make a browser send (a link, an `<img>`), so a GET
never makes the server read a file.  (A POST from another site is refused by guard.py.)

What the server says of a typed path's ruleset is its setup page when it loads, and when
it does not, how many errors it has and nothing of its text: diagnostics quote the file's
lines, and a typed path may name any file the server can read (/etc/passwd).  Only the
rulesets the command line named have their diagnostics shown, for their authors.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from meeple.dsl.diagnostics import RulesetError
from meeple.dsl.load import load_ruleset
from meeple.dsl.source import read_source
from meeple.interpreter import list_rulesets, load_rules
from meeple.interpreter.runtime.loading import DEFAULT_BACKEND, RULESETS, rules_for

from .tables import Refused


class Sources:
    def __init__(self, folders=(), allow_paths: bool = False):
        self.folders = [str(Path(f).resolve()) for f in folders]
        self.allow_paths = allow_paths

    def listed(self) -> list[str]:
        return list_rulesets() + self.folders

    def title(self, source: str) -> tuple[str, str]:
        """(title, player counts) for the lobby's list, from the `game:` section as written
        (reading and checking every ruleset would take seconds); a section that does not
        read plainly is left to the loader, whose diagnostics the setup page then shows."""
        folder = Path(source) if source in self.folders else RULESETS / source
        for path in sorted(folder.glob("*.y*ml")):
            text, problem = read_source(path, path.name)  # bounded: a --rules folder may hold anything
            try:
                info = yaml.safe_load(text) if problem is None else None
            except yaml.YAMLError:
                continue
            game = info.get("game") if isinstance(info, dict) else None
            if isinstance(game, dict):
                players = game.get("players")
                if isinstance(players, dict):
                    players = f"{players.get('min')}–{players.get('max')}"
                return str(game.get("title") or game.get("name") or folder.name), str(players).replace("-", "–")
        return folder.name, "?"

    def rules(self, source: str, typed: bool = False):
        """(where the ruleset is, its compiled rules).  `typed`: the request is a POST,
        which may name a path when --allow-paths is on."""
        if source in list_rulesets() or source in self.folders:
            return source, self._load(source)
        if "/" not in source and "\\" not in source:
            raise Refused(404, "W404", "no ruleset '{name}'; the shipped ones are {names}", name=source,
                          names=", ".join(list_rulesets()))
        if not (self.allow_paths and typed):
            raise self.path_refused()
        try:
            path = Path(source).expanduser().resolve(strict=True)
        except (OSError, RuntimeError):  # missing, unreadable, a loop of links
            raise Refused(404, "W404", "nothing at that path can be read as a ruleset") from None
        if str(path) in self.folders:
            return str(path), self._load(str(path))
        if not (path.is_dir() or path.is_file()):  # a device, a pipe: reading it might never end
            raise Refused(400, "W400", "that path is neither a folder nor a file")
        try:
            return str(path), self._load(str(path))
        except Refused as exc:  # its diagnostics would quote the file, which may be any file
            if exc.status == 400:
                raise Refused(400, "W400", "the ruleset at that path has {n} error(s); run `meeple validate` on "
                              "it to see them", n=exc.values["n"]) from None
            raise Refused(404, "W404", "nothing at that path can be read as a ruleset") from None

    def path_refused(self) -> Refused:
        """Why a path named in a request is not read: the server reads none (the usual
        case), or only one typed into the lobby's form (a POST) with --allow-paths."""
        if not self.allow_paths:
            return Refused(403, "W403", "this server reads only the rulesets in its lobby; start it with --rules "
                           "FOLDER to add one")
        return Refused(403, "W403", "a ruleset path is read only from the lobby's form (a POST), never from an "
                       "address")

    def again(self, source: str):
        """The rules of an open table, read again because its files changed.  The table's
        ruleset, named by the command line or typed and then loaded, has shown it is one,
        so its diagnostics are shown to its author: they quote a ruleset, not some other file."""
        return self._load(source)

    def _load(self, source: str):
        named = source in list_rulesets() or source in self.folders
        path = RULESETS / source if source in list_rulesets() else Path(source)
        try:
            # A typed path is read by load_ruleset alone: load_rules's cache first reads the
            # files whole, load_ruleset each at most up to the size limit, and only regular files.
            return load_rules(path) if named else rules_for(load_ruleset(path), DEFAULT_BACKEND)
        except RulesetError as exc:
            raise Refused(400, "W400", "the ruleset has errors", n=len(exc.errors),
                          details="\n".join(d.render() for d in exc.diagnostics)) from None
        except OSError as exc:
            raise Refused(404, "W404", "no ruleset '{name}'", name=source, details=str(exc)) from None

"""The front of the pipeline: read -> build -> check -> normalize.

`load_ruleset(path)` returns a checked Ruleset, or raises RulesetError with
every diagnostic found in every file (warnings alone do not stop it).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from .build import (SECTIONS, SINGLE_SECTIONS, build_checks, build_summary, build_end, build_game, build_named,
                    build_scoring)
from .build_flow import build_effects, build_flow
from .build_support import Reader
from .diagnostics import Diagnostic, RulesetError, register_source
from .fragments import build_fragments, expand_fragments
from .model import Ruleset
from .schema import check_sections
from .source import (MAX_FILE_BYTES, MAX_RULESET_FILES, LDict, Span, YamlError, decode_source, read_source,
                     read_yaml)


def ruleset_files(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.glob("*.yaml") if p.is_file()) + \
            sorted(p for p in path.glob("*.yml") if p.is_file())
    return [path]


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _file_text(f: Path, name: str, texts: dict[Path, str]) -> tuple[str, YamlError | None]:
    """A file's text: the caller's version if it gave one (an editor's unsaved buffer), else the disk's."""
    given = texts.get(f.resolve())
    if given is None:
        return read_source(f, name)
    data = given.encode("utf-8", errors="replace")  # a lone surrogate cannot be a ruleset's text
    if len(data) > MAX_FILE_BYTES:
        return "", YamlError(f"the file is {len(data):,} bytes; a ruleset file may hold at most "
                             f"{MAX_FILE_BYTES:,}", Span(name, 1, 1, 1, 2), "Y012")
    return decode_source(data, name)


def read_ruleset(path: str | Path, texts: dict[Path, str] | None = None
                 ) -> tuple[Ruleset | None, list[Diagnostic]]:
    """Build without raising: the Ruleset (None if unusable) and all diagnostics.

    `texts` gives the text to use for some of the files instead of what is on disk
    (keys are the files' paths, matched once resolved), so an editor can have the
    ruleset checked as it stands in its unsaved buffers."""
    path = Path(path)
    texts = {Path(f).resolve(): text for f, text in (texts or {}).items()}
    diagnostics: list[Diagnostic] = []
    if not path.exists():
        return None, [Diagnostic("Y002", f"no such file or folder: {path}", Span.unknown(str(path)))]
    files = ruleset_files(path)
    if not files:
        return None, [Diagnostic("Y003", f"{path} holds no .yaml files", Span.unknown(str(path)))]
    if len(files) > MAX_RULESET_FILES:
        return None, [Diagnostic("Y012", f"{path} holds {len(files)} .yaml files; a ruleset may have at "
                                 f"most {MAX_RULESET_FILES}", Span.unknown(str(path)))]
    digest = hashlib.sha256()
    parts = {s: [] for s in SECTIONS}
    for f in files:
        name = _display(f)
        text, problem = _file_text(f, name, texts)
        register_source(name, text)
        if problem is not None:
            diagnostics.append(Diagnostic(problem.code, problem.message, problem.span))
            continue
        digest.update(f.name.encode() + b"\0" + text.encode() + b"\0")
        try:
            doc = read_yaml(f, text, name)
        except YamlError as exc:
            diagnostics.append(Diagnostic(exc.code, exc.message, exc.span))
            continue
        if doc is None:
            continue
        if not isinstance(doc, LDict):
            diagnostics.append(Diagnostic("S103", "a ruleset file must be a mapping of sections",
                                          getattr(doc, "span", Span.unknown(name))))
            continue
        for key, value in doc.items():
            if str(key).startswith("x-"):
                continue  # a place for anchors and templates, ignored
            if key not in SECTIONS:
                import difflib
                close = difflib.get_close_matches(str(key), SECTIONS, n=1)
                diagnostics.append(Diagnostic(
                    "S101", f"unknown section '{key}'" + (f"; did you mean '{close[0]}'?" if close else ""),
                    doc.key_spans[key], notes=(f"expected one of: {', '.join(SECTIONS)} (or a key starting with x- for templates)",),
                    suggestions=tuple(close)))
                continue
            parts[key].append((name, value, doc.key_spans[key]))
    r = Reader(_display(files[0]))
    check_sections(r, parts)  # every key's kind, before the builders read them
    for section in SINGLE_SECTIONS:
        for name, _, span in parts[section][1:]:
            r.error("S104", f"section '{section}' is given twice", span,
                    notes=[f"first in {parts[section][0][0]}"])
    if not parts["game"]:
        if not any(d.severity == "error" for d in diagnostics + r.diagnostics):
            r.error("S102", "the ruleset has no 'game' section", Span(_display(files[0]), 1, 1, 1, 2),
                    beyond_schema=True)  # the shape pass checks sections, not their absence
        return None, diagnostics + r.diagnostics
    game = build_game(r, parts["game"][0][1], parts["game"][0][2])
    named = {s: {} for s in ("components", "variables", "zones", "boards", "define", "actions", "triggers")}
    # Actions and triggers each have a namespace of their own; the other sections share one.
    seen: dict = {}
    own = {"actions": {}, "triggers": {}}
    for section, into in named.items():
        for _, value, _ in parts[section]:
            build_named(r, section, value, into, own.get(section, seen))
    setup = [e for _, v, _ in parts["setup"] for e in build_effects(r, v, "setup")]
    flow = build_flow(r, parts["flow"][0][1]) if parts["flow"] else []
    fragments = build_fragments(r, [v for _, v, _ in parts["fragments"]])
    flow = expand_fragments(r, fragments, flow, named["actions"], set(seen))
    end = [e for _, v, _ in parts["end"] for e in build_end(r, v)]
    scoring = build_scoring(r, parts["scoring"][0][1]) if parts["scoring"] else None
    invariants = [c for _, v, span in parts["invariants"] for c in build_checks(r, v, "invariants", span)]
    summary = build_summary(r, parts["summary"][0][1]) if parts["summary"] else []
    diagnostics += r.diagnostics
    if game is None:
        return None, diagnostics
    rs = Ruleset(game, named["components"], named["variables"], named["zones"], named["boards"],
                 named["define"], setup, flow, named["actions"], named["triggers"], end, scoring,
                 [_display(f) for f in files], digest.hexdigest()[:16], str(path), invariants, fragments, summary)
    return rs, diagnostics


def check_ruleset(rs: Ruleset) -> list[Diagnostic]:
    from .checks import run_all
    return list(run_all(rs))


def load_ruleset(path: str | Path) -> Ruleset:
    rs, diagnostics = read_ruleset(path)
    if rs is not None:
        diagnostics += check_ruleset(rs)
    if rs is None or any(d.severity == "error" for d in diagnostics):
        raise RulesetError(diagnostics)
    rs.warnings = [d for d in diagnostics if d.severity != "error"]
    return rs

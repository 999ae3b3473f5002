"""Every option of every `meeple` command says what it is for (`meeple CMD --help` is the
first place a newcomer looks), and a short option means the same thing in every command
that has it (`-o` cannot be `--output` in one and `--option` in another)."""
from __future__ import annotations

import typer

from meeple.cli.main import app


def _commands():
    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    for name in group.list_commands(ctx):
        yield name, group.get_command(ctx, name)


def _visible_params(command):
    return [p for p in command.params if not getattr(p, "hidden", False)]


def test_every_option_and_argument_has_help():
    missing = []
    for name, command in _commands():
        for param in _visible_params(command):
            if param.param_type_name == "option" and not (param.help or "").strip():
                missing.append(f"meeple {name} {param.opts[0]}")
            if param.param_type_name == "argument" and not (getattr(param, "help", None) or "").strip():
                missing.append(f"meeple {name} {param.name.upper()}")
    assert not missing, "without help text: " + ", ".join(missing)


def test_a_short_option_means_one_thing_in_every_command():
    meanings: dict[str, dict[str, list[str]]] = {}
    for name, command in _commands():
        for param in command.params:
            if not param.param_type_name == "option":
                continue
            longs = [o for o in param.opts + param.secondary_opts if o.startswith("--")]
            for short in (o for o in param.opts if not o.startswith("--")):
                meanings.setdefault(short, {}).setdefault(longs[0], []).append(name)
    clashes = {short: uses for short, uses in meanings.items() if len(uses) > 1}
    assert not clashes, f"a short option with two meanings: {clashes}"


def test_the_version_is_printed():
    from typer.testing import CliRunner
    from importlib.metadata import version
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"meeple {version('meeple')}"

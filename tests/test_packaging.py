"""Every folder of Python code is declared as a subpackage in pyproject.toml, or a plain
`pip install .` (what CI and users get) would leave it out."""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_code_folder_is_a_declared_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    declared = set(config["package-dir"].values())
    folders = {str(p.parent.relative_to(ROOT)) for p in ROOT.glob("*/**/__init__.py")
               if not any(part.startswith(".") or part in ("tests", "build") for part in p.parts)}
    assert folders <= declared, folders - declared
    assert set(config["packages"]) == set(config["package-dir"])

"""What hover and completion say about the library's functions: the signatures and
one-line results of the function tables in docs/expressions.md.

docs/ is not installed with the package, so the tables are shipped as
`function_docs.json`, made from the page by `python -m meeple.authoring.function_docs
docs/expressions.md`; tests/test_lsp_function_docs.py fails when the page and the
file drift apart, or when a library function has no entry.
"""
from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from pathlib import Path

SHIPPED = Path(__file__).with_name("function_docs.json")

# The page's sections whose tables list functions.
_SECTIONS = ("## Functions", "## Lambdas")
_SIGNATURE = re.compile(r"`([a-z_]+)\(([^`]*)\)`")


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split(" | ")]


def parse_page(text: str) -> dict[str, dict]:
    """{function: {"signatures": [...], "results": [...], "examples": [...], "group": heading}}
    from the tables of the page's function sections, in the page's order."""
    out: dict[str, dict] = {}
    inside, group = False, ""
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line.strip() in _SECTIONS
            group = line[3:].strip()
        elif line.startswith("### ") and inside:
            group = line[4:].strip()
        elif inside and line.startswith("| `"):
            cells = _cells(line)
            signatures = [f"{name}({args})" for name, args in _SIGNATURE.findall(cells[0])]
            result = cells[1] if len(cells) > 1 else ""
            example = cells[2] if len(cells) > 2 else ""
            for name in dict.fromkeys(s.split("(")[0] for s in signatures):
                entry = out.setdefault(name, {"signatures": [], "results": [], "examples": [],
                                              "group": group})
                entry["signatures"] += [s for s in signatures if s.split("(")[0] == name]
                entry["results"].append(result)
                if example:
                    entry["examples"].append(example)
    return out


def render(entries: dict[str, dict]) -> str:
    return json.dumps(entries, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


@lru_cache(maxsize=1)
def function_docs() -> dict[str, dict]:
    """The shipped tables, read once per process."""
    return json.loads(SHIPPED.read_text(encoding="utf-8"))


if __name__ == "__main__":
    page = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/expressions.md")
    SHIPPED.write_text(render(parse_page(page.read_text(encoding="utf-8"))), encoding="utf-8")
    print(f"wrote {SHIPPED}")

"""The frame every page shares: its head, the language switch, the scripts."""
from __future__ import annotations

from urllib.parse import urlencode

from .html import Markup, esc, tag
from .words import LANGUAGE_NAMES, LANGUAGES, word


def page(title: str, body: Markup, lang: str, path: str, query: dict | None = None, data: dict | None = None,
         script: bool = False) -> str:
    """`path` and `query`: the page's own address, for the language links; `data`: the
    body's `data-` attributes the script reads (the link's token)."""
    switch = []
    for other in LANGUAGES:
        name = LANGUAGE_NAMES[other]
        if other == lang:
            switch.append(tag("strong", name))
        else:
            switch.append(tag("a", name, href=f"{path}?{urlencode({**(query or {}), 'lang': other})}",
                              hreflang=other, class_="lang"))
    data_attrs = "".join(f' data-{k}="{esc(v)}"' for k, v in (data or {}).items())
    return (f'<!doctype html>\n<html lang="{esc(lang)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title>"
            '<link rel="stylesheet" href="/static/style.css"></head>'
            f'<body data-lang="{esc(lang)}"{data_attrs}><header>'
            + tag("a", "meeple", href=f"/?lang={lang}", class_="home")
            + f'<nav class="languages" aria-label="{esc(word(lang, "language"))}">' + " · ".join(switch) + "</nav>"
            + f"</header><main>{body}</main>"
            + ('<script src="/static/table.js"></script>' if script else "")
            + "</body></html>")


def error_page(status: int, message: str, lang: str, details: str = "", code: str = "") -> str:
    """A refusal as a page: its reason, and its code where a program can find it."""
    heading = {404: "not found", 403: "refused"}.get(status, "bad request")
    body = Markup(tag("h1", word(lang, heading))
                  + tag("p", message, class_="error", data_code=code or None)
                  + (tag("pre", details, class_="diagnostics") if details else "")
                  + tag("p", tag("a", word(lang, "back to the lobby"), href=f"/?lang={lang}")))
    return page(word(lang, heading), body, lang, "/")

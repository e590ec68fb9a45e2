"""The HTML part of a mail, made from the same catalog text as its plain-text part, so a
sentence is written once and both parts say the same.

The body's paragraphs (blank-line separated) become ``<p>`` (their lines joined by ``<br>``),
a paragraph whose every line starts with "- " becomes a list, an address becomes a link, and a
``MailTable`` parameter (an order's lines, its charges) becomes a table with a caption, column
headers and, for a row of one cell, a group header (a child's day: its meals follow); its
``text`` is what the plain-text part shows. Everything else is escaped.
The page is one column of 600 px at most, its language set (``lang``), with the product's
colours at AA contrast and styles inline (mail programs drop style sheets).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

# Text #1c2024 and muted #60646c on white, links #c4351f (tomato, 5.4:1): AA for body text.
_TEXT, _MUTED, _LINK, _RULE, _PAGE = "#1c2024", "#60646c", "#c4351f", "#dcdbd7", "#f6f5f3"
_FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
_URL = re.compile(r"https?://[^\s<>\"']+[^\s<>\"'.,;:!?)]")
_BULLET = re.compile(r"^\s*- ")
_SLOT = "\x00{}\x00"
_SLOT_RE = re.compile("(\x00\\d+\x00)")


@dataclass(frozen=True)
class MailTable:
    """A table of a mail: ``rows`` under ``columns`` in the HTML part, ``text`` in the plain
    one (a catalog placeholder filled with it reads as ``text``)."""

    text: str
    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]  # a row of one cell heads the group of rows after it
    numeric: frozenset[int] = frozenset()  # right-aligned columns: quantities, amounts

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)


def slots(params: dict[str, object]) -> tuple[dict[str, object], dict[str, MailTable]]:
    """``params`` with each table replaced by a marker the body keeps through ``str.format``,
    and the tables by marker."""
    tables: dict[str, MailTable] = {}
    marked: dict[str, object] = {}
    for key, value in params.items():
        if isinstance(value, MailTable):
            slot = _SLOT.format(len(tables))
            tables[slot] = value
            marked[key] = slot
        else:
            marked[key] = value
    return marked, tables


def document(*, lang: str, subject: str, body: str, tables: dict[str, MailTable]) -> str:
    """The whole HTML mail for ``body`` (catalog text rendered with ``slots``' markers)."""
    blocks = [_block(p, tables) for p in re.split(r"\n\s*\n", body.strip()) if p.strip()]
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(subject)}</title>\n</head>\n"
        f'<body style="margin:0;padding:0;background:{_PAGE};">\n'
        f'<div role="article" aria-label="{escape(subject)}" lang="{escape(lang)}" '
        f'style="max-width:600px;margin:0 auto;padding:24px 20px;background:#ffffff;'
        f'color:{_TEXT};font-family:{_FONT};font-size:16px;line-height:1.5;">\n'
        + "\n".join(blocks)
        + "\n</div>\n</body>\n</html>\n"
    )


def _block(paragraph: str, tables: dict[str, MailTable]) -> str:
    parts = [p for p in _SLOT_RE.split(paragraph) if p.strip()]
    out = []
    for part in parts:
        if part in tables:
            out.append(_table(tables[part]))
            continue
        lines = [line.strip() for line in part.strip("\n").splitlines() if line.strip()]
        if lines and all(_BULLET.match(line) for line in part.strip("\n").splitlines()):
            items = "".join(f"<li>{_inline(_BULLET.sub('', line))}</li>" for line in lines)
            out.append(f'<ul style="margin:0 0 16px;padding-left:24px;">{items}</ul>')
        else:
            text = "<br>\n".join(_inline(line) for line in lines)
            out.append(f'<p style="margin:0 0 16px;">{text}</p>')
    return "\n".join(out)


def _inline(text: str) -> str:
    """Escaped text whose addresses are links."""
    out, last = [], 0
    for match in _URL.finditer(text):
        out.append(escape(text[last : match.start()]))
        url = escape(match.group(0))
        out.append(f'<a href="{url}" style="color:{_LINK};text-decoration:underline;">{url}</a>')
        last = match.end()
    out.append(escape(text[last:]))
    return "".join(out)


def _cell(tag: str, text: str, right: bool, scope: str = "", span: int = 1) -> str:
    align = "right" if right else "left"
    weight = "font-weight:600;" if tag == "th" else ""
    weight += "white-space:nowrap;" if right else ""  # an amount on one line
    attrs = (f' scope="{scope}"' if scope else "") + (f' colspan="{span}"' if span > 1 else "")
    return (
        f'<{tag}{attrs} style="text-align:{align};{weight}padding:6px 8px;'
        f'border-bottom:1px solid {_RULE};vertical-align:top;">{_inline(text)}</{tag}>'
    )


def _table(table: MailTable) -> str:
    width = len(table.columns)
    head = "".join(
        _cell("th", name, i in table.numeric, "col") for i, name in enumerate(table.columns)
    )
    groups: list[list[str]] = [[]]
    for row in table.rows:
        if len(row) == 1 and width > 1:  # a group's header: its rows follow in its own tbody
            groups.append([f"<tr>{_cell('th', row[0], False, 'rowgroup', width)}</tr>"])
            continue
        cells = "".join(_cell("td", v, i in table.numeric) for i, v in enumerate(row))
        groups[-1].append(f"<tr>{cells}</tr>")
    bodies = "".join(f"<tbody>{''.join(rows)}</tbody>" for rows in groups if rows)
    return (
        '<table role="table" style="width:100%;border-collapse:collapse;margin:0 0 16px;'
        'font-size:15px;">'
        f'<caption style="text-align:left;font-weight:600;padding:0 0 8px;color:{_MUTED};">'
        f"{escape(table.caption)}</caption>"
        f"<thead><tr>{head}</tr></thead>{bodies}</table>"
    )

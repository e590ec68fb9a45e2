"""The kitchen's day as files and text, in a language (``services/kitchen.py`` freezes the facts):
the labels as a PDF on a label sheet and as CSV, the production list as readable text and as
CSV.

The label sheet is the Avery 5163 / 8163 layout (the common shipping-label sheet, sold by every
office supplier, and printable on any laser or inkjet printer): US Letter, two columns of five
2" x 4" labels, 0.5" from the top, 5/32" from the sides, 3/16" between the columns. One label
per meal, in the order of the frozen labels (classroom, then child); each vendor's labels start
on a new sheet. The text is real text in DejaVu Sans (``receipt_pdf.font_files``), so it can be
searched and extracted. A label with a Major allergy carries a black box with "MAJOR ALLERGY" /
« ALLERGIE MAJEURE » and the allergens in white capitals; every allergy is printed whole (the
font shrinks to keep it), while the options and the special message are shortened with "…"
when the label is full.

CSV: one row per label (``LABEL_COLUMNS``), UTF-8 without a byte order mark, English column
names; the names (meal, options, add-ons, allergens, grade) in the chosen language, the size,
the alert levels and the dietary marks as their codes. Allergies are written
``Peanuts:Major; Milk:Low`` (most severe first), the allergens the meal as composed contains
are repeated in ``allergens_in_meal``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import cast

from fpdf import FPDF

from hotmeals.domain.cutoff import TORONTO
from hotmeals.domain.dates import full_day
from hotmeals.i18n import t, tn
from hotmeals.services.kitchen import KitchenLabels, KitchenProduction, ProductionList
from hotmeals.services.kitchen_labels import Label, Named, diet_label
from hotmeals.services.ordering.labels import size_label
from hotmeals.services.receipt_pdf import font_files

# Avery 5163 / 8163, in millimetres.
INCH = 25.4
SHEET_COLUMNS, SHEET_ROWS = 2, 5
LABEL_W, LABEL_H = 4 * INCH, 2 * INCH
SHEET_LEFT, SHEET_TOP = 5 / 32 * INCH, 0.5 * INCH
COLUMN_GAP = 3 / 16 * INCH
PAD_X, PAD_Y = 4.0, 3.2
TEXT_W = LABEL_W - 2 * PAD_X

LABEL_COLUMNS = (
    "vendor",
    "date",
    "school",
    "teacher",
    "grade",
    "child",
    "order",
    "order_line_id",
    "meal_no",
    "meal",
    "size",
    "menu_option",
    "meal_option",
    "add_ons",
    "allergies",
    "allergens_in_meal",
    "diets",
    "meal_diets",
    "diet_fits",
    "special_message",
)


# --- words shared by the files ----------------------------------------------------------------


def _opt(value: Named | None, lang: str) -> str:
    return value.name(lang) if value is not None else ""


def choices_text(label: Label, lang: str) -> str:
    """The options and add-ons: "White milk · Gluten-free bun · + Apple, Cookie"."""
    parts = [x for x in (_opt(label.menu_option, lang), _opt(label.meal_option, lang)) if x]
    if label.addons:
        parts.append("+ " + ", ".join(a.name(lang) for a in label.addons))
    return " · ".join(parts)


def allergy_text(label: Label, lang: str, *, majors: bool = True) -> str:
    """The child's allergies with their levels (those in the meal said so); ``majors=False``
    leaves the Major ones out (the label prints them in their black box)."""
    words = []
    for a in label.allergies:
        if a.is_major and not majors:
            continue
        key = "kitchen.allergy_in_meal" if a.in_meal else "kitchen.allergy"
        words.append(t(key, lang, allergen=a.name(lang), level=a.level_label(lang)))
    return ", ".join(words)


def major_text(label: Label, lang: str) -> str:
    """``MAJOR ALLERGY: PEANUTS (IN THIS MEAL)`` for the label's black box ("" without one)."""
    in_meal = t("kitchen.in_meal", lang)
    names = [
        a.name(lang).upper() + (f" ({in_meal})" if a.in_meal else "")
        for a in label.allergies
        if a.is_major
    ]
    if not names:
        return ""
    return f"{t('kitchen.major_box', lang)}{' :' if lang == 'fr' else ':'} {', '.join(names)}"


def diet_text(label: Label, lang: str) -> str:
    """ "Diet: Halal, No pork — fits" ("" when the child has no dietary need)."""
    if not label.diets:
        return ""
    needs = ", ".join(diet_label(d, lang) for d in label.diets)
    verdict = (
        t("kitchen.diet_fits", lang)
        if label.fits
        else t(
            "kitchen.diet_unmet", lang, needs=", ".join(diet_label(d, lang) for d in label.unmet)
        )
    )
    return f"{t('kitchen.diet', lang, needs=needs)} — {verdict}"


def note_text(label: Label, lang: str) -> str:
    return t("kitchen.note", lang, note=label.special_note) if label.special_note else ""


def meal_text(label: Label, lang: str) -> str:
    return f"{label.meal.name(lang)} — {size_label(label.size, lang)}"


# --- the PDF label sheet ------------------------------------------------------------------------


class _Sheet(FPDF):
    def __init__(self, lang: str) -> None:
        super().__init__(orientation="P", unit="mm", format="letter")
        self.lang = lang
        files = font_files()
        if files:
            self.add_font("body", "", str(files[0]))
            self.add_font("body", "B", str(files[1]))
            self.family_name, self.unicode = "body", True
        else:
            self.family_name, self.unicode = "helvetica", False
        self.set_auto_page_break(False)
        self.set_margins(0, 0, 0)
        self.c_margin = 0

    def text_of(self, value: str) -> str:
        if self.unicode:
            return value
        return value.encode("latin-1", "replace").decode("latin-1")

    def font(self, size: float, bold: bool = False) -> None:
        self.set_font(self.family_name, "B" if bold else "", size)

    def lines(self, text: str, size: float, bold: bool = False, width: float = TEXT_W) -> list[str]:
        """``text`` wrapped to ``width`` at ``size``."""
        if not text:
            return []
        self.font(size, bold)
        out = self.multi_cell(width, 1, self.text_of(text), dry_run=True, output="LINES")
        return [str(x) for x in cast(list[str], out)]

    def fit(self, text: str, size: float, bold: bool = False, width: float = TEXT_W) -> str:
        """``text`` on one line of ``width``, shortened with "…" when it is longer."""
        self.font(size, bold)
        text = self.text_of(text)
        if self.get_string_width(text) <= width:
            return text
        ell = self.text_of("…")
        while text and self.get_string_width(text + ell) > width:
            text = text[:-1]
        return text.rstrip() + ell

    def shortened(self, text: str, size: float, n: int, bold: bool = False) -> list[str]:
        """``text`` wrapped on at most ``n`` lines, the last shortened with "…"."""
        lines = self.lines(text, size, bold)
        if len(lines) <= n:
            return lines
        if n <= 0:
            return []
        return [*lines[: n - 1], self.fit(" ".join(lines[n - 1 :]) + " …", size, bold)]

    def put(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        bold: bool = False,
        *,
        align: str = "L",
        width: float = TEXT_W,
    ) -> None:
        """``text`` on one line at (``x``, ``y``), ``align``ed in ``width``."""
        self.font(size, bold)
        self.set_xy(x, y)
        self.cell(width, _line_h(size), self.text_of(text), align=align)


def _line_h(size: float) -> float:
    return size * 0.42  # mm per line at ``size`` points (1.2 x the font size)


def _label(pdf: _Sheet, label: Label, x0: float, y0: float) -> None:
    lang = pdf.lang
    x, y = x0 + PAD_X, y0 + PAD_Y
    bottom = y0 + LABEL_H - PAD_Y
    foot_size = 6.0
    footer_top = bottom - _line_h(foot_size)

    # The child and the classroom, then the grade, school and day.
    teacher = pdf.fit(label.teacher, 9, True, TEXT_W * 0.48)
    pdf.font(9, True)
    teacher_w = pdf.get_string_width(teacher)
    pdf.put(x, y, pdf.fit(label.child_name, 13, True, TEXT_W - teacher_w - 3), 13, True)
    pdf.put(x, y + 0.8, teacher, 9, True, align="R")  # its baseline beside the name's
    y += _line_h(13)
    grade = label.grade.name(lang) or label.grade_code
    pdf.put(x, y, pdf.fit(f"{grade} · {label.school} · {full_day(label.meal_date, lang)}", 7), 7)
    y += _line_h(7) + 0.6
    pdf.put(x, y, pdf.fit(meal_text(label, lang), 10, True), 10, True)
    y += _line_h(10)

    # What must never be lost: the allergies, whole (smaller type when they are long).
    major = major_text(label, lang)
    others = allergy_text(label, lang, majors=False)
    others = t("kitchen.allergies", lang, allergies=others) if others else ""
    diet = diet_text(label, lang)
    choices = choices_text(label, lang)
    note = note_text(label, lang)
    room = footer_top - y - 0.8
    for size in (8.0, 7.0, 6.0, 5.0):
        major_size = size + 1.5  # the black box's capitals: a size above the rest
        major_lines = pdf.lines(major, major_size, True, TEXT_W - 2.4)
        other_lines = pdf.lines(others, size, True)
        diet_lines = pdf.lines(diet, size, not label.fits)
        need = (
            (len(major_lines) * _line_h(major_size) + 1.6 if major_lines else 0)
            + len(other_lines) * _line_h(size)
            + len(diet_lines) * _line_h(size)
        )
        if need <= room - (_line_h(size) if choices else 0):
            break
    left = room - need
    choice_lines = pdf.shortened(choices, 8, min(2, int(left // _line_h(8))))
    left -= len(choice_lines) * _line_h(8)
    note_lines = pdf.shortened(note, 8, int(left // _line_h(8)))

    for line in choice_lines:
        pdf.put(x, y, line, 8)
        y += _line_h(8)
    if major_lines:
        box_h = len(major_lines) * _line_h(major_size) + 1.2
        pdf.set_fill_color(0, 0, 0)
        pdf.rect(x, y + 0.2, TEXT_W, box_h, style="F")
        pdf.set_text_color(255, 255, 255)
        for i, line in enumerate(major_lines):
            pdf.put(x + 1.2, y + 0.6 + i * _line_h(major_size), line, major_size, True)
        pdf.set_text_color(0, 0, 0)
        y += box_h + 0.4
    for line in other_lines:
        pdf.put(x, y, line, size, True)
        y += _line_h(size)
    for line in diet_lines:
        pdf.put(x, y, line, size, not label.fits)
        y += _line_h(size)
    for line in note_lines:
        pdf.put(x, y, line, 8)
        y += _line_h(8)

    foot = f"{label.order_number} · {t('kitchen.copy', lang, copy=label.copy, copies=label.copies)}"
    pdf.set_text_color(90, 90, 90)
    pdf.put(x, footer_top, pdf.fit(label.vendor, foot_size, width=TEXT_W * 0.55), foot_size)
    pdf.put(x, footer_top, foot, foot_size, align="R")
    pdf.set_text_color(0, 0, 0)


def _cell(index: int) -> tuple[float, float]:
    """The top-left corner of the ``index``-th label of a sheet (row by row)."""
    row, column = divmod(index, SHEET_COLUMNS)
    return SHEET_LEFT + column * (LABEL_W + COLUMN_GAP), SHEET_TOP + row * LABEL_H


def labels_pdf(found: KitchenLabels, lang: str) -> bytes:
    """The labels on Avery 5163 sheets, in ``lang``; each vendor's on sheets of their own."""
    pdf = _Sheet(lang)
    pdf.set_title(
        pdf.text_of(f"{t('kitchen.labels_title', lang)} — {found.school} — {found.meal_date}")
    )
    pdf.set_creator("Hot Meals")
    per_sheet = SHEET_COLUMNS * SHEET_ROWS
    for day in found.days:
        for i, label in enumerate(day.labels):
            if i % per_sheet == 0:
                pdf.add_page()
            _label(pdf, label, *_cell(i % per_sheet))
    if not found.labels:
        pdf.add_page()
        pdf.put(SHEET_LEFT + PAD_X, SHEET_TOP + PAD_Y, t("kitchen.no_meals", lang), 11)
    return bytes(pdf.output())


# --- CSV ---------------------------------------------------------------------------------------


def _csv(rows: Sequence[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows(rows)
    return out.getvalue()


def allergies_field(label: Label, lang: str) -> str:
    """``Peanuts:Major; Milk:Low``: each allergy's name and stored level."""
    return "; ".join(f"{a.name(lang)}:{a.level}" for a in label.allergies)


def label_row(label: Label, lang: str) -> list[str]:
    return [
        label.vendor,
        label.meal_date.isoformat(),
        label.school,
        label.teacher,
        label.grade.name(lang) or label.grade_code,
        label.child_name,
        label.order_number,
        str(label.order_line_id),
        f"{label.copy}/{label.copies}",
        label.meal.name(lang),
        label.size,
        _opt(label.menu_option, lang),
        _opt(label.meal_option, lang),
        "; ".join(a.name(lang) for a in label.addons),
        allergies_field(label, lang),
        "; ".join(a.name(lang) for a in label.allergies if a.in_meal),
        " ".join(label.diets),
        " ".join(label.meal_diets),
        ("yes" if label.fits else "no") if label.diets else "",
        label.special_note,
    ]


def labels_csv(found: KitchenLabels, lang: str) -> str:
    """One row per label (``LABEL_COLUMNS``), in the labels' order."""
    return _csv([LABEL_COLUMNS, *(label_row(x, lang) for x in found.labels)])


PRODUCTION_COLUMNS = (
    "vendor",
    "date",
    "section",
    "teacher",
    "child",
    "meal",
    "size",
    "menu_option",
    "meal_option",
    "add_ons",
    "allergies",
    "diets",
    "diet_fits",
    "special_message",
    "count",
)


def production_csv(found: KitchenProduction, lang: str) -> str:
    """The production list as CSV: its ``attention`` rows (allergies and dietary needs), then
    its ``meal`` counts, its ``add_on`` counts and its ``total``, per vendor."""
    rows: list[Sequence[object]] = [PRODUCTION_COLUMNS]
    for p in found.lists:
        head = [p.vendor, p.meal_date.isoformat()]
        for r in p.attention:
            x = r.label
            rows.append(
                [
                    *head,
                    "attention",
                    x.teacher,
                    x.child_name,
                    x.meal.name(lang),
                    x.size,
                    _opt(x.menu_option, lang),
                    _opt(x.meal_option, lang),
                    "; ".join(a.name(lang) for a in x.addons),
                    allergies_field(x, lang),
                    " ".join(x.diets),
                    ("yes" if x.fits else "no") if x.diets else "",
                    x.special_note,
                    r.count,
                ]
            )
        for m in p.meals:
            rows.append(
                [
                    *head,
                    "meal",
                    "",
                    "",
                    m.meal.name(lang),
                    m.size,
                    _opt(m.menu_option, lang),
                    _opt(m.meal_option, lang),
                    *([""] * 5),
                    m.count,
                ]
            )
        for a in p.addons:
            rows.append(
                [*head, "add_on", "", "", "", "", "", "", a.addon.name(lang), *([""] * 4), a.count]
            )
        rows.append([*head, "total", *([""] * 11), p.total])
    return _csv(rows)


# --- readable text (the operator's command) ------------------------------------------------------


def _production_text(p: ProductionList, lang: str) -> list[str]:
    out = [
        t(
            "kitchen.heading",
            lang,
            school=p.school,
            vendor=p.vendor,
            day=full_day(p.meal_date, lang),
        ),
        t(
            "kitchen.frozen_at",
            lang,
            when=p.frozen_at.astimezone(TORONTO).strftime("%Y-%m-%d %H:%M"),
        ),
        "",
        t("kitchen.attention", lang),
    ]
    if not p.attention:
        out.append("  " + t("kitchen.attention_none", lang))
    for r in p.attention:
        x = r.label
        meal = meal_text(x, lang)
        choices = choices_text(x, lang)
        out.append(
            f"  {r.count} × {x.teacher} — {x.child_name} — {meal}"
            + (f" — {choices}" if choices else "")
        )
        for extra in (
            major_text(x, lang),
            t("kitchen.allergies", lang, allergies=allergy_text(x, lang, majors=False))
            if allergy_text(x, lang, majors=False)
            else "",
            diet_text(x, lang),
            note_text(x, lang),
        ):
            if extra:
                out.append(f"      {extra}")
    out += ["", t("kitchen.meals", lang)]
    if not p.meals:
        out.append("  " + t("kitchen.no_meals", lang))
    for m in p.meals:
        parts = [m.meal.name(lang), size_label(m.size, lang)]
        parts += [x for x in (_opt(m.menu_option, lang), _opt(m.meal_option, lang)) if x]
        out.append(f"  {m.count} × " + " — ".join(parts))
    out += ["", t("kitchen.addons", lang)]
    if not p.addons:
        out.append("  " + t("kitchen.addons_none", lang))
    for a in p.addons:
        out.append(f"  {a.count} × {a.addon.name(lang)}")
    out += ["", tn("kitchen.total", p.total, lang)]
    return out


def production_text(found: KitchenProduction, lang: str) -> str:
    """The production list as the operator's command prints it, each vendor in turn."""
    blocks = [
        "\n".join(
            [
                t("kitchen.title", lang),
                "=" * len(t("kitchen.title", lang)),
                *_production_text(p, lang),
            ]
        )
        for p in found.lists
    ]
    return "\n\n".join(blocks) + "\n"

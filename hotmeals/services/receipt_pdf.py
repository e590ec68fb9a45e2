"""A receipt (``services/receipts.py``) as a PDF, made with fpdf2.

The font is DejaVu Sans from the system (Debian's ``fonts-dejavu-core``, in
``/usr/share/fonts/truetype/dejavu``), embedded as a subset: French accents, "12,50 $" with its
no-break spaces, "×" and "—" all print. Nothing is downloaded. Without DejaVu the PDF falls back
to the PDF core font Helvetica (Latin-1: accents still print; a character outside it becomes
"?"), so a receipt is never refused for a missing font.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from hotmeals.i18n import t, tn
from hotmeals.services.receipt_rows import TOTALS, Receipt

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
)
WIDTH = 180  # mm of text on A4 / Letter with 15 mm margins


def font_files() -> tuple[Path, Path] | None:
    for folder in FONT_DIRS:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            return regular, bold
    return None


class _Receipt(FPDF):
    def __init__(self, lang: str) -> None:
        super().__init__(orientation="P", unit="mm", format="letter")
        self.lang = lang
        files = font_files()
        if files:
            self.add_font("body", "", str(files[0]))
            self.add_font("body", "B", str(files[1]))
            self.family_name = "body"
            self.unicode = True
        else:
            self.family_name = "helvetica"
            self.unicode = False
        self.set_margins(15, 15, 15)
        self.set_auto_page_break(True, 18)

    def text_of(self, value: Any) -> str:
        text = str(value)
        if self.unicode:
            return text
        return text.encode("latin-1", "replace").decode("latin-1")

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font(self.family_name, "", 8)
        self.set_text_color(110, 110, 110)
        self.cell(
            0, 5, self.text_of(t("receipt.pdf_page", self.lang, page=self.page_no())), align="C"
        )

    def font(self, size: float, bold: bool = False) -> None:
        self.set_font(self.family_name, "B" if bold else "", size)

    def row(
        self,
        label: Any,
        amount: Any = "",
        *,
        bold: bool = False,
        size: float = 10,
        indent: float = 0,
    ) -> None:
        """``label`` wrapped on the left, ``amount`` right-aligned on its first line."""
        self.font(size, bold)
        width = WIDTH - 40 - indent
        text = self.text_of(label)
        # fpdf2 types the result as the union of every ``output`` choice; LINES is a list.
        wrapped = cast(list[str], self.multi_cell(width, 5.5, text, dry_run=True, output="LINES"))
        lines = len(wrapped)
        if self.get_y() + 5.5 * lines > self.page_break_trigger:
            self.add_page()
        top = self.get_y()
        self.set_xy(15 + indent, top)
        self.multi_cell(width, 5.5, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        bottom = self.get_y()
        if amount != "":
            self.set_xy(15 + WIDTH - 40, top)
            self.cell(40, 5.5, self.text_of(amount), align="R")
        self.set_xy(15, bottom)

    def heading(self, text: Any) -> None:
        self.ln(3)
        self.font(12, True)
        self.cell(0, 7, self.text_of(text), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_draw_color(200, 200, 200)
        self.line(15, self.get_y(), 15 + WIDTH, self.get_y())
        self.ln(1.5)


def receipt_pdf(receipt: Receipt) -> bytes:
    """``receipt`` (``receipts.receipt``) as PDF bytes, in its language."""
    head = receipt.head
    lang = head.lang
    pdf = _Receipt(lang)
    pdf.set_title(pdf.text_of(f"{head.title} {head.number}"))
    pdf.set_author(pdf.text_of(head.seller))
    pdf.set_creator("Hot Meals")
    pdf.add_page()

    pdf.font(18, True)
    pdf.cell(0, 9, pdf.text_of(head.seller), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.font(9)
    pdf.cell(0, 5, pdf.text_of(head.hst_label), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.cell(0, 5, pdf.text_of(head.seller_email), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(4)
    pdf.font(15, True)
    pdf.cell(0, 8, pdf.text_of(head.title), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    facts = [
        (t("receipt.number", lang), head.number),
        (t("receipt.date", lang), head.day),
        (t("receipt.billed_to", lang), f"{head.parent_name} · {head.parent_email}"),
    ]
    if receipt.order_number and receipt.order_number != head.number:
        facts.insert(1, (t("receipt.order_number", lang), receipt.order_number))
    if receipt.school:
        facts.append((t("receipt.school", lang), receipt.school))
    for label, value in facts:
        pdf.font(10, True)
        pdf.cell(40, 5.5, pdf.text_of(label))
        pdf.font(10)
        pdf.cell(0, 5.5, pdf.text_of(value), new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    if receipt.groups:
        pdf.heading(t("receipt.lines", lang))
        for group in receipt.groups:
            pdf.font(11, True)
            pdf.cell(0, 6.5, pdf.text_of(group.child_name), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            for day in group.days:
                pdf.font(10, True)
                pdf.set_x(18)
                pdf.cell(0, 5.5, pdf.text_of(day.day), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
                for line in day.lines:
                    title = f"{line.meal} ({line.size_label})"
                    notes = [line.action_label or ""]
                    if line.cancelled_quantity and line.action is None:
                        notes.append(tn("receipt.cancelled_qty", line.cancelled_quantity, lang))
                    if line.moved_from_day:
                        notes.append(t("receipt.moved_from", lang, day=line.moved_from_day))
                    extra = " — ".join(n for n in notes if n)
                    pdf.row(
                        f"{title}{' — ' + extra if extra else ''}",
                        line.amount,
                        bold=True,
                        indent=6,
                    )
                    for item in line.items:
                        pdf.row(item.label, item.amount, size=9, indent=10)
                    if line.special_note:
                        pdf.row(
                            f"« {line.special_note} »"
                            if lang == "fr"
                            else f"“{line.special_note}”",
                            size=9,
                            indent=10,
                        )

    pdf.heading(t("receipt.charges", lang))
    for charge in receipt.charges:
        total = charge.name in TOTALS
        pdf.row(charge.label, charge.amount, bold=total)

    if receipt.payments:
        pdf.heading(t("receipt.payments", lang))
        for p in receipt.payments:
            pdf.row(f"{p.day} — {p.paid_by}", p.amount)

    pdf.heading(t("receipt.refunds", lang))
    if receipt.refunds:
        for r in receipt.refunds:
            pdf.row(f"{r.day} — {r.state_label}", r.amount)
        pdf.row(t("receipt.refunded_total", lang), receipt.refunded, bold=True)
        pdf.row(t("receipt.net", lang), receipt.net, bold=True)
    else:
        pdf.row(t("receipt.no_refunds", lang))

    if receipt.giveback:
        pdf.heading(t("receipt.giveback", lang))
        for g in receipt.giveback:
            pdf.row(g.label, g.amount)
        if head.kind == "order":
            pdf.row(t("receipt.giveback_note", lang), size=8.5)

    pdf.ln(6)
    pdf.font(10)
    pdf.cell(0, 6, pdf.text_of(t("receipt.thanks", lang)), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    return bytes(pdf.output())

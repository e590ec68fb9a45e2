"""What the ordering screens (booking, cart, order summary, payment, saved cards, donation,
a child away, and the landing page's gray text) write alike: gray text, a group's label over
its controls and a row of chips, a child's chip of a 'for whom?' row, a total's label over its
figure, a meal's picture, a message alone in a card, and the 'Remove?' dialog of a list.
Components take values; the chip and the dialog take the state whose protocol they drive."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.dialogs import confirm_dialog, shown_by
from hotmeals.ui.components.forms import check_label
from hotmeals.ui.shared_state.i18n import t

GRAY_11 = rx.color("gray", 11)
# Full width on a phone, the button's own width from the md breakpoint.
PHONE_WIDE = rx.breakpoints(initial="100%", md="auto")


def muted(*children: Any, **props: Any) -> rx.Component:
    """Gray text: what a screen says beside its facts (an intro, a hint, an empty list)."""
    return rx.text(*children, color=GRAY_11, **props)


def labelled_group(label: Any, label_id: str | None, *children: Any, **props: Any) -> rx.Component:
    """A group's visible label (``hm-label``; ``label_id`` is what the group's
    aria-labelledby names) over its controls."""
    named = {"id": label_id} if label_id is not None else {}
    return rx.box(rx.el.p(label, **named, class_name="hm-label"), *children, **props)


def chip_row(*items: Any, label_id: str, **props: Any) -> rx.Component:
    """A wrapping row of chips under their label, one group named by it (``label_id``)."""
    return rx.flex(
        *items, wrap="wrap", role="group", aria_labelledby=label_id, **props, margin_top="6px"
    )


def figure(
    label: Any,
    value: Any,
    *,
    value_id: str,
    label_size: str = "2",
    value_size: str = "4",
    **value_props: Any,
) -> tuple[rx.Component, rx.Component]:
    """A total's two lines, for the caller's stack: its name small and gray over the figure
    in bold."""
    return (
        rx.text(label, size=label_size, color=GRAY_11),
        rx.text(value, size=value_size, weight="bold", id=value_id, **value_props),
    )


def figure_stack(
    label: Any, value: Any, *, value_id: str, label_size: str = "2", **stack_props: Any
) -> rx.Component:
    """A total on its own: ``figure``'s two lines tight in a column."""
    return rx.vstack(
        *figure(label, value, value_id=value_id, label_size=label_size),
        spacing="0",
        **stack_props,
    )


def child_chips(state: Any, prefix: str) -> rx.Component:
    """The chips of a 'for whom?' row: one ``child_chip`` per child of ``state.kids``."""
    return rx.foreach(state.kids, lambda kid: child_chip(state, kid, prefix))


def child_chip(state: Any, kid: Any, prefix: str) -> rx.Component:
    """One child of a 'for whom?' row, ticked on and off (``state.chosen`` holds the ticked
    children's values, ``state.toggle_child(value, checked)`` changes it); the chip shows
    ``is-active`` while ticked. Its checkbox's id is ``prefix`` and the child's value."""
    field_id = prefix + kid.value.to(str)
    chosen = state.chosen.contains(kid.value)
    return check_label(
        field_id,
        chosen,
        lambda checked: state.toggle_child(kid.value, checked),
        rx.el.span(kid.label, class_name="hm-chip-name"),
        class_name=rx.cond(chosen, "hm-child-chip is-active", "hm-child-chip"),
        style={"flexDirection": "row", "alignItems": "center", "gap": "10px"},
    )


def meal_picture(src: Any, class_name: str, width: str, height: str, **props: Any) -> Any:
    """A meal's picture (a menu card's, the meal dialog's): decoration beside its name, so no
    alternative text; ``width`` and ``height`` keep its box before it arrives."""
    return rx.image(src=src, alt="", class_name=class_name, width=width, height=height, **props)


def note_card(text: Any, id_: str | None = None) -> rx.Component:
    """A message alone in a full-width card (no day to book, no child yet, a list that did
    not load)."""
    named = {"id": id_} if id_ is not None else {}
    return rx.card(rx.text(text), width="100%", **named)


def remove_dialog(
    state: Any, name: Any, keys: tuple[str, str, str, str], *, confirm_id: str, turn: Any = None
) -> rx.Component:
    """'Remove this?' for an item of a list: ``state`` has delete_open, set_delete_open,
    confirm_delete and deleting; ``keys`` are the catalog's title, text, cancel and confirm;
    ``name`` (the item) is shown in bold under the text."""
    title, text, cancel, confirm = keys
    return confirm_dialog(
        title=t(title),
        description=rx.fragment(t(text), rx.el.br(), rx.el.strong(name)),
        cancel_label=t(cancel),
        confirm_label=t(confirm),
        **shown_by(state, "delete_open"),
        on_confirm=state.confirm_delete,
        busy=state.deleting,
        confirm_id=confirm_id,
        turn=turn,
    )

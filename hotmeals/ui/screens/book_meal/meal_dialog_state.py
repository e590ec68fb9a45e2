"""The Book meal screen's meal dialog: the meal's sizes and price tiers, its options and
add-ons with the child's allergy marks and dietary fit, quantity and note, the acknowledgement
a High or Medium allergen asks for, the notice before a meal that does not fit the child's
diet (and its confirm button), and Add (to the cart, or to the order being modified).

Thin: the menu detail, the allergy rule and the adding are the services' (``menu``,
``cart``, ``order_changes``); the price shown is ``domain.pricing``'s, the server prices again.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.pricing import SPECIAL_NOTE_FEE_CENTS, LineInput, price_line
from hotmeals.domain.pricing import PriceTier as TierRule
from hotmeals.i18n import t as tr
from hotmeals.services.ordering import cart, menu
from hotmeals.services.ordering.allergens import composed_allergy
from hotmeals.services.ordering.changing import modify as order_changes
from hotmeals.services.ordering.labels import size_label
from hotmeals.services.ordering.lines import MealChoice
from hotmeals.services.ordering.menu import MealDetail
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import ActingParent, session_expired, sync_cart_count
from hotmeals.ui.shared_state.forms import OnceForm, forget_submission, message, one_turn, submit
from hotmeals.ui.shared_state.ids import browser_id
from hotmeals.ui.shared_state.menu_views import (
    diet_fits_text,
    diet_miss_text,
    extra_price,
    image_url,
    item_row,
    mark_badge,
)
from hotmeals.ui.shared_state.toasts import failed, succeeded

NOTE_MAX = 120
QUANTITY_MAX = 50


class MealDialog(OnceForm, mixin=True):
    """The dialog's vars and handlers, for ``BookingState`` (a mixin: its handlers are in
    BookingState's allow-list). The screen tells it the parent, the child, the day's menu and
    what to reload after an add (the hooks below)."""

    detail_open: bool = False
    detail: dict[str, str] = {}
    nutrition: list[dict[str, str]] = []
    portions: list[dict[str, str]] = []
    tiers: list[dict[str, str]] = []
    menu_options: list[dict[str, str]] = []
    meal_options: list[dict[str, str]] = []
    addons: list[dict[str, str]] = []
    portion_id: str = ""
    menu_option_id: str = ""
    meal_option_id: str = ""
    chosen_addons: list[str] = []
    quantity: int = 1
    note: str = ""
    acknowledged: bool = False
    add_error: str = ""  # the server's refusal of the last add, shown in the dialog
    # The server's notice that the meal as composed does not fit the child's diet, shown with
    # a confirm button; confirming adds it with ``diet_ack``.
    diet_notice: str = ""
    diet_ack: bool = False
    line_total: str = ""
    note_fee: str = ""  # the note's label with its fee: 'Special note (+$1.00)'
    # Set by ModifyOrderState.load_add_item (/edit-profile/modify-order/add-item): the dialog
    # adds to that order's draft (AddToMyOrder) instead of the cart.
    order_number: str = ""

    _order_id: int = 0
    _child_name: str = ""
    _lang: str = ""
    _menu_day_id: int = 0
    _meal_id: int = 0
    _portion_tiers: dict[str, list[tuple[int, int]]] = {}
    _option_cents: dict[str, int] = {}
    _addon_cents: dict[str, int] = {}
    _refused: set[str] = set()  # "menu:ID", "meal:ID", "addon:ID" the child cannot have
    _found: MealDetail | None = None  # MenuDetail's: composed_allergy judges the choices on it
    _ack_text: str = ""  # what the ticked box acknowledged

    # ---- hooks ------------------------------------------------------------------------------
    async def _who(self) -> tuple[ActingParent | None, str]:
        """The acting parent with a complete profile (else None), and the language."""
        raise NotImplementedError

    async def _child(self) -> str:
        """The chosen child's id (browser storage: the services check it)."""
        raise NotImplementedError

    def _menu_meal(self, meal_id: str) -> dict[str, str] | None:
        """The card of the day's menu for this meal, None when the menu does not list it."""
        raise NotImplementedError

    def _chosen_day(self) -> tuple[bool, str]:
        """Whether the chosen day is open for orders, and its label."""
        raise NotImplementedError

    async def _added(self, who: ActingParent) -> None:
        """A meal was added to the cart: the screen shows it."""

    # ---- derived and handlers ---------------------------------------------------------------
    @rx.var
    def note_count(self) -> int:
        return len(self.note)

    @rx.var
    def can_add(self) -> bool:
        verdict = self.detail.get("verdict", "safe")
        if verdict == "refused" or self.detail.get("is_open") != "1":
            return False
        return verdict != "acknowledge" or self.acknowledged

    def _reprice(self) -> None:
        tiers = self._portion_tiers.get(self.portion_id) or []
        if not tiers:
            self.line_total = ""
            return
        options = [
            self._option_cents[key]
            for key in (f"menu:{self.menu_option_id}", f"meal:{self.meal_option_id}")
            if key in self._option_cents
        ]
        addons = [self._addon_cents[a] for a in self.chosen_addons if a in self._addon_cents]
        price = price_line(
            LineInput(
                portion_tiers=[TierRule(m, c) for m, c in tiers],
                quantity=max(1, min(QUANTITY_MAX, self.quantity)),
                option_cents=options,
                addon_cents=addons,
                special_note=self.note or None,
            )
        )
        lang = self._lang or "en"
        self.line_total = format_money(price.total_cents, lang)
        self.tiers = [
            {"label": tr("ui.book.tier", lang, min=m, price=format_money(c, lang))}
            for m, c in tiers
        ]

    def _close_detail(self) -> None:
        self.detail_open = False
        self.detail = {}
        self.add_error = ""
        self.diet_notice = ""
        self.diet_ack = False
        self._found = None
        self._refused = set()
        self._meal_id = self._menu_day_id = 0

    async def _load_detail(
        self, who: ActingParent, meal_id: int, menu_day_id: int, keep_choices: bool = False
    ) -> None:
        found = await run_in_transaction(
            menu.menu_detail,
            parent_id=who.parent_id,
            meal_id=meal_id,
            child_id=browser_id(await self._child()) or None,
            lang=who.lang,
        )
        lang = who.lang
        allergy = found.allergy
        verdict = allergy.verdict.value if allergy is not None else "safe"
        listed = self._menu_meal(str(meal_id))
        day_open, day_label = self._chosen_day()
        self._meal_id, self._menu_day_id = meal_id, menu_day_id
        self.detail = {
            "name": found.name,
            "description": found.description,
            "image": image_url(found.image),
            "ingredients": found.ingredients,
            "cooking": found.cooking_method,
            "allergens": ", ".join(found.allergens),
            "vendor": found.vendor,
            "verdict": verdict,
            # the meal's own verdict (a Major meal offers no choices); "verdict" and
            # "allergy_message" follow the choices (_recompose)
            "meal_verdict": verdict,
            "allergy_message": allergy.message if allergy is not None else "",
            "badge": mark_badge(allergy, lang),
            "is_open": "1" if listed is not None and day_open else "",
            "day": day_label,
        }
        self.nutrition = [
            {
                "label": tr(f"nutrition_{n.key}", lang),
                "value": (f"{n.value:g}" + (f" {n.unit}" if n.unit else "")),
            }
            for n in found.nutrition
        ]
        self.portions = [
            {
                "id": str(p.portion_id),
                "label": size_label(p.size, lang),
                "price": format_money(p.tiers[0].unit_price_cents, lang),
            }
            for p in found.portions
        ]
        self._portion_tiers = {
            str(p.portion_id): [(t.min_quantity, t.unit_price_cents) for t in p.tiers]
            for p in found.portions
        }

        name = self._child_name
        self.menu_options = [
            item_row(o, name, lang, extra_price(o.price_cents, lang)) for o in found.menu_options
        ]
        self.meal_options = [
            item_row(o, name, lang, extra_price(o.price_cents, lang)) for o in found.meal_options
        ]
        self._option_cents = {
            **{f"menu:{o.id}": o.price_cents for o in found.menu_options},
            **{f"meal:{o.id}": o.price_cents for o in found.meal_options},
        }
        self.addons = [
            item_row(a, name, lang, "+" + format_money(a.price_cents, lang)) for a in found.addons
        ]
        self._addon_cents = {str(a.id): a.price_cents for a in found.addons}
        # What the dialog may not offer: an option or add-on with the child's Major allergen.
        self._refused = {
            *(f"menu:{o['id']}" for o in self.menu_options if o["disabled"]),
            *(f"meal:{o['id']}" for o in self.meal_options if o["disabled"]),
            *(f"addon:{a['id']}" for a in self.addons if a["disabled"]),
        }
        self._found = found
        self.add_error = ""
        self.note_fee = tr("ui.book.note", lang, fee=format_money(SPECIAL_NOTE_FEE_CENTS, lang))
        if not keep_choices or self.portion_id not in self._portion_tiers:
            self.portion_id = self.portions[0]["id"] if self.portions else ""
        if not keep_choices:
            self.menu_option_id = self.meal_option_id = ""
            self.chosen_addons = []
            self.quantity = 1
            self.note = ""
            self.acknowledged = False
            self._ack_text = ""
            self.diet_ack = False
            self.diet_notice = ""
        self._reprice()
        self._recompose()

    @rx.event
    async def open_meal(self, meal_id: str) -> Any:
        who, lang = await self._who()
        if who is None:
            return session_expired(lang)
        listed = self._menu_meal(str(meal_id))
        if listed is None:
            return None  # only a meal of the day's menu opens
        try:
            await self._load_detail(who, browser_id(meal_id), browser_id(listed["menu_day_id"]))
        except DomainError as err:
            return failed(message(err, lang))
        forget_submission(self)  # each opening of the dialog is one submission
        self.detail_open = True
        return None

    @rx.event
    def set_detail_open(self, value: bool) -> None:
        if not value:
            self._close_detail()

    @rx.event
    def set_portion(self, value: str) -> None:
        if str(value) in self._portion_tiers:
            self.portion_id = str(value)
            self._reprice()

    def _offered(self, key: str) -> bool:
        """One of the loaded meal's choices, and not one the child's Major allergy refuses
        (the server refuses it too: this only keeps the dialog honest)."""
        return key not in self._refused

    def _choose_option(self, kind: str, value: str) -> None:
        """The ``kind`` ("menu" or "meal") option chosen (its var ``<kind>_option_id``):
        ``value`` when the loaded meal has it and it is ``_offered``, else none; the price and
        the allergy verdict follow."""
        key = f"{kind}:{value}"
        chosen = value if key in self._option_cents and self._offered(key) else ""
        setattr(self, f"{kind}_option_id", chosen)
        self._reprice()
        self._recompose()

    @rx.event
    def set_menu_option(self, value: str) -> None:
        self._choose_option("menu", str(value))

    @rx.event
    def set_meal_option(self, value: str) -> None:
        self._choose_option("meal", str(value))

    @rx.event
    def toggle_addon(self, addon_id: str, checked: bool) -> None:
        addon_id = str(addon_id)
        if addon_id not in self._addon_cents:
            return
        chosen = [a for a in self.chosen_addons if a != addon_id]
        if checked and self._offered(f"addon:{addon_id}"):
            chosen.append(addon_id)
        self.chosen_addons = sorted(chosen, key=browser_id)
        self._reprice()
        self._recompose()

    def _recompose(self) -> None:
        """The dialog's verdict for the meal as composed (the services' rule,
        ``menu.composed_allergy``, on the marks MenuDetail gave): a High/Medium option or
        add-on asks for the acknowledgement naming it; a new thing to acknowledge unticks
        the box."""
        if not self._found or not self.detail:
            return
        found = composed_allergy(
            self._found,
            menu_option_id=browser_id(self.menu_option_id),
            meal_option_id=browser_id(self.meal_option_id),
            addon_ids=[browser_id(a) for a in self.chosen_addons],
            lang=self._lang or "en",
        )
        verdict = found.verdict.value
        text = found.ack_text or found.message
        if verdict == "acknowledge" and text != self._ack_text:
            self.acknowledged = False
        self._ack_text = text if verdict == "acknowledge" else ""
        # The child's diet on the meal as composed (``menu.composed_diet``): what it misses.
        fit = menu.composed_diet(
            self._found,
            menu_option_id=browser_id(self.menu_option_id),
            meal_option_id=browser_id(self.meal_option_id),
            addon_ids=[browser_id(a) for a in self.chosen_addons],
        )
        lang = self._lang or "en"
        miss = diet_miss_text(fit, self._child_name, lang)
        if miss != self.detail.get("diet_miss", ""):
            self.diet_ack = False  # another meal as composed: its notice is not seen yet
            self.diet_notice = ""
        self.detail = {
            **self.detail,
            "verdict": verdict,
            "allergy_message": text,
            "diet_fits": diet_fits_text(fit, self._child_name, lang),
            "diet_miss": miss,
        }
        self.add_error = ""

    @rx.event
    def change_quantity(self, step: int) -> None:
        step = 1 if browser_id(step) == 1 else -1
        self.quantity = max(1, min(QUANTITY_MAX, self.quantity + step))
        self._reprice()

    @rx.event
    def set_note(self, value: str) -> None:
        self.note = str(value)[:NOTE_MAX]
        self._reprice()

    @rx.event
    def set_acknowledged(self, value: bool) -> None:
        self.acknowledged = bool(value)

    @rx.event
    async def add(self) -> AsyncIterator[Any]:
        async for event in one_turn(self, self._add()):
            yield event

    @rx.event
    async def confirm_diet(self) -> AsyncIterator[Any]:
        """ "Add it anyway" under the diet notice: the same add, the notice seen."""
        if not self.diet_notice:
            return
        self.diet_ack = True
        async for event in one_turn(self, self._add()):
            yield event

    async def _add(self) -> AsyncIterator[Any]:
        if self.busy or not self._meal_id:
            return
        who, lang = await self._who()
        if who is None:
            self._close_detail()
            yield session_expired(lang)
            return
        self.busy = True
        yield
        # The ids as ints (0 for what is not one: the services answer 'not found'; for the
        # portion and the options, 0 is none chosen).
        values: MealChoice = {
            "child_id": browser_id(await self._child()),
            "meal_id": self._meal_id,
            "menu_day_id": self._menu_day_id,
            "portion_id": browser_id(self.portion_id),
            "quantity": self.quantity,
            "menu_option_id": browser_id(self.menu_option_id),
            "meal_option_id": browser_id(self.meal_option_id),
            "addons": [browser_id(a) for a in self.chosen_addons],
            "special_note_text": self.note,
            "allergy_ack": bool(self.acknowledged),
            "diet_ack": bool(self.diet_ack),
        }
        if self._order_id:
            async for event in self._add_to_order(who, lang, values):
                yield event
            return
        try:
            # The service checks the child, the day, the cut-off, the allergy rule and every
            # option against the parent and the meal; the same dialog sent twice adds once.
            done = await submit(
                self, who, values, "add_to_cart", cart.add_to_cart, lang=lang, **values
            )
        except DomainError as err:
            self.busy = False
            if err.code == "diet_ack_required":
                # Not a refusal: the notice, and a button to add it anyway.
                self.diet_notice = message(err, lang)
                return
            # The server is the judge: its refusal stays in the dialog beside the button.
            self.add_error = message(err, lang)
            yield failed(self.add_error)
            return
        if done.repeated:
            self.busy = False
            self._close_detail()
            return  # a double tap: the first one said so
        added = done.result  # ``cart.AddedLine`` as submit_once keeps it (its fields by name)
        # The header's count first, in an answer of its own ("click to answer"): it
        # changes only the header, so the browser shows it without re-rendering the screen;
        # the dialog closes and the toast shows in the next answer, a moment later.
        await sync_cart_count(self, int(added["cart_count"]))
        yield
        self.busy = False
        self._close_detail()
        yield succeeded(tr("added_to_cart", lang))
        if added["allergy_notice"]:
            yield rx.toast.info(added["allergy_notice"])
        await self._added(who)

    async def _add_to_order(
        self, who: ActingParent, lang: str, values: MealChoice
    ) -> AsyncIterator[Any]:
        """The add-item step of modify-order: AddToMyOrder (the same rules as the cart's,
        checked by the service against the order, which must be who's), then back to it."""
        order_id = self._order_id
        try:
            done = await submit(
                self,
                who,
                {"order_id": order_id, **values},
                "add_to_my_order",
                order_changes.add_to_my_order,
                present=lambda info: {"order_id": info.order_id},
                order_id=order_id,
                lang=lang,
                **values,
            )
        except DomainError as err:
            self.busy = False
            if err.code == "diet_ack_required":
                self.diet_notice = message(err, lang)  # the notice and "Add it anyway"
                return
            yield failed(message(err, lang))
            return
        self.busy = False
        self._close_detail()
        if done.repeated:
            return
        yield succeeded(tr("ui.change.added", lang))
        yield rx.redirect(f"/edit-profile/modify-order?id={order_id}")


async def dialog_meal(dialog: MealDialog) -> dict[str, Any] | None:
    """The meal the dialog shows, as a standing order takes it (the child, the meal, the
    size; the service checks them); None when no meal is open."""
    if not dialog._meal_id:
        return None
    return {
        "child_id": await dialog._child(),
        "meal_id": dialog._meal_id,
        "portion_id": dialog.portion_id or None,
    }


def aim_at_order(dialog: MealDialog, order_id: int, number: str) -> None:
    """The add-item step of modify-order: the dialog adds to this order's draft (the service
    checks it is the parent's); 0 and "": to the cart again."""
    dialog._order_id, dialog.order_number = order_id, number

"""/api/v1/Parent/cart/*: AddToCart, GetPriceTiersByPortionId, DeleteCart, OrderSummary,
CheckOrderSummary; the promo codes (check_promocode, ListPromocodesByParent).

Prices, options and add-ons come from the database (``services/ordering/``), never from the
body. AddToCart and DeleteCart take an optional ``Idempotency-Key``: a double submission adds
one line (``services.submissions.submit_once``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends
from sqlmodel import Session

from hotmeals.api.bodies import meal_choice, openapi_body
from hotmeals.api.cart_present import (
    added_out,
    cart_count_out,
    cart_summary_out,
    order_summary_out,
)
from hotmeals.api.deps import (
    PARENT_CART,
    SignedIn,
    SignedInWriting,
    answer,
    answer_found,
    answered,
    api_router,
    json_body,
)
from hotmeals.api.envelope import Envelope
from hotmeals.api.menu_present import price_tiers_out
from hotmeals.api.menu_schemas import (
    AddedOut,
    AddToCartIn,
    CartCountOut,
    CartIdIn,
    CartSummaryOut,
    OrderSummaryOut,
    PortionIdIn,
    PriceTiersOut,
    PromoIn,
    PromoOut,
    QuantityIn,
    SummaryIn,
)
from hotmeals.domain.money import format_money
from hotmeals.i18n import normalize_lang
from hotmeals.services import promos, submissions
from hotmeals.services.menu_cache import PortionPrices
from hotmeals.services.ordering import cart, menu, pricing
from hotmeals.services.transaction import run_in_transaction

router = api_router()


@router.post(
    "/Parent/cart/AddToCart",
    tags=PARENT_CART,
    summary="Add a meal for a child on a meal day (allergy rule, cut-off, prices from the menu)",
    response_model=Envelope[AddedOut],
    openapi_extra=openapi_body(AddToCartIn),
)
async def add_to_cart(
    who: SignedInWriting, body: Annotated[AddToCartIn, Depends(json_body(AddToCartIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_token=who.token,
        key=who.key,
        action="add_to_cart",
        fn=cart.add_to_cart,
        present=lambda line: added_out(line, who.lang),
        lang=who.lang,
        quantity=body.quantity,
        **meal_choice(body),
    )
    return answered(done, who.lang, "added_to_cart")


def _tiers(*, session: Session, parent_id: int, portion_id: int) -> PortionPrices:
    return menu.price_tiers(session=session, portion_id=portion_id)


@router.post(
    "/Parent/cart/GetPriceTiersByPortionId",
    tags=PARENT_CART,
    summary="A portion's size and its unit price by quantity",
    response_model=Envelope[PriceTiersOut],
    openapi_extra=openapi_body(PortionIdIn),
)
async def get_price_tiers(
    who: SignedIn, body: Annotated[PortionIdIn, Depends(json_body(PortionIdIn))]
) -> Any:
    portion = await run_in_transaction(
        _tiers, parent_token=who.token, portion_id=body.portion_id or 0
    )
    return answer(price_tiers_out(portion, who.lang), who.lang)


@router.post(
    "/Parent/cart/DeleteCart",
    tags=PARENT_CART,
    summary="Remove one line from the cart",
    response_model=Envelope[CartCountOut],
    openapi_extra=openapi_body(CartIdIn),
)
async def delete_cart(
    who: SignedInWriting, body: Annotated[CartIdIn, Depends(json_body(CartIdIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_token=who.token,
        key=who.key,
        action="delete_cart",
        fn=cart.delete_line,
        present=cart_count_out,
        cart_id=body.cart_id or 0,  # none: not found, as any line not the parent's
    )
    return answered(done, who.lang, "cart_line_deleted")


@router.post(
    "/Parent/cart/UpdateCartQuantity",
    tags=PARENT_CART,
    summary="Change a line's quantity (extension); answers the cart summary",
    response_model=Envelope[CartSummaryOut],
    openapi_extra=openapi_body(QuantityIn),
)
async def update_cart_quantity(
    who: SignedInWriting, body: Annotated[QuantityIn, Depends(json_body(QuantityIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_token=who.token,
        key=who.key,
        action="update_cart_quantity",
        fn=cart.update_quantity,
        present=lambda summary: cart_summary_out(summary, who.lang),
        cart_id=body.cart_id or 0,  # none: not found, as any line not the parent's
        quantity=body.quantity,
        lang=who.lang,
    )
    return answered(done, who.lang, "cart_quantity_updated")


@router.post(
    "/Parent/cart/OrderSummary",
    tags=PARENT_CART,
    summary="The cart by child and date, lines past cut-off flagged, and its charges",
    response_model=Envelope[OrderSummaryOut],
    openapi_extra=openapi_body(SummaryIn),
)
async def order_summary(
    who: SignedIn, body: Annotated[SummaryIn, Depends(json_body(SummaryIn))]
) -> Any:
    priced = await run_in_transaction(
        pricing.priced_summary,
        parent_token=who.token,
        promo_code=body.promo_code,
        donation_cents=body.donation_cents,
        lang=who.lang,
    )
    summary = order_summary_out(priced, who.lang)
    return answer_found(summary, who.lang, found=bool(priced.summary.cart_count))


@router.post(
    "/Parent/cart/CheckOrderSummary",
    tags=PARENT_CART,
    summary="Before paying: the charges of the payable lines; refused when none can be paid",
    response_model=Envelope[OrderSummaryOut],
    openapi_extra=openapi_body(SummaryIn),
)
async def check_order_summary(
    who: SignedIn, body: Annotated[SummaryIn, Depends(json_body(SummaryIn))]
) -> Any:
    priced = await run_in_transaction(
        pricing.priced_summary,
        parent_token=who.token,
        promo_code=body.promo_code,
        donation_cents=body.donation_cents,
        require_payable=True,
        lang=who.lang,
    )
    return answer(order_summary_out(priced, who.lang), who.lang)


def _check_promo(
    *, session: Session, parent_id: int, promo_code: str, lang: str
) -> pricing.PricedSummary:
    promos.normalize_code(promo_code)  # an empty code is 'Please enter a promo code'
    return pricing.priced_summary(
        session=session, parent_id=parent_id, promo_code=promo_code, lang=lang
    )


@router.post(
    "/Promocode/promocode_management/check_promocode",
    tags=PARENT_CART,
    summary="Check a promo code against the parent's cart; answers the cart with the discount",
    response_model=Envelope[OrderSummaryOut],
    openapi_extra=openapi_body(PromoIn),
)
async def check_promocode(
    who: SignedIn, body: Annotated[PromoIn, Depends(json_body(PromoIn))]
) -> Any:
    priced = await run_in_transaction(
        _check_promo,
        parent_token=who.token,
        promo_code=body.promo_code if body.promo_code is not None else "",
        lang=who.lang,
    )
    return answer(order_summary_out(priced, who.lang), who.lang, "promo_applied")


@router.post(
    "/Parent/auth/ListPromocodesByParent",
    tags=PARENT_CART,
    summary="The promo codes this parent can use today (open to all, or their own)",
    response_model=Envelope[list[PromoOut]],
)
async def list_promocodes(who: SignedIn) -> Any:
    codes = await run_in_transaction(promos.list_for_parent, parent_token=who.token)
    return answer_found([promo_out(code, who.lang) for code in codes], who.lang)


def promo_out(promo: promos.UsablePromo, lang: str) -> dict[str, Any]:
    """A usable code as ListPromocodesByParent shows it: its description in ``lang``, its
    minimum order as money."""
    return {
        "code": promo.code,
        "description": promo.description_fr
        if normalize_lang(lang) == "fr"
        else promo.description_en,
        "kind": promo.kind,
        "percent_bps": promo.percent_bps,
        "amount_off_cents": promo.amount_off_cents,
        "min_order_cents": promo.min_order_cents,
        "min_order": format_money(promo.min_order_cents, lang),
        "valid_until": promo.valid_until.isoformat() if promo.valid_until else None,
        "personal": promo.personal,
    }

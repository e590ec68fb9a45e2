"""/api/v1/Parent/cart/*: AddToCart, GetPriceTiersByPortionId, DeleteCart, OrderSummary,
CheckOrderSummary; the promo codes (check_promocode, ListPromocodesByParent).

Prices, options and add-ons come from the database (``services/ordering/``), never from the
body. AddToCart and DeleteCart take an optional ``Idempotency-Key``: a double submission adds
one line (``services.submissions.submit_once``).
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse
from sqlmodel import Session

from hotmeals.api.bodies import meal_choice
from hotmeals.api.calls import Once, ParentListing, ParentRead, Post, declare_all, handler
from hotmeals.api.deps import (
    PARENT_CART,
    Client,
    answer,
    answer_found,
    api_router,
    run_as_parent,
    token_write,
)
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
from hotmeals.services import promos
from hotmeals.services.ordering import cart, menu, pricing

router = api_router()


def _added(body: AddToCartIn) -> dict[str, Any]:
    return {**meal_choice(body), "quantity": body.quantity}


def _tiers(*, session: Session, parent_id: int, portion_id: object, lang: str) -> dict:
    return menu.price_tiers(session=session, portion_id=portion_id, lang=lang)


async def _priced_summary(client: Client, body: SummaryIn, **extra: Any) -> dict[str, Any]:
    """The parent's cart priced with the body's promo code and donation."""
    return await run_as_parent(
        client,
        pricing.priced_summary,
        promo_code=body.promo_code,
        donation_cents=body.donation_cents,
        lang=client.lang,
        **extra,
    )


async def order_summary(client: Client, body: SummaryIn) -> JSONResponse:
    data = await _priced_summary(client, body)
    return answer_found(data, client.lang, found=bool(data["cart_count"]))


async def check_order_summary(client: Client, body: SummaryIn) -> JSONResponse:
    return answer(await _priced_summary(client, body, require_payable=True), client.lang)


def _promo_code(body: PromoIn) -> dict[str, Any]:
    return {"promo_code": body.promo_code if body.promo_code is not None else ""}


def _check_promo(*, session: Session, parent_id: int, promo_code: str, lang: str) -> dict:
    promos.normalize_code(promo_code)  # an empty code is 'Please enter a promo code'
    return pricing.priced_summary(
        session=session, parent_id=parent_id, promo_code=promo_code, lang=lang
    )


declare_all(
    router,
    PARENT_CART,
    [
        Post(
            "/Parent/cart/AddToCart",
            Once(
                "add_to_cart",
                cart.add_to_cart,
                message="added_to_cart",
                lang=True,
                fields=_added,
                who=token_write,
            ),
            body=AddToCartIn,
            answer=AddedOut,
            summary="Add a meal for a child on a meal day "
            "(allergy rule, cut-off, prices from the menu)",
        ),
        Post(
            "/Parent/cart/GetPriceTiersByPortionId",
            ParentRead("get_price_tiers", _tiers),
            body=PortionIdIn,
            answer=PriceTiersOut,
            summary="A portion's size and its unit price by quantity",
        ),
        Post(
            "/Parent/cart/DeleteCart",
            Once("delete_cart", cart.delete_line, message="cart_line_deleted", who=token_write),
            body=CartIdIn,
            answer=CartCountOut,
            summary="Remove one line from the cart",
        ),
        Post(
            "/Parent/cart/UpdateCartQuantity",
            Once(
                "update_cart_quantity",
                cart.update_quantity,
                message="cart_quantity_updated",
                lang=True,
                who=token_write,
            ),
            body=QuantityIn,
            answer=CartSummaryOut,
            summary="Change a line's quantity (extension); answers the cart summary",
        ),
        Post(
            "/Parent/cart/OrderSummary",
            handler(order_summary),
            answer=OrderSummaryOut,
            summary="The cart by child and date, lines past cut-off flagged, and its charges",
        ),
        Post(
            "/Parent/cart/CheckOrderSummary",
            handler(check_order_summary),
            answer=OrderSummaryOut,
            summary="Before paying: the charges of the payable lines; refused when none can "
            "be paid",
        ),
        Post(
            "/Promocode/promocode_management/check_promocode",
            ParentRead(
                "check_promocode", _check_promo, message="promo_applied", fields=_promo_code
            ),
            body=PromoIn,
            answer=OrderSummaryOut,
            summary="Check a promo code against the parent's cart; "
            "answers the cart with the discount",
        ),
        Post(
            "/Parent/auth/ListPromocodesByParent",
            ParentListing("list_promocodes", promos.list_for_parent),
            answer=list[PromoOut],
            summary="The promo codes this parent can use today (open to all, or their own)",
        ),
    ],
)

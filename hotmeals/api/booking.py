"""/api/v1/Parent/cart/AddManyToCart and /api/v1/Parent/cart/RepeatWeek (extensions): many
days at once and 'Repeat last week' (``services/ordering/booking.py``, ``repeat.py``).

Each line goes through AddToCart's rules; the good lines are added and each refused one comes
back with its day and the reason (code 1 as long as the request itself is sound). Another
parent's child refuses the whole request ('Child not found'). Both take an optional
``Idempotency-Key``: a repeat changes nothing and gets the first answer."""

from __future__ import annotations

from hotmeals.api.booking_schemas import AddManyIn, AddManyOut, RepeatWeekIn, RepeatWeekOut
from hotmeals.api.calls import Once, Post, declare_all
from hotmeals.api.deps import (
    PARENT_CART,
    api_router,
)
from hotmeals.services.ordering import booking, repeat

router = api_router()


declare_all(
    router,
    PARENT_CART,
    [
        Post(
            "/Parent/cart/AddManyToCart",
            Once("add_many_to_cart", booking.add_many, lang=True),
            body=AddManyIn,
            answer=AddManyOut,
            summary="Add meals on several days, for one child or siblings (extension): the good "
            "lines are added, each refused one says its day and why",
        ),
        Post(
            "/Parent/cart/RepeatWeek",
            Once("repeat_week", repeat.repeat_week, lang=True),
            body=RepeatWeekIn,
            answer=RepeatWeekOut,
            summary="Copy a child's meals of one week into the cart for another week "
            "(extension); says which days could not be copied and why",
        ),
    ],
)

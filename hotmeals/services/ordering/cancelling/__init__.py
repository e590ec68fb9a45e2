"""Cancelling a paid order, one meal of it or a cart of meals, and the refund that follows: the
doors (``cancel_order``, ``cancel_cart``), the one cancel write (``cancel``) and the refund
of what is left, from the order's stored terms (``refund_plan``)."""

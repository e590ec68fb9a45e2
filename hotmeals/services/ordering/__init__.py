"""A parent's order from the menu to after the sale: booking a meal, the cart and checkout, and
the paid order's life (history and detail, cancels, changes, moves) with the refunds they cause."""

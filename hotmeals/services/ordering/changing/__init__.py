"""Changing a paid order: the doors (``modify`` for add and remove, ``move`` for one meal to
another day), the checked and priced plan (``change_plan``), its confirmation
(``change_confirm``), the write (``change_apply``), the payment of a difference
(``change_payment``) and what the parent is told (``change_result``)."""

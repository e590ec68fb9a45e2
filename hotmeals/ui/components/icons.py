"""Inline SVG icons for the first screens (the header, the landing page and sign-in) and for
Book meal (its calendar, day menu and meal dialog).

``rx.icon`` imports one Lucide module per icon (a request and a module evaluation each, before
the page is live); these draw the same SVG as Lucide (v1.26's shapes, same attributes and
classes), straight into the prerendered HTML. Other screens keep ``rx.icon``.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

# Lucide's icon nodes (lucide-react/dist/esm/icons/<name>.mjs, without React's keys).
# ruff: noqa: E501 (path data)
SHAPES: dict[str, tuple[tuple[str, dict[str, str]], ...]] = {
    "badge-dollar-sign": (
        (
            "path",
            {
                "d": "M3.85 8.62a4 4 0 0 1 4.78-4.77 4 4 0 0 1 6.74 0 4 4 0 0 1 4.78 4.78 4 4 0 0 1 0 6.74 4 4 0 0 1-4.77 4.78 4 4 0 0 1-6.75 0 4 4 0 0 1-4.78-4.77 4 4 0 0 1 0-6.76Z"
            },
        ),
        ("path", {"d": "M16 8h-6a2 2 0 1 0 0 4h4a2 2 0 1 1 0 4H8"}),
        ("path", {"d": "M12 18V6"}),
    ),
    "bell": (
        ("path", {"d": "M10.268 21a2 2 0 0 0 3.464 0"}),
        (
            "path",
            {
                "d": "M3.262 15.326A1 1 0 0 0 4 17h16a1 1 0 0 0 .74-1.673C19.41 13.956 18 12.499 18 8A6 6 0 0 0 6 8c0 4.499-1.411 5.956-2.738 7.326"
            },
        ),
    ),
    "calendar-check": (
        ("path", {"d": "M8 2v4"}),
        ("path", {"d": "M16 2v4"}),
        ("rect", {"width": "18", "height": "18", "x": "3", "y": "4", "rx": "2"}),
        ("path", {"d": "M3 10h18"}),
        ("path", {"d": "m9 16 2 2 4-4"}),
    ),
    "calendar-range": (
        ("rect", {"width": "18", "height": "18", "x": "3", "y": "4", "rx": "2"}),
        ("path", {"d": "M16 2v4"}),
        ("path", {"d": "M3 10h18"}),
        ("path", {"d": "M8 2v4"}),
        ("path", {"d": "M17 14h-6"}),
        ("path", {"d": "M13 18H7"}),
        ("path", {"d": "M7 14h.01"}),
        ("path", {"d": "M17 18h.01"}),
    ),
    "calendar-x": (
        ("path", {"d": "M8 2v4"}),
        ("path", {"d": "M16 2v4"}),
        ("rect", {"width": "18", "height": "18", "x": "3", "y": "4", "rx": "2"}),
        ("path", {"d": "M3 10h18"}),
        ("path", {"d": "m14 14-4 4"}),
        ("path", {"d": "m10 14 4 4"}),
    ),
    "chevron-down": (("path", {"d": "m6 9 6 6 6-6"}),),
    "chevron-left": (("path", {"d": "m15 18-6-6 6-6"}),),
    "chevron-right": (("path", {"d": "m9 18 6-6-6-6"}),),
    "chevron-up": (("path", {"d": "m18 15-6-6-6 6"}),),
    "circle-alert": (
        ("circle", {"cx": "12", "cy": "12", "r": "10"}),
        ("line", {"x1": "12", "x2": "12", "y1": "8", "y2": "12"}),
        ("line", {"x1": "12", "x2": "12.01", "y1": "16", "y2": "16"}),
    ),
    "clock": (
        ("circle", {"cx": "12", "cy": "12", "r": "10"}),
        ("path", {"d": "M12 6v6l4 2"}),
    ),
    "external-link": (
        ("path", {"d": "M15 3h6v6"}),
        ("path", {"d": "M10 14 21 3"}),
        ("path", {"d": "M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6"}),
    ),
    "heart-handshake": (
        (
            "path",
            {
                "d": "M19.414 14.414C21 12.828 22 11.5 22 9.5a5.5 5.5 0 0 0-9.591-3.676.6.6 0 0 1-.818.001A5.5 5.5 0 0 0 2 9.5c0 2.3 1.5 4 3 5.5l5.535 5.362a2 2 0 0 0 2.879.052 2.12 2.12 0 0 0-.004-3 2.124 2.124 0 1 0 3-3 2.124 2.124 0 0 0 3.004 0 2 2 0 0 0 0-2.828l-1.881-1.882a2.41 2.41 0 0 0-3.409 0l-1.71 1.71a2 2 0 0 1-2.828 0 2 2 0 0 1 0-2.828l2.823-2.762"
            },
        ),
    ),
    "leaf": (
        (
            "path",
            {
                "d": "M11 20A7 7 0 0 1 9.8 6.1C15.5 5 17 4.48 19 2c1 2 2 4.18 2 8 0 5.5-4.78 10-10 10Z"
            },
        ),
        ("path", {"d": "M2 21c0-3 1.85-5.36 5.08-6C9.5 14.52 12 13 13 12"}),
    ),
    "info": (
        ("circle", {"cx": "12", "cy": "12", "r": "10"}),
        ("path", {"d": "M12 16v-4"}),
        ("path", {"d": "M12 8h.01"}),
    ),
    "key-round": (
        (
            "path",
            {
                "d": "M2.586 17.414A2 2 0 0 0 2 18.828V21a1 1 0 0 0 1 1h3a1 1 0 0 0 1-1v-1a1 1 0 0 1 1-1h1a1 1 0 0 0 1-1v-1a1 1 0 0 1 1-1h.172a2 2 0 0 0 1.414-.586l.814-.814a6.5 6.5 0 1 0-4-4z"
            },
        ),
        ("circle", {"cx": "16.5", "cy": "7.5", "r": ".5", "fill": "currentColor"}),
    ),
    "languages": (
        ("path", {"d": "m5 8 6 6"}),
        ("path", {"d": "m4 14 6-6 2-3"}),
        ("path", {"d": "M2 5h12"}),
        ("path", {"d": "M7 2h1"}),
        ("path", {"d": "m22 22-5-10-5 10"}),
        ("path", {"d": "M14 18h6"}),
    ),
    "log-out": (
        ("path", {"d": "m16 17 5-5-5-5"}),
        ("path", {"d": "M21 12H9"}),
        ("path", {"d": "M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4"}),
    ),
    "mail": (
        ("path", {"d": "m22 7-8.991 5.727a2 2 0 0 1-2.009 0L2 7"}),
        ("rect", {"x": "2", "y": "4", "width": "20", "height": "16", "rx": "2"}),
    ),
    "menu": (
        ("path", {"d": "M4 5h16"}),
        ("path", {"d": "M4 12h16"}),
        ("path", {"d": "M4 19h16"}),
    ),
    "minus": (("path", {"d": "M5 12h14"}),),
    "octagon-x": (
        ("path", {"d": "m15 9-6 6"}),
        (
            "path",
            {
                "d": "M2.586 16.726A2 2 0 0 1 2 15.312V8.688a2 2 0 0 1 .586-1.414l4.688-4.688A2 2 0 0 1 8.688 2h6.624a2 2 0 0 1 1.414.586l4.688 4.688A2 2 0 0 1 22 8.688v6.624a2 2 0 0 1-.586 1.414l-4.688 4.688a2 2 0 0 1-1.414.586H8.688a2 2 0 0 1-1.414-.586z"
            },
        ),
        ("path", {"d": "m9 9 6 6"}),
    ),
    "plus": (
        ("path", {"d": "M5 12h14"}),
        ("path", {"d": "M12 5v14"}),
    ),
    "receipt-text": (
        ("path", {"d": "M13 16H8"}),
        ("path", {"d": "M14 8H8"}),
        ("path", {"d": "M16 12H8"}),
        (
            "path",
            {
                "d": "M4 3a1 1 0 0 1 1-1 1.3 1.3 0 0 1 .7.2l.933.6a1.3 1.3 0 0 0 1.4 0l.934-.6a1.3 1.3 0 0 1 1.4 0l.933.6a1.3 1.3 0 0 0 1.4 0l.933-.6a1.3 1.3 0 0 1 1.4 0l.934.6a1.3 1.3 0 0 0 1.4 0l.933-.6A1.3 1.3 0 0 1 19 2a1 1 0 0 1 1 1v18a1 1 0 0 1-1 1 1.3 1.3 0 0 1-.7-.2l-.933-.6a1.3 1.3 0 0 0-1.4 0l-.934.6a1.3 1.3 0 0 1-1.4 0l-.933-.6a1.3 1.3 0 0 0-1.4 0l-.933.6a1.3 1.3 0 0 1-1.4 0l-.934-.6a1.3 1.3 0 0 0-1.4 0l-.933.6a1.3 1.3 0 0 1-.7.2 1 1 0 0 1-1-1z"
            },
        ),
    ),
    "repeat": (
        ("path", {"d": "m17 2 4 4-4 4"}),
        ("path", {"d": "M3 11v-1a4 4 0 0 1 4-4h14"}),
        ("path", {"d": "m7 22-4-4 4-4"}),
        ("path", {"d": "M21 13v1a4 4 0 0 1-4 4H3"}),
    ),
    "shield-alert": (
        (
            "path",
            {
                "d": "M20 13c0 5-3.5 7.5-7.66 8.95a1 1 0 0 1-.67-.01C7.5 20.5 4 18 4 13V6a1 1 0 0 1 1-1c2 0 4.5-1.2 6.24-2.72a1.17 1.17 0 0 1 1.52 0C14.51 3.81 17 5 19 5a1 1 0 0 1 1 1z"
            },
        ),
        ("path", {"d": "M12 8v4"}),
        ("path", {"d": "M12 16h.01"}),
    ),
    "shopping-cart": (
        ("circle", {"cx": "8", "cy": "21", "r": "1"}),
        ("circle", {"cx": "19", "cy": "21", "r": "1"}),
        (
            "path",
            {
                "d": "M2.05 2.05h2l2.66 12.42a2 2 0 0 0 2 1.58h9.78a2 2 0 0 0 1.95-1.57l1.65-7.43H5.12"
            },
        ),
    ),
    "smartphone": (
        ("rect", {"width": "14", "height": "20", "x": "5", "y": "2", "rx": "2", "ry": "2"}),
        ("path", {"d": "M12 18h.01"}),
    ),
    "triangle-alert": (
        ("path", {"d": "m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3"}),
        ("path", {"d": "M12 9v4"}),
        ("path", {"d": "M12 17h.01"}),
    ),
    "user-pen": (
        ("path", {"d": "M11.5 15H7a4 4 0 0 0-4 4v2"}),
        (
            "path",
            {
                "d": "M21.378 16.626a1 1 0 0 0-3.004-3.004l-4.01 4.012a2 2 0 0 0-.506.854l-.837 2.87a.5.5 0 0 0 .62.62l2.87-.837a2 2 0 0 0 .854-.506z"
            },
        ),
        ("circle", {"cx": "10", "cy": "7", "r": "4"}),
    ),
    "utensils": (
        ("path", {"d": "M3 2v7c0 1.1.9 2 2 2h4a2 2 0 0 0 2-2V2"}),
        ("path", {"d": "M7 2v20"}),
        ("path", {"d": "M21 15V2a5 5 0 0 0-5 5v6c0 1.1.9 2 2 2h3Zm0 0v7"}),
    ),
    "wallet": (
        (
            "path",
            {
                "d": "M19 7V4a1 1 0 0 0-1-1H5a2 2 0 0 0 0 4h15a1 1 0 0 1 1 1v4h-3a2 2 0 0 0 0 4h3a1 1 0 0 0 1-1v-2a1 1 0 0 0-1-1"
            },
        ),
        ("path", {"d": "M3 5v14a2 2 0 0 0 2 2h15a1 1 0 0 0 1-1v-4"}),
    ),
    "x": (
        ("path", {"d": "M18 6 6 18"}),
        ("path", {"d": "m6 6 12 12"}),
    ),
}


def icon(name: str, size: int = 24, **props: Any) -> rx.Component:
    """The Lucide icon ``name`` as inline SVG, ``size`` px square (``rx.icon``'s default 24)."""
    shapes = [getattr(rx.el.svg, tag)(**attrs) for tag, attrs in SHAPES[name]]
    return rx.el.svg(
        *shapes,
        xmlns="http://www.w3.org/2000/svg",
        width=str(size),
        height=str(size),
        view_box="0 0 24 24",
        class_name=f"lucide lucide-{name}",
        # Attributes, as Lucide writes them (as props they would become Emotion styles).
        custom_attrs={
            "fill": "none",
            "stroke": "currentColor",
            "strokeWidth": "2",
            "strokeLinecap": "round",
            "strokeLinejoin": "round",
        },
        **props,
    )


def icon_only_button(mark: rx.Component, label: Any, **props: Any) -> rx.Component:
    """A soft button that shows only its icon ``mark``, named ``label`` for screen readers
    (the month arrows, the quantity steps)."""
    return rx.icon_button(mark, variant="soft", aria_label=label, **props)

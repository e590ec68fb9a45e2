"""A child's allergies are listed most severe first (Major ... Non-allergic), then by
name, wherever they are read."""

from __future__ import annotations

from tests.api.helpers import get, ok, post, signed_up
from tests.api.test_children_api import _child_body


def test_allergies_come_most_severe_first(client):
    token, _ = signed_up(client)
    child = ok(post(client, "/Parent/user/AddChild", _child_body(), token))["data"]
    ingredients = ok(get(client, "/Parent/user/Allergicingredients"))["data"][:4]
    levels = ["Low", "Non-allergic", "Major", "High"]
    body = {
        "child_id": child["id"],
        "allergies": [
            {"ingredient_id": i["id"], "alert_level": lv}
            for i, lv in zip(ingredients, levels, strict=True)
        ],
    }
    saved = ok(post(client, "/Parent/user/Add_Child_Allergicingredients", body, token))["data"]
    assert [a["alert_level"] for a in saved["allergies"]] == [
        "Major",
        "High",
        "Low",
        "Non-allergic",
    ]
    listed = ok(get(client, "/Parent/user/GetChilds", token))["data"][0]
    assert listed["allergies"] == saved["allergies"]

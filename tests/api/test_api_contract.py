"""What every account call shares: api-key and app checks, 401 without a session, bodies that
never crash, the OpenAPI document, and CORS limited to the configured origins."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from hotmeals.api.app import create_api
from hotmeals.i18n import FR
from hotmeals.settings import get_settings
from tests.api.helpers import API_KEY, headers, quick_token, refused

POST = "post"
GET = "get"
# (method, path, needs a parent session)
OPERATIONS = [
    (POST, "/Parent/auth/Signup", False),
    (POST, "/Parent/auth/Login", False),
    (POST, "/Parent/auth/ResendOtp", False),
    (POST, "/Parent/auth/VerifyOtp", False),
    (POST, "/Parent/auth/Forgot_Password", False),
    (POST, "/Parent/auth/NewPassword", False),
    (POST, "/Parent/auth/Logout", False),
    (POST, "/Parent/auth/ChangePassword", True),
    (POST, "/Parent/auth/EditProfile", True),
    (POST, "/Parent/auth/AddAltEmail", True),
    (POST, "/Parent/auth/VerifyAltEmail", True),
    (POST, "/Parent/user/cms_pages", False),
    (POST, "/Parent/user/contact_us", False),
    (POST, "/Parent/user/AddChild", True),
    (POST, "/Parent/user/EditChild", True),
    (POST, "/Parent/user/get_city", False),
    (POST, "/Parent/user/GetSchool", False),
    (POST, "/Parent/user/get_teachers", False),
    (POST, "/Parent/user/DeleteChild", True),
    (POST, "/Parent/user/Add_Child_Allergicingredients", True),
    (POST, "/Parent/user/GetOneChildInfo", True),
    (POST, "/Parent/user/SetDefaultChild", True),
    (POST, "/Parent/user/update_parent_email_noti_details", True),
    (GET, "/Parent/user/GetUserDetails", True),
    (GET, "/Parent/user/GetChilds", True),
    (GET, "/Parent/user/Allergicingredients", False),
    (GET, "/Parent/user/get_grades", False),
    (POST, "/Admin/allergy_suggestions/list", False),
    (POST, "/Parent/menu/GetDates", True),
    (POST, "/Parent/menu/GetMenu", True),
    (POST, "/Parent/menu/MenuDetail", True),
    (GET, "/Parent/menu/AddsOn", False),
    (POST, "/Parent/cart/AddToCart", True),
    (POST, "/Parent/cart/GetPriceTiersByPortionId", True),
    (POST, "/Parent/cart/DeleteCart", True),
    (POST, "/Parent/cart/UpdateCartQuantity", True),
    (POST, "/Parent/cart/AddManyToCart", True),
    (POST, "/Parent/cart/RepeatWeek", True),
    (POST, "/Parent/cart/OrderSummary", True),
    (POST, "/Parent/cart/CheckOrderSummary", True),
    (POST, "/Promocode/promocode_management/check_promocode", True),
    (POST, "/Parent/auth/ListPromocodesByParent", True),
    (POST, "/Parent/order/AddOrder", True),
    (POST, "/Parent/order/OrderDeclined", True),
    (POST, "/Parent/order/OrderConfirmation", True),
    (POST, "/Parent/order/GetMealsList", True),
    (POST, "/Parent/order/MealOrderDetail", True),
    (POST, "/Parent/order/GetDatesForModifyMeal", True),
    (POST, "/Parent/order/ModifyMeal", True),
    (POST, "/Parent/order/ModifyOrderInfo", True),
    (POST, "/Parent/order/AddToMyOrder", True),
    (POST, "/Parent/order/DeleteFromModifyOrder", True),
    (POST, "/Parent/order/ModifyConfirmOrder", True),
    (POST, "/Parent/order/ModifyChangePaid", True),
    (POST, "/Parent/order/ModifyChangeDeclined", True),
    (POST, "/Parent/order/OrderHistory", True),
    (POST, "/Parent/order/OrderDetail", True),
    (GET, "/Parent/order/CancelOrderReason", True),
    (POST, "/Parent/cart/AddToCancelCart", True),
    (POST, "/Parent/cart/UpdateCancelCartQuantity", True),
    (POST, "/Parent/cart/DeleteCancelCartItem", True),
    (POST, "/Parent/cart/CancelCartDetails", True),
    (POST, "/Parent/order/CancelCart", True),
    (POST, "/Parent/order/CancelOrder", True),
    (POST, "/Parent/order/CancelMeal", True),
]
IDS = [path for _, path, _ in OPERATIONS]


def _call(client, method, path, hdrs, body="{}"):
    if method == GET:
        return client.get(f"/api/v1{path}", headers=hdrs)
    return client.post(f"/api/v1{path}", content=body, headers=hdrs)


@pytest.mark.parametrize(("method", "path", "_needs"), OPERATIONS, ids=IDS)
def test_wrong_or_missing_api_key_is_refused(client, method, path, _needs):
    token = quick_token()
    for key in ("wrong-key", None, API_KEY + "x", ""):
        hdrs = headers(token)
        if key is None:
            del hdrs["api-key"]
        else:
            hdrs["api-key"] = key
        refused(_call(client, method, path, hdrs), "Invalid api-key.", status=403)
    hdrs = headers(token, lang="fr")
    hdrs["api-key"] = "wrong"
    refused(_call(client, method, path, hdrs), "Clé d'API (api-key) invalide.", status=403)
    refused(
        _call(client, method, path, headers(token, app="S")), "Unknown app identifier.", status=403
    )


@pytest.mark.parametrize(
    ("method", "path", "_needs"),
    [op for op in OPERATIONS if op[2]],
    ids=[op[1] for op in OPERATIONS if op[2]],
)
def test_calls_for_a_parent_answer_401_without_a_session(client, method, path, _needs):
    refused(_call(client, method, path, headers()), status=401)
    refused(_call(client, method, path, headers("forged-token")), status=401)
    body = refused(_call(client, method, path, headers(lang="fr")), status=401)
    assert body["message"] == "Votre session a expiré. Veuillez vous reconnecter."


BAD_BODIES = [
    "{",
    "null",
    "[]",
    "1e999999",
    '{"email": {"$ne": null}, "child_id": {"a": 1}, "city_id": [1], "allergies": "x"}',
    '{"first_name": 12, "phone": 6135550123, "child_id": "1 OR 1=1", "allergies": [{}]}',
    '{"otp": 123456, "email": "a@b.co", "password": true, "terms": "yes please"}',
    '{"child_id": 99999999999999999999999, "city_id": -5, "school_id": 0, "limit": 1e300}',
    '{"alt_emails": "not-a-list", "profile_image": 5, "language": null}',
    "[" * 5000 + "]" * 5000,
    '{"a": "' + "x" * 100_000 + '"}',
    '{"email": "\\u0000@x.org", "slug": "\\ud83d"}',
]


@pytest.mark.parametrize(
    ("method", "path", "_needs"),
    [op for op in OPERATIONS if op[0] == POST],
    ids=[op[1] for op in OPERATIONS if op[0] == POST],
)
def test_bad_bodies_get_code_0_never_a_server_error(client, method, path, _needs):
    token = quick_token()
    for raw in BAD_BODIES:
        for content_type in ("text/plain", "application/json", "application/x-www-form-urlencoded"):
            response = _call(
                client, method, path, headers(token, **{"content-type": content_type}), raw
            )
            assert response.status_code < 500, (path, raw[:60], response.text)
            body = response.json()
            assert set(body) == {"code", "message", "data"}
            assert body["message"]


def test_a_too_large_body_is_refused(client):
    response = client.post(
        "/api/v1/Parent/auth/Login", content=b"{" + b" " * (5 * 1024 * 1024), headers=headers()
    )
    refused(response, "The request is too large.", status=413)


def test_openapi_describes_every_operation_and_body(client):
    doc = client.get("/api/v1/openapi.json").json()
    for method, path, _needs in OPERATIONS:
        operation = doc["paths"][f"/api/v1{path}"][method]
        assert operation["summary"]
        assert "200" in operation["responses"]
        schemes = {name for item in operation.get("security", []) for name in item}
        assert {"ApiKey", "ParentToken"} <= schemes
        if method == POST and path not in (
            "/Parent/auth/Logout",
            "/Parent/user/get_city",
            "/Parent/auth/ListPromocodesByParent",
            "/Parent/cart/CancelCartDetails",
        ):
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            assert schema["properties"], path
            assert "$defs" not in str(schema) and "#/$defs" not in str(schema)
    signup = doc["paths"]["/api/v1/Parent/auth/Signup"]["post"]["requestBody"]
    assert set(signup["content"]["application/json"]["schema"]["properties"]) == {
        "first_name",
        "last_name",
        "email",
        "phone",
        "password",
        "confirm_password",
        "terms",
    }
    schemes = doc["components"]["securitySchemes"]
    assert schemes["ApiKey"]["name"] == "api-key" and schemes["ParentToken"]["name"] == "token"


# --- CORS -----------------------------------------------------------------------------------------


def _with_reflex_cors():
    """The API as Reflex serves it: ``App._add_cors`` with rxconfig's ``cors_allowed_origins``
    (which rxconfig takes from CORS_ORIGINS)."""
    from reflex.app import App
    from reflex.config import get_config

    api = create_api()
    App._add_cors(api)
    return api, list(get_config().cors_allowed_origins)


def test_cors_answers_only_the_configured_origins(database):
    api, origins = _with_reflex_cors()
    assert origins == list(get_settings().cors_origins)
    allowed = origins[0]
    with TestClient(api) as cors_client:
        for origin, expected in ((allowed, allowed), ("https://evil.example", None)):
            preflight = cors_client.options(
                "/api/v1/Parent/auth/Login",
                headers={
                    "Origin": origin,
                    "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "api-key,token,app,content-type",
                },
            )
            assert preflight.headers.get("access-control-allow-origin") == expected
            response = cors_client.get(
                "/api/v1/Parent/user/get_grades", headers={**headers(), "Origin": origin}
            )
            assert response.headers.get("access-control-allow-origin") == expected
            if expected is None:
                # without Access-Control-Allow-Origin the browser hides the answer
                assert preflight.status_code == 400


@pytest.mark.parametrize(("method", "path", "_needs"), OPERATIONS, ids=IDS)
def test_every_call_answers_in_french(client, method, path, _needs):
    """The same request in English and in French: the message is the catalog's, translated
    (an empty body gives each call's first refusal, or its success message)."""
    answers = {}
    for lang in ("en", "fr"):
        token = quick_token()  # a fresh session: Logout revokes the one it is given
        answers[lang] = _call(client, method, path, headers(token, lang=lang)).json()
    assert answers["en"]["code"] == answers["fr"]["code"]
    assert answers["en"]["message"] != answers["fr"]["message"]
    assert answers["fr"]["message"] in set(FR.values())

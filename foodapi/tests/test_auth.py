"""Every endpoint but /api/health/ needs a DRF token; errors are JSON."""
import pytest

PROTECTED = [
    ("get", "/api/auth/check/"),
    ("get", "/api/pantry/"),
    ("get", "/api/pantry/1/"),
    ("patch", "/api/pantry/1/"),
    ("post", "/api/pantry/set-state/"),
    ("post", "/api/bulk-pantry-add/"),
    ("get", "/api/what-can-i-cook/"),
    ("get", "/api/meta-recipes/"),
    ("get", "/api/meta-recipes/1/"),
    ("get", "/api/recipes/"),
    ("post", "/api/create-meta-recipe/"),
    ("put", "/api/create-meta-recipe/"),
    ("post", "/api/log-cook/"),
]


@pytest.mark.parametrize("method,url", PROTECTED)
def test_endpoint_rejects_missing_token(anon, method, url):
    response = getattr(anon, method)(url, {}, format="json")
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Token"
    assert response.json() == {"detail": "Authentication credentials were not provided."}


@pytest.mark.parametrize("method,url", PROTECTED)
def test_endpoint_rejects_wrong_token(anon, method, url):
    anon.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = getattr(anon, method)(url, {}, format="json")
    assert response.status_code == 401
    assert response.json() == {"detail": "Invalid token."}


def test_session_style_bearer_is_not_accepted(anon, token):
    anon.credentials(HTTP_AUTHORIZATION=f"Bearer {token.key}")
    assert anon.get("/api/pantry/").status_code == 401


def test_health_needs_no_token(anon):
    response = anon.get("/api/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_auth_check_names_the_token_owner(api):
    response = api.get("/api/auth/check/")
    assert response.status_code == 200
    assert response.json() == {"username": "sous"}


def test_trailing_slash_is_optional(api):
    assert api.get("/api/auth/check").status_code == 200


def test_unknown_url_is_json_404(api):
    response = api.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not found."}


def test_wrong_method_is_json_405(api):
    response = api.delete("/api/pantry/")
    assert response.status_code == 405
    assert response.json() == {"detail": 'Method "DELETE" not allowed.'}


def test_malformed_json_is_400_with_detail(api):
    response = api.post("/api/pantry/set-state/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("JSON parse error")


def test_unlisted_host_is_json_400(api):
    response = api.get("/api/health/", HTTP_HOST="food.attacker.example")
    assert response.status_code == 400
    assert response.json() == {"detail": "Bad request."}


def test_non_json_body_is_415(api):
    response = api.post("/api/log-cook/", "rating=5", content_type="text/plain")
    assert response.status_code == 415
    assert response.json() == {"detail": 'Unsupported media type "text/plain" in request.'}

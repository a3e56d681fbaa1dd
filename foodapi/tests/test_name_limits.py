"""Names are at most NAME_MAX_LENGTH (120) characters on every write.

The pantry service (sous.pantry.v1, MaxNameChars) refuses longer names
before calling; these tests pin the API side of the same limit, so the two
cannot drift apart unnoticed.
"""
import pytest

from kitchen.models import NAME_MAX_LENGTH, Ingredient

AT_LIMIT = "a" * NAME_MAX_LENGTH
OVER = "b" * (NAME_MAX_LENGTH + 1)


def test_limit_is_the_one_the_pantry_service_checks():
    # services/pantry MaxNameChars and pantry.proto say 120; change all three together.
    assert NAME_MAX_LENGTH == 120


def error_text(response):
    body = response.json()
    return str(body.get("error") or body.get("detail") or body)


@pytest.mark.parametrize(
    "path, body",
    [
        ("/api/bulk-pantry-add/", {"items": [{"name": OVER}]}),
        ("/api/pantry/set-state/", {"ingredient": OVER, "state": "out"}),
        ("/api/create-meta-recipe/", {"name": OVER, "slots": [], "base_ingredients": []}),
        ("/api/create-meta-recipe/", {"name": "Soup", "slots": [{"name": OVER, "options": [{"ingredient": "leek"}]}]}),
        ("/api/create-meta-recipe/", {"name": "Soup", "base_ingredients": [{"ingredient": OVER}]}),
    ],
)
def test_longer_names_are_refused_in_one_sentence(api, path, body):
    response = api.post(path, body, format="json")
    assert response.status_code == 400, response.content
    text = error_text(response)
    assert str(NAME_MAX_LENGTH) in text
    assert "\n" not in text and "Traceback" not in text
    assert not Ingredient.objects.filter(name=OVER).exists()


def test_names_at_the_limit_are_stored(api):
    response = api.post("/api/bulk-pantry-add/", {"items": [{"name": AT_LIMIT}]}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["results"][0]["result"] == "created"
    assert Ingredient.objects.filter(name=AT_LIMIT).exists()

    response = api.post(
        "/api/create-meta-recipe/",
        {"name": AT_LIMIT, "slots": [{"name": AT_LIMIT, "options": [{"ingredient": AT_LIMIT}]}]},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["meta_recipe"]["name"] == AT_LIMIT

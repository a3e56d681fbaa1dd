"""GET /api/pantry/ and PATCH /api/pantry/<id>/ (spec §6.5: the shape exposes state)."""
import pytest

from kitchen.models import PantryItem
from kitchen.serializers import PantryItemSerializer
from tests.builders import days, ingredient, item

ITEM_FIELDS = {
    "id",
    "ingredient_id",
    "ingredient",
    "aliases",
    "location",
    "state",
    "quantity",
    "unit",
    "expiry",
    "is_staple",
    "updated_at",
}


@pytest.mark.django_db
def test_serializer_exposes_state():
    row = item("milk", location="fridge", state="low")
    data = PantryItemSerializer(row).data
    assert data["state"] == "low"
    assert set(data) == ITEM_FIELDS


def test_list_shape(api, today):
    noodles = ingredient("egg noodles", "noodles", "Mie")
    row = item(noodles, state="low", quantity="0.5", unit="pack", expiry=days(today, 2), is_staple=True)
    response = api.get("/api/pantry/")
    assert response.status_code == 200
    assert response.json() == [
        {
            "id": row.id,
            "ingredient_id": noodles.id,
            "ingredient": "egg noodles",
            "aliases": ["Mie", "noodles"],
            "location": "cupboard",
            "state": "low",
            "quantity": 0.5,
            "unit": "pack",
            "expiry": days(today, 2).isoformat(),
            "is_staple": True,
            "updated_at": response.json()[0]["updated_at"],
        }
    ]


def test_list_filters(api):
    item("milk", location="fridge", state="in")
    item("eggs", location="fridge", state="out")
    item("rice", location="cupboard", state="low")
    item("peas", location="freezer", state="in")

    def names(query):
        response = api.get("/api/pantry/" + query)
        assert response.status_code == 200
        return sorted(i["ingredient"] for i in response.json())

    assert names("?location=fridge") == ["eggs", "milk"]
    assert names("?state=out") == ["eggs"]
    assert names("?state=in,low") == ["milk", "peas", "rice"]
    assert names("?location=fridge&state=in") == ["milk"]


@pytest.mark.parametrize("query", ["?location=garage", "?state=gone"])
def test_list_rejects_unknown_filter_values(api, query):
    response = api.get("/api/pantry/" + query)
    assert response.status_code == 400
    assert "expected one of" in response.json()["detail"]


def test_patch_changes_sent_fields_only(api):
    row = item("milk", location="fridge", state="in", quantity=1, unit="l")
    response = api.patch(f"/api/pantry/{row.id}/", {"state": "low", "quantity": 0.25}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert (body["state"], body["quantity"], body["unit"], body["location"]) == ("low", 0.25, "l", "fridge")
    row.refresh_from_db()
    assert row.state == "low"


def test_patch_rejects_unknown_and_read_only_fields(api):
    row = item("milk")
    response = api.patch(f"/api/pantry/{row.id}/", {"ingredient": "cream"}, format="json")
    assert response.status_code == 400
    assert "ingredient" in response.json()["detail"]


def test_patch_validation_error_shape(api):
    row = item("milk")
    response = api.patch(f"/api/pantry/{row.id}/", {"state": "gone"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["detail"] == 'state: "gone" is not a valid choice.'
    assert body["errors"] == {"state": ['"gone" is not a valid choice.']}


def test_patch_refuses_second_row_in_same_location(api):
    mince = ingredient("pork mince")
    item(mince, location="fridge")
    frozen = item(mince, location="freezer")
    response = api.patch(f"/api/pantry/{frozen.id}/", {"location": "fridge"}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "location: pork mince already has a pantry item in the fridge."
    assert PantryItem.objects.filter(ingredient=mince).count() == 2


def test_patch_unknown_id_is_404(api):
    response = api.patch("/api/pantry/999/", {"state": "in"}, format="json")
    assert response.status_code == 404
    assert response.json() == {"detail": "No pantry item has id 999."}


def test_ingredients_lists_every_ingredient_with_its_aliases(api):
    ingredient("egg noodles", "noodles", "Mie")
    ingredient("tofu puffs")  # in no pantry item: listed all the same
    response = api.get("/api/ingredients/")
    assert response.status_code == 200
    assert [(i["name"], i["aliases"]) for i in response.json()] == [
        ("egg noodles", ["Mie", "noodles"]),
        ("tofu puffs", []),
    ]
    assert all(isinstance(i["id"], int) for i in response.json())


def test_ingredients_needs_the_token(anon):
    assert anon.get("/api/ingredients/").status_code == 401

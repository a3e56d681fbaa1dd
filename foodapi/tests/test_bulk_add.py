"""POST /api/bulk-pantry-add/ (spec §6.4): restock by ingredient+location, never duplicate."""
import datetime

from kitchen.models import Ingredient, PantryItem
from tests.builders import ingredient, item


def add(api, *items):
    return api.post("/api/bulk-pantry-add/", {"items": list(items)}, format="json")


def test_restocks_item_marked_out_instead_of_duplicating(api):
    eggs = item("eggs", location="fridge", state="out", quantity=0, unit="", expiry=datetime.date(2020, 1, 1))
    response = add(api, {"name": "eggs", "location": "fridge", "quantity": 12})
    assert response.status_code == 200
    body = response.json()
    assert body["counts"] == {"created": 0, "restocked": 1}
    result = body["results"][0]
    assert result["result"] == "restocked"
    assert result["ingredient_created"] is False
    assert result["item"]["id"] == eggs.id
    assert result["item"]["state"] == "in"
    assert result["item"]["quantity"] == 12
    assert result["item"]["expiry"] is None  # the old date belonged to the eaten stock
    assert PantryItem.objects.filter(ingredient__name="eggs").count() == 1


def test_restock_by_alias_without_location_uses_existing_row(api):
    noodles = ingredient("egg noodles", "noodles")
    row = item(noodles, location="cupboard", state="low", quantity=1, unit="nest")
    response = add(api, {"name": "Noodles"})
    assert response.status_code == 200
    result = response.json()["results"][0]
    assert (result["result"], result["item"]["id"], result["item"]["state"]) == ("restocked", row.id, "in")
    assert result["item"]["quantity"] == 1  # nothing said about amount: kept while not out
    assert PantryItem.objects.count() == 1


def test_unknown_name_creates_ingredient_and_item(api):
    response = add(api, {"name": "  Pork   mince ", "location": "fridge", "quantity": 500, "unit": "g"})
    assert response.status_code == 200
    result = response.json()["results"][0]
    assert result == {
        "name": "Pork mince",
        "result": "created",
        "ingredient_created": True,
        "item": {**result["item"], "ingredient": "Pork mince", "location": "fridge", "state": "in",
                 "quantity": 500, "unit": "g"},
    }
    assert Ingredient.objects.filter(name="Pork mince").count() == 1


def test_new_location_for_known_ingredient_creates_second_row(api):
    mince = ingredient("pork mince")
    item(mince, location="fridge", state="in")
    response = add(api, {"name": "pork mince", "location": "freezer"})
    assert response.json()["results"][0]["result"] == "created"
    assert response.json()["results"][0]["ingredient_created"] is False
    assert sorted(PantryItem.objects.values_list("location", flat=True)) == ["freezer", "fridge"]


def test_default_location_is_cupboard(api):
    response = add(api, {"name": "chickpeas"})
    assert response.json()["results"][0]["item"]["location"] == "cupboard"


def test_same_name_twice_in_one_call_restocks_the_first(api):
    response = add(api, {"name": "milk", "location": "fridge"}, {"name": "milk", "location": "fridge", "quantity": 2})
    assert [r["result"] for r in response.json()["results"]] == ["created", "restocked"]
    assert PantryItem.objects.count() == 1


def test_ambiguous_location_fails_whole_call(api):
    mince = ingredient("pork mince")
    item(mince, location="fridge", state="out")
    item(mince, location="freezer", state="out")
    response = add(api, {"name": "bread"}, {"name": "pork mince"})
    assert response.status_code == 400
    body = response.json()
    assert body["detail"] == "items[1]: pork mince is kept in more than one location; say which location."
    assert len(body["candidates"]) == 2
    # atomic: the first item was not written either
    assert not Ingredient.objects.filter(name="bread").exists()
    assert PantryItem.objects.filter(state="in").count() == 0


def test_empty_items_is_400(api):
    response = api.post("/api/bulk-pantry-add/", {"items": []}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("items:")


def test_item_validation_error_names_its_path(api):
    response = add(api, {"name": "milk", "location": "garage"})
    assert response.status_code == 400
    assert response.json()["detail"] == 'items[0].location: "garage" is not a valid choice.'


def test_restocking_an_item_marked_out_without_an_amount_clears_the_old_one(api):
    # The amount and date described the stock that ran out; keeping them
    # would claim "200 g, use by last week" for what was just bought.
    tofu = item("firm tofu", location="fridge", state="out", quantity=200, unit="g", expiry=datetime.date(2020, 1, 1))
    response = add(api, {"name": "firm tofu", "location": "fridge"})
    assert response.status_code == 200
    result = response.json()["results"][0]
    assert (result["result"], result["item"]["id"], result["item"]["state"]) == ("restocked", tofu.id, "in")
    assert result["item"]["quantity"] is None
    assert result["item"]["expiry"] is None
    tofu.refresh_from_db()
    assert (tofu.quantity, tofu.expiry, tofu.state) == (None, None, "in")


def test_restocking_an_item_still_in_keeps_its_amount_and_date(api):
    milk = item("milk", location="fridge", state="in", quantity=2, unit="l", expiry=datetime.date(2099, 1, 1))
    result = add(api, {"name": "milk", "location": "fridge"}).json()["results"][0]
    assert result["item"]["id"] == milk.id
    assert (result["item"]["quantity"], result["item"]["expiry"]) == (2, "2099-01-01")


def test_restocking_an_item_still_in_takes_the_new_amount_and_date(api):
    milk = item("milk", location="fridge", state="in", quantity=0.3, unit="l", expiry=datetime.date(2099, 1, 1))
    response = api.post(
        "/api/bulk-pantry-add/",
        {"items": [{"name": "milk", "quantity": 2, "unit": "l", "expiry": "2099-02-03"}]},
        format="json",
    )
    result = response.json()["results"][0]
    assert result["result"] == "restocked"
    assert (result["item"]["quantity"], result["item"]["expiry"]) == (2, "2099-02-03")
    milk.refresh_from_db()
    assert (milk.quantity, milk.expiry, milk.state) == (2, datetime.date(2099, 2, 3), "in")

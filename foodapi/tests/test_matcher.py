"""GET /api/what-can-i-cook/ (spec §6.3): presence-based — in or low counts, quantity never does."""
from kitchen.matcher import EXPIRY_WARNING_DAYS
from tests.builders import days, item, meta_recipe


def cook(api, query=""):
    response = api.get("/api/what-can-i-cook/" + query)
    assert response.status_code == 200
    return response.json()


def stir_fry():
    return meta_recipe(
        "Stir-fry",
        {
            "protein": [("pork mince", 300, "g"), ("tofu", 300, "g")],
            "carb": [("egg noodles", 200, "g"), ("rice", 150, "g")],
        },
        bases=[("soy sauce", 2, "tbsp"), ("garlic", 2, "cloves")],
    )


def test_low_item_with_tiny_quantity_still_counts(api):
    stir_fry()
    item("pork mince", location="fridge", state="low", quantity="0.01", unit="g")  # far below 300 g
    item("egg noodles", state="in", quantity=0)
    item("soy sauce", state="low")
    item("garlic", state="in")
    result = cook(api)["results"][0]
    assert result["status"] == "ready"
    assert result["missing_slots"] == []
    assert result["missing_base_ingredients"] == []
    protein = result["slots"][0]
    assert protein["available"] is True
    assert [o["ingredient"] for o in protein["present_options"]] == ["pork mince"]
    assert protein["missing_options"] == ["tofu"]
    assert protein["present_options"][0]["pantry"][0]["state"] == "low"


def test_out_items_do_not_count(api):
    stir_fry()
    item("pork mince", state="out", quantity=500, unit="g")  # a stale amount must not make it present
    item("tofu", state="out")
    item("egg noodles", state="in")
    item("soy sauce", state="in")
    item("garlic", state="out")
    body = cook(api)
    result = body["results"][0]
    assert result["status"] == "partial"
    assert result["missing_slots"] == ["protein"]
    assert result["missing_base_ingredients"] == ["garlic"]
    assert body["counts"] == {"ready": 0, "partial": 1, "missing": 0}


def test_nothing_present_is_missing_and_sorted_last(api):
    stir_fry()
    meta_recipe("Toast", {"bread": [("bread", 2, "slices")]}, bases=[("butter", 10, "g")])
    item("bread", state="in")
    item("butter", state="low")
    body = cook(api)
    assert [(r["name"], r["status"]) for r in body["results"]] == [("Toast", "ready"), ("Stir-fry", "missing")]
    assert body["counts"] == {"ready": 1, "partial": 0, "missing": 1}


def test_expiry_warnings_cover_present_items_within_window(api, today):
    stir_fry()
    item("pork mince", location="fridge", expiry=days(today, EXPIRY_WARNING_DAYS))
    item("tofu", location="fridge", expiry=days(today, EXPIRY_WARNING_DAYS + 1))
    item("egg noodles", expiry=days(today, -1))
    item("rice", state="out", expiry=days(today, 1))  # not present: no warning
    item("soy sauce")
    result = cook(api)["results"][0]
    assert [(w["ingredient"], w["days_left"], w["expired"]) for w in result["expiry_warnings"]] == [
        ("egg noodles", -1, True),
        ("pork mince", EXPIRY_WARNING_DAYS, False),
    ]
    warning = result["expiry_warnings"][1]
    assert set(warning) == {"ingredient", "pantry_item_id", "location", "expiry", "days_left", "expired"}
    assert warning["expiry"] == days(today, EXPIRY_WARNING_DAYS).isoformat()


def test_servings_scales_amounts_but_not_status(api):
    stir_fry()
    item("pork mince", state="low", quantity=1, unit="g")
    result = cook(api, "?servings=3")["results"][0]
    assert result["servings"] == 3
    assert result["recipe_servings"] == 2
    assert result["slots"][0]["present_options"][0]["quantity"] == 450
    assert {b["ingredient"]: b["quantity"] for b in result["base_ingredients"]} == {"soy sauce": 3, "garlic": 3}
    assert result["status"] == "partial"


def test_bad_servings_is_400(api):
    for query in ("?servings=0", "?servings=two", "?servings=1000"):
        response = api.get("/api/what-can-i-cook/" + query)
        assert response.status_code == 400
        assert response.json() == {"detail": "servings must be a whole number from 1 to 100."}

"""POST /api/pantry/set-state/ (spec §6.2): by name or alias, clear errors with close matches."""
from kitchen.models import PantryItem
from tests.builders import ingredient, item


def test_sets_state_by_alias_ignoring_case(api):
    noodles = ingredient("egg noodles", "noodles")
    row = item(noodles, state="in")
    response = api.post("/api/pantry/set-state/", {"ingredient": "  NOODLES ", "state": "out"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["changed"] is True
    assert body["item"]["id"] == row.id
    assert body["item"]["ingredient"] == "egg noodles"
    assert body["item"]["state"] == "out"
    row.refresh_from_db()
    assert row.state == "out"


def test_sets_state_by_name(api):
    row = item("milk", location="fridge", state="in")
    response = api.post("/api/pantry/set-state/", {"ingredient": "Milk", "state": "low"}, format="json")
    assert response.status_code == 200
    row.refresh_from_db()
    assert row.state == "low"


def test_singular_finds_plural_name(api):
    row = item("eggs", location="fridge", state="in")
    response = api.post("/api/pantry/set-state/", {"ingredient": "egg", "state": "out"}, format="json")
    assert response.status_code == 200
    assert response.json()["item"]["id"] == row.id


def test_same_state_is_a_no_op(api):
    row = item("milk", state="low")
    before = PantryItem.objects.get(pk=row.pk).updated_at
    response = api.post("/api/pantry/set-state/", {"ingredient": "milk", "state": "low"}, format="json")
    assert response.status_code == 200
    assert response.json()["changed"] is False
    assert PantryItem.objects.get(pk=row.pk).updated_at == before


def test_unknown_name_is_404_with_close_matches(api):
    item(ingredient("egg noodles", "noodles"))
    item("rice noodles")
    item("milk")
    response = api.post("/api/pantry/set-state/", {"ingredient": "nodles", "state": "out"}, format="json")
    assert response.status_code == 404
    body = response.json()
    assert body["detail"] == "No ingredient is called 'nodles'."
    assert body["close_matches"][0] == "egg noodles"
    assert "milk" not in body["close_matches"]
    assert body["candidates"] == []


def test_close_matches_include_names_containing_the_word(api):
    item("pork mince")
    item("beef mince")
    response = api.post("/api/pantry/set-state/", {"ingredient": "mince", "state": "out"}, format="json")
    assert response.status_code == 404
    assert sorted(response.json()["close_matches"]) == ["beef mince", "pork mince"]


def test_two_locations_without_location_is_400_with_candidates(api):
    mince = ingredient("pork mince", "mince")
    fridge = item(mince, location="fridge", state="in")
    freezer = item(mince, location="freezer", state="in")
    response = api.post("/api/pantry/set-state/", {"ingredient": "mince", "state": "out"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["detail"] == "pork mince is in more than one location (freezer, fridge); say which location."
    assert body["close_matches"] == ["pork mince"]
    assert sorted(c["id"] for c in body["candidates"]) == sorted([fridge.id, freezer.id])
    assert {c["location"] for c in body["candidates"]} == {"fridge", "freezer"}
    assert set(body["candidates"][0]) == {"id", "ingredient", "location", "state"}
    assert PantryItem.objects.filter(state="out").count() == 0


def test_location_picks_one_of_two(api):
    mince = ingredient("pork mince")
    fridge = item(mince, location="fridge", state="in")
    freezer = item(mince, location="freezer", state="in")
    response = api.post(
        "/api/pantry/set-state/", {"ingredient": "pork mince", "location": "fridge", "state": "out"}, format="json"
    )
    assert response.status_code == 200
    fridge.refresh_from_db()
    freezer.refresh_from_db()
    assert (fridge.state, freezer.state) == ("out", "in")


def test_name_fitting_two_ingredients_is_400(api):
    item("tomatoes", location="cupboard")
    item("tomatos", location="fridge")  # a misspelt duplicate: "tomato" fits both
    response = api.post("/api/pantry/set-state/", {"ingredient": "tomato", "state": "out"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["detail"] == "'tomato' could mean more than one ingredient (tomatoes, tomatos); use the full name."
    assert body["close_matches"] == ["tomatoes", "tomatos"]
    assert len(body["candidates"]) == 2
    assert PantryItem.objects.filter(state="out").count() == 0


def test_known_ingredient_without_pantry_row_is_404(api):
    ingredient("saffron")
    item("milk")
    response = api.post("/api/pantry/set-state/", {"ingredient": "saffron", "state": "in"}, format="json")
    assert response.status_code == 404
    body = response.json()
    assert body["detail"] == "saffron has no pantry item; add it with bulk-pantry-add."
    assert body["candidates"] == []


def test_wrong_location_lists_where_it_is(api):
    row = item("milk", location="fridge")
    response = api.post(
        "/api/pantry/set-state/", {"ingredient": "milk", "location": "freezer", "state": "out"}, format="json"
    )
    assert response.status_code == 404
    assert [c["id"] for c in response.json()["candidates"]] == [row.id]


def test_missing_state_is_400(api):
    item("milk")
    response = api.post("/api/pantry/set-state/", {"ingredient": "milk"}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "state: This field is required."


def test_word_matches_rank_before_spelling_matches(api):
    item(ingredient("jasmine rice", "rice"))
    item("pork mince")
    response = api.post("/api/pantry/set-state/", {"ingredient": "mince", "state": "out"}, format="json")
    assert response.json()["close_matches"][0] == "pork mince"

"""GET /api/meta-recipes/ and POST/PUT /api/create-meta-recipe/ (nested create / rebuild)."""
from kitchen.models import Ingredient, MetaRecipe, MetaRecipeSlot, SlotOption
from tests.builders import ingredient, meta_recipe

BRAINSTORM = {
    "name": "Noodle soup",
    "method": "Simmer the stock, add noodles and greens.",
    "servings": 2,
    "slots": [
        {"name": "protein", "options": [{"ingredient": "chicken", "qty": 200, "unit": "g"}, {"ingredient": "tofu"}]},
        {"name": "greens", "options": [{"ingredient": "pak choi", "quantity": 2, "unit": "heads"}]},
    ],
    "base_ingredients": ["noodles", {"ingredient": "stock", "quantity": 1, "unit": "l"}],
}


def test_create_reports_auto_created_ingredients(api):
    ingredient("egg noodles", "noodles")
    ingredient("tofu")
    response = api.post("/api/create-meta-recipe/", BRAINSTORM, format="json")
    assert response.status_code == 201
    body = response.json()
    assert sorted(body["created_ingredients"]) == ["chicken", "pak choi", "stock"]
    saved = body["meta_recipe"]
    assert saved["name"] == "Noodle soup"
    assert saved["servings"] == 2
    assert [s["name"] for s in saved["slots"]] == ["protein", "greens"]
    assert saved["slots"][0]["options"] == [
        {"ingredient": "chicken", "ingredient_id": Ingredient.objects.get(name="chicken").id, "quantity": 200, "unit": "g"},
        {"ingredient": "tofu", "ingredient_id": Ingredient.objects.get(name="tofu").id, "quantity": None, "unit": ""},
    ]
    # an alias resolves to the existing ingredient rather than creating one
    assert [b["ingredient"] for b in saved["base_ingredients"]] == ["egg noodles", "stock"]
    assert Ingredient.objects.filter(name__iexact="noodles").count() == 0
    # ... and says so: the name was read other than exactly.
    assert body["resolved"] == {"noodles": "egg noodles"}


def test_put_with_id_rebuilds_and_keeps_id(api):
    first = api.post("/api/create-meta-recipe/", BRAINSTORM, format="json").json()["meta_recipe"]
    old_slot_ids = [s["id"] for s in first["slots"]]
    update = {
        "id": first["id"],
        "name": "Noodle soup",
        "slots": [{"name": "protein", "options": [{"ingredient": "prawns", "qty": 150, "unit": "g"}]}],
        "base_ingredients": ["stock"],
    }
    response = api.put("/api/create-meta-recipe/", update, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["meta_recipe"]["id"] == first["id"]
    assert body["created_ingredients"] == ["prawns"]
    assert body["meta_recipe"]["method"] == BRAINSTORM["method"]  # omitted: kept
    assert [s["name"] for s in body["meta_recipe"]["slots"]] == ["protein"]
    assert [o["ingredient"] for o in body["meta_recipe"]["slots"][0]["options"]] == ["prawns"]
    assert [b["ingredient"] for b in body["meta_recipe"]["base_ingredients"]] == ["stock"]
    assert MetaRecipe.objects.count() == 1
    assert not MetaRecipeSlot.objects.filter(id__in=old_slot_ids).exists()
    assert SlotOption.objects.count() == 1


def test_post_with_id_also_updates(api):
    mr = meta_recipe("Toast", {"bread": [("bread", 2, "slices")]})
    response = api.post("/api/create-meta-recipe/", {"id": mr.id, "name": "Buttered toast"}, format="json")
    assert response.status_code == 200
    assert response.json()["meta_recipe"]["name"] == "Buttered toast"
    assert response.json()["meta_recipe"]["slots"] == []


def test_put_without_id_is_400(api):
    response = api.put("/api/create-meta-recipe/", {"name": "Toast"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "PUT needs the id of the meta-recipe to update."}


def test_put_unknown_id_is_404(api):
    response = api.put("/api/create-meta-recipe/", {"id": 404, "name": "Toast"}, format="json")
    assert response.status_code == 404
    assert response.json() == {"detail": "No meta-recipe has id 404."}


def test_duplicate_name_is_400_with_existing_id(api):
    mr = meta_recipe("Toast", {})
    response = api.post("/api/create-meta-recipe/", {"name": "TOAST"}, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "detail": f"A meta-recipe named 'Toast' already exists (id {mr.id}); send its id to update it.",
        "existing_id": mr.id,
    }


def test_failed_update_leaves_recipe_untouched(api):
    mr = meta_recipe("Toast", {"bread": [("bread", 2, "slices")]})
    bad = {"id": mr.id, "name": "Toast", "slots": [{"name": "x", "options": [{"ingredient": "jam"}, {"ingredient": "jam"}]}]}
    response = api.put("/api/create-meta-recipe/", bad, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "slots[0].options[1]: jam is already an option of slot 'x'."
    assert list(MetaRecipe.objects.get(pk=mr.pk).slots.values_list("name", flat=True)) == ["bread"]
    assert not Ingredient.objects.filter(name="jam").exists()


def test_validation_errors_name_nested_paths(api):
    response = api.post("/api/create-meta-recipe/", {"name": "Soup", "slots": [{"name": "veg", "options": []}]}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["detail"].startswith("slots[0].options: ")
    assert list(body["errors"]) == ["slots[0].options"]


def test_duplicate_slot_names_rejected(api):
    payload = {
        "name": "Soup",
        "slots": [{"name": "veg", "options": [{"ingredient": "leek"}]}, {"name": "Veg", "options": [{"ingredient": "kale"}]}],
    }
    response = api.post("/api/create-meta-recipe/", payload, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "slots: Slot 'Veg' appears twice."


def test_list_shape(api):
    mr = meta_recipe("Toast", {"bread": [("bread", 2, "slices")]}, bases=[("butter", 10, "g")], servings=1)
    response = api.get("/api/meta-recipes/")
    assert response.status_code == 200
    [data] = response.json()
    assert set(data) == {"id", "name", "method", "servings", "slots", "base_ingredients", "updated_at"}
    assert data["id"] == mr.id
    assert data["servings"] == 1
    assert set(data["slots"][0]) == {"id", "name", "options"}
    assert data["slots"][0]["options"][0]["quantity"] == 2
    assert data["base_ingredients"][0]["ingredient"] == "butter"
    assert api.get(f"/api/meta-recipes/{mr.id}/").json() == data
    assert api.get("/api/meta-recipes/999/").status_code == 404


def test_a_general_word_is_kept_not_narrowed(api):
    # "chicken" is more general than "chicken thighs" but not its alias: a
    # new "chicken", reported as created, never a silent "chicken thighs".
    ingredient("chicken thighs")
    body = api.post(
        "/api/create-meta-recipe/",
        {"name": "Roast", "slots": [{"name": "meat", "options": [{"ingredient": "chicken"}]}]},
        format="json",
    ).json()
    assert body["created_ingredients"] == ["chicken"]
    assert body["resolved"] == {}
    assert body["meta_recipe"]["slots"][0]["options"][0]["ingredient"] == "chicken"


def test_an_alias_binds_and_is_reported(api):
    ingredient("chicken thighs", "chicken")
    body = api.post(
        "/api/create-meta-recipe/",
        {"name": "Roast", "slots": [{"name": "meat", "options": [{"ingredient": "Chicken"}]}]},
        format="json",
    ).json()
    assert body["created_ingredients"] == []
    assert body["resolved"] == {"Chicken": "chicken thighs"}


def test_an_exact_name_in_another_case_is_not_reported(api):
    ingredient("Tofu")
    body = api.post(
        "/api/create-meta-recipe/",
        {"name": "Bowl", "base_ingredients": ["tofu", "  TOFU  puffs "]},
        format="json",
    ).json()
    assert body["resolved"] == {}
    assert body["created_ingredients"] == ["TOFU puffs"]


def test_an_ambiguous_name_lists_both_and_writes_nothing(api):
    ingredient("chilli")
    ingredient("chilly")
    response = api.post(
        "/api/create-meta-recipe/",
        {"name": "Hot pot", "base_ingredients": ["stock", "chillies"]},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["detail"] == (
        "base_ingredients[1]: 'chillies' could mean more than one ingredient (chilli, chilly); use the full name."
    )
    assert body["close_matches"] == ["chilli", "chilly"]
    assert not MetaRecipe.objects.exists()
    assert not Ingredient.objects.filter(name="stock").exists()

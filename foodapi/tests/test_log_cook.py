"""POST /api/log-cook/ (spec §6.1): rating stored and validated, the exactly-one rule
enforced by the model on every path, used_ingredients returned, pantry untouched."""
import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from kitchen.models import CookLog, Ingredient
from tests.builders import ingredient, item, meta_recipe, pantry_snapshot, recipe


@pytest.fixture
def stir_fry(db):
    return meta_recipe(
        "Stir-fry",
        {"protein": [("pork mince", 300, "g"), ("tofu", 300, "g")], "carb": [("egg noodles", 200, "g")]},
        bases=[("soy sauce", 2, "tbsp")],
    )


@pytest.fixture
def bolognese(db):
    return recipe("Bolognese", [("spaghetti", 400, "g"), ("pork mince", 500, "g")], servings=4)


def log(api, body):
    return api.post("/api/log-cook/", body, format="json")


def test_rating_is_stored(api, stir_fry):
    response = log(api, {"meta_recipe": stir_fry.id, "rating": 4, "notes": "more ginger"})
    assert response.status_code == 201
    saved = CookLog.objects.get(pk=response.json()["id"])
    assert (saved.rating, saved.notes, saved.meta_recipe_id, saved.recipe_id) == (4, "more ginger", stir_fry.id, None)
    assert response.json()["rating"] == 4


@pytest.mark.parametrize("rating", [0, 6, -1])
def test_rating_out_of_range_is_400(api, stir_fry, rating):
    response = log(api, {"meta_recipe": stir_fry.id, "rating": rating})
    assert response.status_code == 400
    assert response.json()["detail"].startswith("rating: Ensure this value is")
    assert CookLog.objects.count() == 0


def test_rating_must_be_a_whole_number(api, stir_fry):
    response = log(api, {"meta_recipe": stir_fry.id, "rating": "great"})
    assert response.status_code == 400
    assert response.json()["detail"] == "rating: A valid integer is required."


def test_log_cook_changes_no_pantry_state(api, stir_fry):
    item("pork mince", location="fridge", state="in", quantity=300, unit="g")
    item("pork mince", location="freezer", state="low")
    item("egg noodles", state="low", quantity=1)
    item("soy sauce", state="in")
    before = pantry_snapshot()
    response = log(
        api,
        {"meta_recipe": "stir-fry", "slot_choices": {"protein": "pork mince", "carb": "egg noodles"}, "servings": 2},
    )
    assert response.status_code == 201
    assert pantry_snapshot() == before


def test_used_ingredients_are_base_plus_chosen_options(api, stir_fry):
    fridge = item("pork mince", location="fridge", state="in")
    response = log(
        api,
        {"meta_recipe": "Stir-fry", "slot_choices": {"Protein": "pork mince"}, "servings": 4, "date": "2026-06-20"},
    )
    assert response.status_code == 201
    body = response.json()
    assert body["meta_recipe"] == {"id": stir_fry.id, "name": "Stir-fry"}
    assert body["recipe"] is None
    assert body["slot_choices"] == {"protein": "pork mince"}
    assert body["date"] == "2026-06-20"
    assert body["unchosen_slots"] == ["carb"]
    used = body["used_ingredients"]
    assert [(u["ingredient"], u["source"], u["slot"], u["quantity"], u["unit"]) for u in used] == [
        ("soy sauce", "base", None, 4, "tbsp"),
        ("pork mince", "slot", "protein", 600, "g"),
    ]
    assert used[1]["pantry"] == [
        {"id": fridge.id, "location": "fridge", "state": "in", "quantity": None, "unit": "", "expiry": None}
    ]
    assert used[0]["pantry"] == []
    assert CookLog.objects.get().date == datetime.date(2026, 6, 20)


def test_substitute_outside_options_is_recorded_without_amount(api, stir_fry):
    item("chicken thighs")
    response = log(api, {"meta_recipe": stir_fry.id, "slot_choices": {"protein": "chicken thighs"}})
    assert response.status_code == 201
    slot_line = response.json()["used_ingredients"][1]
    assert (slot_line["ingredient"], slot_line["quantity"]) == ("chicken thighs", None)


def test_fixed_recipe_lines_are_used(api, bolognese):
    response = log(api, {"recipe": "bolognese", "servings": 2, "rating": 5})
    assert response.status_code == 201
    body = response.json()
    assert body["recipe"] == {"id": bolognese.id, "name": "Bolognese"}
    assert [(u["ingredient"], u["quantity"], u["source"]) for u in body["used_ingredients"]] == [
        ("spaghetti", 200, "recipe"),
        ("pork mince", 250, "recipe"),
    ]


def test_both_links_rejected_through_api(api, stir_fry, bolognese):
    response = log(api, {"meta_recipe": stir_fry.id, "recipe": bolognese.id})
    assert response.status_code == 400
    assert response.json()["detail"] == "A cook log links exactly one of meta_recipe or recipe."
    assert CookLog.objects.count() == 0


def test_neither_link_rejected_through_api(api):
    response = log(api, {"rating": 3})
    assert response.status_code == 400
    assert response.json()["detail"] == "A cook log links exactly one of meta_recipe or recipe."


def test_model_enforces_exactly_one_on_every_save(stir_fry, bolognese):
    with pytest.raises(ValidationError, match="exactly one"):
        CookLog.objects.create(meta_recipe=stir_fry, recipe=bolognese)
    with pytest.raises(ValidationError, match="exactly one"):
        CookLog(rating=3).save()
    with pytest.raises(ValidationError):
        CookLog.objects.create(recipe=bolognese, rating=9)
    assert CookLog.objects.count() == 0
    assert CookLog.objects.create(recipe=bolognese, rating=5).rating == 5


def test_database_backs_the_rule_when_save_is_skipped(stir_fry, bolognese):
    with pytest.raises(IntegrityError), transaction.atomic():
        CookLog.objects.bulk_create([CookLog(meta_recipe=stir_fry, recipe=bolognese)])


def test_unknown_slot_is_400(api, stir_fry):
    item("pork mince")
    response = log(api, {"meta_recipe": stir_fry.id, "slot_choices": {"sauce": "pork mince"}})
    assert response.status_code == 400
    assert response.json()["detail"] == "slot_choices: 'sauce' is not a slot of 'Stir-fry' (slots: carb, protein)."


def test_slot_choices_with_fixed_recipe_is_400(api, bolognese):
    response = log(api, {"recipe": bolognese.id, "slot_choices": {"protein": "pork mince"}})
    assert response.status_code == 400
    assert response.json()["detail"] == "slot_choices: Slot choices apply only to a meta-recipe."


def test_off_template_choice_is_logged_as_cooked_and_created(api, stir_fry):
    response = log(api, {"meta_recipe": stir_fry.id, "slot_choices": {"protein": "broccoli", "carb": "egg noodles"}})
    assert response.status_code == 201
    body = response.json()
    assert body["slot_choices"] == {"protein": "broccoli", "carb": "egg noodles"}
    assert body["off_template"] == {"protein": "broccoli"}
    assert body["created_ingredients"] == ["broccoli"]
    assert body["resolved"] == {}
    assert Ingredient.objects.filter(name="broccoli").exists()
    assert CookLog.objects.get().slot_choices["protein"] == "broccoli"
    assert ("broccoli", "slot", None) in [(u["ingredient"], u["source"], u["quantity"]) for u in body["used_ingredients"]]
    # The template is not changed by what was cooked once.
    assert "broccoli" not in [o.ingredient.name for o in stir_fry.slots.get(name="protein").options.all()]


def test_off_template_choice_of_a_known_ingredient_says_how_it_was_read(api, stir_fry):
    ingredient("carrots", "carrot")
    response = log(api, {"meta_recipe": stir_fry.id, "slot_choices": {"protein": "Carrot"}})
    assert response.status_code == 201
    body = response.json()
    assert body["off_template"] == {"protein": "carrots"}
    assert body["resolved"] == {"Carrot": "carrots"}
    assert body["created_ingredients"] == []


def test_template_option_is_not_off_template(api, stir_fry):
    body = log(api, {"meta_recipe": stir_fry.id, "slot_choices": {"protein": "pork mince"}}).json()
    assert (body["off_template"], body["created_ingredients"], body["resolved"]) == ({}, [], {})


def test_a_new_choice_close_to_a_known_name_is_created_with_its_close_matches(api, stir_fry):
    response = log(api, {"meta_recipe": stir_fry.id, "slot_choices": {"protein": "pork minse"}})
    assert response.status_code == 201
    body = response.json()
    assert body["created_ingredients"] == ["pork minse"]
    assert body["close_matches"]["pork minse"][0] == "pork mince"


def test_an_ambiguous_choice_writes_nothing(api, stir_fry):
    ingredient("chilli")
    ingredient("chilly")
    response = log(api, {"meta_recipe": stir_fry.id, "slot_choices": {"protein": "chillies"}})
    assert response.status_code == 400
    assert response.json()["close_matches"] == ["chilli", "chilly"]
    assert "chilli, chilly" in response.json()["detail"]
    assert CookLog.objects.count() == 0


def test_a_refused_log_creates_no_ingredient(api, stir_fry):
    response = log(api, {"meta_recipe": stir_fry.id, "slot_choices": {"protein": "broccoli"}, "rating": 9})
    assert response.status_code == 400
    assert not Ingredient.objects.filter(name="broccoli").exists()
    assert CookLog.objects.count() == 0


def test_unknown_recipe_name_is_404(api, stir_fry):
    response = log(api, {"meta_recipe": "stir fry"})
    assert response.status_code == 404
    body = response.json()
    assert body["detail"] == "No meta-recipe is called 'stir fry'."
    assert body["field"] == "meta_recipe"
    assert body["close_matches"] == ["Stir-fry"]


def test_unknown_recipe_id_is_404(api):
    response = log(api, {"recipe": 77})
    assert response.status_code == 404
    assert response.json() == {"detail": "No recipe has id 77.", "field": "recipe"}


def test_exactly_one_error_body_lists_the_rule_once(api, stir_fry, bolognese):
    body = log(api, {"meta_recipe": stir_fry.id, "recipe": bolognese.id}).json()
    assert body["errors"] == {"non_field_errors": ["A cook log links exactly one of meta_recipe or recipe."]}


def test_servings_below_one_is_400(api, stir_fry):
    response = log(api, {"meta_recipe": stir_fry.id, "servings": 0})
    assert response.status_code == 400
    assert response.json()["detail"] == "servings: Ensure this value is greater than or equal to 1."

"""manage.py sous_bootstrap: user + token on stdout, idempotent demo seeding."""
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from kitchen.demo import INGREDIENTS, META_RECIPES, PANTRY, RECIPES
from kitchen.models import Ingredient, IngredientAlias, MetaRecipe, PantryItem, Recipe

pytestmark = pytest.mark.django_db

FIXED_TOKEN = "0123456789abcdef0123456789abcdef01234567"


def bootstrap(*args):
    out, err = StringIO(), StringIO()
    call_command("sous_bootstrap", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_prints_only_the_token_and_reuses_it():
    out, _ = bootstrap("--username", "sous")
    token = out.strip()
    assert out == token + "\n"
    assert Token.objects.get(user__username="sous").key == token
    again, _ = bootstrap("--username", "sous")
    assert again.strip() == token


def test_token_option_sets_the_key():
    bootstrap("--username", "sous")
    out, _ = bootstrap("--username", "sous", "--token", FIXED_TOKEN)
    assert out.strip() == FIXED_TOKEN
    assert list(Token.objects.values_list("key", flat=True)) == [FIXED_TOKEN]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {FIXED_TOKEN}")
    assert client.get("/api/auth/check/").json() == {"username": "sous"}


def test_short_token_rejected():
    with pytest.raises(CommandError):
        bootstrap("--username", "sous", "--token", "short")


def test_seed_demo_is_idempotent():
    bootstrap("--username", "sous", "--seed-demo")
    counts = (Ingredient.objects.count(), IngredientAlias.objects.count(), PantryItem.objects.count(),
              MetaRecipe.objects.count(), Recipe.objects.count())
    assert counts[0] == len(INGREDIENTS)
    assert counts[2] == len(PANTRY)
    assert counts[3] == len(META_RECIPES)
    assert counts[4] == len(RECIPES)
    _, err = bootstrap("--username", "sous", "--seed-demo")
    assert "created 0 ingredients, 0 aliases, 0 pantry_items, 0 meta_recipes, 0 recipes" in err
    assert counts == (Ingredient.objects.count(), IngredientAlias.objects.count(), PantryItem.objects.count(),
                      MetaRecipe.objects.count(), Recipe.objects.count())


def test_seeded_demo_works_through_the_api():
    out, _ = bootstrap("--username", "sous", "--seed-demo")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {out.strip()}")

    eggs = client.get("/api/pantry/?state=out").json()
    assert "eggs" in [i["ingredient"] for i in eggs]

    cook = client.get("/api/what-can-i-cook/").json()
    statuses = {r["name"]: r["status"] for r in cook["results"]}
    assert statuses["Weeknight stir-fry"] == "ready"
    assert statuses["Frittata"] == "partial"  # eggs are out
    assert any(r["expiry_warnings"] for r in cook["results"])

    response = client.post("/api/pantry/set-state/", {"ingredient": "noodles", "state": "out"}, format="json")
    assert response.json()["item"]["ingredient"] == "egg noodles"
    response = client.post("/api/pantry/set-state/", {"ingredient": "pork mince", "state": "out"}, format="json")
    assert response.status_code == 400  # fridge and freezer


# Foods the Mealie demo library's recipes use (internal/mealieemu
# seed_demo.go) that the demo pantry keeps in stock, by name or alias: without
# them suggest_recipes from_pantry finds nothing and skip_in_stock skips
# nothing in `sous demo`.
MEALIE_DEMO_FOODS_IN_STOCK = [
    "olive oil", "onion", "garlic", "butter", "milk", "carrot", "ginger", "soy sauce", "spaghetti",
    "canned tomatoes", "parmesan", "all-purpose flour", "sugar", "brown sugar", "baking powder",
    "baking soda", "vanilla extract", "honey", "rolled oats", "salt", "black pepper", "cumin",
    "chili powder", "cinnamon", "vegetable oil",
]


def test_demo_pantry_stocks_the_mealie_demo_foods():
    out, _ = bootstrap("--username", "sous", "--seed-demo")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {out.strip()}")
    states = {}
    for item in client.get("/api/pantry/").json():
        for name in [item["ingredient"], *item["aliases"]]:
            states.setdefault(name.lower(), set()).add(item["state"])
    missing = [f for f in MEALIE_DEMO_FOODS_IN_STOCK if not states.get(f, set()) & {"in", "low"}]
    assert missing == []
    assert states["egg"] == {"out"}  # the omelette and frittata still lack eggs
    assert states["vanilla extract"] == {"low"} and states["brown sugar"] == {"low"}

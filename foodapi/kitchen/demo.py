"""A realistic demo kitchen for trying sous without a pantry of one's own.

Seeding is idempotent: every row is found by its natural key (names,
ingredient+location) and only created when missing, so running it again
neither duplicates rows nor overwrites changes made since. Expiry dates are
relative to the day of the first seeding, so a fresh demo always has a few
items about to expire.
"""
import datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from .models import (
    Ingredient,
    IngredientAlias,
    MetaRecipe,
    MetaRecipeBaseIngredient,
    MetaRecipeSlot,
    PantryItem,
    Recipe,
    RecipeIngredient,
    SlotOption,
)

# name -> aliases
INGREDIENTS = {
    "eggs": ["egg"],
    "milk": [],
    "butter": [],
    "cheddar": ["cheddar cheese"],
    "parmesan": ["parmigiano"],
    "pork mince": ["minced pork", "ground pork"],
    "chicken thighs": ["chicken"],
    "firm tofu": ["tofu"],
    "prawns": ["shrimp"],
    "bacon": [],
    "spring onions": ["scallions", "green onions"],
    "bok choy": ["pak choi"],
    "carrots": ["carrot"],
    "ginger": [],
    "garlic": [],
    "onions": ["onion", "brown onion"],
    "frozen peas": ["peas"],
    "egg noodles": ["noodles"],
    "jasmine rice": ["rice"],
    "spaghetti": ["pasta"],
    "soy sauce": ["light soy"],
    "oyster sauce": [],
    "sesame oil": [],
    "olive oil": [],
    "chickpeas": ["garbanzo beans"],
    "chopped tomatoes": ["tinned tomatoes", "canned tomatoes"],
    "coconut milk": [],
    "curry paste": ["red curry paste"],
    # Baking and seasoning staples, named as the Mealie demo library's foods
    # (internal/mealieemu seed_demo.go) or aliased to them, so that
    # suggest_recipes from_pantry and add_to_shopping_list skip_in_stock find
    # them in a demo.
    "all-purpose flour": ["plain flour", "flour"],
    "sugar": ["caster sugar", "white sugar"],
    "brown sugar": ["light brown sugar"],
    "baking powder": [],
    "baking soda": ["bicarbonate of soda", "bicarb"],
    "vanilla extract": ["vanilla"],
    "honey": [],
    "rolled oats": ["oats", "porridge oats"],
    "salt": ["sea salt"],
    "black pepper": ["ground black pepper"],
    "cumin": ["ground cumin"],
    "chili powder": ["chilli powder"],
    "cinnamon": ["ground cinnamon"],
    "vegetable oil": ["neutral oil"],
}

# (ingredient, location, state, quantity, unit, expiry in days from today or None, is_staple)
PANTRY = [
    ("eggs", "fridge", "out", None, "", None, True),
    ("milk", "fridge", "low", Decimal("0.3"), "l", 2, True),
    ("butter", "fridge", "in", Decimal("200"), "g", 30, True),
    ("cheddar", "fridge", "in", Decimal("150"), "g", 3, False),
    ("pork mince", "fridge", "in", Decimal("500"), "g", 1, False),
    ("pork mince", "freezer", "in", Decimal("500"), "g", None, False),
    ("chicken thighs", "fridge", "in", Decimal("600"), "g", 2, False),
    ("firm tofu", "fridge", "out", None, "", None, False),
    ("spring onions", "fridge", "low", Decimal("2"), "", 2, False),
    ("bok choy", "fridge", "in", Decimal("2"), "heads", 1, False),
    ("carrots", "fridge", "in", Decimal("4"), "", 10, False),
    ("ginger", "fridge", "in", Decimal("1"), "thumb", 14, False),
    ("garlic", "cupboard", "in", Decimal("1"), "bulb", None, True),
    ("onions", "cupboard", "in", Decimal("3"), "", None, True),
    ("egg noodles", "cupboard", "low", Decimal("1"), "nest", None, False),
    ("jasmine rice", "cupboard", "in", Decimal("2"), "kg", None, True),
    ("spaghetti", "cupboard", "in", Decimal("500"), "g", None, True),
    ("soy sauce", "cupboard", "in", None, "", None, True),
    ("oyster sauce", "cupboard", "in", None, "", None, False),
    ("sesame oil", "cupboard", "low", None, "", None, True),
    ("olive oil", "cupboard", "in", None, "", None, True),
    ("chickpeas", "cupboard", "in", Decimal("2"), "tins", None, False),
    ("chopped tomatoes", "cupboard", "in", Decimal("3"), "tins", None, True),
    ("coconut milk", "cupboard", "out", None, "", None, False),
    ("curry paste", "cupboard", "low", None, "", None, False),
    ("frozen peas", "freezer", "in", Decimal("750"), "g", None, True),
    ("prawns", "freezer", "in", Decimal("300"), "g", None, False),
    # Everyday items the Mealie demo recipes use (see INGREDIENTS).
    ("parmesan", "fridge", "in", Decimal("120"), "g", 21, False),
    ("all-purpose flour", "cupboard", "in", Decimal("1.5"), "kg", None, True),
    ("sugar", "cupboard", "in", Decimal("1"), "kg", None, True),
    ("brown sugar", "cupboard", "low", Decimal("100"), "g", None, False),
    ("baking powder", "cupboard", "in", None, "", None, False),
    ("baking soda", "cupboard", "in", None, "", None, False),
    ("vanilla extract", "cupboard", "low", None, "", None, False),
    ("honey", "cupboard", "in", Decimal("340"), "g", None, False),
    ("rolled oats", "cupboard", "in", Decimal("750"), "g", None, True),
    ("salt", "cupboard", "in", None, "", None, True),
    ("black pepper", "cupboard", "in", None, "", None, True),
    ("cumin", "cupboard", "in", None, "", None, False),
    ("chili powder", "cupboard", "in", None, "", None, False),
    ("cinnamon", "cupboard", "in", None, "", None, False),
    ("vegetable oil", "cupboard", "in", Decimal("1"), "l", None, True),
]

# name -> (servings, method, {slot: [(ingredient, quantity, unit)]}, [(base, quantity, unit)])
META_RECIPES = {
    "Weeknight stir-fry": (
        2,
        "Fry the protein hot and fast, add garlic and ginger, then the veg; "
        "toss through the cooked carb with the sauces and finish with sesame oil.",
        {
            "protein": [
                ("pork mince", "300", "g"),
                ("chicken thighs", "300", "g"),
                ("firm tofu", "300", "g"),
                ("prawns", "250", "g"),
            ],
            "veg": [
                ("bok choy", "2", "heads"),
                ("carrots", "2", ""),
                ("frozen peas", "150", "g"),
                ("spring onions", "4", ""),
            ],
            "carb": [("egg noodles", "2", "nests"), ("jasmine rice", "150", "g")],
        },
        [
            ("soy sauce", "2", "tbsp"),
            ("oyster sauce", "1", "tbsp"),
            ("garlic", "2", "cloves"),
            ("ginger", "1", "thumb"),
            ("sesame oil", "1", "tsp"),
        ],
    ),
    "Egg fried rice": (
        2,
        "Fry day-old rice in a hot wok, push aside, scramble the eggs, then toss "
        "everything with the protein, peas and soy.",
        {
            "protein": [("prawns", "150", "g"), ("pork mince", "150", "g"), ("bacon", "4", "rashers")],
            "veg": [("frozen peas", "100", "g"), ("spring onions", "3", ""), ("carrots", "1", "")],
        },
        [
            ("jasmine rice", "150", "g"),
            ("eggs", "3", ""),
            ("soy sauce", "1", "tbsp"),
            ("sesame oil", "1", "tsp"),
            ("garlic", "1", "clove"),
        ],
    ),
    "Chickpea curry": (
        4,
        "Soften onion, garlic and ginger, fry the curry paste, add tomatoes, "
        "coconut milk and chickpeas, simmer 20 minutes, stir in the greens.",
        {
            "greens": [("bok choy", "2", "heads"), ("frozen peas", "200", "g")],
            "carb": [("jasmine rice", "300", "g")],
        },
        [
            ("chickpeas", "2", "tins"),
            ("coconut milk", "1", "tin"),
            ("curry paste", "3", "tbsp"),
            ("chopped tomatoes", "1", "tin"),
            ("onions", "1", ""),
            ("garlic", "3", "cloves"),
            ("ginger", "1", "thumb"),
        ],
    ),
    "Frittata": (
        2,
        "Soften the onion in butter, add the filling, pour over beaten eggs, "
        "top with cheese and finish under the grill.",
        {
            "filling": [("bacon", "4", "rashers"), ("frozen peas", "100", "g"), ("spring onions", "3", "")],
            "cheese": [("cheddar", "60", "g"), ("parmesan", "30", "g")],
        },
        [("eggs", "6", ""), ("butter", "15", "g"), ("onions", "1", "")],
    ),
}

# name -> (servings, method, [(ingredient, quantity, unit)])
RECIPES = {
    "Spaghetti bolognese": (
        4,
        "Brown the mince, soften onion, carrot and garlic, add tomatoes and simmer "
        "an hour; serve over spaghetti.",
        [
            ("spaghetti", "400", "g"),
            ("pork mince", "500", "g"),
            ("chopped tomatoes", "2", "tins"),
            ("onions", "1", ""),
            ("carrots", "1", ""),
            ("garlic", "2", "cloves"),
            ("olive oil", "1", "tbsp"),
        ],
    ),
    "Cheddar omelette": (
        1,
        "Beat the eggs, cook in foaming butter, fill with cheddar and fold.",
        [("eggs", "3", ""), ("cheddar", "40", "g"), ("butter", "10", "g")],
    ),
}


def _qty(text):
    return Decimal(text) if text else None


@transaction.atomic
def seed_demo(today=None):
    """Create whatever part of the demo kitchen is missing; returns counts of rows created."""
    if today is None:
        today = timezone.localdate()
    created = {"ingredients": 0, "aliases": 0, "pantry_items": 0, "meta_recipes": 0, "recipes": 0}

    ingredients = {}
    for name, aliases in INGREDIENTS.items():
        ingredient = Ingredient.objects.filter(name__iexact=name).first()
        if ingredient is None:
            ingredient = Ingredient(name=name)
            ingredient.full_clean()
            ingredient.save()
            created["ingredients"] += 1
        ingredients[name] = ingredient
        for alias in aliases:
            taken = (
                IngredientAlias.objects.filter(name__iexact=alias).exists()
                or Ingredient.objects.filter(name__iexact=alias).exists()
            )
            if not taken:
                row = IngredientAlias(ingredient=ingredient, name=alias)
                row.full_clean()
                row.save()
                created["aliases"] += 1

    for name, location, state, quantity, unit, expiry_days, staple in PANTRY:
        _, was_created = PantryItem.objects.get_or_create(
            ingredient=ingredients[name],
            location=location,
            defaults={
                "state": state,
                "quantity": quantity,
                "unit": unit,
                "expiry": today + datetime.timedelta(days=expiry_days) if expiry_days is not None else None,
                "is_staple": staple,
            },
        )
        created["pantry_items"] += was_created

    for name, (servings, method, slots, bases) in META_RECIPES.items():
        if MetaRecipe.objects.filter(name__iexact=name).exists():
            continue
        meta_recipe = MetaRecipe.objects.create(name=name, servings=servings, method=method)
        for s_index, (slot_name, options) in enumerate(slots.items()):
            slot = MetaRecipeSlot.objects.create(meta_recipe=meta_recipe, name=slot_name, position=s_index)
            for o_index, (ingredient, quantity, unit) in enumerate(options):
                SlotOption.objects.create(
                    slot=slot, ingredient=ingredients[ingredient], quantity=_qty(quantity), unit=unit, position=o_index
                )
        for b_index, (ingredient, quantity, unit) in enumerate(bases):
            MetaRecipeBaseIngredient.objects.create(
                meta_recipe=meta_recipe,
                ingredient=ingredients[ingredient],
                quantity=_qty(quantity),
                unit=unit,
                position=b_index,
            )
        created["meta_recipes"] += 1

    for name, (servings, method, lines) in RECIPES.items():
        if Recipe.objects.filter(name__iexact=name).exists():
            continue
        recipe = Recipe.objects.create(name=name, servings=servings, method=method)
        for index, (ingredient, quantity, unit) in enumerate(lines):
            RecipeIngredient.objects.create(
                recipe=recipe, ingredient=ingredients[ingredient], quantity=_qty(quantity), unit=unit, position=index
            )
        created["recipes"] += 1

    return created

"""Small builders for test data, so each test states only what it is about."""
import datetime
from decimal import Decimal

from kitchen.models import (
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


def ingredient(name, *aliases):
    row = Ingredient.objects.create(name=name)
    for alias in aliases:
        IngredientAlias.objects.create(ingredient=row, name=alias)
    return row


def item(name_or_ingredient, location="cupboard", state="in", quantity=None, unit="", expiry=None, **extra):
    if isinstance(name_or_ingredient, Ingredient):
        ing = name_or_ingredient
    else:
        ing = Ingredient.objects.filter(name__iexact=name_or_ingredient).first() or ingredient(name_or_ingredient)
    if quantity is not None:
        quantity = Decimal(str(quantity))
    return PantryItem.objects.create(
        ingredient=ing, location=location, state=state, quantity=quantity, unit=unit, expiry=expiry, **extra
    )


def meta_recipe(name, slots, bases=(), servings=2):
    """slots: {slot: [(ingredient name, quantity, unit)]}; bases: [(name, quantity, unit)]."""

    def ing(name):
        return Ingredient.objects.filter(name__iexact=name).first() or ingredient(name)

    mr = MetaRecipe.objects.create(name=name, servings=servings, method="Cook it.")
    for s_index, (slot_name, options) in enumerate(slots.items()):
        slot = MetaRecipeSlot.objects.create(meta_recipe=mr, name=slot_name, position=s_index)
        for o_index, (option, quantity, unit) in enumerate(options):
            SlotOption.objects.create(
                slot=slot, ingredient=ing(option), quantity=Decimal(str(quantity)), unit=unit, position=o_index
            )
    for b_index, (base, quantity, unit) in enumerate(bases):
        MetaRecipeBaseIngredient.objects.create(
            meta_recipe=mr, ingredient=ing(base), quantity=Decimal(str(quantity)), unit=unit, position=b_index
        )
    return mr


def recipe(name, lines, servings=2):
    r = Recipe.objects.create(name=name, servings=servings)
    for index, (line, quantity, unit) in enumerate(lines):
        ing = Ingredient.objects.filter(name__iexact=line).first() or ingredient(line)
        RecipeIngredient.objects.create(
            recipe=r, ingredient=ing, quantity=Decimal(str(quantity)), unit=unit, position=index
        )
    return r


def pantry_snapshot():
    """Every pantry row as comparable tuples (to prove a call changed nothing)."""
    return sorted(
        PantryItem.objects.values_list("id", "ingredient_id", "location", "state", "quantity", "unit", "expiry", "updated_at")
    )


def days(today, n):
    return today + datetime.timedelta(days=n)

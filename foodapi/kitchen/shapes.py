"""Response shapes built from model objects (no I/O beyond prefetched relations)."""
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Prefetch

from .models import (
    QUANTITY_DECIMAL_PLACES,
    MetaRecipe,
    MetaRecipeBaseIngredient,
    MetaRecipeSlot,
    Recipe,
    RecipeIngredient,
    SlotOption,
)

_QUANTUM = Decimal(1).scaleb(-QUANTITY_DECIMAL_PLACES)


def scale_for(servings, base_servings):
    """Factor turning amounts written for base_servings into amounts for servings."""
    if not servings or not base_servings:
        return Decimal(1)
    return Decimal(servings) / Decimal(base_servings)


def scaled(quantity, scale):
    if quantity is None:
        return None
    return (quantity * scale).quantize(_QUANTUM, rounding=ROUND_HALF_UP).normalize()


def amount(line, scale=Decimal(1)):
    """{ingredient, ingredient_id, quantity, unit} of a slot option / base / recipe line."""
    return {
        "ingredient": line.ingredient.name,
        "ingredient_id": line.ingredient_id,
        "quantity": scaled(line.quantity, scale),
        "unit": line.unit,
    }


def pantry_brief(item):
    """The pantry facts a recipe view needs about one item."""
    return {
        "id": item.id,
        "location": item.location,
        "state": item.state,
        "quantity": item.quantity,
        "unit": item.unit,
        "expiry": item.expiry.isoformat() if item.expiry else None,
    }


def meta_recipe_queryset():
    """Meta-recipes with everything their shape needs, in 4 queries."""
    return MetaRecipe.objects.prefetch_related(
        Prefetch(
            "slots",
            queryset=MetaRecipeSlot.objects.prefetch_related(
                Prefetch("options", queryset=SlotOption.objects.select_related("ingredient"))
            ),
        ),
        Prefetch("base_ingredients", queryset=MetaRecipeBaseIngredient.objects.select_related("ingredient")),
    )


def recipe_queryset():
    return Recipe.objects.prefetch_related(
        Prefetch("ingredients", queryset=RecipeIngredient.objects.select_related("ingredient"))
    )


def meta_recipe_data(meta_recipe):
    return {
        "id": meta_recipe.id,
        "name": meta_recipe.name,
        "method": meta_recipe.method,
        "servings": meta_recipe.servings,
        "slots": [
            {
                "id": slot.id,
                "name": slot.name,
                "options": [amount(option) for option in slot.options.all()],
            }
            for slot in meta_recipe.slots.all()
        ],
        "base_ingredients": [amount(base) for base in meta_recipe.base_ingredients.all()],
        "updated_at": meta_recipe.updated_at,
    }


def recipe_data(recipe):
    return {
        "id": recipe.id,
        "name": recipe.name,
        "method": recipe.method,
        "servings": recipe.servings,
        "ingredients": [amount(line) for line in recipe.ingredients.all()],
    }

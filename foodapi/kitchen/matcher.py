"""What can I cook: meta-recipes checked against what the pantry has.

Presence-based (food-pantry-mcp-spec.md §6.3): an ingredient is present when
any of its pantry items is in state "in" or "low", whatever its quantity —
having it beats having enough. Quantities in the answer are the recipe's
amounts scaled to the requested servings, shown for cooking, never compared.
"""
from collections import defaultdict

from django.utils import timezone

from .models import PRESENT_STATES, PantryItem
from .shapes import amount, meta_recipe_queryset, pantry_brief, scale_for

# A present item expiring within this many days (or already past) is flagged,
# so "use the bok choy first" reaches the conversation while it still can.
EXPIRY_WARNING_DAYS = 3

STATUS_READY = "ready"
STATUS_PARTIAL = "partial"
STATUS_MISSING = "missing"
_STATUS_ORDER = {STATUS_READY: 0, STATUS_PARTIAL: 1, STATUS_MISSING: 2}


def present_items():
    """{ingredient_id: [present PantryItem, ...]} for the whole pantry."""
    present = defaultdict(list)
    items = (
        PantryItem.objects.filter(state__in=PRESENT_STATES)
        .select_related("ingredient")
        .order_by("location", "id")
    )
    for item in items:
        present[item.ingredient_id].append(item)
    return present


def _status(satisfied, total):
    if satisfied == total:
        return STATUS_READY
    if satisfied == 0:
        return STATUS_MISSING
    return STATUS_PARTIAL


def match_meta_recipe(meta_recipe, present, today, servings=None):
    """The availability report of one meta-recipe (README.md, what-can-i-cook)."""
    scale = scale_for(servings, meta_recipe.servings)
    used_items = {}

    slots = []
    for slot in meta_recipe.slots.all():
        present_options, missing_options = [], []
        for option in slot.options.all():
            items = present.get(option.ingredient_id, [])
            if items:
                present_options.append({**amount(option, scale), "pantry": [pantry_brief(i) for i in items]})
                used_items.update({i.id: i for i in items})
            else:
                missing_options.append(option.ingredient.name)
        slots.append(
            {
                "name": slot.name,
                "available": bool(present_options),
                "present_options": present_options,
                "missing_options": missing_options,
            }
        )

    bases, missing_bases = [], []
    for base in meta_recipe.base_ingredients.all():
        items = present.get(base.ingredient_id, [])
        bases.append({**amount(base, scale), "present": bool(items)})
        if items:
            used_items.update({i.id: i for i in items})
        else:
            missing_bases.append(base.ingredient.name)

    warnings = []
    for item in used_items.values():
        if item.expiry is None:
            continue
        days_left = (item.expiry - today).days
        if days_left <= EXPIRY_WARNING_DAYS:
            warnings.append(
                {
                    "ingredient": item.ingredient.name,
                    "pantry_item_id": item.id,
                    "location": item.location,
                    "expiry": item.expiry.isoformat(),
                    "days_left": days_left,
                    "expired": days_left < 0,
                }
            )
    warnings.sort(key=lambda w: (w["days_left"], w["ingredient"]))

    total = len(slots) + len(bases)
    satisfied = sum(s["available"] for s in slots) + sum(b["present"] for b in bases)
    return {
        "id": meta_recipe.id,
        "name": meta_recipe.name,
        "status": _status(satisfied, total),
        "recipe_servings": meta_recipe.servings,
        "servings": servings or meta_recipe.servings,
        "slots": slots,
        "missing_slots": [s["name"] for s in slots if not s["available"]],
        "base_ingredients": bases,
        "missing_base_ingredients": missing_bases,
        "expiry_warnings": warnings,
    }


def what_can_i_cook(servings=None, today=None):
    """Every meta-recipe's report, ready first, then partial, then missing."""
    if today is None:
        today = timezone.localdate()
    present = present_items()
    results = [match_meta_recipe(mr, present, today, servings) for mr in meta_recipe_queryset()]
    results.sort(key=lambda r: (_STATUS_ORDER[r["status"]], r["name"].lower()))
    counts = {status: 0 for status in _STATUS_ORDER}
    for result in results:
        counts[result["status"]] += 1
    return {"servings": servings, "counts": counts, "results": results}


"""The JSON API under /api/ (shapes in README.md; behaviour from food-pantry-mcp-spec.md §5-§6)."""
import difflib

from django.db import DatabaseError, connection, transaction
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from . import shapes
from .errors import ApiError
from .lookup import (
    CLOSE_MATCH_CUTOFF,
    CLOSE_MATCH_LIMIT,
    AmbiguousIngredient,
    close_matches,
    find_ingredient,
    get_or_create_ingredient,
)
from .matcher import what_can_i_cook
from .models import (
    CookLog,
    Ingredient,
    Location,
    MetaRecipe,
    MetaRecipeBaseIngredient,
    MetaRecipeSlot,
    PantryItem,
    Recipe,
    SlotOption,
    State,
    normalize_name,
)
from .serializers import (
    BulkAddSerializer,
    LogCookSerializer,
    MetaRecipeInputSerializer,
    PantryItemSerializer,
    SetStateSerializer,
)

# Location a new pantry item gets when bulk-pantry-add is not told one:
# most shopping that arrives without a place is dry goods.
DEFAULT_LOCATION = Location.CUPBOARD
# Servings accepted by what-can-i-cook; a party of 100 is already absurd.
MAX_SERVINGS = 100


def pantry_items():
    return PantryItem.objects.select_related("ingredient").prefetch_related("ingredient__aliases")


def item_data(item):
    return PantryItemSerializer(item).data


def candidate_data(item):
    """A pantry item offered as a choice in an error body."""
    return {"id": item.id, "ingredient": item.ingredient.name, "location": item.location, "state": item.state}


def _choice_list(raw, choices, param):
    """Parse "a,b" query values against a TextChoices class; 400 on a stranger."""
    values = [v.strip().lower() for v in raw.split(",") if v.strip()]
    allowed = set(choices.values)
    for value in values:
        if value not in allowed:
            raise ApiError(
                status.HTTP_400_BAD_REQUEST,
                f"Unknown {param} '{value}' (expected one of: {', '.join(choices.values)}).",
            )
    return values


def validated(serializer_class, data):
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def resolve_or_fail(name):
    """find_ingredient, turning no-match / ambiguity into the API's 404 / 400."""
    try:
        ingredient = find_ingredient(name)
    except AmbiguousIngredient as exc:
        items = pantry_items().filter(ingredient__in=exc.ingredients)
        names = ", ".join(i.name for i in exc.ingredients)
        raise ApiError(
            status.HTTP_400_BAD_REQUEST,
            f"'{exc.name}' could mean more than one ingredient ({names}); use the full name.",
            close_matches=[i.name for i in exc.ingredients],
            candidates=[candidate_data(i) for i in items],
        )
    if ingredient is None:
        raise ApiError(
            status.HTTP_404_NOT_FOUND,
            f"No ingredient is called '{normalize_name(name)}'.",
            close_matches=close_matches(name),
            candidates=[],
        )
    return ingredient


def resolve_or_create(name):
    """get_or_create_ingredient, an ambiguous name turned into the API's 400.

    Returns (ingredient, created). A name that fits two ingredients equally
    writes nothing: the 400 lists them, as set-state's does.
    """
    try:
        return get_or_create_ingredient(name)
    except AmbiguousIngredient as exc:
        items = pantry_items().filter(ingredient__in=exc.ingredients)
        names = ", ".join(i.name for i in exc.ingredients)
        raise ApiError(
            status.HTTP_400_BAD_REQUEST,
            f"'{exc.name}' could mean more than one ingredient ({names}); use the full name.",
            close_matches=[i.name for i in exc.ingredients],
            candidates=[candidate_data(i) for i in items],
        )


def near_names_if_new(name):
    """close_matches of a name that resolves to no ingredient, else [].

    Read before a write creates the name, so the new ingredient is not its
    own close match; an ambiguous name is refused by the write itself.
    """
    try:
        if find_ingredient(name) is not None:
            return []
    except AmbiguousIngredient:
        return []
    return close_matches(name)


def read_other_than_exactly(given, ingredient):
    """True when `given` found `ingredient` through an alias or a plural variant.

    Exactly means the stored name, ignoring case and spacing (normalize_name);
    anything else is reported in a write's `resolved`, so a caller sees how a
    name was read instead of finding out later ("noodles" -> "egg noodles").
    """
    return normalize_name(given).lower() != ingredient.name.lower()


class HealthView(APIView):
    """GET /api/health/ — unauthenticated liveness + database check."""

    authentication_classes = []
    permission_classes = [AllowAny]

    def get(self, request):
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except DatabaseError:
            return Response(
                {"status": "error", "detail": "The database is not reachable."},
                status=status.HTTP_503_SERVICE_UNAVAILABLE,
            )
        return Response({"status": "ok"})


class AuthCheckView(APIView):
    """GET /api/auth/check/ — who the token belongs to (the pantry service's probe)."""

    def get(self, request):
        return Response({"username": request.user.get_username()})


class IngredientListView(APIView):
    """GET /api/ingredients/ — every ingredient with its aliases, by name.

    The pantry service reads names against this list with sous's shared
    resolver before a write, so a name is bound to one ingredient (or
    refused as ambiguous) the same way everywhere in sous.
    """

    def get(self, request):
        rows = Ingredient.objects.prefetch_related("aliases").order_by("name")
        return Response(
            [{"id": i.id, "name": i.name, "aliases": sorted(a.name for a in i.aliases.all())} for i in rows]
        )


class PantryListView(APIView):
    """GET /api/pantry/?location=&state= — every pantry item, filtered."""

    def get(self, request):
        items = pantry_items()
        location = request.query_params.get("location")
        if location:
            items = items.filter(location__in=_choice_list(location, Location, "location"))
        state = request.query_params.get("state")
        if state:
            items = items.filter(state__in=_choice_list(state, State, "state"))
        return Response([item_data(i) for i in items.order_by("location", "ingredient__name")])


class PantryItemView(APIView):
    """GET / PATCH /api/pantry/<id>/ — one item; PATCH changes only the fields sent."""

    writable = {"location", "state", "quantity", "unit", "expiry", "is_staple"}

    def get_item(self, pk):
        item = pantry_items().filter(pk=pk).first()
        if item is None:
            raise ApiError(status.HTTP_404_NOT_FOUND, f"No pantry item has id {pk}.")
        return item

    def get(self, request, pk):
        return Response(item_data(self.get_item(pk)))

    def patch(self, request, pk):
        item = self.get_item(pk)
        if not isinstance(request.data, dict):
            raise ApiError(status.HTTP_400_BAD_REQUEST, "The body must be a JSON object.")
        unknown = sorted(set(request.data) - self.writable)
        if unknown:
            raise ApiError(
                status.HTTP_400_BAD_REQUEST,
                f"Field(s) {', '.join(unknown)} cannot be changed here "
                f"(writable: {', '.join(sorted(self.writable))}).",
            )
        serializer = PantryItemSerializer(item, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(item_data(self.get_item(pk)))


class SetStateView(APIView):
    """POST /api/pantry/set-state/ — set an item's state by ingredient name (spec §6.2)."""

    def post(self, request):
        data = validated(SetStateSerializer, request.data)
        ingredient = resolve_or_fail(data["ingredient"])
        location = data.get("location")
        items = list(pantry_items().filter(ingredient=ingredient))
        if location:
            matching = [i for i in items if i.location == location]
        else:
            matching = items
        if not matching:
            where = f" in the {location}" if location else ""
            raise ApiError(
                status.HTTP_404_NOT_FOUND,
                f"{ingredient.name} has no pantry item{where}; add it with bulk-pantry-add.",
                close_matches=[ingredient.name],
                candidates=[candidate_data(i) for i in items],
            )
        if len(matching) > 1:
            places = ", ".join(i.location for i in matching)
            raise ApiError(
                status.HTTP_400_BAD_REQUEST,
                f"{ingredient.name} is in more than one location ({places}); say which location.",
                close_matches=[ingredient.name],
                candidates=[candidate_data(i) for i in matching],
            )
        item = matching[0]
        changed = item.state != data["state"]
        if changed:
            item.state = data["state"]
            item.save(update_fields=["state", "updated_at"])
        return Response({"item": item_data(item), "changed": changed})


class BulkPantryAddView(APIView):
    """POST /api/bulk-pantry-add/ — add or restock items, never duplicating (spec §6.4)."""

    def post(self, request):
        data = validated(BulkAddSerializer, request.data)
        results = []
        with transaction.atomic():
            for index, entry in enumerate(data["items"]):
                results.append(self.add_one(index, entry))
        counts = {"created": 0, "restocked": 0}
        for result in results:
            counts[result["result"]] += 1
        return Response({"results": results, "counts": counts})

    def add_one(self, index, entry):
        try:
            ingredient, ingredient_created = get_or_create_ingredient(entry["name"])
        except AmbiguousIngredient as exc:
            raise ApiError(
                status.HTTP_400_BAD_REQUEST,
                f"items[{index}]: '{exc.name}' could mean more than one ingredient; use the full name.",
                close_matches=[i.name for i in exc.ingredients],
                candidates=[],
            )
        location = entry.get("location")
        existing = list(PantryItem.objects.filter(ingredient=ingredient))
        if location:
            item = next((i for i in existing if i.location == location), None)
        elif len(existing) == 1:
            item = existing[0]  # restock where it already lives
        elif len(existing) > 1:
            raise ApiError(
                status.HTTP_400_BAD_REQUEST,
                f"items[{index}]: {ingredient.name} is kept in more than one location; say which location.",
                close_matches=[ingredient.name],
                candidates=[candidate_data(i) for i in existing],
            )
        else:
            item = None

        if item is None:
            item = PantryItem(ingredient=ingredient, location=location or DEFAULT_LOCATION, state=State.IN)
            outcome = "created"
        else:
            if item.state == State.OUT:
                # Amount and date belonged to the stock that ran out.
                item.quantity = None
                item.expiry = None
            item.state = State.IN
            outcome = "restocked"
        if entry.get("quantity") is not None:
            item.quantity = entry["quantity"]
        if "unit" in entry:
            item.unit = entry["unit"]
        if entry.get("expiry") is not None:
            item.expiry = entry["expiry"]
        if "is_staple" in entry:
            item.is_staple = entry["is_staple"]
        item.full_clean()
        item.save()
        return {
            "name": normalize_name(entry["name"]),
            "result": outcome,
            "ingredient_created": ingredient_created,
            "item": item_data(pantry_items().get(pk=item.pk)),
        }


class WhatCanICookView(APIView):
    """GET /api/what-can-i-cook/?servings= — presence-based matcher (spec §6.3)."""

    def get(self, request):
        raw = request.query_params.get("servings")
        servings = None
        if raw not in (None, ""):
            try:
                servings = int(raw)
            except ValueError:
                servings = 0
            if not 1 <= servings <= MAX_SERVINGS:
                raise ApiError(
                    status.HTTP_400_BAD_REQUEST, f"servings must be a whole number from 1 to {MAX_SERVINGS}."
                )
        return Response(what_can_i_cook(servings=servings))


class MetaRecipeListView(APIView):
    """GET /api/meta-recipes/ — templates with slots, options and base ingredients."""

    def get(self, request):
        return Response([shapes.meta_recipe_data(mr) for mr in shapes.meta_recipe_queryset()])


class MetaRecipeDetailView(APIView):
    """GET /api/meta-recipes/<id>/."""

    def get(self, request, pk):
        meta_recipe = shapes.meta_recipe_queryset().filter(pk=pk).first()
        if meta_recipe is None:
            raise ApiError(status.HTTP_404_NOT_FOUND, f"No meta-recipe has id {pk}.")
        return Response(shapes.meta_recipe_data(meta_recipe))


class RecipeListView(APIView):
    """GET /api/recipes/ — the fixed (admin-managed) recipes, read-only."""

    def get(self, request):
        return Response([shapes.recipe_data(r) for r in shapes.recipe_queryset()])


class CreateMetaRecipeView(APIView):
    """POST / PUT /api/create-meta-recipe/ — nested create, or rebuild by id."""

    def post(self, request):
        return self.save(request, require_id=False)

    def put(self, request):
        return self.save(request, require_id=True)

    def save(self, request, require_id):
        data = validated(MetaRecipeInputSerializer, request.data)
        recipe_id = data.get("id")
        if require_id and recipe_id is None:
            raise ApiError(status.HTTP_400_BAD_REQUEST, "PUT needs the id of the meta-recipe to update.")
        name = normalize_name(data["name"])
        created_ingredients = []
        resolved = {}

        with transaction.atomic():
            if recipe_id is None:
                meta_recipe = MetaRecipe(name=name)
            else:
                meta_recipe = MetaRecipe.objects.select_for_update().filter(pk=recipe_id).first()
                if meta_recipe is None:
                    raise ApiError(status.HTTP_404_NOT_FOUND, f"No meta-recipe has id {recipe_id}.")
                meta_recipe.name = name
            if data.get("method") is not None:
                meta_recipe.method = data["method"]
            if data.get("servings") is not None:
                meta_recipe.servings = data["servings"]
            clash = MetaRecipe.objects.filter(name__iexact=name).exclude(pk=meta_recipe.pk).first()
            if clash is not None:
                raise ApiError(
                    status.HTTP_400_BAD_REQUEST,
                    f"A meta-recipe named '{clash.name}' already exists (id {clash.id}); "
                    "send its id to update it.",
                    existing_id=clash.id,
                )
            meta_recipe.full_clean()
            meta_recipe.save()

            def ingredient_for(field_path, raw_name):
                try:
                    ingredient, created = get_or_create_ingredient(raw_name)
                except AmbiguousIngredient as exc:
                    names = ", ".join(i.name for i in exc.ingredients)
                    raise ApiError(
                        status.HTTP_400_BAD_REQUEST,
                        f"{field_path}: '{exc.name}' could mean more than one ingredient ({names}); "
                        "use the full name.",
                        close_matches=[i.name for i in exc.ingredients],
                    )
                if created:
                    if ingredient.name not in created_ingredients:
                        created_ingredients.append(ingredient.name)
                elif read_other_than_exactly(raw_name, ingredient):
                    resolved[normalize_name(raw_name)] = ingredient.name
                return ingredient

            # Rebuild: the template is replaced as a whole, keeping its id.
            meta_recipe.slots.all().delete()
            meta_recipe.base_ingredients.all().delete()
            for s_index, slot_data in enumerate(data.get("slots") or []):
                slot = MetaRecipeSlot.objects.create(
                    meta_recipe=meta_recipe, name=normalize_name(slot_data["name"]), position=s_index
                )
                seen = set()
                for o_index, option in enumerate(slot_data["options"]):
                    path = f"slots[{s_index}].options[{o_index}]"
                    ingredient = ingredient_for(path, option["ingredient"])
                    if ingredient.id in seen:
                        raise ApiError(
                            status.HTTP_400_BAD_REQUEST,
                            f"{path}: {ingredient.name} is already an option of slot '{slot.name}'.",
                        )
                    seen.add(ingredient.id)
                    SlotOption.objects.create(
                        slot=slot,
                        ingredient=ingredient,
                        quantity=option.get("quantity"),
                        unit=option.get("unit", ""),
                        position=o_index,
                    )
            seen = set()
            for b_index, base in enumerate(data.get("base_ingredients") or []):
                path = f"base_ingredients[{b_index}]"
                ingredient = ingredient_for(path, base["ingredient"])
                if ingredient.id in seen:
                    raise ApiError(
                        status.HTTP_400_BAD_REQUEST, f"{path}: {ingredient.name} is listed twice."
                    )
                seen.add(ingredient.id)
                MetaRecipeBaseIngredient.objects.create(
                    meta_recipe=meta_recipe,
                    ingredient=ingredient,
                    quantity=base.get("quantity"),
                    unit=base.get("unit", ""),
                    position=b_index,
                )
            meta_recipe.save(update_fields=["updated_at"])

        saved = shapes.meta_recipe_queryset().get(pk=meta_recipe.pk)
        return Response(
            {
                "meta_recipe": shapes.meta_recipe_data(saved),
                "created_ingredients": created_ingredients,
                "resolved": resolved,
            },
            status=status.HTTP_201_CREATED if recipe_id is None else status.HTTP_200_OK,
        )


class LogCookView(APIView):
    """POST /api/log-cook/ — record a meal; returns used_ingredients, changes no pantry state (spec §6.1)."""

    def post(self, request):
        data = validated(LogCookSerializer, request.data)
        meta_recipe = self.lookup(MetaRecipe, "meta_recipe", data.get("meta_recipe"), shapes.meta_recipe_queryset())
        recipe = self.lookup(Recipe, "recipe", data.get("recipe"), shapes.recipe_queryset())

        choices = {}
        chosen = {}
        off_template = {}
        created_ingredients = []
        resolved = {}
        close = {}
        raw_choices = data.get("slot_choices") or {}
        # One transaction: an ingredient created for an off-template choice
        # is rolled back when the log itself is refused (a bad slot name,
        # a rating out of range), so a refused call writes nothing.
        with transaction.atomic():
            # With both links given, CookLog.clean() rejects the log;
            # resolving choices first would report a lesser problem.
            if meta_recipe is not None and recipe is None:
                slots = {slot.name.lower(): slot for slot in meta_recipe.slots.all()}
                for slot_name, choice in raw_choices.items():
                    slot = slots.get(normalize_name(slot_name).lower())
                    if slot is None or not normalize_name(choice):
                        choices[slot_name] = choice  # CookLog.clean() names the problem
                        continue
                    # What was cooked is logged even when the template does
                    # not list it ("veg: broccoli"): the choice resolves
                    # against every ingredient, and a new one is created.
                    # Close spellings stay suggestions, never a match: a new
                    # "pork minse" is created and its near names reported.
                    near = near_names_if_new(choice)
                    ingredient, created = resolve_or_create(choice)
                    if created:
                        created_ingredients.append(ingredient.name)
                        if near:
                            close[ingredient.name] = near
                    elif read_other_than_exactly(choice, ingredient):
                        resolved[normalize_name(choice)] = ingredient.name
                    if not any(o.ingredient_id == ingredient.id for o in slot.options.all()):
                        off_template[slot.name] = ingredient.name
                    choices[slot.name] = ingredient.name
                    chosen[slot.id] = ingredient
            else:
                choices = dict(raw_choices)

            log = CookLog(
                meta_recipe=meta_recipe,
                recipe=recipe,
                slot_choices=choices,
                servings=data.get("servings"),
                rating=data.get("rating"),
                notes=data.get("notes") or "",
            )
            if data.get("date") is not None:
                log.date = data["date"]
            log.save()  # runs full_clean(): exactly-one link, rating 1-5, slot names

        used, unchosen = self.used_ingredients(log, meta_recipe, recipe, chosen)
        return Response(
            {
                "id": log.id,
                "meta_recipe": {"id": meta_recipe.id, "name": meta_recipe.name} if meta_recipe else None,
                "recipe": {"id": recipe.id, "name": recipe.name} if recipe else None,
                "slot_choices": log.slot_choices,
                "off_template": off_template,
                "created_ingredients": created_ingredients,
                "resolved": resolved,
                "close_matches": close,
                "servings": log.servings,
                "rating": log.rating,
                "notes": log.notes,
                "date": log.date.isoformat(),
                "used_ingredients": used,
                "unchosen_slots": unchosen,
            },
            status=status.HTTP_201_CREATED,
        )

    def lookup(self, model, field, ref, queryset):
        if ref is None:
            return None
        label = field.replace("_", "-")
        if isinstance(ref, int):
            found = queryset.filter(pk=ref).first()
            if found is None:
                raise ApiError(status.HTTP_404_NOT_FOUND, f"No {label} has id {ref}.", field=field)
            return found
        found = queryset.filter(name__iexact=normalize_name(ref)).first()
        if found is None:
            names = list(model.objects.values_list("name", flat=True))
            lowered = {n.lower(): n for n in names}
            near = difflib.get_close_matches(
                normalize_name(ref).lower(), list(lowered), n=CLOSE_MATCH_LIMIT, cutoff=CLOSE_MATCH_CUTOFF
            )
            raise ApiError(
                status.HTTP_404_NOT_FOUND,
                f"No {label} is called '{normalize_name(ref)}'.",
                field=field,
                close_matches=[lowered[n] for n in near],
            )
        return found

    def used_ingredients(self, log, meta_recipe, recipe, chosen):
        """Base + chosen options (or the recipe's lines), each with its pantry items.

        This is a suggestion set for the caller to confirm (spec §12.2); the
        pantry is not touched here.
        """
        lines = []
        unchosen = []
        if meta_recipe is not None:
            scale = shapes.scale_for(log.servings, meta_recipe.servings)
            for base in meta_recipe.base_ingredients.all():
                lines.append({**shapes.amount(base, scale), "source": "base", "slot": None})
            for slot in meta_recipe.slots.all():
                ingredient = chosen.get(slot.id)
                if ingredient is None:
                    unchosen.append(slot.name)
                    continue
                option = next((o for o in slot.options.all() if o.ingredient_id == ingredient.id), None)
                if option is not None:
                    line = shapes.amount(option, scale)
                else:  # a substitute outside the slot's options: no amount known
                    line = {"ingredient": ingredient.name, "ingredient_id": ingredient.id, "quantity": None, "unit": ""}
                lines.append({**line, "source": "slot", "slot": slot.name})
        else:
            scale = shapes.scale_for(log.servings, recipe.servings)
            for line in recipe.ingredients.all():
                lines.append({**shapes.amount(line, scale), "source": "recipe", "slot": None})

        by_ingredient = {}
        for item in PantryItem.objects.filter(ingredient_id__in=[line["ingredient_id"] for line in lines]):
            by_ingredient.setdefault(item.ingredient_id, []).append(shapes.pantry_brief(item))
        for line in lines:
            line["pantry"] = by_ingredient.get(line["ingredient_id"], [])
        return lines, unchosen

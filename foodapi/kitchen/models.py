"""Data model of the food API: ingredients, the pantry, recipes and the cook log.

The pantry is presence-based (food-pantry-mcp-spec.md §6.3): a PantryItem's
state (in / low / out) says whether the owner has it; quantity is an optional
note and never decides whether a recipe can be cooked.
"""
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

# Longest ingredient / slot / recipe name accepted; generous for
# "tinned chopped tomatoes with garlic" while keeping admin lists tidy.
NAME_MAX_LENGTH = 120
# Longest unit string ("g", "tbsp", "tins", "thumb-sized piece").
UNIT_MAX_LENGTH = 32
# Quantities: up to 9,999,999.999 of a unit, three decimals for "0.125 kg".
QUANTITY_MAX_DIGITS = 10
QUANTITY_DECIMAL_PLACES = 3
# Cook-log ratings are 1..5 stars (spec §6.1).
RATING_MIN = 1
RATING_MAX = 5


def normalize_name(value):
    """Trim and collapse inner whitespace; case is kept as typed."""
    return " ".join(str(value).split())


class Location(models.TextChoices):
    """Where a pantry item is kept."""

    FRIDGE = "fridge", "Fridge"
    CUPBOARD = "cupboard", "Cupboard"
    FREEZER = "freezer", "Freezer"


class State(models.TextChoices):
    """Presence state of a pantry item: in and low both count as present."""

    IN = "in", "In"
    LOW = "low", "Low"
    OUT = "out", "Out"


PRESENT_STATES = (State.IN, State.LOW)


def quantity_field(**kwargs):
    return models.DecimalField(
        max_digits=QUANTITY_MAX_DIGITS,
        decimal_places=QUANTITY_DECIMAL_PLACES,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
        **kwargs,
    )


class Ingredient(models.Model):
    """A food, named once; names are unique ignoring case."""

    name = models.CharField(max_length=NAME_MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                name="kitchen_ingredient_name_ci_unique",
                violation_error_message="An ingredient with this name already exists.",
            ),
        ]

    def __str__(self):
        return self.name

    def clean(self):
        self.name = normalize_name(self.name)
        if not self.name:
            raise ValidationError({"name": "An ingredient needs a name."})
        clash = IngredientAlias.objects.filter(name__iexact=self.name)
        if self.pk:
            clash = clash.exclude(ingredient_id=self.pk)
        alias = clash.select_related("ingredient").first()
        if alias is not None:
            raise ValidationError(
                {"name": f"'{self.name}' is already an alias of '{alias.ingredient.name}'."}
            )


class IngredientAlias(models.Model):
    """Another name for an ingredient ("noodles" for "egg noodles").

    An alias is unique ignoring case and may not equal any ingredient's name,
    so every name resolves to at most one ingredient.
    """

    ingredient = models.ForeignKey(Ingredient, on_delete=models.CASCADE, related_name="aliases")
    name = models.CharField(max_length=NAME_MAX_LENGTH)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "ingredient aliases"
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                name="kitchen_alias_name_ci_unique",
                violation_error_message="This alias is already in use.",
            ),
        ]

    def __str__(self):
        return self.name

    def clean(self):
        self.name = normalize_name(self.name)
        if not self.name:
            raise ValidationError({"name": "An alias needs a name."})
        owner = Ingredient.objects.filter(name__iexact=self.name).first()
        if owner is not None:
            raise ValidationError({"name": f"'{self.name}' is already the name of an ingredient."})


class PantryItem(models.Model):
    """One ingredient kept in one location; at most one row per pair.

    The (ingredient, location) uniqueness is what makes bulk-pantry-add restock
    instead of duplicating (spec §6.4).
    """

    ingredient = models.ForeignKey(Ingredient, on_delete=models.CASCADE, related_name="pantry_items")
    location = models.CharField(max_length=16, choices=Location.choices, default=Location.CUPBOARD)
    state = models.CharField(max_length=8, choices=State.choices, default=State.IN)
    quantity = quantity_field()
    unit = models.CharField(max_length=UNIT_MAX_LENGTH, blank=True, default="")
    expiry = models.DateField(null=True, blank=True)
    is_staple = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["location", "ingredient__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["ingredient", "location"],
                name="kitchen_pantryitem_one_per_location",
                violation_error_message="This ingredient already has a pantry item in that location.",
            ),
        ]

    def __str__(self):
        return f"{self.ingredient} ({self.location}, {self.state})"

    @property
    def is_present(self):
        return self.state in PRESENT_STATES


class MetaRecipe(models.Model):
    """A recipe template: fixed base ingredients plus slots of interchangeable options.

    Quantities in slots and bases are for `servings` people.
    """

    name = models.CharField(max_length=NAME_MAX_LENGTH)
    method = models.TextField(blank=True, default="")
    servings = models.PositiveSmallIntegerField(default=2, validators=[MinValueValidator(1)])
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                name="kitchen_metarecipe_name_ci_unique",
                violation_error_message="A meta-recipe with this name already exists.",
            ),
        ]

    def __str__(self):
        return self.name


class MetaRecipeSlot(models.Model):
    """A choice within a meta-recipe ("protein"), filled by any one of its options."""

    meta_recipe = models.ForeignKey(MetaRecipe, on_delete=models.CASCADE, related_name="slots")
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["meta_recipe", "position", "id"]
        constraints = [
            models.UniqueConstraint(
                "meta_recipe",
                Lower("name"),
                name="kitchen_slot_name_ci_unique",
                violation_error_message="This meta-recipe already has a slot with that name.",
            ),
        ]

    def __str__(self):
        return f"{self.meta_recipe}: {self.name}"


class SlotOption(models.Model):
    """One ingredient that can fill a slot, with its amount."""

    slot = models.ForeignKey(MetaRecipeSlot, on_delete=models.CASCADE, related_name="options")
    ingredient = models.ForeignKey(Ingredient, on_delete=models.PROTECT, related_name="slot_options")
    quantity = quantity_field()
    unit = models.CharField(max_length=UNIT_MAX_LENGTH, blank=True, default="")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["slot", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["slot", "ingredient"], name="kitchen_slotoption_unique"),
        ]

    def __str__(self):
        return f"{self.slot}: {self.ingredient}"


class MetaRecipeBaseIngredient(models.Model):
    """An ingredient every version of a meta-recipe needs."""

    meta_recipe = models.ForeignKey(MetaRecipe, on_delete=models.CASCADE, related_name="base_ingredients")
    ingredient = models.ForeignKey(Ingredient, on_delete=models.PROTECT, related_name="base_of")
    quantity = quantity_field()
    unit = models.CharField(max_length=UNIT_MAX_LENGTH, blank=True, default="")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["meta_recipe", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["meta_recipe", "ingredient"], name="kitchen_base_unique"),
        ]

    def __str__(self):
        return f"{self.meta_recipe}: {self.ingredient}"


class Recipe(models.Model):
    """A fixed recipe, managed in Django admin only (spec §1: out of the MCP's write scope)."""

    name = models.CharField(max_length=NAME_MAX_LENGTH)
    method = models.TextField(blank=True, default="")
    servings = models.PositiveSmallIntegerField(default=2, validators=[MinValueValidator(1)])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                name="kitchen_recipe_name_ci_unique",
                violation_error_message="A recipe with this name already exists.",
            ),
        ]

    def __str__(self):
        return self.name


class RecipeIngredient(models.Model):
    """An ingredient line of a fixed recipe."""

    recipe = models.ForeignKey(Recipe, on_delete=models.CASCADE, related_name="ingredients")
    ingredient = models.ForeignKey(Ingredient, on_delete=models.PROTECT, related_name="recipe_lines")
    quantity = quantity_field()
    unit = models.CharField(max_length=UNIT_MAX_LENGTH, blank=True, default="")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["recipe", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["recipe", "ingredient"], name="kitchen_recipeingredient_unique"),
        ]

    def __str__(self):
        return f"{self.recipe}: {self.ingredient}"


class CookLog(models.Model):
    """A cooked meal: exactly one of meta_recipe or recipe, plus what was chosen.

    The exactly-one rule lives in clean() and a database check; save() always
    runs full_clean() so no code path can skip it (spec §6.1: it used to be
    bypassed by objects.create). A cook log never changes pantry state.
    """

    meta_recipe = models.ForeignKey(
        MetaRecipe, on_delete=models.PROTECT, null=True, blank=True, related_name="cook_logs"
    )
    recipe = models.ForeignKey(Recipe, on_delete=models.PROTECT, null=True, blank=True, related_name="cook_logs")
    # {slot name: ingredient name}, names as stored when the meal was logged.
    slot_choices = models.JSONField(default=dict, blank=True)
    servings = models.PositiveSmallIntegerField(null=True, blank=True, validators=[MinValueValidator(1)])
    rating = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(RATING_MIN), MaxValueValidator(RATING_MAX)],
    )
    notes = models.TextField(blank=True, default="")
    date = models.DateField(default=timezone.localdate)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(meta_recipe__isnull=False, recipe__isnull=True)
                    | Q(meta_recipe__isnull=True, recipe__isnull=False)
                ),
                name="kitchen_cooklog_exactly_one_recipe",
                violation_error_message="A cook log links exactly one of meta_recipe or recipe.",
            ),
        ]

    def __str__(self):
        return f"{self.date}: {self.meta_recipe or self.recipe}"

    def clean(self):
        has_meta = self.meta_recipe_id is not None
        has_recipe = self.recipe_id is not None
        if has_meta == has_recipe:
            raise ValidationError("A cook log links exactly one of meta_recipe or recipe.")
        if not isinstance(self.slot_choices, dict):
            raise ValidationError({"slot_choices": "Slot choices must be an object of slot name to ingredient."})
        if has_recipe and self.slot_choices:
            raise ValidationError({"slot_choices": "Slot choices apply only to a meta-recipe."})
        if has_meta and self.slot_choices:
            slot_names = {s.lower(): s for s in self.meta_recipe.slots.values_list("name", flat=True)}
            for slot, choice in self.slot_choices.items():
                if not isinstance(slot, str) or slot.lower() not in slot_names:
                    known = ", ".join(sorted(slot_names.values())) or "none"
                    raise ValidationError(
                        {"slot_choices": f"'{slot}' is not a slot of '{self.meta_recipe.name}' (slots: {known})."}
                    )
                if not isinstance(choice, str) or not choice.strip():
                    raise ValidationError({"slot_choices": f"The choice for '{slot}' must be an ingredient name."})

    def save(self, *args, **kwargs):
        self.full_clean()
        super().save(*args, **kwargs)

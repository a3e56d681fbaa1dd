"""Request validation and response shapes (README.md documents each one)."""
from rest_framework import serializers

from .models import (
    NAME_MAX_LENGTH,
    QUANTITY_DECIMAL_PLACES,
    QUANTITY_MAX_DIGITS,
    UNIT_MAX_LENGTH,
    Location,
    PantryItem,
    State,
)

# Most items one bulk-pantry-add call may carry: a big shop is a few dozen
# lines; the cap keeps one request's transaction short on SQLite.
BULK_ADD_LIMIT = 200
# Most slots / options / base ingredients in one meta-recipe; far above any
# real template, low enough that a runaway client cannot build a huge one.
META_RECIPE_PART_LIMIT = 50


def quantity_field():
    return serializers.DecimalField(
        max_digits=QUANTITY_MAX_DIGITS,
        decimal_places=QUANTITY_DECIMAL_PLACES,
        min_value=0,
        required=False,
        allow_null=True,
    )


class UnitField(serializers.CharField):
    """A unit string; null is read as "no unit"."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", UNIT_MAX_LENGTH)
        kwargs.setdefault("allow_blank", True)
        kwargs.setdefault("allow_null", True)
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def validate_empty_values(self, data):
        if data is None:
            return True, ""
        return super().validate_empty_values(data)


class RefField(serializers.Field):
    """A recipe reference: a JSON integer is an id, a JSON string a name."""

    default_error_messages = {"invalid": "Give an id (integer) or a name (string)."}

    def to_internal_value(self, data):
        if isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, int):
            return data
        if isinstance(data, str) and data.strip():
            return data.strip()
        self.fail("invalid")

    def to_representation(self, value):
        return value


class PantryItemSerializer(serializers.ModelSerializer):
    """A pantry row as the API shows it, and the fields PATCH may change.

    `state` is part of the shape on purpose (spec §6.5); tests pin it.
    """

    ingredient = serializers.CharField(source="ingredient.name", read_only=True)
    ingredient_id = serializers.IntegerField(read_only=True)
    aliases = serializers.SerializerMethodField()
    quantity = quantity_field()
    unit = UnitField()

    class Meta:
        model = PantryItem
        fields = [
            "id",
            "ingredient_id",
            "ingredient",
            "aliases",
            "location",
            "state",
            "quantity",
            "unit",
            "expiry",
            "is_staple",
            "updated_at",
        ]
        read_only_fields = ["id", "updated_at"]
        # The (ingredient, location) rule is checked in validate() with a
        # readable sentence; DRF's generated validator would need `ingredient`
        # to be writable.
        validators = []

    def get_aliases(self, item):
        return sorted(alias.name for alias in item.ingredient.aliases.all())

    def validate(self, attrs):
        location = attrs.get("location")
        if self.instance is not None and location and location != self.instance.location:
            clash = PantryItem.objects.filter(ingredient_id=self.instance.ingredient_id, location=location)
            if clash.exists():
                raise serializers.ValidationError(
                    {"location": f"{self.instance.ingredient.name} already has a pantry item in the {location}."}
                )
        return attrs


class SetStateSerializer(serializers.Serializer):
    ingredient = serializers.CharField(max_length=NAME_MAX_LENGTH)
    location = serializers.ChoiceField(choices=Location.choices, required=False, allow_null=True)
    state = serializers.ChoiceField(choices=State.choices)


class BulkAddItemSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_MAX_LENGTH)
    location = serializers.ChoiceField(choices=Location.choices, required=False, allow_null=True)
    quantity = quantity_field()
    unit = UnitField()
    expiry = serializers.DateField(required=False, allow_null=True)
    is_staple = serializers.BooleanField(required=False)


class BulkAddSerializer(serializers.Serializer):
    items = serializers.ListField(child=BulkAddItemSerializer(), min_length=1, max_length=BULK_ADD_LIMIT)


class AmountSerializer(serializers.Serializer):
    """{ingredient, quantity?, unit?}; "qty" is accepted for "quantity" (spec §5 spells it qty)."""

    ingredient = serializers.CharField(max_length=NAME_MAX_LENGTH)
    quantity = quantity_field()
    unit = UnitField()

    def to_internal_value(self, data):
        if isinstance(data, dict) and "qty" in data:
            if "quantity" in data:
                raise serializers.ValidationError({"qty": "Give quantity or qty, not both."})
            data = {**data, "quantity": data["qty"]}
            del data["qty"]
        return super().to_internal_value(data)


class BaseIngredientSerializer(AmountSerializer):
    """A base ingredient: the amount object, or just the ingredient's name."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            data = {"ingredient": data}
        return super().to_internal_value(data)


class SlotSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_MAX_LENGTH)
    options = serializers.ListField(
        child=AmountSerializer(), min_length=1, max_length=META_RECIPE_PART_LIMIT
    )


class MetaRecipeInputSerializer(serializers.Serializer):
    id = serializers.IntegerField(required=False, allow_null=True)
    name = serializers.CharField(max_length=NAME_MAX_LENGTH)
    method = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    servings = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=100)
    slots = serializers.ListField(child=SlotSerializer(), required=False, max_length=META_RECIPE_PART_LIMIT)
    base_ingredients = serializers.ListField(
        child=BaseIngredientSerializer(), required=False, max_length=META_RECIPE_PART_LIMIT
    )

    def validate_slots(self, slots):
        seen = set()
        for slot in slots:
            key = " ".join(slot["name"].split()).lower()
            if key in seen:
                raise serializers.ValidationError(f"Slot '{slot['name']}' appears twice.")
            seen.add(key)
        return slots


class LogCookSerializer(serializers.Serializer):
    meta_recipe = RefField(required=False, allow_null=True)
    recipe = RefField(required=False, allow_null=True)
    slot_choices = serializers.DictField(
        child=serializers.CharField(max_length=NAME_MAX_LENGTH), required=False, allow_null=True
    )
    servings = serializers.IntegerField(required=False, allow_null=True)
    # Range (1-5) is the model's rule, checked by CookLog.full_clean().
    rating = serializers.IntegerField(required=False, allow_null=True)
    notes = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    date = serializers.DateField(required=False, allow_null=True)

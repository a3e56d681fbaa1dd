"""Django admin: where fixed recipes are managed (spec §1) and everything can be inspected."""
from django.contrib import admin

from . import models


class IngredientAliasInline(admin.TabularInline):
    model = models.IngredientAlias
    extra = 1


@admin.register(models.Ingredient)
class IngredientAdmin(admin.ModelAdmin):
    list_display = ["name", "alias_list"]
    search_fields = ["name", "aliases__name"]
    inlines = [IngredientAliasInline]

    @admin.display(description="aliases")
    def alias_list(self, obj):
        return ", ".join(a.name for a in obj.aliases.all())

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("aliases")


@admin.register(models.PantryItem)
class PantryItemAdmin(admin.ModelAdmin):
    list_display = ["ingredient", "location", "state", "quantity", "unit", "expiry", "is_staple"]
    list_filter = ["location", "state", "is_staple"]
    list_editable = ["state"]
    search_fields = ["ingredient__name", "ingredient__aliases__name"]
    autocomplete_fields = ["ingredient"]


class SlotInline(admin.TabularInline):
    model = models.MetaRecipeSlot
    extra = 0
    show_change_link = True  # options are edited on the slot's own page


class BaseIngredientInline(admin.TabularInline):
    model = models.MetaRecipeBaseIngredient
    extra = 1
    autocomplete_fields = ["ingredient"]


@admin.register(models.MetaRecipe)
class MetaRecipeAdmin(admin.ModelAdmin):
    list_display = ["name", "servings", "updated_at"]
    search_fields = ["name"]
    inlines = [SlotInline, BaseIngredientInline]


class SlotOptionInline(admin.TabularInline):
    model = models.SlotOption
    extra = 1
    autocomplete_fields = ["ingredient"]


@admin.register(models.MetaRecipeSlot)
class MetaRecipeSlotAdmin(admin.ModelAdmin):
    list_display = ["meta_recipe", "name", "position"]
    list_filter = ["meta_recipe"]
    inlines = [SlotOptionInline]


class RecipeIngredientInline(admin.TabularInline):
    model = models.RecipeIngredient
    extra = 1
    autocomplete_fields = ["ingredient"]


@admin.register(models.Recipe)
class RecipeAdmin(admin.ModelAdmin):
    list_display = ["name", "servings"]
    search_fields = ["name"]
    inlines = [RecipeIngredientInline]


@admin.register(models.CookLog)
class CookLogAdmin(admin.ModelAdmin):
    # The admin form runs full_clean(), so the exactly-one rule holds here too.
    list_display = ["date", "meta_recipe", "recipe", "servings", "rating"]
    list_filter = ["rating", "meta_recipe", "recipe"]
    date_hierarchy = "date"

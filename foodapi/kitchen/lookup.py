"""Resolving what people call an ingredient to the stored Ingredient.

Claude speaks in names, not ids (spec §5), so every write that takes an
ingredient goes through find_ingredient: exact name, then alias, both ignoring
case and extra whitespace, then a singular/plural variant ("egg" finds "eggs").
When nothing matches, close_matches offers the nearest known names so the
caller can ask the owner (spec §5 notes).
"""
import difflib

from django.db.models import Q

from .models import Ingredient, IngredientAlias, normalize_name

# How many near names an error offers; enough to choose from, short enough to read.
CLOSE_MATCH_LIMIT = 5
# difflib ratio a near name must reach; 0.6 is difflib's own default and keeps
# "noodle" -> "egg noodles" while dropping unrelated words.
CLOSE_MATCH_CUTOFF = 0.6


class AmbiguousIngredient(Exception):
    """A name that fits more than one ingredient; .ingredients lists them."""

    def __init__(self, name, ingredients):
        super().__init__(name)
        self.name = name
        self.ingredients = ingredients


def _plural_variants(key):
    """Other spellings of a lower-cased name in the other grammatical number."""
    variants = {key + "s", key + "es"}
    if key.endswith("ies") and len(key) > 3:
        variants.add(key[:-3] + "y")
    if key.endswith("es") and len(key) > 2:
        variants.add(key[:-2])
    if key.endswith("s") and len(key) > 1:
        variants.add(key[:-1])
    if key.endswith("y") and len(key) > 1:
        variants.add(key[:-1] + "ies")
    variants.discard(key)
    return variants


def _match(names):
    """Ingredients whose name or alias equals any of names, ignoring case."""
    query = Q()
    for name in names:
        query |= Q(name__iexact=name) | Q(aliases__name__iexact=name)
    return list(Ingredient.objects.filter(query).distinct().order_by("name"))


def find_ingredient(name):
    """Return the Ingredient called `name` (or an alias of it), or None.

    Raises AmbiguousIngredient when only a plural/singular variant matches and
    it matches several ingredients. Exact names and aliases never collide
    (see IngredientAlias), so an exact hit is always unique.
    """
    key = normalize_name(name).lower()
    if not key:
        return None
    exact = _match([key])
    if exact:
        return exact[0]
    variants = _match(sorted(_plural_variants(key)))
    if len(variants) == 1:
        return variants[0]
    if len(variants) > 1:
        raise AmbiguousIngredient(normalize_name(name), variants)
    return None


def close_matches(name, limit=CLOSE_MATCH_LIMIT):
    """Canonical names of the ingredients nearest to `name`, best first.

    Offers names containing the query as a word first ("mince" -> "pork
    mince"), then names and aliases difflib finds similar; aliases are
    reported as the ingredient they belong to.
    """
    key = normalize_name(name).lower()
    if not key:
        return []
    owner = {}
    for ingredient_name in Ingredient.objects.values_list("name", flat=True):
        owner.setdefault(ingredient_name.lower(), ingredient_name)
    for alias, ingredient_name in IngredientAlias.objects.values_list("name", "ingredient__name"):
        owner.setdefault(alias.lower(), ingredient_name)

    # A name containing the query as a whole word ("mince" in "pork mince")
    # is a stronger hint than spelling similarity, so it comes first.
    ranked = sorted(k for k in owner if key in k.split() or k in key.split())
    ranked += difflib.get_close_matches(key, list(owner), n=limit * 2, cutoff=CLOSE_MATCH_CUTOFF)
    result = []
    for candidate in ranked:
        canonical = owner[candidate]
        if canonical not in result:
            result.append(canonical)
        if len(result) == limit:
            break
    return result


def get_or_create_ingredient(name):
    """Resolve `name`, creating the ingredient when nothing matches.

    Returns (ingredient, created). Raises AmbiguousIngredient like
    find_ingredient, and django ValidationError for an empty name.
    """
    found = find_ingredient(name)
    if found is not None:
        return found, False
    ingredient = Ingredient(name=normalize_name(name))
    ingredient.full_clean()
    ingredient.save()
    return ingredient, True

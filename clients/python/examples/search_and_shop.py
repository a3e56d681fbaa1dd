"""Search sous's recipes, then put the first match's ingredients on the
shopping list: the Connect API from a Python app.

    SOUS_URL=http://127.0.0.1:8080 SOUS_SERVICE_TOKEN=... python examples/search_and_shop.py chili
"""

import os
import sys

from connectrpc.errors import ConnectError
from sous.mealplan.v1.mealplan_connect import MealPlanServiceClientSync
from sous.mealplan.v1.mealplan_pb import AddToShoppingListRequest
from sous.recipes.v1.recipes_connect import RecipesServiceClientSync
from sous.recipes.v1.recipes_pb import SearchRecipesRequest

base_url = os.environ.get("SOUS_URL", "http://127.0.0.1:8080")
token = os.environ.get("SOUS_SERVICE_TOKEN", "")
query = sys.argv[1] if len(sys.argv) > 1 else "chili"
# Every RPC but gRPC health needs the service token.
headers = {"authorization": f"Bearer {token}"} if token else {}

with (
    RecipesServiceClientSync(base_url) as recipes,
    MealPlanServiceClientSync(base_url) as mealplan,
):
    try:
        found = recipes.search_recipes(SearchRecipesRequest(query=query, limit=5), headers=headers)
        if not found.items:
            print(f'no recipe matches "{query}"')
            sys.exit(1)
        for r in found.items:
            print(f"found {r.slug}: {r.name}")
        # The household's only list; skip what the pantry has in stock (the default).
        res = mealplan.add_to_shopping_list(
            AddToShoppingListRequest(recipe_slugs=[found.items[0].slug]), headers=headers
        )
    except ConnectError as e:
        # Branch on the code; show the sentence.
        print(f"sous refused ({e.code.name.lower()}): {e.message}", file=sys.stderr)
        sys.exit(2)
    for item in res.added:
        print(f"added {item.display}")
    for m in res.merged:
        print(f"merged {m.name} into {m.item.display}")
    for s in res.skipped_in_stock:
        print(f"skipped {s.name} ({s.pantry_item} in the {s.location})")
    # A recipe already on the list adds nothing (ask again with add_again).
    for slug in res.already_on_list:
        print(f"already on the list: {slug}")

// Command recipes serves sous.recipes.v1.RecipesService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others, from the same service
// table (cmd/internal/stack.Command). `recipes --healthcheck` checks a
// running one.
//
// Environment: MEALIE_URL, MEALIE_API_TOKEN, MEALIE_READ_ONLY,
// MEALIE_VERIFY_SSL, MEALIE_LOG_LEVEL, SOUS_SERVICE_TOKEN, SOUS_PANTRY_URL
// (optional: suggest_recipes from_pantry), SOUS_CREATE_FOODS (false keeps
// an unknown food's words in the line's note), and SOUS_RECIPES_ADDR
// (default 127.0.0.1:8081).
package main

import (
	"github.com/souskitchen/sous/cmd/internal/stack"
	"github.com/souskitchen/sous/internal/serve"
)

func main() { serve.Main(stack.Command("recipes")) }

// Command mealplan serves sous.mealplan.v1.MealPlanService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others, from the same service
// table (cmd/internal/stack.Command). `mealplan --healthcheck`
// checks a running one.
//
// Environment: MEALIE_URL, MEALIE_API_TOKEN, MEALIE_READ_ONLY,
// MEALIE_VERIFY_SSL, MEALIE_LOG_LEVEL, TZ (the zone "today" is resolved in),
// SOUS_RECIPES_URL (where slugs are resolved; default
// http://127.0.0.1:8081, the recipes binary's own address), SOUS_PANTRY_URL
// (optional: without it shopping cannot skip what is in stock),
// SOUS_SERVICE_TOKEN (guards this service and is presented to the others),
// and SOUS_MEALPLAN_ADDR (default 127.0.0.1:8082).
package main

import (
	"github.com/souskitchen/sous/cmd/internal/stack"
	"github.com/souskitchen/sous/internal/serve"
)

func main() { serve.Main(stack.Command("mealplan")) }

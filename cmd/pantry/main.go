// Command pantry serves sous.pantry.v1.PantryService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others, from the same service
// table (cmd/internal/stack.Command). `pantry --healthcheck`
// checks a running one.
//
// Environment: FOOD_API_BASE, FOOD_API_TOKEN, MEALIE_READ_ONLY,
// MEALIE_LOG_LEVEL, SOUS_SERVICE_TOKEN, and SOUS_PANTRY_ADDR (default
// 127.0.0.1:8084).
package main

import (
	"github.com/souskitchen/sous/cmd/internal/stack"
	"github.com/souskitchen/sous/internal/serve"
)

func main() { serve.Main(stack.Command("pantry")) }

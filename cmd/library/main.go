// Command library serves sous.library.v1.LibraryService on its own, for a
// deployment that runs each service in its own container. `sous serve` runs
// the same service in one process with the others, from the same service
// table (cmd/internal/stack.Command). `library --healthcheck`
// checks a running one.
//
// Environment: MEALIE_URL, MEALIE_API_TOKEN, MEALIE_READ_ONLY,
// MEALIE_VERIFY_SSL, MEALIE_LOG_LEVEL, SOUS_SERVICE_TOKEN, SOUS_RECIPES_URL
// (the recipes service, default http://127.0.0.1:8081),
// SOUS_LINKCHECK_ALLOW_PRIVATE, and SOUS_LIBRARY_ADDR (default
// 127.0.0.1:8083).
package main

import (
	"github.com/souskitchen/sous/cmd/internal/stack"
	"github.com/souskitchen/sous/internal/serve"
)

func main() { serve.Main(stack.Command("library")) }

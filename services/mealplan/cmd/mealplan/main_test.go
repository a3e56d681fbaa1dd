package main

import (
	"log/slog"
	"testing"

	"github.com/souskitchen/sous/internal/serve"
	"github.com/souskitchen/sous/services/internal/probetest"
)

// TestBuildProbesMealie: the service refuses to start against a Mealie it
// cannot serve, with the probe's message, as the other Mealie-backed
// services do, and starts against one it can; without SOUS_PANTRY_URL it
// starts all the same.
func TestBuildProbesMealie(t *testing.T) {
	setup := serve.Setup{Logger: slog.New(slog.DiscardHandler)}
	probetest.BuildProbesMealie(t, probetest.Count(build, setup), map[string]string{"SOUS_RECIPES_URL": "http://127.0.0.1:1", "SOUS_PANTRY_URL": ""})
}

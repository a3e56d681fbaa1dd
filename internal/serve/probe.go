package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"connectrpc.com/connect"
)

// StartupProbeTimeout bounds a service's startup probe: two reads of
// Mealie, each retried on a server that is still waking, fit well inside it.
const StartupProbeTimeout = 60 * time.Second

// Status is what a service's GetStatus reports about its Mealie.
type Status struct {
	MealieVersion string
	User          string
}

// Probe runs a Mealie-backed service's GetStatus once before the service
// serves, so a wrong URL or token, or a Mealie below 2.0, is one message
// and exit 2 at startup (Command.Build) rather than a failure on every
// call. It logs the version and user it connected as, and returns the
// status's message without connect's "code: " prefix.
func Probe(ctx context.Context, logger *slog.Logger, status func(context.Context) (Status, error)) error {
	ctx, cancel := context.WithTimeout(ctx, StartupProbeTimeout)
	defer cancel()
	st, err := status(ctx)
	if err != nil {
		var ce *connect.Error
		if errors.As(err, &ce) {
			return errors.New(ce.Message())
		}
		return err
	}
	logger.Info(fmt.Sprintf("connected to Mealie %s as %s", st.MealieVersion, st.User))
	return nil
}

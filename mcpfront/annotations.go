package mcpfront

import "github.com/modelcontextprotocol/go-sdk/mcp"

// Annotation presets. The hints are set truthfully on every tool
// (docs/tools.md, "Annotations"): open-world is false because every tool works on the user's own
// Mealie or pantry, except those that reach third-party pages. No title is
// set: it would only repeat the tool's name in other words, in every
// tools/list answer.
func readAnn() *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
}

// writeAnn annotates a write. destructive means it can overwrite or delete
// what is there (MCP's default for an unset hint is true, so it is always
// set); idempotent means a repeat with the same arguments changes nothing
// more; openWorld means it reaches a third-party host (Mealie fetching a
// page or an image).
func writeAnn(destructive, idempotent, openWorld bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{DestructiveHint: ptr(destructive), IdempotentHint: idempotent, OpenWorldHint: ptr(openWorld)}
}

func ptr[T any](v T) *T { return &v }

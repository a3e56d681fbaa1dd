// Package toolschema holds a tool's input schema, the one tools/list
// publishes, and the checker that holds every call's arguments to it.
//
// The schema is built once from the tool's input struct (For) and refined
// by the tool (Props); what the checker enforces beyond what the schema
// shows (guard caps on lengths, a maximum that caps rather than refuses)
// is kept beside it in Go values, never in marks inside the schema, so
// what a client reads is the schema that is checked.
//
// Why a checker of its own rather than the go-sdk's validator
// (github.com/google/jsonschema-go, Resolved.Validate): a model must read
// a refusal it can act on, and the validator words its refusals for schema
// authors ("validating root: validating /properties/end_date: pattern: …
// does not match regular expression …"), where these are one sentence
// naming the argument, what was given and what is taken (the baselines in
// integration/abuse pin them word for word). Wrapping the
// validator would mean parsing its error text back into a path and a
// keyword, which its releases do not promise to keep. And several MCP
// clients send every argument as a string: "2", "1.5" and "true" are taken
// as the number or boolean the schema asks for, where the validator refuses
// them. Nor does it check "format" (its validate.go never reads it), so
// the date the published schema names would go unchecked. Running the
// validator as well, behind the sentences, would be a
// second checker of the same arguments whose refusals nobody reads.
// jsonschema-go is still used for what it does well: inferring the schema
// from the input struct, and the Schema type the go-sdk publishes.
//
// Defaults are held to the same checks as the calls, once at start-up
// (For), so an omitted argument is never given a value a caller could not
// send.
//
// The checker implements a subset of JSON Schema, and For refuses at
// start-up any keyword outside it (see keywords.go), so a schema can never
// claim a check that is not made.
package toolschema

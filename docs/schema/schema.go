// Package schema holds the JSON Schemas of pareto's JSON outputs
// (NAME.schema.json), embedded so that programs (the MCP server) publish
// the same schemas the documentation does.
package schema

import "embed"

// FS holds every NAME.schema.json of this directory.
//
//go:embed *.schema.json
var FS embed.FS

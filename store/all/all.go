// Package all links both store backends, SQLite (store/sqlite) and
// PostgreSQL (store/postgres), into a program: a program that opens stores
// with store.Open imports it for its side effect,
//
//	import _ "github.com/pareto-llm/pareto/store/all"
package all

import (
	_ "github.com/pareto-llm/pareto/store/postgres" // registers the PostgreSQL backend
	_ "github.com/pareto-llm/pareto/store/sqlite"   // registers the SQLite backend
)

// Command wasmsql runs a SQL script through the SQLite that pareto's
// SQLite store is built on (github.com/ncruces/go-sqlite3: SQLite compiled
// to WebAssembly), so that scripts/perf/issue27.py can time that SQLite
// alone writing rows that are already built, against native sqlite3
// running the same script.
//
//	go run ./scripts/perf/wasmsql DB SCRIPT.sql
package main

import (
	"fmt"
	"os"

	"github.com/ncruces/go-sqlite3"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: wasmsql DB SCRIPT.sql")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "wasmsql:", err)
		os.Exit(1)
	}
}

func run(path, script string) error {
	sql, err := os.ReadFile(script)
	if err != nil {
		return err
	}
	db, err := sqlite3.Open(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := db.Exec(string(sql)); err != nil {
		db.Close()
		return fmt.Errorf("%s: %w", script, err)
	}
	return db.Close()
}

// Command pareto picks LLM serving configurations from honest measurements:
// it reads benchmark results and computes strict and noise-aware Pareto
// frontiers. Run "pareto --help" for the commands.
package main

import (
	"os"

	"github.com/pareto-llm/pareto/internal/cli"
	"github.com/pareto-llm/pareto/internal/gcpolicy"
)

func main() {
	gcpolicy.Batch(os.Getenv)
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

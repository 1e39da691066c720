// Command pareto picks LLM serving configurations from honest measurements:
// it reads benchmark results and computes strict and noise-aware Pareto
// frontiers. Run "pareto --help" for the commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/pareto-llm/pareto/internal/cli"
	"github.com/pareto-llm/pareto/internal/gcpolicy"
	_ "github.com/pareto-llm/pareto/store/all" // the store backends
)

func main() {
	gcpolicy.Batch(os.Getenv)
	// SIGINT or SIGTERM cancels the command's context (tune queues its
	// running run again and stops); a second one ends the process at once.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/trial"
)

// TestPasswordsNeverPrinted runs every command that opens a store or an
// Optuna storage on PostgreSQL URLs whose password makes them unparseable
// (or misread) by net/url or pgx, and on a server that refuses the
// connection: nothing printed holds any part of the password. No server
// is needed: 127.0.0.1:1 refuses at once.
func TestPasswordsNeverPrinted(t *testing.T) {
	shapes := []struct{ name, url string }{
		{"bad-port", "postgres://u:hunter2zebra@127.0.0.1:99999/db"},
		{"port-not-a-number", "postgres://u:hunter2zebra@127.0.0.1:port/db"},
		{"hash", "postgres://u:hunter2#zebra@127.0.0.1:1/db"},
		{"slash", "postgres://u:hunter2/zebra@127.0.0.1:1/db"},
		{"question-mark", "postgres://u:hunter2?zebra@127.0.0.1:1/db"},
		{"space", "postgres://u:hunter2 zebra@127.0.0.1:1/db"},
		{"bad-escape", "postgres://u:hunter2%ZZzebra@127.0.0.1:1/db"},
		{"bracket", "postgres://u:hunter2[zebra@127.0.0.1:1/db?sslmode=disable"},
		{"refused", "postgresql://u:hunter2zebra@127.0.0.1:1/db?sslmode=disable"},
		{"query-password", "postgres://u@127.0.0.1:1/db?password=hunter2zebra"},
	}
	commands := []struct {
		name string
		args func(url string) []string
		env  bool // the URL comes from $PARETO_STORE
	}{
		{"studies", func(u string) []string { return []string{"studies", "--store", u} }, false},
		{"trials", func(u string) []string { return []string{"trials", "--store", u, "--study", "s"} }, false},
		{"gate", func(u string) []string {
			return []string{"gate", "--store", u, "--study", "s", "--candidate", "role=try", "--baseline", "role=baseline",
				"-o", "output_token_throughput:max"}
		}, false},
		{"front-study", func(u string) []string {
			return []string{"front", "--store", u, "--study", "s", "-o", "ttft.p99", "-o", "output_token_throughput:max"}
		}, false},
		{"front-optuna", func(u string) []string { return []string{"front", "--optuna", u} }, false},
		{"front-optuna-psycopg2", func(u string) []string {
			return []string{"front", "--optuna", strings.Replace(u, "://", "+psycopg2://", 1)}
		}, false},
		{"report-study", func(string) []string {
			return []string{"report", "--study", "s", "-x", "ttft.p99", "-y", "output_token_throughput", "--out", "/dev/null"}
		}, true},
		{"check", func(u string) []string { return []string{"check", "--store", u} }, false},
		{"migrate", func(u string) []string { return []string{"migrate", "--store", u} }, false},
		{"env-studies", func(string) []string { return []string{"studies"} }, true},
		{"env-ingest", func(string) []string {
			return []string{"ingest", "../../examples/decide/tries-sglang-0.6.0.jsonl", "--study", "s"}
		}, true},
	}
	for _, c := range commands {
		for _, sh := range shapes {
			t.Run(c.name+"/"+sh.name, func(t *testing.T) {
				t.Setenv(store.EnvVar, "")
				if c.env {
					t.Setenv(store.EnvVar, sh.url)
				}
				var stdout, stderr bytes.Buffer
				status := Main(context.Background(), c.args(sh.url), strings.NewReader(""), &stdout, &stderr)
				out := stdout.String() + stderr.String()
				if status == exitOK {
					t.Errorf("exit 0 on an unreachable store; output:\n%s", out)
				}
				for _, part := range []string{"hunter2", "zebra"} {
					if strings.Contains(out, part) {
						t.Errorf("output holds %q of the password:\n%s", part, out)
					}
				}
				if !strings.Contains(out, trial.Redacted) && !strings.Contains(out, "u@127.0.0.1") {
					t.Errorf("output does not name the redacted store:\n%s", out)
				}
			})
		}
	}
}

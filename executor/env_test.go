package executor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestEnvName(t *testing.T) {
	for in, want := range map[string]string{"max_num_seqs": "MAX_NUM_SEQS", "server_args.tp": "SERVER_ARGS_TP", "a-b c": "A_B_C", "1x": "1X", "é": "__"} {
		if got := EnvName(in); got != want {
			t.Errorf("EnvName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestShellQuote checks with /bin/sh that a quoted word comes back as it was.
func TestShellQuote(t *testing.T) {
	for _, s := range []string{"", "plain", "it's", "a b\tc\nd", `$HOME "x" \n`, "'''", "; rm -rf /"} {
		out, err := exec.Command("/bin/sh", "-c", "printf %s "+ShellQuote(s)).Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != s {
			t.Errorf("ShellQuote(%q) read back by sh as %q", s, out)
		}
	}
}

// TestEnvironLocal: a local job's environment is this process's without
// the store's settings and the variables holding the store's password,
// but for those kept (--pass-env).
func TestEnvironLocal(t *testing.T) {
	const pw = "s3cretPW-4242"
	t.Setenv("PARETO_STORE", "postgres://u:"+pw+"@db/p")
	t.Setenv("PGPASSWORD", pw)
	t.Setenv("DATABASE_URL", "postgres://u:"+pw+"@db/other")
	t.Setenv("HF_TOKEN", "hf_kept")
	t.Setenv("KEEP_ME", "yes")
	for _, tt := range []struct {
		name      string
		local     *Local
		gone, has []string
	}{
		{"zero Local", &Local{}, []string{"PARETO_STORE", "PGPASSWORD"}, []string{"DATABASE_URL", "HF_TOKEN", "KEEP_ME"}},
		{"store password hidden", &Local{Environ: Environ(nil, []string{pw})}, []string{"PARETO_STORE", "PGPASSWORD", "DATABASE_URL"}, []string{"HF_TOKEN", "KEEP_ME"}},
		{"kept", &Local{Environ: Environ([]string{"PGPASSWORD"}, []string{pw})}, []string{"PARETO_STORE", "DATABASE_URL"}, []string{"PGPASSWORD", "HF_TOKEN"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			h, err := tt.local.Start(t.Context(), Job{ID: "1", Command: "env > env.txt", Dir: dir, Env: []string{"PARETO_RUN=1"}})
			if err != nil {
				t.Fatal(err)
			}
			if st, err := tt.local.Wait(t.Context(), h); err != nil || st.State != Completed {
				t.Fatalf("%+v %v", st, err)
			}
			b, err := os.ReadFile(filepath.Join(dir, "env.txt"))
			if err != nil {
				t.Fatal(err)
			}
			env := "\n" + string(b)
			for _, name := range tt.gone {
				if strings.Contains(env, "\n"+name+"=") {
					t.Errorf("the job has %s", name)
				}
			}
			for _, name := range append(tt.has, "PARETO_RUN") {
				if !strings.Contains(env, "\n"+name+"=") {
					t.Errorf("the job lacks %s", name)
				}
			}
		})
	}
}

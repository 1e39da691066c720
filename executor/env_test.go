package executor

import (
	"os/exec"
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

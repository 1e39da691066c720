package tune_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pareto-llm/pareto/executor"
	"github.com/pareto-llm/pareto/internal/position"
	"github.com/pareto-llm/pareto/internal/testenv"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/store/tunequeue"
	"github.com/pareto-llm/pareto/tune"
)

// hostile are categorical values that are shell code when a command
// template pastes them in unquoted: command substitution, backquotes,
// command separators, pipes, quote-breaking, a newline, globs, a tilde, a
// variable and a flag. Each would create a file named PWN.
var hostile = []string{
	"$(touch PWN)",
	"`touch PWN`",
	"x; touch PWN",
	"x && touch PWN",
	"x | touch PWN",
	"x' ; touch PWN ; '",
	`x" ; touch PWN ; "`,
	"x\ntouch PWN",
	"x\\'; touch PWN; '",
	"*",
	"stdout.lo?",
	"[a-z]*",
	"~",
	"$HOME",
	"-n",
	"a  b\tc",
	"",
}

// hostileCommand writes the value as the command received it, through
// the three kinds of placeholder CheckTemplate allows (a word, part of a
// word, a word inside $(…) inside double quotes), and PARETO_PARAM_V.
const hostileCommand = `printf '%s' {v} > word.txt; printf '%s' --v={v} > joined.txt; ` +
	`printf '%s' "$(printf '%s' {v})" > subst.txt; printf '%s' "$PARETO_PARAM_V" > env.txt`

// hostileSpace is a space whose one parameter takes the hostile values.
func hostileSpace(t *testing.T) *search.Space {
	t.Helper()
	vals := make([]search.Value, len(hostile))
	for i, v := range hostile {
		vals[i] = search.Text(v)
	}
	s, err := search.NewSpace([]search.Param{{Name: "v", Kind: search.Categorical, Values: vals}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tune.CheckTemplate(hostileCommand, s); err != nil {
		t.Fatal(err)
	}
	return s
}

// hostileJobs returns one job per hostile value, each in its folder of
// root.
func hostileJobs(t *testing.T, root string) []executor.Job {
	hostileSpace(t)
	jobs := make([]executor.Job, len(hostile))
	for i, v := range hostile {
		r := tune.Run{ID: int64(i + 1), Trial: i, Role: tune.RoleCandidate, Config: search.Config{"v": search.Text(v)}}
		jobs[i] = executor.Job{ID: strconv.Itoa(i + 1), Command: tune.Expand(hostileCommand, r.Config), Dir: filepath.Join(root, "run-"+strconv.Itoa(i+1)),
			Env: tune.Env(r)}
	}
	return jobs
}

// checkHostile checks that no PWN file exists under root (or in the
// test's folder) and that every job's files hold its literal value.
func checkHostile(t *testing.T, root string, jobs []executor.Job) {
	t.Helper()
	pwned := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "PWN" {
			t.Errorf("%s exists: a value was run as code", p)
			pwned++
		}
		return nil
	})
	if _, err := os.Stat("PWN"); err == nil {
		t.Errorf("PWN in the test's folder: a value was run as code")
		pwned++
	}
	delivered := 0
	for i, j := range jobs {
		v := hostile[i]
		for file, want := range map[string]string{"word.txt": v, "joined.txt": "--v=" + v, "subst.txt": v, "env.txt": v} {
			b, err := os.ReadFile(filepath.Join(j.Dir, file))
			if err != nil {
				t.Errorf("value %q: %v", v, err)
				continue
			}
			if string(b) != want {
				t.Errorf("value %q: %s holds %q; want %q", v, file, b, want)
				continue
			}
			delivered++
		}
	}
	t.Logf("%d hostile values × 4 ways: %d executed, %d of %d delivered literally", len(hostile), pwned, delivered, 4*len(hostile))
}

// TestHostileValuesLocal runs every hostile value through Expand and Env
// on the local executor: none runs, each reaches the command literally.
func TestHostileValuesLocal(t *testing.T) {
	root := t.TempDir()
	jobs := hostileJobs(t, root)
	l := &executor.Local{}
	for i, j := range jobs {
		h, err := l.Start(t.Context(), j)
		if err != nil {
			t.Fatal(err)
		}
		st, err := l.Wait(t.Context(), h)
		if err != nil || st.State != executor.Completed {
			t.Errorf("job %s (value %q): %+v %v", j.ID, hostile[i], st, err)
		}
	}
	checkHostile(t, root, jobs)
}

// TestHostileValuesSlurm runs every hostile value on the test cluster, as
// one batch job each (the default template) and as one job array: none
// runs, each reaches the command literally.
func TestHostileValuesSlurm(t *testing.T) {
	testenv.Slurm(t)
	s, err := executor.NewSlurm(executor.SlurmConfig{PollInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	wait := func(hs []executor.Handle) {
		for _, h := range hs {
			st, err := s.Wait(ctx, h)
			if err != nil || st.State != executor.Completed {
				t.Errorf("job %s: %+v %v", h, st, err)
			}
		}
	}
	t.Run("jobs", func(t *testing.T) {
		root := t.TempDir()
		jobs := hostileJobs(t, root)
		var hs []executor.Handle
		for _, j := range jobs {
			h, err := s.Start(ctx, j)
			if err != nil {
				t.Fatal(err)
			}
			hs = append(hs, h)
		}
		wait(hs)
		checkHostile(t, root, jobs)
	})
	t.Run("array", func(t *testing.T) {
		root := t.TempDir()
		jobs := hostileJobs(t, root)
		hs, err := s.StartBatch(ctx, jobs)
		if err != nil {
			t.Fatal(err)
		}
		wait(hs)
		checkHostile(t, root, jobs)
	})
}

// TestCheckTemplate: a placeholder where its quoted value would not be
// one literal word is refused at its line and column; one of the shell's
// own ${NAME} is not a placeholder.
func TestCheckTemplate(t *testing.T) {
	space, err := search.NewSpace([]search.Param{{Name: "tp", Kind: search.Categorical, Values: []search.Value{search.Num(1), search.Num(2)}}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		template  string
		line, col int
		want      string
	}{
		{template: "serve --tp {tp}"},
		{template: "serve --tp={tp} --out run-{tp}.json"},
		{template: `serve "$(echo {tp})" ${HOME} ${PARETO_PARAM_TP}`},
		{template: "serve\n# a comment\n--tp {tp}"},
		{template: "serve '{tp}'", line: 1, col: 8, want: "{tp} is inside single quotes"},
		{template: `serve --tp="{tp}"`, line: 1, col: 13, want: "{tp} is inside double quotes"},
		{template: "serve `echo {tp}`", line: 1, col: 13, want: "inside backquotes"},
		{template: "serve $(( {tp} * 2 ))", line: 1, col: 11, want: "inside $((…))"},
		{template: "serve ${X:-{tp}}", line: 1, col: 12, want: "inside ${…}"},
		{template: `serve \{tp}`, line: 1, col: 8, want: "after a backslash"},
		{template: "serve # {tp}", line: 1, col: 9, want: "in a comment"},
		{template: "cat <<EOF > c\ntp: {tp}\nEOF\nserve c", line: 2, col: 5, want: "in a here-document"},
		{template: "serve {pp}", line: 1, col: 7, want: "{pp} is not a parameter"},
		{template: "serve {tp} 'x", line: 1, col: 12, want: "' opened at byte 12 is not closed"},
	} {
		err := tune.CheckTemplate(tt.template, space)
		if tt.want == "" {
			if err != nil {
				t.Errorf("CheckTemplate(%q) = %v; want nil", tt.template, err)
			}
			continue
		}
		var pe *position.Error
		if !errors.As(err, &pe) || pe.Line != tt.line || pe.Col != tt.col || !strings.Contains(pe.Msg, tt.want) || pe.File != tune.TemplateFile {
			t.Errorf("CheckTemplate(%q) = %v; want %s:%d:%d: ...%s...", tt.template, err, tune.TemplateFile, tt.line, tt.col, tt.want)
		}
	}
}

// TestExpand: every placeholder is one quoted word, an inactive one the
// empty word, the shell's ${NAME} is left alone.
func TestExpand(t *testing.T) {
	c := search.Config{"tp": search.Num(2), "m": search.Text("it's")}
	got := tune.Expand("serve --tp={tp} {m} {gone} ${tp}", c)
	if want := `serve --tp='2' 'it'\''s' '' ${tp}`; got != want {
		t.Errorf("Expand = %q; want %q", got, want)
	}
}

// hostileTOML is a search space whose parameter v takes the hostile
// values (and a plain default, the baseline).
func hostileTOML(t *testing.T, path string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("[params.v]\ndefault = \"plain\"\nvalues = [\"plain\"")
	for _, v := range hostile {
		q, err := json.Marshal(v) // a JSON string is a TOML basic string
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(", " + string(q))
	}
	b.WriteString("]\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkHostileRuns checks the runs of a pareto tune over the hostile
// space: every value was run, as its literal text, and nothing else ran.
func checkHostileRuns(t *testing.T, dir, capture, loc string) {
	t.Helper()
	runs := tuneRuns(t, loc)
	seen := map[string]bool{}
	for _, r := range runs {
		if r.State != tunequeue.RunComplete {
			t.Errorf("run %d: %s (%s)", r.ID, r.State, r.Reason)
			continue
		}
		id := strconv.FormatInt(r.ID, 10)
		word, _ := os.ReadFile(filepath.Join(capture, "word-"+id))
		env, _ := os.ReadFile(filepath.Join(capture, "env-"+id))
		if string(word) != string(env) {
			t.Errorf("run %d: the command got %q, PARETO_PARAM_V %q", r.ID, word, env)
		}
		seen[string(env)] = true
	}
	executed := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "PWN" {
			t.Errorf("%s exists: a value was run as code", p)
			executed++
		}
		return nil
	})
	delivered := 0
	for _, v := range hostile {
		if seen[v] {
			delivered++
		} else {
			t.Errorf("value %q was not delivered", v)
		}
	}
	t.Logf("pareto tune over %d hostile values: %d runs, %d executed, %d delivered literally", len(hostile), len(runs), executed, delivered)
}

// hostileTuneCommand records how the run's command and environment got
// the value, in the folder capture (a run's own folder holds its results
// only), then writes the simulator's result.
func hostileTuneCommand(pareto, capture string) string {
	c := executor.ShellQuote(capture)
	return `printf '%s' {v} > ` + c + `/word-$PARETO_RUN; printf '%s' "$PARETO_PARAM_V" > ` + c + `/env-$PARETO_RUN; ` +
		pareto + ` simulate --seed $PARETO_SEED --out result.json`
}

// TestHostileTune runs pareto tune --command over the hostile space on
// the local executor and, with PARETO_TEST_SLURM, on the Slurm one: every
// value is run once, none executes, each reaches the command literally.
func TestHostileTune(t *testing.T) {
	bin := buildPareto(t)
	args := func(dir, loc string) []string {
		os.Mkdir(filepath.Join(dir, "capture"), 0o755)
		space := filepath.Join(dir, "space.toml")
		hostileTOML(t, space)
		budget := strconv.Itoa(len(hostile) + 1)
		return []string{"tune", "--store", loc, "--study", "s", "--space", space, "--command", hostileTuneCommand(filepath.Join(bin, "pareto"), filepath.Join(dir, "capture")),
			"--budget", budget, "--repeats", "1", "--max-runs", "1", "-o", "output_token_throughput:max", "-o", "ttft.p99:min",
			"--sampler", "grid", "--work-dir", filepath.Join(dir, "runs")}
	}
	t.Run("local", func(t *testing.T) {
		dir := t.TempDir()
		loc := filepath.Join(dir, "t.db")
		runTune(t, bin, dir, args(dir, loc))
		checkHostileRuns(t, dir, filepath.Join(dir, "capture"), loc)
	})
	t.Run("slurm", func(t *testing.T) {
		testenv.Slurm(t)
		dir := t.TempDir()
		loc := filepath.Join(dir, "t.db")
		runTune(t, bin, dir, append(args(dir, loc), "--executor", "slurm", "--slurm-poll", "1s"))
		checkHostileRuns(t, dir, filepath.Join(dir, "capture"), loc)
	})
}

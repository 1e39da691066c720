package tune

import (
	"regexp"
	"slices"
	"strings"

	"github.com/pareto-llm/pareto/executor"
	"github.com/pareto-llm/pareto/trial"
)

// minHidden is the shortest secret Hide accepts: a shorter one would mask
// common letters of every message.
const minHidden = 4

// Hide adds secrets that the texts the study records — failure reasons,
// the labels, parameters, warnings, problem and deployment configuration
// of every trial a run records — are cleared of (each replaced by trial.Redacted), besides what
// the redaction policy finds in them (trial.RedactText): the values of
// the variables a study passes to its runs (--pass-env) and the secrets
// of its command (trial.Secrets). Secrets shorter than 4 bytes are
// ignored.
func (t *Tuning) Hide(secrets ...string) {
	for _, s := range secrets {
		if len(s) >= minHidden && !slices.Contains(t.hidden, s) {
			t.hidden = append(t.hidden, s)
		}
	}
	// The longest first, so that a secret holding another is replaced whole.
	slices.SortFunc(t.hidden, func(a, b string) int { return len(b) - len(a) })
}

// Redact returns s as the study records it: the redaction policy applied
// (trial.RedactText), then every hidden secret (Hide) replaced by
// trial.Redacted.
func (t *Tuning) Redact(s string) string {
	s = trial.RedactText(s)
	for _, h := range t.hidden {
		s = strings.ReplaceAll(s, h, trial.Redacted)
	}
	return s
}

// redactTrial applies the redaction policy (trial.Trial.Redact) and the
// hidden secrets to the texts of tr.
func (t *Tuning) redactTrial(tr *trial.Trial) {
	tr.Redact()
	for _, m := range []map[string]string{tr.Params, tr.Labels} {
		for k, v := range m {
			if r := t.Redact(v); r != v {
				m[k] = r
			}
		}
	}
	for i, w := range tr.Warnings {
		tr.Warnings[i] = t.Redact(w)
	}
	tr.Problem = t.Redact(tr.Problem)
	if tr.Deployment != nil {
		tr.Deployment.Config = t.Redact(tr.Deployment.Config)
	}
}

// shellRef matches a value that is a shell variable's expansion ($NAME,
// ${NAME}, "$NAME"): the command reads the secret from its environment,
// it holds none.
var shellRef = regexp.MustCompile(`^["']?\$\{?[A-Za-z_][A-Za-z0-9_]*\}?["']?$`)

// CommandSecrets returns the literal secrets of a command template: the
// values the redaction policy finds in it (trial.Secrets) but those that
// are a shell variable's expansion ($HF_TOKEN).
func CommandSecrets(command string) []string {
	var out []string
	for _, s := range trial.Secrets(command) {
		if !shellRef.MatchString(s) {
			out = append(out, s)
		}
	}
	return out
}

// RedactCommand returns the command template as a study keeps it: every
// literal secret (CommandSecrets) replaced by trial.Redacted.
func RedactCommand(command string) string {
	secrets := CommandSecrets(command)
	slices.SortFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	for _, s := range secrets {
		command = strings.ReplaceAll(command, s, trial.Redacted)
	}
	return command
}

// SecretName suggests the name of the environment variable a literal
// secret of the command should move to: the name or flag before it
// (HF_TOKEN=…, --hf-token …: HF_TOKEN), else API_TOKEN.
func SecretName(command, secret string) string {
	i := strings.Index(command, secret)
	if i < 0 {
		return "API_TOKEN"
	}
	before := command[:i]
	for before != "" && (isNameByte(before[len(before)-1]) || before[len(before)-1] == '-') {
		before = before[:len(before)-1] // a token's prefix (hf_)
	}
	trimmed := strings.TrimRight(before, " \t'\"")
	assigned := strings.HasSuffix(trimmed, "=") || strings.HasSuffix(trimmed, ":")
	trimmed = strings.TrimRight(trimmed, " \t'\"=:")
	j := len(trimmed)
	for j > 0 && (isNameByte(trimmed[j-1]) || trimmed[j-1] == '-') {
		j--
	}
	word := trimmed[j:]
	name := strings.Trim(word, "-")
	if name == "" || !assigned && !strings.HasPrefix(word, "-") {
		return "API_TOKEN"
	}
	return executor.EnvName(name)
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// redactedError is an error whose text was redacted; it unwraps to the
// original, so that errors.Is and errors.As still see it.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redactError returns err with its text redacted (Redact), err itself
// when nothing changes.
func (t *Tuning) redactError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if r := t.Redact(msg); r != msg {
		return &redactedError{msg: r, err: err}
	}
	return err
}

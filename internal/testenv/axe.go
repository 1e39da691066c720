package testenv

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// AxeEnv names the variable holding the path of axe-core's axe.min.js
// (scripts/deps.sh sets it).
const AxeEnv = "PARETO_TEST_AXE"

// AxeVersion is the axe-core release line the accessibility tests run.
const AxeVersion = "4"

var axe struct {
	once sync.Once
	src  string
	err  error
}

// Axe returns the source of axe-core (axe.min.js), the third-party
// accessibility engine the browser tests inject into a page. It is never
// part of the repository: it is read from $PARETO_TEST_AXE, else from the
// user's cache (AxeCache), else fetched once with `npm pack
// axe-core@4` into a temporary directory outside the tree and kept in
// that cache. When none works it reports axe missing (Missing).
func Axe(t testing.TB) string {
	t.Helper()
	axe.once.Do(func() { axe.src, axe.err = loadAxe() })
	if axe.err != nil {
		Missing(t, "no axe-core for the accessibility tests: %v", axe.err)
	}
	return axe.src
}

// AxeCache returns where Axe keeps axe.min.js between runs.
func AxeCache() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "pareto-test", "axe-core@"+AxeVersion, "axe.min.js"), nil
}

func loadAxe() (string, error) {
	if p := os.Getenv(AxeEnv); p != "" {
		b, err := os.ReadFile(p)
		if err != nil {
			return "", fmt.Errorf("%s: %w", AxeEnv, err)
		}
		return string(b), nil
	}
	cache, err := AxeCache()
	if err != nil {
		return "", err
	}
	if b, err := os.ReadFile(cache); err == nil && len(b) > 0 {
		return string(b), nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("%s is not set, %s does not exist and there is no npm to fetch axe-core@%s", AxeEnv, cache, AxeVersion)
	}
	tmp, err := os.MkdirTemp("", "pareto-axe-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "pack", "--silent", "axe-core@"+AxeVersion)
	cmd.Dir = tmp
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm pack axe-core@%s: %v: %s", AxeVersion, err, strings.TrimSpace(stderr.String()))
	}
	tgz, _ := filepath.Glob(filepath.Join(tmp, "axe-core-*.tgz"))
	if len(tgz) != 1 {
		return "", fmt.Errorf("npm pack axe-core@%s left %d archives", AxeVersion, len(tgz))
	}
	src, err := axeFromTarball(tgz[0])
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(cache), 0o755); err == nil {
		_ = os.WriteFile(cache, []byte(src), 0o644) // a cache: a failure only costs the next run a fetch
	}
	return src, nil
}

// axeFromTarball returns package/axe.min.js of an npm package tarball.
func axeFromTarball(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return "", fmt.Errorf("%s has no package/axe.min.js", path)
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
		if h.Name == "package/axe.min.js" {
			b, err := io.ReadAll(io.LimitReader(tr, 64<<20))
			return string(b), err
		}
	}
}

package gcpolicy

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

func TestBatch(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if old, _ := Batch(getenv); old != 100 {
		t.Errorf("previous GC percent = %d; want 100", old)
	}
	if got := debug.SetGCPercent(100); got != Percent {
		t.Errorf("GC percent = %d; want %d", got, Percent)
	}
	limit := debug.SetMemoryLimit(-1) // reads the limit
	if runtime.GOOS == "linux" {
		if m := physicalMemory(); m == 0 || limit != int64(m/4*3) {
			t.Errorf("memory limit = %d; want three quarters of %d", limit, m)
		}
	}

	// The user's settings win.
	debug.SetMemoryLimit(math.MaxInt64)
	env["GOGC"], env["GOMEMLIMIT"] = "50", "1GiB"
	if p, l := Batch(getenv); p != -1 || l != -1 {
		t.Errorf("Batch with GOGC and GOMEMLIMIT set changed (%d, %d)", p, l)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent = %d; want the untouched 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit = %d; want the untouched default", got)
	}
}

func TestStudy(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(Percent))
	if old := Study(func(string) string { return "" }); old != Percent {
		t.Errorf("previous GC percent = %d; want %d", old, Percent)
	}
	if got := debug.SetGCPercent(Percent); got != StudyPercent {
		t.Errorf("GC percent = %d; want %d", got, StudyPercent)
	}
	if old := Study(func(k string) string { return map[string]string{"GOGC": "400"}[k] }); old != -1 {
		t.Errorf("Study with GOGC set changed the percent (was %d)", old)
	}
	if got := debug.SetGCPercent(Percent); got != Percent {
		t.Errorf("GC percent = %d; want the untouched %d", got, Percent)
	}
}

func TestStream(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if old := Stream(getenv); old != math.MaxInt64 {
		t.Errorf("previous limit = %d; want %d", old, int64(math.MaxInt64))
	}
	if got := debug.SetMemoryLimit(-1); got != StreamLimit {
		t.Errorf("limit = %d; want %d", got, StreamLimit)
	}
	env["GOMEMLIMIT"] = "1GiB"
	debug.SetMemoryLimit(math.MaxInt64)
	if old := Stream(getenv); old != -1 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set: Stream = %d and the limit changed; want -1 and unchanged", old)
	}
}

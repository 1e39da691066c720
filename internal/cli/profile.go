package cli

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profiles holds the hidden global flags --cpuprofile FILE and
// --memprofile FILE: a CPU profile of the whole command and a heap
// profile at its end, in the pprof format (go tool pprof), from which
// scripts/pgo.sh builds cmd/pareto/default.pgo. They are written only
// where asked, and hold function names and counts, never input data.
type profiles struct {
	cpu, mem string
	cpuFile  *os.File
}

// addProfileFlags adds the flags to root and starts the CPU profile
// before any command runs.
func addProfileFlags(root *cobra.Command) *profiles {
	p := &profiles{}
	f := root.PersistentFlags()
	f.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the command to `FILE` (pprof format)")
	f.StringVar(&p.mem, "memprofile", "", "write a heap profile at the end of the command to `FILE` (pprof format)")
	_ = f.MarkHidden("cpuprofile")
	_ = f.MarkHidden("memprofile")
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return p.start() }
	return p
}

// start opens the CPU profile's file and starts profiling.
func (p *profiles) start() error {
	if p.cpu == "" {
		return nil
	}
	f, err := os.Create(p.cpu)
	if err != nil {
		return inputError{fmt.Errorf("--cpuprofile: %w", err)}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return inputError{fmt.Errorf("--cpuprofile %s: %w", p.cpu, err)}
	}
	p.cpuFile = f
	return nil
}

// stop ends the CPU profile and writes the heap profile; the error names
// the profile that could not be written.
func (p *profiles) stop() error {
	var errs []error
	if p.cpuFile != nil {
		pprof.StopCPUProfile()
		if err := p.cpuFile.Close(); err != nil {
			errs = append(errs, fmt.Errorf("--cpuprofile %s: %w", p.cpu, err))
		}
		p.cpuFile = nil
	}
	if p.mem != "" {
		runtime.GC() // the heap as it is, not as of the last collection
		if err := writeHeapProfile(p.mem); err != nil {
			errs = append(errs, fmt.Errorf("--memprofile: %w", err))
		}
	}
	return errors.Join(errs...)
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

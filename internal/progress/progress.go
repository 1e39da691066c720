// Package progress shows how far a long command is: one bar on standard
// error, drawn only when standard error is a terminal, so that a pipe, a
// file, a log or a test never receives it. The bar is
// github.com/vbauerster/mpb/v8 behind the Counter interface.
package progress

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/sys/unix"
)

// Counter reports how far a task is.
type Counter interface {
	// Set reports done of total units; total grows as more work is found
	// (0: not known yet). Safe for concurrent use.
	Set(done, total int)
	// Done ends the display and removes the bar; the counter does nothing
	// after.
	Done()
}

// IsTerminal reports whether w is a terminal (not merely a character
// device such as /dev/null).
func IsTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// New returns a Counter of a task called name counting unit ("files"),
// drawn on w when w is a terminal and a Counter that does nothing
// otherwise.
func New(w io.Writer, name, unit string) Counter {
	if !IsTerminal(w) {
		return nop{}
	}
	refresh := make(chan any, 1)
	p := mpb.New(mpb.WithOutput(w), mpb.WithWidth(30), mpb.ForceTTY(), mpb.WithManualRefresh(refresh))
	bar := p.AddBar(0,
		mpb.BarRemoveOnComplete(),
		mpb.PrependDecorators(decor.Name(name+" ", decor.WCSyncSpaceR), decor.CountersNoUnit("%d/%d "+unit, decor.WCSyncSpace)),
		mpb.AppendDecorators(decor.Percentage(decor.WCSyncSpace), decor.Elapsed(decor.ET_STYLE_GO, decor.WCSyncSpace)))
	return &bar1{p: p, bar: bar, refresh: refresh}
}

// redraw is the shortest time between two redraws.
const redraw = 100 * time.Millisecond

// bar1 is a Counter drawing one mpb bar, redrawn when Set is called (at
// most every redraw), so that the first count is drawn at once.
type bar1 struct {
	mu      sync.Mutex
	p       *mpb.Progress
	bar     *mpb.Bar
	refresh chan any
	drawn   time.Time
	done    bool
}

// draw asks mpb for a redraw unless one is pending.
func (b *bar1) draw() {
	select {
	case b.refresh <- struct{}{}:
	default:
	}
}

func (b *bar1) Set(done, total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return
	}
	b.bar.SetTotal(int64(max(total, done)), false)
	b.bar.SetCurrent(int64(done))
	if now := time.Now(); now.Sub(b.drawn) >= redraw {
		b.drawn = now
		b.draw()
	}
}

func (b *bar1) Done() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return
	}
	b.done = true
	b.bar.SetTotal(-1, true) // complete at the current count, then removed
	b.draw()
	b.p.Wait()
}

// nop is the Counter of a standard error that is no terminal.
type nop struct{}

func (nop) Set(int, int) {}
func (nop) Done()        {}

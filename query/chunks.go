package query

import (
	"io"
	"runtime"
)

// chunkRows is the number of rows writeChunks formats at a time.
const chunkRows = 4096

// writeChunks writes n rows to w in order, formatted in chunks of
// chunkRows on every core: format(dst, lo, hi) appends rows lo..hi-1 to
// dst and is called concurrently on disjoint ranges (it must only read
// what it shares). A million explained rows are then formatted in half
// the wall time on two cores, holding a few chunks at once. It returns the
// first error of w.
func writeChunks(w io.Writer, n int, format func(dst []byte, lo, hi int) []byte) error {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || n <= chunkRows {
		_, err := w.Write(format(nil, 0, n))
		return err
	}
	type chunk struct {
		lo, hi int
		buf    []byte
		done   chan struct{}
	}
	jobs := make(chan *chunk)
	defer close(jobs)
	for range workers {
		go func() {
			for c := range jobs {
				c.buf = format(c.buf[:0], c.lo, c.hi)
				c.done <- struct{}{}
			}
		}()
	}
	var pending, free []*chunk
	var err error
	flush := func() { // the oldest chunk
		c := pending[0]
		pending = pending[1:]
		<-c.done
		if err == nil {
			_, err = w.Write(c.buf)
		}
		free = append(free, c)
	}
	for lo := 0; lo < n; lo += chunkRows {
		if len(pending) == 2*workers {
			flush()
		}
		var c *chunk
		if k := len(free); k > 0 {
			c, free = free[k-1], free[:k-1]
		} else {
			c = &chunk{done: make(chan struct{}, 1)}
		}
		c.lo, c.hi = lo, min(lo+chunkRows, n)
		pending = append(pending, c)
		jobs <- c
	}
	for len(pending) > 0 {
		flush()
	}
	return err
}

package ingest

import (
	"encoding/binary"

	"github.com/pareto-llm/pareto/trial"
)

// dimsCache shares the dims the fast AIPerf reader builds (a block's extra
// dims plus a statistic, a telemetry GPU's endpoint and index) between the
// files one reader reads: a directory of results repeats the same few
// dozen, and dims are immutable once made (trial.Measurement). A nil cache
// shares nothing.
type dimsCache struct {
	m   map[string]trial.Dims
	buf []byte
}

// maxDimsCache bounds the cache; it is emptied when full.
const maxDimsCache = 4096

// What the last value of a key is.
const (
	keyStatistic = 's'
	keyGPU       = 'g'
)

// key encodes kind, extra and last (length-prefixed, so distinct inputs
// never share a key) into scratch space valid until the next call.
func (c *dimsCache) key(kind byte, extra trial.Dims, last string) []byte {
	if c == nil {
		return nil
	}
	b := append(c.buf[:0], kind)
	for _, d := range extra {
		b = binary.AppendUvarint(b, uint64(len(d.Key)))
		b = append(b, d.Key...)
		b = binary.AppendUvarint(b, uint64(len(d.Value)))
		b = append(b, d.Value...)
	}
	b = binary.AppendUvarint(b, uint64(len(last)))
	b = append(b, last...)
	c.buf = b
	return b
}

// get returns the dims stored under key.
func (c *dimsCache) get(key []byte) (trial.Dims, bool) {
	if c == nil {
		return nil, false
	}
	d, ok := c.m[string(key)]
	return d, ok
}

// put stores d under key.
func (c *dimsCache) put(key []byte, d trial.Dims) {
	if c == nil {
		return
	}
	if c.m == nil || len(c.m) >= maxDimsCache {
		c.m = make(map[string]trial.Dims, 64)
	}
	c.m[string(key)] = d
}

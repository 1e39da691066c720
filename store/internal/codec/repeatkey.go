package codec

import (
	"encoding/binary"

	"github.com/pareto-llm/pareto/repeat"
	"github.com/pareto-llm/pareto/trial"
)

// SketchKey is the repeat key a block keeps of t, the trial as stored.
func SketchKey(t *trial.Trial) string {
	k, _ := repeat.RepeatKey(t, nil, nil)
	return k
}

// WorkloadNames renders workloads for repeat keys (repeat.RepeatKey),
// once for a run of trials of one workload.
type WorkloadNames struct{ repeat.WorkloadNames }

// Key is SketchKey of t, its workload rendered through c.
func (c *WorkloadNames) Key(t *trial.Trial) string {
	k, _ := repeat.RepeatKey(t, nil, c.Render)
	return k
}

// Varint reads a varint.
func (u *Unpacker) Varint() int64 {
	v, k := binary.Varint(u.Buf)
	if k <= 0 {
		u.Err, u.Buf = ErrPacked, nil
		return 0
	}
	u.Buf = u.Buf[k:]
	return v
}

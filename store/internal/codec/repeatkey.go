package codec

import (
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

// Varint reads a varint, zig-zag encoded as binary.AppendVarint writes
// it (binary.Varint decodes it the same way, from its Uvarint).
func (u *Unpacker) Varint() int64 {
	ux := u.Uvarint()
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x
}

package simulate

import (
	"fmt"
	"io"
	"testing"
)

// BenchmarkRun measures one simulated run written as a vLLM result (what
// a tuning loop's --command costs besides starting the process).
func BenchmarkRun(b *testing.B) {
	for _, chunked := range []bool{true, false} {
		c := DefaultConfig
		c.ChunkedPrefill = chunked
		c.MaxNumBatchedTokens = 8192
		b.Run(fmt.Sprintf("chunked=%v", chunked), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				r, err := Run(c, DefaultHardware, DefaultNoise, uint64(i))
				if err != nil {
					b.Fatal(err)
				}
				if err := WriteVLLM(io.Discard, &r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package query

import (
	"bytes"
	"strconv"
	"testing"
)

// TestWriteChunks checks that rows formatted in chunks on every core come
// out whole and in order, at the chunk boundaries and across them.
func TestWriteChunks(t *testing.T) {
	row := func(dst []byte, i int) []byte {
		dst = strconv.AppendInt(dst, int64(i), 10)
		return append(dst, '\n')
	}
	for _, n := range []int{0, 1, chunkRows, chunkRows + 1, 9*chunkRows + 17} {
		var want []byte
		for i := range n {
			want = row(want, i)
		}
		var got bytes.Buffer
		if err := writeChunks(&got, n, func(dst []byte, lo, hi int) []byte {
			for i := lo; i < hi; i++ {
				dst = row(dst, i)
			}
			return dst
		}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("n=%d: %d bytes written, want %d (or in another order)", n, got.Len(), len(want))
		}
	}
}

package textin

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func encode(s string, o Order, bom bool) []byte {
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xfeff}, units...)
	}
	var out []byte
	for _, u := range units {
		if o == BigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func TestUTF16(t *testing.T) {
	text := "{\"profile\": \"export\", \"ä\": 1, \"average\": \"é 😀\"}\n" // Latin-1 in the first 32 characters
	for _, tt := range []struct {
		name  string
		head  []byte
		order Order
		bom   int
	}{
		{"LE with mark", encode(text, LittleEndian, true), LittleEndian, 2},
		{"BE with mark", encode(text, BigEndian, true), BigEndian, 2},
		{"LE", encode(text, LittleEndian, false), LittleEndian, 0},
		{"BE", encode(text, BigEndian, false), BigEndian, 0},
		{"UTF-8", []byte(text), NotUTF16, 0},
		{"UTF-8 with mark", []byte("\xef\xbb\xbf" + text), NotUTF16, 0},
		{"UTF-32LE", []byte("\xff\xfe\x00\x00{\x00\x00\x00"), NotUTF16, 0},
		{"binary", []byte("\x00\x01\x02\x03binary"), NotUTF16, 0},
		{"short", []byte("{\x00"), NotUTF16, 0},
	} {
		o, bom := UTF16(tt.head)
		if o != tt.order || bom != tt.bom {
			t.Errorf("%s: UTF16 = %v, %d; want %v, %d", tt.name, o, bom, tt.order, tt.bom)
		}
		if o != NotUTF16 {
			if got := string(Decode(tt.head, o, bom)); got != text {
				t.Errorf("%s: Decode = %q; want %q", tt.name, got, text)
			}
		}
	}
	// Broken text: an unpaired surrogate, an odd last byte.
	broken := append(encode("a", LittleEndian, false), 0x00, 0xd8, 'b', 0, 'c')
	if got, want := string(Decode(broken, LittleEndian, 0)), "a\ufffdb\ufffd"; got != want {
		t.Errorf("Decode(broken) = %q; want %q", got, want)
	}
}

// FuzzDecode checks that the streaming reader, fed a few bytes at a time,
// gives exactly what Decode gives, always valid UTF-8.
func FuzzDecode(f *testing.F) {
	f.Add(encode("Metric,avg\r\nTTFT (ms),1.5\r\n", LittleEndian, true), uint8(3))
	f.Add(encode("😀 é", BigEndian, false), uint8(1))
	f.Add([]byte{0x00, 0xd8, 0x00, 0xdc, 0x00}, uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		for _, o := range []Order{LittleEndian, BigEndian} {
			want := Decode(data, o, 0)
			if !utf8.Valid(want) {
				t.Fatalf("Decode gave invalid UTF-8 %q", want)
			}
			got, err := io.ReadAll(NewReader(&pieces{data: data, n: int(step%7) + 1}, o))
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("NewReader = %q, %v; Decode = %q", got, err, want)
			}
		}
	})
}

// pieces reads data n bytes at a time.
type pieces struct {
	data []byte
	n    int
}

func (p *pieces) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, io.EOF
	}
	n := copy(b[:min(len(b), p.n)], p.data)
	p.data = p.data[n:]
	return n, nil
}

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("é", 100)
	if got := Excerpt("short\x1b"); got != `"short\x1b"` {
		t.Errorf("Excerpt(short) = %s", got)
	}
	if got := Excerpt(long); got != `"`+strings.Repeat("é", 20)+`"…` {
		t.Errorf("Excerpt(long) = %s", got)
	}
	if got := Cut([]byte(long)); got != strings.Repeat("é", 20)+"…" {
		t.Errorf("Cut(long) = %s", got)
	}
	if got := Names([]string{"a", long, "c"}); got != `a, "`+strings.Repeat("é", 20)+`"…, c` {
		t.Errorf("Names = %s", got)
	}
	many := make([]string, 25)
	for i := range many {
		many[i] = "x"
	}
	if got := Names(many); !strings.HasSuffix(got, "x, … 5 more") {
		t.Errorf("Names(25) = %s", got)
	}
	for n, want := range map[int64]string{0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 3 << 19: "1.5 MiB", 5 << 30: "5 GiB", 1 << 40: "1024 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %s; want %s", n, got, want)
		}
	}
	if i, ok := Binary([]byte("ab\x00c")); !ok || i != 2 {
		t.Errorf("Binary = %d, %v", i, ok)
	}
	if _, ok := Binary(encode("text", LittleEndian, false)); ok {
		t.Errorf("UTF-16 text taken for binary data")
	}
}

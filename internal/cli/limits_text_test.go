package cli

import "testing"

// TestLimitText phrases the readers' limit notes with the flag and the
// environment variable that raise each limit, and leaves other text.
func TestLimitText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a.csv: 7 KiB, over the size limit of 1000 bytes (max_input_size)",
			"a.csv: 7 KiB, over the size limit of 1000 bytes (raise it with --max-input-size or $PARETO_MAX_INPUT_SIZE)"},
		{"a line of 2 KiB, over the record size limit of 1 KiB (max_record_size)",
			"a line of 2 KiB, over the record size limit of 1 KiB (raise it with --max-record-size or $PARETO_MAX_RECORD_SIZE)"},
		{"more than 3 columns in one row, over the limit (max_columns)",
			"more than 3 columns in one row, over the limit (raise it with --max-columns or $PARETO_MAX_COLUMNS)"},
		{"metric max_columns is unknown", "metric max_columns is unknown"},
	} {
		if got := limitText(tt.in); got != tt.want {
			t.Errorf("limitText(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

package ingest

import "testing"

// TestSniffTextConfigs: YAML and TOML are told by their first line that is
// neither blank nor a # comment (firstLine), indented or not.
func TestSniffTextConfigs(t *testing.T) {
	for _, tt := range []struct {
		name       string
		head       string
		yaml, toml bool
	}{
		{"yaml key", "load:\n  type: constant\n", true, false},
		{"yaml document start", "# c\n\n---\nkind: Deployment\n", true, false},
		{"yaml after an indented comment", "  # generated\r\napiVersion: v1\r\n", true, false},
		{"yaml key with value", "model: x\n", true, false},
		{"indented first key", "  key: v\n", false, false},
		{"toml table", "\n# scenario\n[[Tests]]\nid = 1\n", false, true},
		{"toml key", "  name = \"x\"\r\n", false, true},
		{"toml dotted table", "[a.b]\n", false, true},
		{"csv header", "Metric,avg\nx,1\n", false, false},
		{"json", "{\"a\": 1}\n", false, false},
		{"blank", " \t\r\n\n# only comments\n", false, false},
		{"empty", "", false, false},
	} {
		if got := sniffYAML([]byte(tt.head), ""); got != tt.yaml {
			t.Errorf("%s: sniffYAML(%q) = %v; want %v", tt.name, tt.head, got, tt.yaml)
		}
		if got := looksTOML([]byte(tt.head)); got != tt.toml {
			t.Errorf("%s: looksTOML(%q) = %v; want %v", tt.name, tt.head, got, tt.toml)
		}
	}
}

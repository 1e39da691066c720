package cloudai

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
)

// TestParseImage reads every docker_image_url of CloudAI's own configs
// (testdata/conf, NVIDIA/cloudai) and the engines' published image names.
func TestParseImage(t *testing.T) {
	for _, tt := range []struct {
		ref  string
		want Image
	}{
		// CloudAI's configs (testdata/conf).
		{"nvcr.io#nvidia/ai-dynamo/vllm-runtime:1.1.1", Image{Engine: EngineVLLM, DynamoVersion: "1.1.1"}},
		{"nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.1.1", Image{Engine: EngineVLLM, DynamoVersion: "1.1.1"}},
		{"nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.3.1", Image{Engine: EngineVLLM, DynamoVersion: "1.3.1"}},
		{"nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.1.1", Image{Engine: EngineSGLang, DynamoVersion: "1.1.1"}},
		{"nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.3.1", Image{Engine: EngineSGLang, DynamoVersion: "1.3.1"}},
		{"lmsysorg/sglang:dev-cu13", Image{Engine: EngineSGLang}},
		{"nvcr.io/nvidia/k8s/dcgm-exporter:4.5.2-4.8.1-distroless", Image{}},
		{"artifactory.nvidia.com/sw-nbu-swx-storage-devops-docker-local/nixl/dynamo-vllm-nixl-cmx:1.2.0-cuda13-lmcache-389b9cfc-doca-41a1f020-nixl-cd2f6d49-hnogit-vllm0.20.2-build24-x86_64", Image{}},
		// The engines' own images: the tag is the engine's release.
		{"vllm/vllm-openai:v0.10.1", Image{Engine: EngineVLLM, EngineVersion: "0.10.1"}},
		{"docker.io/vllm/vllm-openai:v0.11.0rc1", Image{Engine: EngineVLLM, EngineVersion: "0.11.0rc1"}},
		{"docker://vllm/vllm-openai:v0.10.1.1@sha256:0123abcd", Image{Engine: EngineVLLM, EngineVersion: "0.10.1.1"}},
		{"vllm/vllm-openai:latest", Image{Engine: EngineVLLM}},
		{"vllm/vllm-openai", Image{Engine: EngineVLLM}},
		{"lmsysorg/sglang:v0.5.6-cu129", Image{Engine: EngineSGLang, EngineVersion: "0.5.6"}},
		{"lmsysorg/sglang:v0.4.10.post2-cu126", Image{Engine: EngineSGLang, EngineVersion: "0.4.10.post2"}},
		{"localhost:5000/lmsysorg/sglang:v0.5.6", Image{Engine: EngineSGLang, EngineVersion: "0.5.6"}},
		{"", Image{}},
		{"my/vllm:v0.10.1", Image{}},
	} {
		if got := ParseImage(tt.ref); got != tt.want {
			t.Errorf("ParseImage(%q) = %+v; want %+v", tt.ref, got, tt.want)
		}
	}
}

// TestParseImageCoversConfigs: every image CloudAI's configs in testdata
// name is one of TestParseImage's cases.
func TestParseImageCoversConfigs(t *testing.T) {
	seen := map[string]bool{}
	err := filepath.WalkDir("testdata/conf", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".toml") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var m map[string]any
		if err := toml.Unmarshal(data, &m); err != nil {
			return err
		}
		collectImages(m, seen)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("image_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 7 {
		t.Fatalf("found %d images in testdata/conf; want at least 7", len(seen))
	}
	for ref := range seen {
		if !strings.Contains(string(src), `{"`+ref+`", Image{`) {
			t.Errorf("image %q of testdata/conf has no TestParseImage case", ref)
		}
	}
}

// collectImages gathers the docker_image_url values of a decoded TOML.
func collectImages(v any, seen map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if s, ok := c.(string); ok && normKey(k) == normKey("docker_image_url") {
				seen[s] = true
			}
			collectImages(c, seen)
		}
	case []any:
		for _, c := range x {
			collectImages(c, seen)
		}
	}
}

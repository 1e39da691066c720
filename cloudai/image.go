package cloudai

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/pareto-llm/pareto/trial"
)

// Image is what a container image reference records of the serving
// engine in its repository and tag (ParseImage).
type Image struct {
	// Engine is the serving engine the repository packages ("vllm",
	// "sglang"); empty when the repository is not one pareto knows.
	Engine Engine
	// EngineVersion is the engine's version when the tag is one (the
	// engine's own images); empty otherwise.
	EngineVersion string
	// DynamoVersion is the Dynamo release of a Dynamo runtime image.
	DynamoVersion string
}

// imageVersion matches a tag that is a release: an optional v, dotted
// numbers with an optional pre- or post-release part, and an optional
// build suffix after a dash (-cu129). The first group is the version.
var imageVersion = regexp.MustCompile(`^v?([0-9]+(?:\.[0-9]+)+(?:(?:rc|a|b|\.post|\.dev)[0-9]+)?)(?:-[A-Za-z0-9._-]+)?$`)

// ParseImage reads a container image reference as CloudAI's
// docker_image_url holds it (Docker's registry/repository:tag, or enroot's
// registry#repository:tag; a digest is ignored). Only the images whose
// tags are known to be versions say one: vllm/vllm-openai:<vLLM version>
// (v0.10.1 → vllm 0.10.1), lmsysorg/sglang:<SGLang version>[-build]
// (v0.5.6-cu129 → sglang 0.5.6), and NVIDIA's Dynamo runtimes
// nvidia/ai-dynamo/{vllm,sglang}-runtime:<Dynamo release>, which name the
// engine and Dynamo's release but not the engine's version. A tag that is
// no release (latest, dev-cu13, nightly) gives no version; another
// repository gives nothing: a version inside an arbitrary tag is not
// guessed at.
func ParseImage(ref string) Image {
	ref = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(ref), "docker://"))
	ref, _, _ = strings.Cut(ref, "@") // digest
	if _, rest, ok := strings.Cut(ref, "#"); ok {
		ref = rest // enroot: registry#repository
	} else if first, rest, ok := strings.Cut(ref, "/"); ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		ref = rest
	}
	repo, tag := ref, ""
	if i := strings.LastIndexByte(ref, ':'); i >= 0 {
		repo, tag = ref[:i], ref[i+1:]
	}
	version := ""
	if m := imageVersion.FindStringSubmatch(tag); m != nil {
		version = m[1]
	}
	switch strings.ToLower(repo) {
	case "vllm/vllm-openai":
		return Image{Engine: EngineVLLM, EngineVersion: version}
	case "lmsysorg/sglang":
		return Image{Engine: EngineSGLang, EngineVersion: version}
	case "nvidia/ai-dynamo/vllm-runtime":
		return Image{Engine: EngineVLLM, DynamoVersion: version}
	case "nvidia/ai-dynamo/sglang-runtime":
		return Image{Engine: EngineSGLang, DynamoVersion: version}
	}
	return Image{}
}

// imageLabels adds to labels what the run's container image
// (cmd_args.docker_image_url) records: engine_version and dynamo_version
// (ParseImage), the engine too when the configuration does not name one.
// An image of another engine than the configuration's says nothing of
// this run's engine: it gives no label, and a warning.
func imageLabels(def *TestDefinition, labels map[string]string) (warning string) {
	v, _ := lookup(def.CmdArgs, "docker_image_url")
	ref := stringValue(v)
	img := ParseImage(ref)
	if img.Engine == "" {
		return ""
	}
	switch e := labels[trial.LabelEngine]; {
	case e == "":
		labels[trial.LabelEngine] = string(img.Engine)
	case e != string(img.Engine):
		return fmt.Sprintf("docker_image_url %q is a %s image, but the configuration runs %s: its version is not this run's", ref, img.Engine, e)
	}
	if img.EngineVersion != "" {
		labels[trial.LabelEngineVersion] = img.EngineVersion
	}
	if img.DynamoVersion != "" {
		labels[trial.LabelDynamoVersion] = img.DynamoVersion
	}
	return ""
}

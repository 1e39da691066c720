package ingest

import (
	"slices"

	"github.com/pareto-llm/pareto/cloudai"
	"github.com/pareto-llm/pareto/trial"
)

// serverSettings says where a format records the settings of the server
// it measured: SGLang bench_serving under server_info (the server's own
// args), vLLM bench serve at the top level (the parallel sizes vLLM's
// benchmark suite adds with --metadata tensor_parallel_size=N). sizes are
// the parameters that hold a parallel size (cloudai.ServerSizeKeys under
// the prefix), looked for before anything else is done.
var serverSettings = map[string]*serverRecord{
	string(FormatSGLang): newServerRecord("server_info.", cloudai.EngineSGLang),
	string(FormatVLLM):   newServerRecord("", cloudai.EngineVLLM),
}

type serverRecord struct {
	prefix string
	engine cloudai.Engine
	sizes  []string
	lens   uint64 // bit n is set when a key of sizes is n bytes long (n < 64)
}

func newServerRecord(prefix string, e cloudai.Engine) *serverRecord {
	r := &serverRecord{prefix: prefix, engine: e}
	for _, k := range cloudai.ServerSizeKeys() {
		r.sizes = append(r.sizes, prefix+k)
		if len(prefix+k) < 64 {
			r.lens |= 1 << len(prefix+k)
		}
	}
	return r
}

// records reports whether params hold a parallel size. Params fewer than
// the spellings are each looked for among them, most ruled out by their
// length, instead of hashing every spelling.
func (r *serverRecord) records(params map[string]string) bool {
	if len(params) < len(r.sizes) {
		for k := range params {
			if (len(k) >= 64 || r.lens&(1<<len(k)) != 0) && slices.Contains(r.sizes, k) {
				return true
			}
		}
		return false
	}
	for _, k := range r.sizes {
		if _, ok := params[k]; ok {
			return true
		}
	}
	return false
}

// recordedDeployment is the deployment t's file records of its server:
// the serving GPUs of the parallel sizes it records (cloudai.ServerLayout),
// the GPUs allocated being unknown; nil when the file records none. A
// server that is one role of a disaggregated deployment (SGLang's
// disaggregation_mode prefill or decode), or sizes that are no positive
// integers, give a deployment whose counts are unknown, with why.
func recordedDeployment(t *trial.Trial) *trial.Deployment {
	s := serverSettings[t.Source.Format]
	if s == nil || !s.records(t.Params) {
		return nil
	}
	get := func(k string) (string, bool) {
		v, ok := t.Params[s.prefix+k]
		return v, ok
	}
	name := "the file's server settings"
	if s.prefix != "" {
		name = s.prefix[:len(s.prefix)-1]
	}
	l, ok, err := cloudai.ServerLayout(s.engine, name, get)
	if !ok {
		return nil
	}
	const alloc = "the file records the server's parallel sizes, not the GPUs allocated"
	d := &trial.Deployment{AllocatedGPUsUnknown: alloc}
	switch mode, _ := get("disaggregation_mode"); {
	case err != nil:
		d.ServingGPUsUnknown = "the serving GPUs cannot be counted: " + err.Error()
	case mode != "" && mode != "null":
		d.ServingGPUsUnknown = "the file's " + name + " is the " + mode + " server of a disaggregated deployment: its other roles' GPUs are not recorded"
	default:
		d.Layout = l
		d.ServingGPUs, _ = cloudai.ServingGPUs(l)
	}
	return d
}

package ingest

import "github.com/pareto-llm/pareto/trial"

func readInferencePerf(j *jreader) ([]trial.Trial, error)      { return nil, nil }
func readGuideLLM(j *jreader) ([]trial.Trial, error)           { return nil, nil }
func readVLLMNightly(j *jreader) ([]trial.Trial, error)        { return nil, nil }
func readPerfCSV(data []byte, src *source, f Format) ([]trial.Trial, error) {
	return nil, nil
}

package report

import (
	"fmt"
	"os"

	"github.com/pareto-llm/pareto/internal/position"
)

// ConfigFrom names where a scenario's [reports.pareto] configuration was
// found (Config.From).
type ConfigFrom string

// Where ReadScenarioConfig finds the configuration, in CloudAI's order of
// precedence.
const (
	FromScenario ConfigFrom = "scenario" // the scenario TOML's [reports.pareto]
	FromSystem   ConfigFrom = "system"   // the Slurm system TOML's [reports.pareto]
	FromDefault  ConfigFrom = "default"  // neither: the report's default, disabled
)

// ReadScenarioConfig reads the [reports.pareto] configuration of the
// CloudAI test scenario at scenario as CloudAI's generate_reports
// resolves a scenario report: the scenario's own table when it has one
// (whole: tables are not merged), else the table of the system TOML at
// system when system is not empty and the system is a Slurm system
// (scheduler = "slurm"; CloudAI reads reports from Slurm systems only),
// else the report's default, disabled (Enable false, no plots). A file
// without [[Tests]] is no scenario and is read as ReadConfig reads it.
// The system's table is decoded and checked as a scenario's is, its
// frontier cases against the scenario's test ids, and its errors name the
// system TOML. A non-Slurm system's table is passed over with a note in
// Notes.
func ReadScenarioConfig(scenario, system string) (*Config, error) {
	data, doc, err := readTOML(scenario, "report config")
	if err != nil {
		return nil, err
	}
	tests, isScenario := doc["Tests"]
	if !isScenario || hasPareto(doc) {
		cfg, err := ParseConfig(scenario, data)
		if err == nil && isScenario {
			cfg.From = FromScenario
		}
		return cfg, err
	}
	d := &decoder{file: scenario, ix: position.IndexTOML(data)}
	cfg := &Config{File: scenario, Cases: d.testIDs(tests), From: FromDefault}
	cfg.Title, _ = doc["name"].(string)
	if system == "" {
		return cfg, nil
	}
	sdata, sdoc, err := readTOML(system, "system config")
	if err != nil {
		return nil, err
	}
	if !hasPareto(sdoc) {
		return cfg, nil
	}
	if sched, _ := sdoc["scheduler"].(string); sched != "slurm" {
		cfg.Notes = append(cfg.Notes, fmt.Sprintf("%s: [reports.pareto] passed over: scheduler is %q, and CloudAI reads reports from Slurm systems only", system, sched))
		return cfg, nil
	}
	sd := &decoder{file: system, ix: position.IndexTOML(sdata)}
	cfg.File, cfg.From = system, FromSystem
	sd.pareto(cfg, sdoc["reports"].(map[string]any)["pareto"])
	return sd.result(cfg)
}

// readTOML reads and decodes the TOML file at path; what names the file
// in a read error.
func readTOML(path, what string) ([]byte, map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", what, err)
	}
	doc, err := decodeTOML(path, data)
	return data, doc, err
}

// hasPareto reports whether a decoded TOML document has a reports.pareto
// key.
func hasPareto(doc map[string]any) bool {
	reports, ok := doc["reports"].(map[string]any)
	if !ok {
		return false
	}
	_, ok = reports["pareto"]
	return ok
}

package optuna

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/pareto-llm/pareto/trial"
)

// distribution is Optuna's distribution_json.
type distribution struct {
	Name       string `json:"name"`
	Attributes struct {
		Choices []json.RawMessage `json:"choices"`
	} `json:"attributes"`
}

// paramValue renders a parameter from Optuna's internal float and its
// distribution: the chosen category, an integer, or a float.
func paramValue(v float64, distJSON string) (string, error) {
	var d distribution
	if err := json.Unmarshal([]byte(distJSON), &d); err != nil {
		return "", fmt.Errorf("distribution %q: %w", distJSON, err)
	}
	switch d.Name {
	case "CategoricalDistribution":
		i := int(v)
		if float64(i) != v || i < 0 || i >= len(d.Attributes.Choices) {
			return "", fmt.Errorf("category index %v out of %d choices", v, len(d.Attributes.Choices))
		}
		return choice(d.Attributes.Choices[i]), nil
	case "IntDistribution", "IntUniformDistribution", "IntLogUniformDistribution":
		if math.Abs(v) < 1<<53 {
			return strconv.FormatInt(int64(math.Round(v)), 10), nil
		}
	}
	return trial.FormatFloat(v), nil
}

// choice renders a categorical choice: strings as they are, null as
// "None" (as Optuna prints it), other JSON values as written.
func choice(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if string(raw) == "null" {
		return "None"
	}
	return string(raw)
}

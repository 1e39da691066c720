package shared

import (
	"errors"

	"github.com/pareto-llm/pareto/store"
)

// InStudy sets the study of an IntegrityError in err, if any.
func InStudy(err error, study string) error {
	var ie *store.IntegrityError
	if errors.As(err, &ie) && ie.Study == "" {
		ie.Study = study
	}
	return err
}

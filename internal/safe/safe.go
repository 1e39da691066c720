// Package safe turns a panic in the code that reads or stores one input
// into an error for that input, so that a bug met on one file never ends
// the whole run: the other inputs go on, and the user sees which file
// triggered it.
package safe

import (
	"fmt"
	"os"
	"runtime/debug"
)

// TraceEnv names the environment variable that, set to a non-empty value,
// adds the stack trace to the message of an InternalError (for debugging;
// the message is otherwise one line).
const TraceEnv = "PARETO_PANIC_TRACE"

// InternalError is a panic recovered while doing something to one input.
type InternalError struct {
	// Doing says what was being done: "reading", "storing".
	Doing string
	// Input names the input (a path).
	Input string
	// Value is the value the code panicked with.
	Value any
	// Stack is the stack trace of the panic.
	Stack []byte
}

// Error renders "internal error DOING INPUT: VALUE", with the stack trace
// when TraceEnv is set.
func (e *InternalError) Error() string {
	msg := fmt.Sprintf("internal error %s %s: %v", e.Doing, e.Input, e.Value)
	if os.Getenv(TraceEnv) != "" {
		return msg + "\n" + string(e.Stack)
	}
	return msg + " (a bug in pareto: please report it; " + TraceEnv + "=1 adds the stack trace)"
}

// Recover, deferred directly, turns a panic of the function deferring it
// into an *InternalError stored in *err:
//
//	defer safe.Recover(&err, "reading", path)
func Recover(err *error, doing, input string) {
	if p := recover(); p != nil {
		*err = &InternalError{Doing: doing, Input: input, Value: p, Stack: debug.Stack()}
	}
}

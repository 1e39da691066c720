// Package mcpserver is pareto's Model Context Protocol server: the tools
// ask, tell, gate, archive, front, pick and trials, for an agent that
// drives a tuning loop or reads a study. Each tool takes typed arguments
// (a JSON Schema derived from its Go input type) and answers with the
// typed result pareto's command prints with --format json (the same
// library calls, the same JSON: docs/schema/NAME.schema.json), as the
// structured content of the tool result.
//
// Every tool names its study and, optionally, its store (default
// Options.Store, else $PARETO_STORE, else pareto.db). The reading tools
// (front, pick, trials, archive without revoke) open the store read-only.
// A failure is a tool error (IsError, with a message naming the file or
// the argument at fault, in the tool's argument names), never a protocol
// error; a panic in a tool is recovered into one.
//
// The tools read files and create stores only under the roots
// (Options.Roots, or the client's roots; see Options.Roots), with
// symlinks evaluated: a path, or a symlink inside a directory, that leads
// out of them is ErrOutsideRoots, checked before anything is read. A
// PostgreSQL store other than Options.Store must be in
// Options.AllowStores. FrameTransport, the transport of pareto mcp,
// answers every malformed frame with a JSON-RPC error and goes on.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/docs/schema"
	"github.com/pareto-llm/pareto/field"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/search"
	"github.com/pareto-llm/pareto/source"
	"github.com/pareto-llm/pareto/trial"
)

// Options configure a server.
type Options struct {
	// Store is the store of the tools that name none ("": $PARETO_STORE,
	// else pareto.db).
	Store string
	// Version is the version the server reports.
	Version string
	// Limits bound the result files the tools read (zero: ingest's
	// defaults).
	Limits source.Limits
	// Roots are the directories the tools read files in and create
	// stores in (pareto mcp --root; none: the working directory). When
	// the client lists roots, a tool call reaches the client's roots
	// instead of the working directory, or, with Roots given, the parts
	// of the client's roots within Roots. Store is allowed wherever it is.
	Roots []string
	// AllowStores are the PostgreSQL stores besides Store a tool may name
	// (pareto mcp --allow-store).
	AllowStores []string
}

// New returns a server with pareto's tools.
func New(o Options) (*mcp.Server, error) {
	v := o.Version
	if v == "" {
		v = "devel"
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "pareto", Version: v}, &mcp.ServerOptions{
		Instructions: "pareto judges LLM serving configurations from measurements. Drive a tuning study with ask " +
			"(the next run to measure) and tell (its measurements; the answer is the gate's verdict); judge a " +
			"candidate with gate; read a study with front, pick, trials and archive.",
	})
	dirs := o.Roots
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	roots, err := resolveRoots(dirs)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	t := &tools{opts: o, roots: roots}
	for _, add := range []func(*mcp.Server) error{t.addAsk, t.addTell, t.addGate, t.addArchive, t.addFront, t.addPick, t.addTrials} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Serve runs a server on transport t (a FrameTransport on standard input
// and output for pareto mcp)
// until the client disconnects or ctx is done.
func Serve(ctx context.Context, o Options, t mcp.Transport) error {
	s, err := New(o)
	if err != nil {
		return err
	}
	return s.Run(ctx, t)
}

// tools holds what every tool shares.
type tools struct {
	opts  Options
	roots []string // Options.Roots, resolved
}

// typeSchemas are the schemas of the types that marshal themselves: what
// their JSON is, rather than what their Go fields are.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[decide.Num]():      {Types: []string{"number", "null"}},
	reflect.TypeFor[decide.ExactNum](): {Types: []string{"number", "null"}},
	reflect.TypeFor[search.Value]():    {Types: []string{"number", "string", "boolean"}},
	reflect.TypeFor[trial.Trial]():     {Type: "object", Description: "a trial, as pareto trials exports it (one JSON line)"},
	reflect.TypeFor[trial.Workload]():  {Type: "object"},
	reflect.TypeFor[trial.Dims]():      {Type: "object"},
}

// outputSchema derives the schema of T's JSON.
func outputSchema[T any]() (*jsonschema.Schema, error) {
	return jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: typeSchemas})
}

// published reads docs/schema/NAME.schema.json.
func published(name string) (*jsonschema.Schema, error) {
	b, err := schema.FS.ReadFile(name + ".schema.json")
	if err != nil {
		return nil, err
	}
	s := new(jsonschema.Schema)
	if err := json.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("docs/schema/%s.schema.json: %w", name, err)
	}
	return s, nil
}

// add registers tool t with handler h: its output schema is out (derived
// from Out when nil), its input schema In's with the constraints the
// handler checks, an error is a tool error with a clean message naming
// the tool's arguments, and a panic is recovered into one. The handler's
// context carries the call's scope (the roots and stores it may reach)
// when ts is not nil.
func add[In, Out any](ts *tools, s *mcp.Server, t *mcp.Tool, out *jsonschema.Schema, h func(context.Context, In) (Out, error)) error {
	if out == nil {
		var err error
		if out, err = outputSchema[Out](); err != nil {
			return fmt.Errorf("mcpserver: tool %s: output schema: %w", t.Name, err)
		}
	}
	in, err := jsonschema.For[In](&jsonschema.ForOptions{TypeSchemas: typeSchemas})
	if err != nil {
		return fmt.Errorf("mcpserver: tool %s: input schema: %w", t.Name, err)
	}
	constrain(in)
	t.InputSchema, t.OutputSchema = in, out
	mcp.AddTool(s, t, func(ctx context.Context, req *mcp.CallToolRequest, args In) (_ *mcp.CallToolResult, res Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				var zero Out
				res, err = zero, fmt.Errorf("%s: internal error: %v", t.Name, p)
			}
		}()
		if ts != nil {
			var ss *mcp.ServerSession
			if req != nil {
				ss = req.Session
			}
			sc, err := ts.callScope(ctx, ss)
			if err != nil {
				var zero Out
				return nil, zero, err
			}
			ctx = context.WithValue(ctx, scopeKey{}, sc)
		}
		res, err = h(ctx, args)
		if err != nil {
			var zero Out
			return nil, zero, errors.New(enc.SafeLines(trial.RedactText(noContent(argWording(toolMessage(err), in)))))
		}
		return nil, res, nil
	})
	return nil
}

// argNames are the tools' arguments of the library fields (field.Error,
// and the fields texts name: decide.TextFields) named otherwise; revoke,
// the archive's, is the archive tool's argument, named in the answers of
// other tools (tell's stalled).
var argNames = map[string]string{"value": "values", "slo": "slos", "revoke": "the archive tool's revoke"}

// argName is the tools' argument of a library field.
func argName(f string) string {
	if n, ok := argNames[f]; ok {
		return n
	}
	return f
}

// toolMessage is an error's text, with the library field error it holds,
// if any, phrased in the tools' argument names.
func toolMessage(err error) string {
	msg := err.Error()
	if fe, ok := field.As(err); ok {
		msg = strings.Replace(msg, fe.Error(), fe.Phrase(argName), 1)
	}
	return msg
}

package cli

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// commandSpec is what a subcommand's help says of it and the arguments it
// takes (nil: any).
type commandSpec struct {
	use, short, long, example string
	args                      cobra.PositionalArgs
	// sortFlags lists the flags by name in the help; else they are listed
	// in the order they are added.
	sortFlags bool
}

// newCommand makes the command spec describes, running run with the
// command's context and arguments, and returns it with its flag set.
func newCommand(spec commandSpec, run func(ctx context.Context, args []string) error) (*cobra.Command, *pflag.FlagSet) {
	c := &cobra.Command{
		Use:     spec.use,
		Short:   spec.short,
		Long:    spec.long,
		Example: spec.example,
		Args:    spec.args,
		RunE:    func(c *cobra.Command, args []string) error { return run(c.Context(), args) },
	}
	f := c.Flags()
	f.SortFlags = spec.sortFlags
	return c, f
}

// storeOptions are the flags of a command that reads or upgrades a store
// and prints one result: the store flags and --format.
type storeOptions struct {
	store  storeFlags
	format formatFlag
}

// newStoreCommand makes the command spec describes (it takes no
// arguments), running run with the options its flags set, and returns it
// with its flag set and those options: the caller registers the store
// flags and the formats it offers.
func newStoreCommand(spec commandSpec, run func(ctx context.Context, o *storeOptions) error) (*cobra.Command, *pflag.FlagSet, *storeOptions) {
	o := new(storeOptions)
	c, f := newCommand(spec, func(ctx context.Context, _ []string) error { return run(ctx, o) })
	return c, f, o
}

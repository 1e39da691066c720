package sqlite

import (
	"context"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/shared"
)

func init() {
	b := shared.Backend(store.SQLite,
		func(ctx context.Context, path string, version int, seen func(shared.SchemaState)) (store.Store, error) {
			return openSQLite(ctx, path, version, seen)
		},
		func(ctx context.Context, path string) (store.Reader, error) { return openSQLiteReadOnly(ctx, path) })
	migrate := b.Migrate
	// Migrate creates no store: a missing file is store.ErrNoStore.
	b.Migrate = func(ctx context.Context, path string) (from, to int, err error) {
		if err := sqliteExists(path); err != nil {
			return 0, 0, err
		}
		return migrate(ctx, path)
	}
	store.Register(store.SQLite, b)
}

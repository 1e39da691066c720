package postgres

import (
	"context"

	"github.com/pareto-llm/pareto/store"
	"github.com/pareto-llm/pareto/store/internal/shared"
)

func init() {
	store.Register(store.Postgres, shared.Backend(store.Postgres,
		func(ctx context.Context, url string, version int, seen func(shared.SchemaState)) (store.Store, error) {
			return openPostgres(ctx, url, version, seen)
		},
		func(ctx context.Context, url string) (store.Reader, error) { return openPostgresReadOnly(ctx, url) }))
}

// Package postgres is the PostgreSQL store (pgx): importing it registers
// the backend that store.Open, store.OpenReadOnly and store.Migrate use
// for postgres:// and postgresql:// URLs (package store/all imports it and
// store/sqlite). See package store's documentation for what the store
// keeps and how many hosts write to one study at once.
package postgres

// Package sqlite is the SQLite store (pure Go, no cgo): importing it
// registers the backend that store.Open, store.OpenReadOnly and
// store.Migrate use for paths and sqlite: and file: URLs (package
// store/all imports it and store/postgres). See package store's
// documentation for what the store keeps and how it is shared between
// processes.
package sqlite

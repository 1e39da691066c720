package trial

import (
	"errors"
	"strconv"
	"sync"
	"time"
)

// ErrNoStudy is a store's error for a study that does not exist
// (store.ErrNoStudy).
var ErrNoStudy = errors.New("no such study")

// sessionClock keeps NewSession's names unique within a process.
var sessionClock struct {
	sync.Mutex
	last string
	n    int
}

// NewSession names a new measurement session begun at now: its UTC time
// to the millisecond, "s20261201T102643.120Z", with "-2", "-3", … added
// for further sessions begun in the same millisecond by this process. A
// command that records runs (ingest, gate, tell, tune) records each call's
// runs in a new session unless given a name.
func NewSession(now time.Time) string {
	name := "s" + now.UTC().Format("20060102T150405.000Z")
	sessionClock.Lock()
	defer sessionClock.Unlock()
	if name != sessionClock.last {
		sessionClock.last, sessionClock.n = name, 1
		return name
	}
	sessionClock.n++
	return name + "-" + strconv.Itoa(sessionClock.n)
}

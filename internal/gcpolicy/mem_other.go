//go:build !linux

package gcpolicy

// physicalMemory returns 0: the memory limit is left to GOMEMLIMIT.
func physicalMemory() uint64 { return 0 }

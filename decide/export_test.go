package decide

// The simulation helpers of sim_test.go, for the external tests (which
// import store, which imports decide).
var (
	SimMeasure = measure
	SimTruth   = truth
	SimB2i     = b2i
)

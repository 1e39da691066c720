package store

// StudyCheck is what Check found in one study.
type StudyCheck struct {
	// Study names the study.
	Study string
	// Trials, Blocks and Columns count what was verified: the study's
	// trials, its blocks and their value columns.
	Trials, Blocks, Columns int
	// Damage lists every trial and block that does not match what was
	// stored, in the order found; empty when the study is sound.
	Damage []*IntegrityError
}

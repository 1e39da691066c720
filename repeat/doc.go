// Package repeat is the vocabulary of repeated benchmark runs: which trials
// are repeats of one configuration (Config, Key, RepeatKey, Group,
// GroupRepeats), the environment and the workload they were measured in
// (Scope, Workload), how repeats become one value (Aggregation, Stat,
// Summarize, Measure, Point) and how a user names some of them (Selection,
// Select, BaselineAt).
//
// It sits below the packages that use it: the query pipeline (package
// query) groups rows by repeat key, the store keeps repeat keys in its
// sketches (KeyVersion), and the decisions (package decide: gate, pick,
// noise, drift) measure groups of repeats. It decides nothing itself.
//
// # Repeats
//
// Trials of the same configuration under the same workload and environment
// are repeats. A trial's configuration is its parameters minus those that
// describe the run rather than the server (RunParams: dates, run numbers,
// request counts and the workload parameters, which the Workload carries),
// or, with explicit keys, only the parameters named. Its environment Scope
// is engine, engine version, CUDA, driver, GPU model and Dynamo release,
// read from labels (trial.ScopeLabels; the first five are the store's
// environment columns). Config hashes the
// configuration and the scope; Key adds the workload. The keys are stable:
// they are printed (key:HEX), matched and stored, and KeyVersion names
// their derivation.
//
// Every function is deterministic: outputs depend only on the values and
// order of the inputs.
package repeat

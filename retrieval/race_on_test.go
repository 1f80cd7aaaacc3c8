//go:build race

package retrieval

// raceEnabled reports whether the tests run under the race detector, which
// makes the MetaTool measurements several times slower without checking
// anything more: they run no goroutines.
const raceEnabled = true

//go:build !race

package retrieval

// raceEnabled: see race_on_test.go.
const raceEnabled = false

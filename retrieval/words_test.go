package retrieval

import (
	"reflect"
	"testing"
)

func TestSplitCompound(t *testing.T) {
	known := map[string]bool{"theme": true, "park": true, "hipster": true, "word": true, "cloud": true, "dice": true,
		"roller": true, "keyword": true, "explorer": true, "key": true}
	tests := []struct {
		word string
		want []string
	}{
		{"themeparkhipster", []string{"theme", "park", "hipster"}},
		{"wordcloud", []string{"word", "cloud"}},
		{"keywordexplorer", []string{"keyword", "explorer"}}, // fewest pieces, not key+word+explorer
		{"diceroller", []string{"dice", "roller"}},
		{"keyword", nil},    // known words stay whole
		{"parkxyz", nil},    // a piece that is no word
		{"word2cloud", nil}, // not letters only
		{"cloudy", nil},     // "cloud"+"y": pieces under three letters are not words
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			got, ok := splitCompound(tt.word, known)
			if ok != (tt.want != nil) || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("splitCompound(%q) = %v, %v; want %v", tt.word, got, ok, tt.want)
			}
		})
	}
}

func TestWithinEdits(t *testing.T) {
	tests := []struct {
		a, b string
		k    int
		want bool
	}{
		{"weather", "weather", 0, true},
		{"wether", "weather", 1, true},   // deletion
		{"weatherr", "weather", 1, true}, // insertion
		{"waether", "weather", 1, true},  // transposition
		{"wezther", "weather", 1, true},  // substitution
		{"wthr", "weather", 1, false},    // three letters missing
		{"whetaer", "weather", 1, false}, // two edits
		{"waethr", "weather", 2, true},
		{"forecast", "foreast", 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.a+"/"+tt.b, func(t *testing.T) {
			if got := withinEdits(tt.a, tt.b, tt.k); got != tt.want {
				t.Errorf("withinEdits(%q, %q, %d) = %v, want %v", tt.a, tt.b, tt.k, got, tt.want)
			}
		})
	}
}

// TestIndexMeetsSpellings checks the two features end to end: a query in
// separate words finds a tool whose name runs them together, and a
// misspelled query word finds the tool with the right spelling.
func TestIndexMeetsSpellings(t *testing.T) {
	docs := []Doc{
		{Name: "themeparkhipster", Summary: "Find waiting times at theme parks around the world."},
		{Name: "diceroller", Summary: "Roll dice for tabletop role-playing systems."},
		{Name: "forecaster", Summary: "Daily temperature outlook for any city."},
		{Name: "calendar", Summary: "Add meetings to a calendar."},
	}
	tests := []struct {
		query, want string
	}{
		{"which park has the shortest queue", "themeparkhipster"},
		{"roller for my game night", "diceroller"},
		{"what is the temprature in Oslo tomorrow", "forecaster"}, // misspelled
		{"schedule meetngs next week", "calendar"},                // misspelled
	}
	ix := NewIndex(docs, Weights{})
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits := ix.Search(tt.query, 1)
			if len(hits) == 0 || hits[0].Name != tt.want {
				t.Errorf("Search(%q) = %v, want %s first", tt.query, hits, tt.want)
			}
		})
	}
	plain := newIndex(docs, Weights{}, false, false)
	if hits := plain.Search("what is the temprature in Oslo tomorrow", 1); len(hits) != 0 {
		t.Errorf("without misspelling matches the typo matched %v; the test does not test the feature", hits)
	}
}

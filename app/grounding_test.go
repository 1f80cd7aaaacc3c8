package app

import (
	"strings"
	"testing"

	"github.com/reach-agent/reach/iostreams"
)

func TestToolsListShowsToolSearch(t *testing.T) {
	dir := t.TempDir()
	cfg := loadConfig(t, dir, nil)
	io, _, out, _ := iostreams.Test()
	if err := ListTools(io, cfg, dir); err != nil {
		t.Fatal(err)
	}
	var line string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "tool_search ") {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("reach tools list lacks tool_search:\n%s", out)
	}
	if !strings.Contains(line, "only while tool retrieval is active") || !strings.Contains(line, "read") {
		t.Errorf("tool_search line does not say when it exists: %q", line)
	}
	if strings.Count(out.String(), "\ntool_search ") != 1 {
		t.Errorf("tool_search listed more than once:\n%s", out)
	}
}

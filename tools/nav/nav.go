// Package nav assembles the code-navigation tools of the base set: search,
// fuzzy file finding, directory trees and file reading.
package nav

import (
	"github.com/reach-agent/reach/tools"
	"github.com/reach-agent/reach/tools/findfile"
	"github.com/reach-agent/reach/tools/readfile"
	"github.com/reach-agent/reach/tools/search"
	"github.com/reach-agent/reach/tools/tree"
	"github.com/reach-agent/reach/workspace"
)

// Tools returns ripgrep_search, fuzzy_find_project_files,
// list_directory_tree and read_file_tool working inside root, with their
// default options.
func Tools(root *workspace.Root) []tools.Tool {
	return []tools.Tool{
		search.Tool(root, search.Options{}),
		findfile.Tool(root, findfile.Options{}),
		tree.Tool(root, tree.Options{}),
		readfile.Tool(root, readfile.Options{}),
	}
}

package tui

// conversation is the scrollable list of blocks. Only the blocks on screen
// are rendered: the window is found by walking from an anchor (the last
// line shown) towards the top, so a long session costs no more per frame
// than a short one.
type conversation struct {
	blocks []block

	follow bool // stick to the bottom as content arrives
	// The last line on screen when not following: line anchorLine of
	// block anchorBlock, counting the blank line that precedes every block
	// but the first.
	anchorBlock, anchorLine int
}

func newConversation() conversation { return conversation{follow: true} }

func (c *conversation) add(b block) { c.blocks = append(c.blocks, b) }

// blockLines returns block i's lines with its leading separator.
func (c *conversation) height(lk *look, i, width int) int {
	n := len(c.blocks[i].lines(lk, width))
	if i > 0 {
		n++
	}
	return n
}

func (c *conversation) line(lk *look, i, j, width int) string {
	if i > 0 {
		if j == 0 {
			return ""
		}
		j--
	}
	return c.blocks[i].lines(lk, width)[j]
}

// bottom returns the position of the last line shown.
func (c *conversation) bottom(lk *look, width int) (int, int) {
	if c.follow || c.anchorBlock >= len(c.blocks) {
		i := len(c.blocks) - 1
		return i, c.height(lk, i, width) - 1
	}
	h := c.height(lk, c.anchorBlock, width)
	return c.anchorBlock, min(c.anchorLine, h-1)
}

// window returns the h lines that end at the anchor, or the first h lines
// when the anchor is closer than h to the top.
func (c *conversation) window(lk *look, width, h int) []string {
	if len(c.blocks) == 0 || h <= 0 {
		return nil
	}
	out := make([]string, h)
	n := h
	i, j := c.bottom(lk, width)
	for n > 0 && i >= 0 {
		if j < 0 {
			i--
			if i < 0 {
				break
			}
			j = c.height(lk, i, width) - 1
			continue
		}
		n--
		out[n] = c.line(lk, i, j, width)
		j--
	}
	if n == 0 {
		return out
	}
	// Fewer lines above the anchor than the window holds: show the top.
	return c.fromTop(lk, width, h)
}

func (c *conversation) fromTop(lk *look, width, h int) []string {
	out := make([]string, 0, h)
	for i := 0; i < len(c.blocks) && len(out) < h; i++ {
		for j := 0; j < c.height(lk, i, width) && len(out) < h; j++ {
			out = append(out, c.line(lk, i, j, width))
		}
	}
	return out
}

// scroll moves the anchor by n lines (negative: up). Scrolling down past
// the end follows the bottom again; scrolling up stops when the window
// would start above the first line.
func (c *conversation) scroll(lk *look, width, h, n int) {
	if len(c.blocks) == 0 {
		return
	}
	i, j := c.bottom(lk, width)
	for ; n < 0; n++ {
		if !c.linesAbove(lk, width, i, j, h) {
			break
		}
		j--
		if j < 0 {
			i--
			j = c.height(lk, i, width) - 1
		}
	}
	for ; n > 0; n-- {
		j++
		if j >= c.height(lk, i, width) {
			i, j = i+1, 0
			if i >= len(c.blocks) {
				c.follow = true
				return
			}
		}
	}
	c.follow = false
	c.anchorBlock, c.anchorLine = i, j
	if last := len(c.blocks) - 1; i == last && j >= c.height(lk, last, width)-1 {
		c.follow = true
	}
}

// linesAbove reports whether at least h lines, counting (i, j), end at
// (i, j), i.e. whether the anchor may move one line up.
func (c *conversation) linesAbove(lk *look, width, i, j, h int) bool {
	count := j + 1
	for k := i - 1; k >= 0 && count <= h; k-- {
		count += c.height(lk, k, width)
	}
	return count > h
}

// toBottom follows the end again.
func (c *conversation) toBottom() { c.follow = true }

// reveal scrolls so that block i is on screen, its first line at the top
// if it is taller than the window.
func (c *conversation) reveal(lk *look, width, h, i int) {
	if i < 0 || i >= len(c.blocks) {
		return
	}
	bi, bj := c.bottom(lk, width)
	// The window covers the h lines ending at (bi, bj). Block i is visible
	// when its first line is in the window and its last line is too.
	first := c.offset(lk, width, i, 0, bi, bj)
	last := c.offset(lk, width, i, c.height(lk, i, width)-1, bi, bj)
	if first >= 0 && first < h && last >= 0 {
		return
	}
	hi := c.height(lk, i, width)
	c.follow = false
	c.anchorBlock, c.anchorLine = i, min(hi-1, h-1)
	if i == len(c.blocks)-1 && c.anchorLine == hi-1 {
		c.follow = true
	}
}

// offset counts the lines from (i, j) down to (bi, bj); negative when
// (i, j) is below.
func (c *conversation) offset(lk *look, width, i, j, bi, bj int) int {
	if i > bi || (i == bi && j > bj) {
		return -1
	}
	if i == bi {
		return bj - j
	}
	n := c.height(lk, i, width) - j
	for k := i + 1; k < bi; k++ {
		n += c.height(lk, k, width)
	}
	return n + bj
}

// invalidate drops every block's render cache (a new palette or style).
func (c *conversation) invalidate() {
	for _, b := range c.blocks {
		b.invalidate()
	}
}

package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// status is what the status line shows.
type status struct {
	phase                string
	taskIndex, taskCount int
	model                string
	in, out              int
	cost                 float64
	start                time.Time
	end                  time.Time // set when the run is over
	cowboy               bool
	note                 string // a transient hint, e.g. "press ctrl+c again to quit"
}

// render lays the status line out at width; when it does not fit, the
// least useful parts go first.
func (s status) render(width int, now time.Time, pal palette) string {
	type part struct {
		text string
		drop int // higher goes first
	}
	phase := s.phase
	if phase == "" {
		phase = "starting"
	}
	left := []part{{" " + phase, 0}}
	if s.taskCount > 0 {
		left = append(left, part{fmt.Sprintf("task %d/%d", s.taskIndex, s.taskCount), 2})
	}
	if s.model != "" {
		left = append(left, part{s.model, 4})
	}
	elapsed := time.Duration(0)
	if !s.start.IsZero() {
		end := now
		if !s.end.IsZero() {
			end = s.end
		}
		elapsed = end.Sub(s.start).Truncate(time.Second)
	}
	mode := "ask"
	if s.cowboy {
		mode = "cowboy"
	}
	right := []part{
		{fmt.Sprintf("↑%s ↓%s", count(s.in), count(s.out)), 3},
		{fmt.Sprintf("$%.4f", s.cost), 1},
		{clock(elapsed), 5},
		{mode, 2},
		{"? help ", 6},
	}
	if s.note != "" {
		right = append([]part{{s.note, -1}}, right...)
	}
	join := func(ps []part) string {
		texts := make([]string, 0, len(ps))
		for _, p := range ps {
			texts = append(texts, p.text)
		}
		return strings.Join(texts, " · ")
	}
	// Each piece is styled on its own: a style nested in another would end
	// the outer background at its reset.
	styled := func(ps []part) string {
		var b strings.Builder
		for i, p := range ps {
			if i > 0 {
				b.WriteString(pal.status.Render(" · "))
			}
			style := pal.status
			if p.drop <= 0 { // the phase and a hint stand out
				style = pal.statusKey
			}
			b.WriteString(style.Render(p.text))
		}
		return b.String()
	}
	for {
		l, r := join(left), join(right)
		gap := width - ansi.StringWidth(l) - ansi.StringWidth(r)
		if gap >= 1 {
			return styled(left) + pal.status.Render(strings.Repeat(" ", gap)) + styled(right)
		}
		// Drop the part with the highest drop rank.
		bi, bl, best := -1, false, -2
		for i, p := range left {
			if p.drop > best && i > 0 {
				bi, bl, best = i, true, p.drop
			}
		}
		for i, p := range right {
			if p.drop > best {
				bi, bl, best = i, false, p.drop
			}
		}
		if bi < 0 {
			return pal.status.Render(ansi.Truncate(l+" "+r, width, "…"))
		}
		if bl {
			left = append(left[:bi:bi], left[bi+1:]...)
		} else {
			right = append(right[:bi:bi], right[bi+1:]...)
		}
	}
}

// count shortens a token count: 950, 12.3k, 1.2M.
func count(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}

func clock(d time.Duration) string {
	if d >= time.Hour {
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

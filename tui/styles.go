package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// palette is the UI's small set of colours, picked for the terminal's
// background. With colour off every style is plain (bold and faint stay,
// they carry meaning without colour).
type palette struct {
	accent, muted, ok, bad, warn, add, del, hunk, text lipgloss.Style
	panel, selected, promptBox, status, statusKey      lipgloss.Style
	bold                                               lipgloss.Style
}

func newPalette(dark, noColor bool) palette {
	ld := lipgloss.LightDark(dark)
	c := func(light, darkHex string) color.Color {
		if noColor {
			return lipgloss.NoColor{}
		}
		return ld(lipgloss.Color(light), lipgloss.Color(darkHex))
	}
	fg := func(light, darkHex string) lipgloss.Style {
		return lipgloss.NewStyle().Foreground(c(light, darkHex))
	}
	p := palette{
		accent: fg("#5A3FC0", "#B39DFF").Bold(true),
		muted:  fg("#6B6B6B", "#8A8A8A"),
		ok:     fg("#1E7B34", "#6BD88A"),
		bad:    fg("#B3261E", "#FF7B72"),
		warn:   fg("#8A5A00", "#E3B341"),
		add:    fg("#1E7B34", "#6BD88A"),
		del:    fg("#B3261E", "#FF7B72"),
		hunk:   fg("#0B6E99", "#79C0FF"),
		text:   lipgloss.NewStyle(),
		bold:   lipgloss.NewStyle().Bold(true),
	}
	p.panel = lipgloss.NewStyle().BorderStyle(lipgloss.NormalBorder()).BorderLeft(true).
		BorderForeground(c("#C8C8C8", "#444444")).PaddingLeft(1)
	p.selected = p.panel.BorderStyle(lipgloss.ThickBorder()).BorderForeground(c("#5A3FC0", "#B39DFF"))
	p.promptBox = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).
		BorderForeground(c("#8A5A00", "#E3B341")).Padding(0, 1)
	p.status = lipgloss.NewStyle().Foreground(c("#303030", "#D0D0D0")).Background(c("#E4E4E4", "#262626"))
	p.statusKey = p.status.Foreground(c("#5A3FC0", "#B39DFF")).Bold(true)
	if noColor {
		p.status = lipgloss.NewStyle().Reverse(true)
		p.statusKey = p.status.Bold(true)
	}
	return p
}

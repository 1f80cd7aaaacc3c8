package events

// Tee sends every event to each sink in order. Nil sinks are skipped.
func Tee(sinks ...Sink) Sink {
	var live []Sink
	for _, s := range sinks {
		if s != nil {
			live = append(live, s)
		}
	}
	if len(live) == 1 {
		return live[0]
	}
	return tee(live)
}

type tee []Sink

func (t tee) Emit(e Event) {
	for _, s := range t {
		s.Emit(e)
	}
}

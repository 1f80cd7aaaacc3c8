//go:build !unix

package app

// processRunning cannot tell here: sessions keep their stored status.
func processRunning(int) processState { return processUnknown }

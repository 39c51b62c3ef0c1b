package distributed

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// Phaser is a Comm that wants to know what its ranks are doing, for the
// message it gives when a collective times out (the MPI Comm of package
// cluster ends the job then, naming the phase).
type Phaser interface {
	SetPhase(phase string)
}

// SetPhase tells c, if it is a Phaser, that its ranks start phase.
func SetPhase(c Comm, phase string) {
	if p, ok := c.(Phaser); ok {
		p.SetPhase(phase)
	}
}

// errorWords is the room for one rank's error in an agreement: 50 words,
// 399 bytes of message and a flag byte.
const errorWords = 50

// Agree tells every rank whether any rank failed (err non-nil) in phase:
// an allgather of the ranks' errors, each cut to 399 bytes. It returns,
// at every rank alike, nil or an error naming every failed rank and its
// message ("rendering failed: rank 2: …"; ranks that failed alike are
// named together, "rank 0,1,2: …"). Every rank must call it, as any
// collective.
func Agree(c Comm, phase string, err error) error {
	SetPhase(c, phase)
	const n = 8 * errorWords
	send := make([]byte, n)
	if err != nil {
		msg := err.Error()
		if len(msg) > n-1 {
			msg = msg[:n-4] + "..."
		}
		copy(send, msg)
		send[n-1] = 1 // failed, even if the message is empty
	}
	words := make([]uint64, errorWords)
	for i := range words {
		words[i] = binary.LittleEndian.Uint64(send[8*i:])
	}
	all := make([]uint64, errorWords*c.Size())
	if err := c.AllgatherUint64(words, all); err != nil {
		return fmt.Errorf("%s: %w", phase, err)
	}
	recv := make([]byte, 8*len(all))
	for i, w := range all {
		binary.LittleEndian.PutUint64(recv[8*i:], w)
	}
	var failed []string
	for r := 0; r < c.Size(); r++ {
		b := recv[r*n : (r+1)*n]
		if b[n-1] == 0 {
			continue
		}
		msg := strings.TrimRight(string(b[:n-1]), "\x00")
		// Ranks that fail alike (a bad file) are named once.
		if k := len(failed); k > 0 && strings.HasSuffix(failed[k-1], ": "+msg) {
			failed[k-1] = strings.Replace(failed[k-1], ": "+msg, fmt.Sprintf(",%d: %s", r, msg), 1)
			continue
		}
		failed = append(failed, fmt.Sprintf("rank %d: %s", r, msg))
	}
	if len(failed) > 0 {
		return fmt.Errorf("%s failed: %s", phase, strings.Join(failed, "; "))
	}
	return nil
}

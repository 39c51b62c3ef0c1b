package pool

import (
	"encoding/binary"
	"fmt"
)

// The messages between ranks: a kind byte, then unsigned varints, and for
// mTasks the tasks, each its length and bytes.
const (
	mTasks       byte = iota + 1 // flags, energy, count, {len, bytes}...
	mAck                         // a task message arrived
	mRequest                     // an idle rank asks for work
	mNone                        // no work for the asker
	mToken                       // a ring's token: colour (1 black)
	mProbe                       // the tree's wave, going down
	mReport                      // the tree's wave, coming up: colour
	mEnergy                      // energy handed back to rank 0: units
	mEnergyAsk                   // a rank with one unit asks rank 0 for more
	mEnergyGrant                 // rank 0's answer: units
	mStop                        // termination declared
)

// mTasks flags.
const (
	fPinned = 1 << iota // the tasks run on the receiver, never moved on
	fReply              // the answer to the receiver's mRequest
)

func encodeTasks(flags byte, energy uint64, tasks [][]byte) []byte {
	n := 2 + binary.MaxVarintLen64 + binary.MaxVarintLen32
	for _, t := range tasks {
		n += binary.MaxVarintLen32 + len(t)
	}
	b := make([]byte, 0, n)
	b = append(b, mTasks, flags)
	b = binary.AppendUvarint(b, energy)
	b = binary.AppendUvarint(b, uint64(len(tasks)))
	for _, t := range tasks {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
	}
	return b
}

func decodeTasks(b []byte) (flags byte, energy uint64, tasks [][]byte, err error) {
	bad := func(what string) error {
		return fmt.Errorf("pool: a malformed task message (%d bytes): %s", len(b), what)
	}
	if len(b) < 2 {
		return 0, 0, nil, bad("no flags")
	}
	flags, r := b[1], b[2:]
	energy, k := binary.Uvarint(r)
	if k <= 0 {
		return 0, 0, nil, bad("no energy")
	}
	r = r[k:]
	count, k := binary.Uvarint(r)
	if k <= 0 || count > uint64(len(r)) {
		return 0, 0, nil, bad("no task count")
	}
	r = r[k:]
	tasks = make([][]byte, 0, count)
	for i := uint64(0); i < count; i++ {
		l, k := binary.Uvarint(r)
		if k <= 0 || l > uint64(len(r)-k) {
			return 0, 0, nil, bad(fmt.Sprintf("task %d of %d cut short", i, count))
		}
		tasks = append(tasks, r[k:k+int(l)])
		r = r[k+int(l):]
	}
	return flags, energy, tasks, nil
}

// control is a message of kind k with one number (or none).
func control(k byte, v uint64) []byte { return binary.AppendUvarint([]byte{k}, v) }

func controlValue(b []byte) (uint64, error) {
	v, k := binary.Uvarint(b[1:])
	if k <= 0 {
		return 0, fmt.Errorf("pool: a malformed message of kind %d (%d bytes)", b[0], len(b))
	}
	return v, nil
}

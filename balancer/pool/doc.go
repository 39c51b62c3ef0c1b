// Package pool is a message-passing work pool with distributed termination
// detection: the systems of Wilkinson and Allen's chapter 7, "Load
// Balancing and Termination Detection" (Parallel Programming, 2nd ed.),
// whose ideas dpgl's GPU strategies borrow, as processes that talk by
// messages.
//
// A task is an opaque byte record; the user's Func runs one and hands the
// tasks it makes to an Out: Spawn for a free task, which the pool may move
// to any rank, Send for one that must run on a given rank (the rank that
// owns the data it touches). Every rank calls Run with the same Config and
// its starting tasks; Run returns on every rank once rank 0 has declared
// termination: every rank idle and no task in transit.
//
// The ranks talk through a Transport: MPI point-to-point messages
// (NewMPI, build tag mpi) or, in one process, NewLocal's goroutine network,
// which can delay, reorder and hold back messages (Faults) so that tests
// can look for termination declared early.
//
// # Pools (Balance)
//
//	Centralized      rank 0 is the master: a rank with nothing to do asks it
//	                 for one task; the free tasks a rank makes go back to it
//	RandomPolling    receiver-initiated: an idle rank asks a random other rank,
//	                 which answers with half its free tasks or "none"
//	RoundRobin       receiver-initiated, asking ranks in turn (a counter
//	                 modulo the ranks, skipping itself)
//	SenderInitiated  a rank holding more than Threshold free tasks sends half
//	                 of them to the next rank in turn
//	Static           no task moves; AssignRandom gives the start
//
// Each rank runs its own queue first in, first out.
//
// # Termination detection (Detector)
//
//	Acknowledgement  Dijkstra–Scholten, as the text: a rank woken by a task
//	                 takes its sender as parent and acknowledges that task
//	                 only when it is idle with all its own tasks
//	                 acknowledged; every other task is acknowledged at once
//	DualPassRing     Dijkstra's white and black token round 0..n-1; a rank
//	                 that sends a task to a lower rank turns black
//	Tree             the same colours on a binary tree: a probe goes down,
//	                 reports come up when a rank and its children are idle
//	FixedEnergy      units travel with tasks and come back to rank 0
//	SinglePassRing   one pass of a token; Static only, and no task sent to
//	                 another rank: it cannot see a rank woken again
//	QueueEmpty       the centralized pool's rule: the master's queue empty and
//	                 every other rank waiting on a request; Centralized
//	                 only, no task sent between ranks but through the master
//
// # Where this departs from the text
//
//   - Every rank may start with tasks, so each detector starts as if rank 0
//     had sent them: under Acknowledgement every rank starts engaged with
//     parent 0; under FixedEnergy each holds its share of the units.
//   - The centralized master also runs tasks when no rank is waiting for
//     one (with one rank it must), and a rank's tasks for a given rank
//     (Out.Send) go straight there, not through the master: the text's
//     rule for the centralized pool (QueueEmpty) cannot see those, so it
//     refuses them, and the Centralized pool runs under any other
//     detector too. The rule assumes a request cannot overtake the tasks
//     its sender returned before it; here each request carries the count
//     of task messages sent to the master, which waits for them all.
//   - The ring and the tree rest on acknowledgements, as the text says they
//     assume: a rank counts as idle only when every task it sent has been
//     acknowledged, so no task is in transit behind it. The tree blackens a
//     rank on any task it sends (a tree has no "before" to spare it);
//     the ring only on a task to a lower rank, as the text. Rank 0 never
//     turns black: it starts each round idle and wakes only on a task from
//     a rank j > 0, which blackens j.
//   - Fixed energy is an integer (Config.Energy units, 2^62 by default), so
//     it adds up exactly: the text's worry about finite precision does not
//     arise, and energy goes straight back to rank 0, not up the chain it
//     came down. Its other worry does: a rank sends half its units with
//     each task message, and one that holds a single unit cannot divide
//     it. It then keeps the tasks back, asks rank 0 for more (mEnergyAsk),
//     and sends them when units come; rank 0 answers when it holds two or
//     more, after its own waiting tasks. Receiver-initiated answers and
//     sender-initiated hand-outs are skipped instead of kept back. This
//     cannot deadlock with Config.Energy >= 4 units a rank: ranks stuck
//     with one unit hold at most one each, so the rest is with ranks that
//     will go idle and hand it back.
//   - The line and tree structures for moving tasks (the text's load
//     balancing, not its termination tree) are not built: they suit
//     networks where a process reaches only its neighbours, and every MPI
//     rank here reaches every other directly, so a line or a tree would
//     only add hops that the polling pools do without.
//
// # One transport, several runs
//
// When rank 0 declares termination no task, acknowledgement, token or
// energy is in transit (that is what it detects), but a request for work
// and its "none" may be: a later Run on the same transport receives them
// and answers or ignores them as it would its own. Start each Run at a
// barrier, as bench pool does.
//
// # Counts
//
// Stats gives each rank's tasks run, tasks created, task messages and all
// messages (requests, answers, acknowledgements, tokens and energy
// included), the time its last task ended, and on rank 0 the time it
// declared termination.
package pool

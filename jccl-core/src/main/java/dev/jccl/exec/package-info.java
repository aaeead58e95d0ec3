/**
 * Runs the schedules of {@code dev.jccl.algo} over the verbs SPI.
 *
 * <h2>Pieces</h2>
 * <ul>
 *   <li>{@link dev.jccl.exec.Link}: one channel's RC queue pair to one peer, with the FIFO of
 *       registered slots ({@link dev.jccl.exec.FifoDescriptor}) the peer writes chunks into, and the
 *       credits that say which slots are free (the class comment has the protocol and its memory
 *       ordering).</li>
 *   <li>{@link dev.jccl.exec.ChannelProgram}: a channel's schedule compiled once per plan: flat
 *       operation arrays and, per chunk, the waits {@link dev.jccl.algo.ChunkHazards} requires.</li>
 *   <li>{@link dev.jccl.exec.OpRun}: one operation in execution, all channels advanced together by
 *       the caller's progress thread; each channel's state is a {@code ChannelRun}.</li>
 *   <li>{@link dev.jccl.exec.Bindings}: what INPUT, OUTPUT and SCRATCH are for one operation, and
 *       the registered region of each in each protection domain.</li>
 * </ul>
 *
 * <h2>A chunk's journey</h2>
 * A send chunk may be posted when the previous sends to its peer are posted, its hazards are met and
 * the link has a credit: an RDMA_WRITE_WITH_IMM from the caller's registered buffer into the peer's
 * next slot, the immediate carrying the operation's fingerprint ({@link dev.jccl.exec.ImmCodec}). It
 * counts as done when it completes locally. A receive chunk may be applied when the next arrival on
 * its link is there and its hazards are met; its fingerprint and length are checked (a difference
 * throws {@link dev.jccl.exec.ExecFailure.Mismatch}), then it is copied or reduced into its target
 * (local operand first, unless the receive puts the incoming data first) and its slot is owed back
 * to the peer as a credit.
 *
 * <p>Nothing here blocks, starts threads or reads the store: the runtime ({@code dev.jccl.comm})
 * connects links, drives progress and handles failures. Failures surface as
 * {@link dev.jccl.exec.ExecFailure}.
 */
package dev.jccl.exec;

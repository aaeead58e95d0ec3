/**
 * Pure collective schedules and the tuner that picks one. Nothing here does I/O, starts threads,
 * reads a clock or names a transport; the types and reduce operations are unknown too, so
 * schedules count elements and say "reduce into" without knowing how.
 *
 * <h2>Vocabulary</h2>
 * A {@link dev.jccl.algo.RankSchedule} is one rank's program for one channel: an ordered list of
 * {@link dev.jccl.algo.Step}s, each with at most one {@link dev.jccl.algo.Send}, one
 * {@link dev.jccl.algo.LocalCopy} and one {@link dev.jccl.algo.Recv}, over the symbolic buffers
 * INPUT, OUTPUT and SCRATCH ({@link dev.jccl.algo.BufferId}). A ring allreduce, for example, is n-1
 * reduce-scatter steps (send one block to the next rank, receive another from the previous one and
 * reduce it into OUTPUT) followed by n-1 allgather steps (the same walk, copying instead).
 * {@link dev.jccl.algo.Schedules} builds them; {@link dev.jccl.algo.Tuner} decides which.
 *
 * <h2>What an executor must respect</h2>
 * The executor cuts every operation into chunks of {@code chunkElems} elements counted from the
 * start of its span (the last chunk may be short) and runs chunks, not whole steps, so chunk c of a
 * later step can go while chunk c+1 of an earlier one is still in flight. It may run a chunk of an
 * operation as soon as all of the following hold, and must not run it earlier:
 * <ol>
 *   <li><b>Chunks of one operation complete in order.</b> A send's chunks are posted and complete in
 *       order; a receive's chunks are applied in order.</li>
 *   <li><b>Messages between two ranks are FIFO per channel.</b> The i-th chunk this rank sends to peer
 *       P, counting over all its sends to P in program order, is the i-th chunk P receives from this
 *       rank in P's program order. Both sides cut a transfer into the same chunks because a send and
 *       its receive have the same count (simulated tests check this for every schedule).</li>
 *   <li><b>Data hazards on overlapping memory, in program order</b> (steps in order; within a step:
 *       send, copy, receive). An operation reads its send span, its copy source or its reduce operand,
 *       and writes its copy target or receive span. A chunk may run only after every earlier operation
 *       that conflicts with it has done the chunks that overlap it:
 *       <ul>
 *         <li>read after write: a send (or copy, or reduce operand) of a range waits for every earlier
 *             receive or copy into an overlapping range to have been applied;</li>
 *         <li>write after read: a receive or copy into a range waits for every earlier send reading
 *             an overlapping range to have <i>completed locally</i> (the transport has read the data),
 *             and for earlier copies and reduces reading it;</li>
 *         <li>write after write: a receive or copy into a range waits for earlier writes to it, so
 *             that reductions accumulate in program order.</li>
 *       </ul>
 *       Overlap is decided on memory, not on names: in place, INPUT and OUTPUT are one array
 *       ({@link dev.jccl.algo.Placement}). {@link dev.jccl.algo.ChunkHazards} computes these waits;
 *       an executor should use it rather than re-derive them.</li>
 *   <li><b>Credits.</b> A chunk is written into one of the receiver's slots for this (peer, channel)
 *       only when a slot is free; applying a chunk frees its slot. Nothing else is ordered: operations
 *       that do not conflict run in any order, which is what lets chunks pipeline across steps.</li>
 * </ol>
 * Schedules never contain an operation of zero elements. The result is the same on every rank, bit
 * for bit: each output element is reduced in one fixed order on one rank and then copied, or, in
 * recursive doubling, reduced by every rank along the same expression tree, the two partners of
 * each exchange putting the lower virtual rank's partial first ({@link dev.jccl.algo.Recv#incomingFirst()}).
 * Executors must apply a reduction's operands in the order the receive gives.
 *
 * <h2>Tuning</h2>
 * {@link dev.jccl.algo.Tuner#plan} prices every algorithm of a collective with an α-β-γ model
 * ({@link dev.jccl.algo.CostParams}: latency, link and per-stream bandwidth of shared memory and of the
 * network, reduction speed) over channel counts and chunk sizes, and returns a
 * {@link dev.jccl.algo.Plan} with every candidate's prediction and a one-line reason for the log.
 * The caller reads {@code JCCL_ALGO}, {@code JCCL_NCHANNELS}, {@code JCCL_CHUNKSIZE} and
 * {@code JCCL_BUFFSIZE} and passes them as {@link dev.jccl.algo.TunerOverrides}; the result depends
 * on its arguments only, so plans can be cached per (collective, size).
 *
 * <h2>Channels</h2>
 * A collective on {@code nch} channels is {@code nch} independent schedules over disjoint slices
 * ({@link dev.jccl.algo.Channels}); spans carry offsets into the whole INPUT and OUTPUT, and each
 * channel has its own SCRATCH.
 */
package dev.jccl.algo;

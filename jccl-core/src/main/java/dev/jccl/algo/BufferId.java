package dev.jccl.algo;

/**
 * The buffers a schedule names. A schedule never holds memory: the executor binds these names to
 * the caller's segments (and to a scratch segment it allocates per channel).
 *
 * <ul>
 *   <li>{@link #INPUT}: the caller's send buffer. A schedule only ever reads it.</li>
 *   <li>{@link #OUTPUT}: the caller's receive buffer. With an in-place call it is the same memory as
 *       INPUT, or overlaps it (see {@link Placement}); every schedule is correct in both cases.</li>
 *   <li>{@link #SCRATCH}: private to one channel of one rank, {@link RankSchedule#scratchElems()}
 *       elements, contents undefined at the start.</li>
 * </ul>
 */
public enum BufferId { INPUT, OUTPUT, SCRATCH }

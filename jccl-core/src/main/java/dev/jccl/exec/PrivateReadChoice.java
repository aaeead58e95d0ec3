package dev.jccl.exec;

import java.util.Arrays;

/**
 * Decides, per prepared run, whether its chunks from private send buffers go as cross-memory reads
 * ({@link DirectReads#PRIVATE}: the peer's kernel copies them out of this process) or are copied into
 * the peer's slot, by timing both on the run's own calls.
 *
 * <p><b>Why measure.</b> Which is faster depends on how the two processes' cores share their caches,
 * which the processes cannot see. A kernel copy moves hot data at about a third of memcpy's speed here,
 * but it makes each byte cross between the cores once instead of twice. On a 2-core VM, 2 ranks, the
 * same 1 MiB allreduce took 124-144 µs read against 190-213 µs copied in one placement of the virtual
 * cores, and 117-128 µs read against 66-72 µs copied in another, minutes apart.
 *
 * <p><b>How.</b> After {@link #WARM} calls, a trial alternates the two ways for {@link #SAMPLES} calls
 * each; the way with the lower median keeps the next {@link #EXPLOIT} calls, then a new trial starts,
 * so a change of placement is followed. The schedule counts calls only, so every rank of a run tries the
 * same way on the same call and measures the pair's joint choice, not a mix. Results do not depend on
 * it: the receiver applies the same kernel, in the same operand order, to the same bytes either way.
 *
 * <p><b>What is timed</b> is the operation from its start to its end on this rank. That includes
 * waiting for a late peer, which alternating the ways spreads over both alike. The time spent moving
 * data alone was tried first and misled: a read makes the sender wait for the peer's credit, which it
 * does not count, so at 4-16 MiB it chose reading where reading took 1.3-1.8x as long.
 */
final class PrivateReadChoice {
    /** Calls timed for each way in a trial. */
    static final int SAMPLES = 8;
    /** The first calls of a run, not timed: compiling and first touches. */
    static final int WARM = 4;
    /** Calls that keep a trial's winner before the next trial (about 3% of calls spent trying). */
    static final int EXPLOIT = 512;

    private final long[][] samples = new long[2][SAMPLES];
    private final long[] sorted = new long[SAMPLES]; // so a trial's verdict allocates nothing
    private long calls;
    private int inTrial = -1; // calls of the current trial so far; -1: not in a trial
    private boolean chosen = true;
    private boolean current;

    /** Whether this call reads private buffers in place. */
    boolean begin() {
        long c = calls++;
        if (c < WARM) {
            current = chosen;
        } else {
            long sinceWarm = c - WARM;
            long cycle = 2L * SAMPLES + EXPLOIT;
            long pos = sinceWarm % cycle;
            if (pos < 2L * SAMPLES) {
                inTrial = (int) pos;
                current = pos % 2 == 0;
            } else {
                inTrial = -1;
                current = chosen;
            }
        }
        return current;
    }

    /** The call begun last has finished, {@code ns} after it started: in a trial, that counts. */
    void end(long ns) {
        if (inTrial < 0) return;
        samples[current ? 1 : 0][inTrial / 2] = ns;
        if (inTrial == 2 * SAMPLES - 1) {
            chosen = median(samples[1]) <= median(samples[0]);
            inTrial = -1;
        }
    }

    /** The way the last trial chose (true: read in place). */
    boolean chosen() {
        return chosen;
    }

    private long median(long[] values) {
        System.arraycopy(values, 0, sorted, 0, SAMPLES);
        Arrays.sort(sorted);
        return sorted[SAMPLES / 2];
    }
}

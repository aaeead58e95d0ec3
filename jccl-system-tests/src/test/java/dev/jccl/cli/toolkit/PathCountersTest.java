package dev.jccl.cli.toolkit;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import dev.jccl.trace.DataPathCounters;
import dev.jccl.trace.DataPathCounters.Counter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data-path counters that {@code jccl path --measure} reports, on one ring allreduce of two
 * ranks (threads of this JVM, so the process-wide counters hold both): what each copy should be,
 * and that a heap array differs from a native segment by exactly its staging copies.
 */
@Tag("multiprocess")
class PathCountersTest {
    static final int N = 2;
    static final int COUNT = 1 << 20; // 4 MiB of floats
    static final long BYTES = 4L * COUNT;

    /**
     * Bytes of control traffic (barriers, credits) that may fall on either side of a snapshot, and
     * chunks or tcp frames of it: a few small ones, against megabytes of data.
     */
    static final long CONTROL_BYTES = 4096;
    static final long CONTROL_FRAMES = 8;
    /**
     * tcp frames also count acknowledgements, which ride on a data frame when one leaves in time and
     * travel alone otherwise: how many travel alone depends on timing, not on the source memory. At
     * least this much room; on a loaded host more (see {@link #tcpFrameRoom}).
     */
    static final long TCP_CONTROL_FRAMES = 24;

    /**
     * How far two runs' tcp frame counts may differ: an ack is cumulative and owed per request, so
     * the acks that travel alone are at most as many as the requests, each of which is at least one
     * frame in either run. 24 alone was too little on a loaded host: a slow heap run sent 62 frames
     * against the native run's 38, all the difference header-only frames (1,536 bytes).
     */
    static long tcpFrameRoom(long a, long b) {
        return Math.max(TCP_CONTROL_FRAMES, Math.min(a, b));
    }

    /**
     * Counters of one call, as rank 0 sees them: it snapshots before the other rank may start (a
     * barrier follows) and after the other rank has finished (a barrier precedes), so both ranks'
     * work is inside, and the other rank waits for the second snapshot before going on.
     */
    private static DataPathCounters.Snapshot once(Communicator comm, Runnable call) {
        comm.barrier().await();
        DataPathCounters.Snapshot before = DataPathCounters.snapshot();
        comm.barrier().await();
        call.run();
        comm.barrier().await();
        DataPathCounters.Snapshot after = DataPathCounters.snapshot();
        comm.barrier().await();
        return after.since(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    @Timeout(120)
    void heapAndNativeDifferByExactlyTheStagingCopy(String transport) {
        // No heartbeats inside the measurement: a tcp heartbeat is a frame of its own. The copying path
        // (JCCL_CMA=0): read by address, private chunks would not be sent at all (DirectReadsTest covers that).
        var knobs = CommRanks.knobs("JCCL_TRANSPORT", transport, "JCCL_ALGO", "ring", "JCCL_HEARTBEAT", "60s", "JCCL_NCHANNELS", "1",
                "JCCL_CMA", "0");
        List<DataPathCounters.Snapshot[]> all = CommRanks.run(N, knobs, comm -> {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment in = arena.allocate(BYTES, 64);
                MemorySegment out = arena.allocate(BYTES, 64);
                float[] hin = new float[COUNT];
                float[] hout = new float[COUNT];
                // Warm: plans compiled, buffers registered, connections up, before anything is counted.
                comm.allReduce(in, out, COUNT, DataType.FLOAT32, ReduceOp.SUM).await();
                comm.allReduce(hin, hout, ReduceOp.SUM).await();
                DataPathCounters.Snapshot heap = once(comm, () -> comm.allReduce(hin, hout, ReduceOp.SUM).await());
                DataPathCounters.Snapshot nat = once(comm, () -> comm.allReduce(in, out, COUNT, DataType.FLOAT32, ReduceOp.SUM).await());
                return new DataPathCounters.Snapshot[] {heap, nat};
            }
        });
        DataPathCounters.Snapshot heap = all.getFirst()[0];
        DataPathCounters.Snapshot nat = all.getFirst()[1];
        String both = "heap " + show(heap) + "\nnative " + show(nat);
        assertEquals(0, nat.get(Counter.STAGED_BYTES), both);
        assertEquals(2 * N * BYTES, heap.get(Counter.STAGED_BYTES), "each rank stages its input in and its output out: " + both);
        assertEquals(nat.get(Counter.REDUCED_BYTES), heap.get(Counter.REDUCED_BYTES), "the reduction must not depend on the source memory: " + both);
        assertEquals(nat.get(Counter.CHUNKS_SENT), heap.get(Counter.CHUNKS_SENT), CONTROL_FRAMES, both);
        for (Counter c : List.of(Counter.SENT_BYTES, Counter.RUNTIME_COPY_BYTES)) {
            assertEquals(nat.get(c), heap.get(c), CONTROL_BYTES, c + " must not depend on the source memory: " + both);
        }
        // Ring allreduce: each rank sends 2(n-1)/n of the buffer, reduces (n-1)/n and copies (n-1)/n.
        assertTrue(Math.abs(nat.get(Counter.SENT_BYTES) - N * 2L * (N - 1) * BYTES / N) <= 64, both);
        assertEquals(N * (N - 1) * BYTES / N, nat.get(Counter.REDUCED_BYTES), both);
        if (transport.equals("shm")) {
            // Bytes a fused receive stored straight into the peer's slot are sent without the provider's copy.
            assertEquals(nat.get(Counter.SENT_BYTES), nat.get(Counter.PROVIDER_COPY_BYTES) + nat.get(Counter.FUSED_BYTES), CONTROL_BYTES,
                    "shm: one copy per byte sent: " + both);
            // How much fuses depends on when the send window opens, so the two runs agree on the sum only.
            assertEquals(heap.get(Counter.PROVIDER_COPY_BYTES) + heap.get(Counter.FUSED_BYTES),
                    nat.get(Counter.PROVIDER_COPY_BYTES) + nat.get(Counter.FUSED_BYTES), CONTROL_BYTES, both);
            assertEquals(0, nat.get(Counter.SOCKET_BYTES_WRITTEN) + nat.get(Counter.SYSCALLS), both);
        } else {
            for (Counter c : List.of(Counter.SOCKET_BYTES_WRITTEN, Counter.SOCKET_BYTES_READ)) {
                assertEquals(nat.get(c), heap.get(c), CONTROL_BYTES, c + " must not depend on the source memory: " + both);
            }
            for (Counter c : List.of(Counter.FRAMES_SENT, Counter.FRAMES_RECEIVED)) {
                assertEquals(nat.get(c), heap.get(c), tcpFrameRoom(nat.get(c), heap.get(c)), c + " must not depend on the source memory: " + both);
            }
            assertTrue(nat.get(Counter.SOCKET_BYTES_WRITTEN) >= nat.get(Counter.SENT_BYTES), "tcp: every byte sent goes through a socket: " + both);
            assertEquals(nat.get(Counter.SOCKET_BYTES_WRITTEN), nat.get(Counter.SOCKET_BYTES_READ), CONTROL_BYTES, "both ends in this JVM: " + both);
            assertTrue(nat.get(Counter.SYSCALLS) > 0 && nat.get(Counter.FRAMES_SENT) >= nat.get(Counter.CHUNKS_SENT), both);
        }
    }

    private static String show(DataPathCounters.Snapshot s) {
        StringBuilder b = new StringBuilder();
        for (Counter c : Counter.values()) b.append(c.name().toLowerCase(java.util.Locale.ROOT)).append('=').append(s.get(c)).append(' ');
        return b.toString();
    }
}

package dev.jccl.comm;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import dev.jccl.trace.DataPathCounters;
import dev.jccl.trace.DataPathCounters.Counter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntPredicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Direct reads (JCCL_DIRECT, buffers from {@code Communicator.allocate}): peers reduce and copy from
 * each other's buffers in place, and must produce the same bits as the copying path, which private
 * buffers take. Every collective over every type at 0, 1, a prime and a many-chunk count, with small
 * chunks and FIFOs so the FIFO wraps and chunks pipeline; inputs are random bits (NaNs, infinities and
 * all), so any change in operand order or a chunk read too early or overwritten too soon shows. The
 * counters say which path ran: data-path counters are process-wide and the ranks are threads here.
 * Private buffers are read by address (JCCL_CMA, process_vm_readv; threads as ranks read their own
 * process, which the kernel treats like any peer of the same user) or copied (JCCL_CMA=0).
 */
@Tag("multiprocess")
class DirectReadsTest {
    private static final long[] COUNTS = {0, 1, 97, 20_011};

    @ParameterizedTest(name = "{0} over {1} ranks")
    @CsvSource({
            "ring, 2", "ring, 3", "tree, 3", "halving_doubling, 4",
            "recursive_doubling, 2", "recursive_doubling, 3", "hierarchical, 4",
    })
    @Timeout(180)
    void directReadsGiveTheBitsOfTheCopyingPath(String algo, int n) {
        Outcome direct = run(n, r -> hierarchical(knobs(algo, "1"), algo, r), r -> true);
        Outcome fallback = run(n, r -> hierarchical(knobs(algo, "1"), algo, r), r -> false);
        Outcome copying = run(n, r -> hierarchical(knobs(algo, "0"), algo, r), r -> false);
        Outcome cross = run(n, r -> hierarchical(knobs(algo, "1", "1"), algo, r), r -> false);
        assertSame(copying, direct);
        assertSame(copying, fallback);
        assertSame(copying, cross);
        assertTrue(cross.delta.get(Counter.DIRECT_READ_BYTES) > 0, "private buffers were read by address");
        assertTrue(direct.delta.get(Counter.DIRECT_READ_BYTES) > 0, "shared buffers were read in place");
        assertEquals(0, fallback.delta.get(Counter.DIRECT_READ_BYTES), "private buffers are copied, never read in place");
        assertEquals(0, fallback.delta.get(Counter.DIRECT_SENT_BYTES));
        assertEquals(0, copying.delta.get(Counter.DIRECT_READ_BYTES) + copying.delta.get(Counter.FUSED_BYTES), "JCCL_DIRECT=0 only copies");
    }

    /**
     * Private buffers over a 3-rank chain (ring broadcast and reduce): the middle rank stores what it
     * receives (reduces) straight into the next rank's slot as it copies (reduces) it, and the
     * results are those of the copying path.
     */
    @Test
    @Timeout(120)
    void privateChainsFuseTheReceiveWithTheNextSend() {
        Outcome fused = chains(knobs("ring", "1"));
        Outcome copying = chains(knobs("ring", "0"));
        assertSame(copying, fused);
        assertEquals(0, fused.delta.get(Counter.DIRECT_READ_BYTES));
        assertTrue(fused.delta.get(Counter.FUSED_BYTES) > 0, "receives stored straight into the next rank's slots");
        assertEquals(0, copying.delta.get(Counter.FUSED_BYTES));
    }

    private static Outcome chains(Map<String, String> knobs) {
        long count = 1 << 18;
        DataPathCounters.Snapshot before = DataPathCounters.snapshot();
        List<List<byte[]>> results = CommRanks.run(3, knobs, comm -> {
            List<byte[]> out = new ArrayList<>();
            try (Arena arena = Arena.ofShared()) {
                MemorySegment in = arena.allocate(4 * count, 64);
                MemorySegment res = arena.allocate(4 * count, 64);
                for (int round = 0; round < 3; round++) {
                    fill(in, 4 * count, comm.rank(), 100 + round);
                    comm.broadcast(in, res, count, DataType.FLOAT32, 0).await();
                    out.add(bytes(res, 4 * count));
                    comm.reduce(in, res, count, DataType.FLOAT32, ReduceOp.SUM, 0).await();
                    if (comm.rank() == 0) out.add(bytes(res, 4 * count));
                }
            }
            comm.barrier().await();
            return out;
        });
        return new Outcome(results, DataPathCounters.snapshot().since(before));
    }

    /** The same chains with private buffers read by address: no fusing (the send goes as a descriptor), the same bits. */
    @Test
    @Timeout(120)
    void privateChainsReadByAddressGiveTheSameBits() {
        Outcome cross = chains(knobs("ring", "1", "1"));
        Outcome copying = chains(knobs("ring", "0"));
        assertSame(copying, cross);
        assertTrue(cross.delta.get(Counter.DIRECT_READ_BYTES) > 0);
    }

    /** A rank with JCCL_CMA=0 neither reads its peers' private memory nor lets them read its own; the other still agrees. */
    @Test
    @Timeout(120)
    void oneRankWithoutCrossMemoryReads() {
        Outcome copying = run(2, r -> knobs("ring", "0"), r -> false);
        Outcome mixed = run(2, r -> knobs("ring", "1", r == 0 ? "1" : "0"), r -> false);
        assertSame(copying, mixed);
        assertEquals(0, mixed.delta.get(Counter.DIRECT_READ_BYTES), "no side reads private memory across a rank that refuses it");
    }

    @Test
    @Timeout(120)
    void jcclDirectZeroCopiesSharedBuffersToo() {
        Outcome direct = run(2, r -> knobs("ring", "1"), r -> true);
        Outcome forced = run(2, r -> knobs("ring", "0"), r -> true);
        assertSame(forced, direct);
        assertEquals(0, forced.delta.get(Counter.DIRECT_READ_BYTES), "JCCL_DIRECT=0 copies");
    }

    @Test
    @Timeout(120)
    void oneRankSharedOneRankPrivate() {
        Outcome copying = run(2, r -> knobs("ring", "0"), r -> false);
        Outcome mixed = run(2, r -> knobs("ring", "1"), r -> r == 0);
        assertSame(copying, mixed);
        assertTrue(mixed.delta.get(Counter.DIRECT_READ_BYTES) > 0, "rank 1 read rank 0's shared buffers in place");
    }

    /** 2-rank ring allreduce out of place from shared buffers: the provider copies descriptors only, no data. */
    @Test
    @Timeout(120)
    void sharedRingAllReduceSavesTheCopiesIntoTheFifo() {
        long count = 1 << 18;
        DataPathCounters.Snapshot before = DataPathCounters.snapshot();
        CommRanks.run(2, knobs("ring", "1"), comm -> {
            MemorySegment in = comm.allocate(4 * count);
            MemorySegment out = comm.allocate(4 * count);
            in.fill((byte) 1);
            comm.allReduce(in, out, count, DataType.FLOAT32, ReduceOp.SUM).await();
            comm.barrier().await();
            return null;
        });
        DataPathCounters.Snapshot d = DataPathCounters.snapshot().since(before);
        long payload = 2 * 4 * count; // both ranks: half reduce-scattered, half all-gathered
        assertEquals(payload, d.get(Counter.DIRECT_READ_BYTES));
        assertTrue(d.get(Counter.PROVIDER_COPY_BYTES) < payload / 100, "provider copied " + d.get(Counter.PROVIDER_COPY_BYTES) + " bytes");
    }

    record Outcome(List<List<byte[]>> results, DataPathCounters.Snapshot delta) {}

    private static void assertSame(Outcome want, Outcome got) {
        for (int r = 0; r < want.results.size(); r++) {
            List<byte[]> w = want.results.get(r);
            List<byte[]> g = got.results.get(r);
            assertEquals(w.size(), g.size());
            for (int c = 0; c < w.size(); c++) assertArrayEquals(w.get(c), g.get(c), "rank " + r + " call " + c);
        }
    }

    /** Private buffers copied (JCCL_CMA=0). */
    private static Map<String, String> knobs(String algo, String direct) {
        return knobs(algo, direct, "0");
    }

    private static Map<String, String> knobs(String algo, String direct, String cma) {
        return CommRanks.knobs("JCCL_TRANSPORT", "shm,tcp", "JCCL_ALGO", algo, "JCCL_DIRECT", direct, "JCCL_CMA", cma,
                "JCCL_CHUNKSIZE", "4K", "JCCL_BUFFSIZE", "64K");
    }

    /** Hierarchical: two hosts of two ranks, shm within (direct) and tcp across (always copied). */
    private static Map<String, String> hierarchical(Map<String, String> knobs, String algo, int rank) {
        if (!algo.equals("hierarchical")) return knobs;
        Map<String, String> k = new HashMap<>(knobs);
        k.put("JCCL_HOST_ID", rank < 2 ? "hostA" : "hostB");
        return k;
    }

    private static Outcome run(int n, java.util.function.IntFunction<Map<String, String>> knobs, IntPredicate shared) {
        DataPathCounters.Snapshot before = DataPathCounters.snapshot();
        List<List<byte[]>> results = CommRanks.run(n, knobs, comm -> calls(comm, shared.test(comm.rank())));
        return new Outcome(results, DataPathCounters.snapshot().since(before));
    }

    /** Every collective, type and count once; the bytes of every result in call order. */
    private static List<byte[]> calls(Communicator comm, boolean shared) {
        int n = comm.size();
        int rank = comm.rank();
        List<byte[]> out = new ArrayList<>();
        try (Arena arena = Arena.ofShared()) {
            Buffers b = new Buffers(comm, shared, arena, 8L * COUNTS[COUNTS.length - 1] * n);
            int salt = 0;
            for (DataType t : DataType.values()) {
                for (long count : COUNTS) {
                    long bytes = t.bytes(count);
                    for (ReduceOp op : t == DataType.FLOAT32 ? List.of(ReduceOp.SUM, ReduceOp.MAX, ReduceOp.AVG) : List.of(ReduceOp.SUM)) {
                        fill(b.in, bytes, rank, ++salt);
                        comm.allReduce(b.in, b.out, count, t, op).await();
                        out.add(bytes(b.out, bytes));
                        comm.allReduce(b.in, count, t, op).await(); // in place
                        out.add(bytes(b.in, bytes));
                    }
                    fill(b.in, bytes * n, rank, ++salt);
                    comm.reduceScatter(b.in, b.out, count, t, ReduceOp.SUM).await();
                    out.add(bytes(b.out, bytes));
                    fill(b.in, bytes, rank, ++salt);
                    comm.allGather(b.in, b.out, count, t).await();
                    out.add(bytes(b.out, bytes * n));
                    fill(b.in, bytes, rank, ++salt);
                    comm.broadcast(b.in, b.out, count, t, (int) (count % n)).await();
                    out.add(bytes(b.out, bytes));
                    comm.reduce(b.in, b.out, count, t, ReduceOp.SUM, n - 1).await();
                    if (rank == n - 1) out.add(bytes(b.out, bytes));
                }
            }
        }
        comm.barrier().await();
        return out;
    }

    /** A call's input and output: from {@code comm.allocate} (shared) or a private arena. */
    private static final class Buffers {
        final MemorySegment in;
        final MemorySegment out;

        Buffers(Communicator comm, boolean shared, Arena arena, long bytes) {
            in = shared ? comm.allocate(bytes) : arena.allocate(bytes, 64);
            out = shared ? comm.allocate(bytes) : arena.allocate(bytes, 64);
        }
    }

    private static void fill(MemorySegment s, long bytes, int rank, int salt) {
        Random random = new Random(rank * 1_000_003L + salt);
        for (long i = 0; i + 8 <= bytes; i += 8) s.set(ValueLayout.JAVA_LONG_UNALIGNED, i, random.nextLong());
        for (long i = bytes & ~7L; i < bytes; i++) s.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
    }

    private static byte[] bytes(MemorySegment s, long bytes) {
        return s.asSlice(0, bytes).toArray(ValueLayout.JAVA_BYTE);
    }
}

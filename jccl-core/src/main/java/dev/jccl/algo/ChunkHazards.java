package dev.jccl.algo;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The data hazards of one rank's schedule at chunk granularity: for each chunk of each operation,
 * which earlier operations must have done how many of their chunks first (rule 3 of the package
 * documentation). Operations are numbered in program order: steps in order, and within a step
 * send, copy, receive. Since an operation completes its chunks in order, a wait is a threshold:
 * "operation x has done at least k chunks". Built once per (schedule, chunk size, placement);
 * immutable and thread-safe.
 */
public final class ChunkHazards {
    public enum OpKind { SEND, COPY, RECV }

    /** An operation: its step, kind, element count and peer (-1 for a copy). */
    public record Op(int step, OpKind kind, long count, int peer) {}

    /** Wait until operation {@code op} has completed at least {@code chunks} chunks. */
    public record Wait(int op, int chunks) {}

    private record Access(int space, long start, long count, boolean write) {}

    private final long chunkElems;
    private final List<Op> ops = new ArrayList<>();
    private final List<Access[]> accesses = new ArrayList<>();
    private final int[][] conflicts;

    private ChunkHazards(RankSchedule schedule, long chunkElems, Placement placement) {
        this.chunkElems = chunkElems;
        List<Step> steps = schedule.steps();
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            if (s.send() != null) {
                add(new Op(i, OpKind.SEND, s.send().from().count(), s.send().peer()), read(placement, s.send().from()));
            }
            if (s.copy() != null) {
                add(new Op(i, OpKind.COPY, s.copy().from().count(), -1),
                        read(placement, s.copy().from()), write(placement, s.copy().into()));
            }
            if (s.recv() != null) {
                Op op = new Op(i, OpKind.RECV, s.recv().count(), s.recv().peer());
                if (s.recv().operand() == null) add(op, write(placement, s.recv().into()));
                else add(op, read(placement, s.recv().operand()), write(placement, s.recv().into()));
            }
        }
        // Which earlier operations conflict with each operation anywhere; chunk thresholds are
        // computed from these on demand. A sweep over each memory space finds the overlapping
        // pairs, so a ring of a thousand ranks (thousands of operations, each touching one block)
        // costs the pairs that overlap, not the square of the operation count.
        conflicts = OverlapSweep.conflicts(accesses.size(), (op, visit) -> {
            for (Access a : accesses.get(op)) visit.access(a.space, a.start, a.count, a.write);
        });
    }

    /** @param chunkElems elements per chunk, at least 1 */
    public static ChunkHazards of(RankSchedule schedule, long chunkElems, Placement placement) {
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(placement, "placement");
        if (chunkElems < 1) throw new IllegalArgumentException("chunkElems " + chunkElems + " must be at least 1");
        return new ChunkHazards(schedule, chunkElems, placement);
    }

    public List<Op> ops() {
        return List.copyOf(ops);
    }

    /** The earlier operations {@code op} may wait on, ascending: every wait of its chunks names one of these. */
    public int[] dependsOn(int op) {
        return conflicts[op].clone();
    }

    public long chunkElems() {
        return chunkElems;
    }

    public int chunkCount(int op) {
        return chunkCount(ops.get(op).count(), chunkElems);
    }

    /** Chunks a transfer of {@code count} elements is cut into. */
    public static int chunkCount(long count, long chunkElems) {
        return Math.toIntExact((count + chunkElems - 1) / chunkElems);
    }

    /** Chunk {@code chunk} of {@code span}: chunks are counted from the span's start. */
    public static Span chunkOf(Span span, int chunk, long chunkElems) {
        long from = chunk * chunkElems;
        return span.sub(from, Math.min(chunkElems, span.count() - from));
    }

    /** What chunk {@code chunk} of operation {@code op} waits for, earliest operation first. */
    public List<Wait> waits(int op, int chunk) {
        long from = chunk * chunkElems;
        long to = Math.min(from + chunkElems, ops.get(op).count());
        if (chunk < 0 || from >= to) throw new IndexOutOfBoundsException("chunk " + chunk + " of op " + op + " " + ops.get(op));
        List<Wait> out = new ArrayList<>();
        for (int x : conflicts[op]) {
            int need = threshold(x, op, from, to);
            if (need > 0) out.add(new Wait(x, need));
        }
        return out;
    }

    /** Chunks of x that must be done before elements [from, to) of y may be touched; 0 if none. */
    private int threshold(int x, int y, long from, long to) {
        int need = 0;
        for (Access a : accesses.get(x)) {
            for (Access b : accesses.get(y)) {
                if (a.space != b.space || !(a.write || b.write)) continue;
                long lo = Math.max(a.start, b.start + from);
                long hi = Math.min(a.start + a.count, b.start + to);
                if (lo < hi) need = Math.max(need, Math.toIntExact((hi - 1 - a.start) / chunkElems) + 1);
            }
        }
        return need;
    }

    private void add(Op op, Access... a) {
        ops.add(op);
        accesses.add(a);
    }

    private static Access read(Placement p, Span s) {
        return new Access(p.space(s.buffer()), p.address(s.buffer(), s.elemOffset()), s.count(), false);
    }

    private static Access write(Placement p, Span s) {
        return new Access(p.space(s.buffer()), p.address(s.buffer(), s.elemOffset()), s.count(), true);
    }
}

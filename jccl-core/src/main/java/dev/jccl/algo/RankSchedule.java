package dev.jccl.algo;

import java.util.List;
import java.util.Objects;

/**
 * One rank's program for one channel of a collective: its steps, and the element counts of the
 * buffers they address (INPUT and OUTPUT whole, SCRATCH per channel). The construction checks that
 * every span fits its buffer, that every peer is another rank and that no operation is empty, so an
 * executor can trust the offsets. The execution contract is in the package documentation.
 */
public record RankSchedule(Collective collective, Algorithm algorithm, int rank, int nranks,
                           long inputElems, long outputElems, long scratchElems, List<Step> steps) {
    public RankSchedule {
        Objects.requireNonNull(collective, "collective");
        Objects.requireNonNull(algorithm, "algorithm");
        if (nranks < 1 || rank < 0 || rank >= nranks) throw new IllegalArgumentException("rank " + rank + " of " + nranks);
        if (inputElems < 0 || outputElems < 0 || scratchElems < 0) {
            throw new IllegalArgumentException("negative buffer size " + inputElems + "/" + outputElems + "/" + scratchElems);
        }
        steps = List.copyOf(steps);
        for (int i = 0; i < steps.size(); i++) checkStep(i, steps.get(i), rank, nranks, inputElems, outputElems, scratchElems);
    }

    public long elems(BufferId buffer) {
        return switch (buffer) {
            case INPUT -> inputElems;
            case OUTPUT -> outputElems;
            case SCRATCH -> scratchElems;
        };
    }

    /** Elements this rank sends in total (what its outgoing links carry). */
    public long sentElems() {
        return steps.stream().filter(s -> s.send() != null).mapToLong(s -> s.send().from().count()).sum();
    }

    /** One line per step, for logs and {@code jccl plan}. */
    public String describe() {
        StringBuilder b = new StringBuilder(collective.apiName() + " " + algorithm.knobName() + " rank " + rank + "/" + nranks
                + " (input " + inputElems + ", output " + outputElems + ", scratch " + scratchElems + " elems)\n");
        for (int i = 0; i < steps.size(); i++) b.append("  ").append(i).append(": ").append(steps.get(i)).append('\n');
        return b.toString();
    }

    private static void checkStep(int i, Step s, int rank, int nranks, long in, long out, long scratch) {
        if (s.send() != null) {
            checkPeer(i, s.send().peer(), rank, nranks);
            checkSpan(i, s.send().from(), in, out, scratch);
        }
        if (s.copy() != null) {
            checkSpan(i, s.copy().from(), in, out, scratch);
            checkSpan(i, s.copy().into(), in, out, scratch);
        }
        if (s.recv() != null) {
            checkPeer(i, s.recv().peer(), rank, nranks);
            checkSpan(i, s.recv().into(), in, out, scratch);
            if (s.recv().operand() != null) checkSpan(i, s.recv().operand(), in, out, scratch);
        }
    }

    private static void checkPeer(int i, int peer, int rank, int nranks) {
        if (peer < 0 || peer >= nranks || peer == rank) {
            throw new IllegalArgumentException("step " + i + " of rank " + rank + ": peer " + peer + " is not another rank of " + nranks);
        }
    }

    private static void checkSpan(int i, Span span, long in, long out, long scratch) {
        long size = switch (span.buffer()) {
            case INPUT -> in;
            case OUTPUT -> out;
            case SCRATCH -> scratch;
        };
        if (span.count() == 0) throw new IllegalArgumentException("step " + i + ": empty operation on " + span);
        if (span.end() > size) throw new IllegalArgumentException("step " + i + ": " + span + " exceeds " + span.buffer() + " of " + size + " elements");
    }
}

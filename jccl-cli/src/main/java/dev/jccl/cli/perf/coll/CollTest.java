package dev.jccl.cli.perf.coll;

import java.util.Locale;

/**
 * The collective tests, named and sized as nccl-tests names and sizes them. {@code size} is the
 * largest buffer of the call in bytes; the bus-bandwidth factor turns algorithm bandwidth into what
 * each link carried, so figures compare across rank counts (busbw = algbw × factor).
 */
public enum CollTest {
    ALLREDUCE, REDUCE_SCATTER, ALL_GATHER, BROADCAST, REDUCE, ALLTOALL;

    /** The collective this test times, as the {@code Communicator} names its call (and {@code Jccl.algorithmsFor} reads it). */
    public String apiName() {
        return switch (this) {
            case ALLREDUCE -> "allReduce";
            case REDUCE_SCATTER -> "reduceScatter";
            case ALL_GATHER -> "allGather";
            case BROADCAST -> "broadcast";
            case REDUCE -> "reduce";
            case ALLTOALL -> "allToAll";
        };
    }

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static CollTest parse(String s) {
        for (CollTest t : values()) if (t.cliName().equals(s.toLowerCase(Locale.ROOT))) return t;
        throw new IllegalArgumentException("unknown collective '" + s + "'; known: "
                + String.join(", ", java.util.Arrays.stream(values()).map(CollTest::cliName).toList()));
    }

    public double busBwFactor(int n) {
        return switch (this) {
            case ALLREDUCE -> 2.0 * (n - 1) / n;
            case REDUCE_SCATTER, ALL_GATHER, ALLTOALL -> (double) (n - 1) / n;
            case BROADCAST, REDUCE -> 1.0;
        };
    }

    /** Whether the test takes a reduce op (and prints it in the redop column). */
    public boolean reduces() {
        return this == ALLREDUCE || this == REDUCE_SCATTER || this == REDUCE;
    }

    /** Whether the test has a root (printed in the root column). */
    public boolean rooted() {
        return this == BROADCAST || this == REDUCE;
    }

    /** Whether the buffer is cut into one block per rank (sizes must then divide by the rank count). */
    public boolean blockPerRank() {
        return this == REDUCE_SCATTER || this == ALL_GATHER || this == ALLTOALL;
    }

    /** Elements per rank's call for a test of {@code bytes} with {@code n} ranks (nccl-tests' count). */
    public long count(long bytes, int typeSize, int n) {
        long elems = bytes / typeSize;
        return switch (this) {
            case ALLREDUCE, BROADCAST, REDUCE -> elems;
            case REDUCE_SCATTER, ALL_GATHER, ALLTOALL -> elems / n;
        };
    }

    /** Input and output element counts of one rank's buffers for per-call count {@code count}. */
    public long inputElems(long count, int n) {
        return switch (this) {
            case ALLREDUCE, BROADCAST, REDUCE, ALL_GATHER -> count;
            case REDUCE_SCATTER, ALLTOALL -> count * n;
        };
    }

    public long outputElems(long count, int n) {
        return switch (this) {
            case ALLREDUCE, BROADCAST, REDUCE, REDUCE_SCATTER -> count;
            case ALL_GATHER, ALLTOALL -> count * n;
        };
    }
}

package dev.jccl.netns;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.Jccl;
import dev.jccl.ReduceOp;
import dev.jccl.bootstrap.TcpStoreClient;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/**
 * One rank of a namespace-cluster scenario, started by {@code jccl launch} on its host. It reports
 * through stdout lines the test parses (the launcher prefixes them with [rank]) and always exits 0
 * once it has reported, so the launcher does not stop the host's other ranks before they report.
 *
 * <ul>
 *   <li>{@code verify COUNT...}: allReduce (SUM, float32 of small integers, so any order of addition
 *       is exact) of every count, and {@code RESULT count=N crc=X ok=B} against the reference;</li>
 *   <li>{@code phases BYTES ITERS SIGNALDIR N}: for each phase k &lt; N, once SIGNALDIR/phase-k appears (the
 *       test shaped the links), ITERS out-of-place allReduces of BYTES, checked against the reference:
 *       {@code BENCH phase=k bytes=B seconds=S busbw=G ok=B} (seconds per allReduce on this rank, GB/s);</li>
 *   <li>{@code close-early RANK}: that rank closes after one allReduce; the others go on with a
 *       second, and report {@code ERROR at=EPOCHMS} (they must fail, naming it);</li>
 *   <li>{@code fault BYTES SIGNALDIR}: allReduces of BYTES until one fails (at most {@link #FAULT_LOOP_NS}),
 *       {@code ARMED} after the first, {@code ERROR at=EPOCHMS msg=...} on the failure; then, when
 *       SIGNALDIR/again appears, a new communicator in this JVM: {@code AGAIN ok=B}.</li>
 * </ul>
 */
public final class NetRank {
    static final long FAULT_LOOP_NS = TimeUnit.SECONDS.toNanos(40);
    private static final long AGAIN_WAIT_NS = TimeUnit.SECONDS.toNanos(30);

    private NetRank() {}

    public static void main(String[] args) throws Exception {
        advertiseThroughRelay();
        try (Communicator comm = Jccl.init()) {
            switch (args[0]) {
                case "verify" -> verify(comm, args);
                case "phases" -> phases(comm, Long.parseLong(args[1]), Integer.parseInt(args[2]), Path.of(args[3]),
                        Integer.parseInt(args[4]));
                case "close-early" -> closeEarly(comm, Integer.parseInt(args[1]));
                case "fault" -> fault(comm, Long.parseLong(args[1]), Path.of(args[2]));
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        } catch (RuntimeException e) {
            say("ERROR at=" + System.currentTimeMillis() + " msg=" + oneLine(e));
        }
        System.out.flush();
        System.exit(0);
    }

    /** Where a test relays tcp data (NetnsCluster.dataProxyCommand): JCCLT_ADVERTISE=ADDR:BASEPORT, set per host. */
    static final String ADVERTISE_ENV = "JCCLT_ADVERTISE";

    /**
     * With {@link #ADVERTISE_ENV} set, this rank's tcp listener binds BASEPORT + LOCAL_RANK and
     * advertises ADDR at that port (JCCL_TCP_ADVERTISE, as a system property before init), so peers
     * dial the relay; local ranks of one host need ports of their own, hence the offset.
     */
    static void advertiseThroughRelay() {
        String base = System.getenv(ADVERTISE_ENV);
        if (base == null || base.isEmpty()) return;
        int colon = base.lastIndexOf(':');
        int port = Integer.parseInt(base.substring(colon + 1)) + Integer.parseInt(System.getenv("LOCAL_RANK"));
        System.setProperty("JCCL_TCP_ADVERTISE", base.substring(0, colon) + ":" + port);
    }

    private static void verify(Communicator comm, String[] args) {
        for (int i = 1; i < args.length; i++) {
            long count = Long.parseLong(args[i]);
            MemorySegment buf = Arena.ofAuto().allocate(Math.max(4, count * 4), 64);
            fill(buf, count, comm.rank());
            comm.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
            boolean ok = true;
            for (long e = 0; e < count && ok; e++) ok = buf.getAtIndex(ValueLayout.JAVA_FLOAT, e) == expected(e, comm.size());
            say("RESULT count=" + count + " crc=" + crc(buf, count) + " ok=" + ok);
        }
    }

    private static void phases(Communicator comm, long bytes, int iters, Path signals, int phases) throws InterruptedException {
        long count = bytes / 4;
        MemorySegment in = Arena.ofAuto().allocate(bytes, 64);
        MemorySegment out = Arena.ofAuto().allocate(bytes, 64);
        fill(in, count, comm.rank());
        comm.allReduce(in, out, count, DataType.FLOAT32, ReduceOp.SUM).await(); // warm-up: every link exists
        for (int k = 0; k < phases; k++) {
            Path go = signals.resolve("phase-" + k);
            long deadline = System.nanoTime() + AGAIN_WAIT_NS;
            while (!Files.exists(go) && System.nanoTime() < deadline) Thread.sleep(20);
            if (!Files.exists(go)) throw new IllegalStateException("no " + go + " within 30 s");
            comm.barrier().await();
            out.fill((byte) 0);
            long t0 = System.nanoTime();
            for (int i = 0; i < iters; i++) comm.allReduce(in, out, count, DataType.FLOAT32, ReduceOp.SUM).await();
            double seconds = (System.nanoTime() - t0) / 1e9 / iters;
            boolean ok = true;
            for (long e = 0; e < count && ok; e++) ok = out.getAtIndex(ValueLayout.JAVA_FLOAT, e) == expected(e, comm.size());
            double busbw = bytes / seconds / 1e9 * 2.0 * (comm.size() - 1) / comm.size();
            say(String.format(Locale.ROOT, "BENCH phase=%d bytes=%d seconds=%.6f busbw=%.3f ok=%b", k, bytes, seconds, busbw, ok));
        }
    }

    private static void closeEarly(Communicator comm, int closer) {
        MemorySegment buf = Arena.ofAuto().allocate(4L << 20, 64);
        comm.allReduce(buf, 1 << 20, DataType.FLOAT32, ReduceOp.SUM).await();
        comm.barrier().await();
        if (comm.rank() == closer) {
            say("CLOSING at=" + System.currentTimeMillis());
            comm.close();
            say("CLOSED at=" + System.currentTimeMillis());
            return;
        }
        comm.allReduce(buf, 1 << 20, DataType.FLOAT32, ReduceOp.SUM).await();
        say("NOFAULT: the second allReduce completed without rank " + closer);
    }

    private static void fault(Communicator comm, long bytes, Path signals) throws Exception {
        long count = bytes / 4;
        MemorySegment buf = Arena.ofAuto().allocate(bytes, 64);
        long end = System.nanoTime() + FAULT_LOOP_NS;
        long done = 0;
        try {
            while (System.nanoTime() < end) {
                comm.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
                if (done++ == 0) say("ARMED");
            }
            say("NOFAULT after " + done + " allReduces");
            return;
        } catch (RuntimeException e) {
            say("ERROR at=" + System.currentTimeMillis() + " done=" + done + " msg=" + oneLine(e));
        }
        comm.abort();
        long deadline = System.nanoTime() + AGAIN_WAIT_NS;
        while (!Files.exists(signals.resolve("again")) && System.nanoTime() < deadline) Thread.sleep(50);
        if (!Files.exists(signals.resolve("again"))) return;
        again(comm.rank(), comm.size());
    }

    /** A second communicator in this JVM, through a new store connection, under a namespace of its own. */
    private static void again(int rank, int size) {
        String token = System.getenv("JCCL_AUTH_TOKEN");
        try (TcpStoreClient store = TcpStoreClient.connect(System.getenv("MASTER_ADDR"), Integer.parseInt(System.getenv("MASTER_PORT")),
                token, TimeUnit.SECONDS.toNanos(20));
             Communicator again = Jccl.init(CommOptions.builder().store(store).rank(rank).size(size).namespace("again")
                     .knob("JCCL_TIMEOUT", "20s").build())) {
            long count = 1 << 16;
            MemorySegment buf = Arena.ofAuto().allocate(count * 4, 64);
            fill(buf, count, rank);
            again.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
            boolean ok = true;
            for (long e = 0; e < count && ok; e++) ok = buf.getAtIndex(ValueLayout.JAVA_FLOAT, e) == expected(e, size);
            say("AGAIN ok=" + ok);
        } catch (RuntimeException e) {
            say("AGAIN ok=false msg=" + oneLine(e));
        }
    }

    static void fill(MemorySegment buf, long count, int rank) {
        for (long e = 0; e < count; e++) buf.setAtIndex(ValueLayout.JAVA_FLOAT, e, value(e, rank));
    }

    static float value(long e, int rank) {
        return (float) ((e * 7 + rank * 13) % 1001);
    }

    static float expected(long e, int size) {
        long sum = 0;
        for (int r = 0; r < size; r++) sum += (long) value(e, r);
        return (float) sum;
    }

    private static String crc(MemorySegment buf, long count) {
        CRC32C crc = new CRC32C();
        crc.update(buf.asSlice(0, count * 4).asByteBuffer());
        return Long.toHexString(crc.getValue());
    }

    private static String oneLine(Throwable e) {
        return String.valueOf(e.getMessage()).replace('\n', ' ');
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}

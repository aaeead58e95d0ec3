package dev.jccl.cli.itest;

import dev.jccl.bootstrap.Rendezvous;
import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.testkit.StoreMesh;
import dev.jccl.trace.Log;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.VerbsProvider;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A rank of {@link PeerDeathTest}, in a JVM of its own. Args: the provider name.
 *
 * <p>All ranks connect a full mesh. Each survivor (every rank but {@link #VICTIM}) posts
 * {@link #RECEIVES} receives and one SEND on its queue pair to the victim, which posts no receive,
 * so the SEND waits (JCCL_RNR_TIMEOUT is long) and stays outstanding; and one receive on its queue
 * pair to the other survivor. Then the victim prints its pid and sleeps until it is killed. Each
 * survivor waits for all its work to the victim to complete, prints every completion and how long
 * after the kill (the time the test published under {@link #KILLED_AT_KEY}) the last one came, checks
 * that its link to the other survivor still carries a SEND, and exits 0. Any deviation prints
 * {@code FAILED: why} and exits 1.
 */
public final class PeerDeathRank {
    static final int VICTIM = 2;
    static final int RECEIVES = 4;
    static final String KILLED_AT_KEY = "itest/peer-death/killed-at-epoch-ns";
    private static final long WATCH_NS = TimeUnit.SECONDS.toNanos(30);

    private PeerDeathRank() {}

    public static void main(String[] args) throws InterruptedException {
        Config config = Config.fromEnvironment();
        Log.configure(config);
        VerbsProvider provider = Providers.require(args[0]);
        try (Rendezvous rv = Rendezvous.fromEnvironment();
             StoreMesh mesh = StoreMesh.connect(rv, provider, config, 8)) {
            int rank = rv.environment().rank();
            int other = rank == 0 ? 1 : 0;
            MemorySegment buf = mesh.pd.allocate(64);
            buf.set(ValueLayout.JAVA_LONG, 16, rank); // what this rank SENDs to the other survivor
            MemoryRegion mr = mesh.pd.register(buf, EnumSet.of(Access.LOCAL_WRITE));
            if (rank != VICTIM) {
                QueuePair toVictim = mesh.qps[VICTIM];
                for (int i = 0; i < RECEIVES; i++) check(toVictim.postRecv(new RecvWr(i, Sge.EMPTY)), "postRecv to the victim");
                check(toVictim.postSend(SendWr.send(RECEIVES, mr.sge(8, 8))), "postSend to the victim");
                check(mesh.qps[other].postRecv(new RecvWr(100, mr.sge(0, 8))), "postRecv to rank " + other);
            }
            rv.barrier(); // all work is posted before the victim says it is ready to die
            if (rank == VICTIM) {
                System.out.println("pid " + ProcessHandle.current().pid());
                Thread.sleep(60_000);
                System.out.println("FAILED: nobody killed rank " + VICTIM);
                System.exit(3);
            }
            System.out.println("armed");
            long timeoutNs = config.get(Knobs.TIMEOUT_NS);
            reportFlush(rv, mesh.qps[VICTIM], StoreMesh.await(mesh.cqs[VICTIM], RECEIVES + 1, WATCH_NS), timeoutNs);
            checkLink(mesh, mr, other, timeoutNs);
            // Neither survivor closes its link before the other has used it.
            rv.store().set("itest/peer-death/done/" + rank, new byte[0]);
            rv.store().wait(List.of("itest/peer-death/done/0", "itest/peer-death/done/1"), timeoutNs);
            System.out.println("done");
        }
    }

    private static void reportFlush(Rendezvous rv, QueuePair toVictim, List<WorkCompletion> wcs, long timeoutNs) {
        long seenAtNs = epochNanos(Instant.now());
        for (WorkCompletion wc : wcs) System.out.println("completion from rank " + VICTIM + ": " + wc);
        long flushed = wcs.stream().filter(wc -> wc.status() == WcStatus.WR_FLUSH_ERR && !wc.detail().isEmpty()).count();
        long sends = wcs.stream().filter(wc -> wc.opcode() == WcOpcode.SEND).count();
        long killedAtNs = ByteBuffer.wrap(rv.store().get(KILLED_AT_KEY, timeoutNs)).getLong();
        System.out.printf(Locale.ROOT, "%d/%d work requests to rank %d flushed (WR_FLUSH_ERR) %.1f ms after the kill;"
                + " sends among them %d; qp state %s%n", flushed, RECEIVES + 1, VICTIM, (seenAtNs - killedAtNs) / 1e6,
                sends, toVictim.state());
        check(flushed == RECEIVES + 1 && sends == 1, "expected " + RECEIVES + " receives and 1 send flushed, got " + wcs);
    }

    private static void checkLink(StoreMesh mesh, MemoryRegion mr, int other, long timeoutNs) {
        check(mesh.qps[other].postSend(SendWr.send(200, mr.sge(16, 8))), "postSend to rank " + other);
        List<WorkCompletion> wcs = StoreMesh.await(mesh.cqs[other], 2, timeoutNs);
        check(wcs.size() == 2 && wcs.stream().allMatch(WorkCompletion::ok), "link to rank " + other + ": " + wcs);
        long got = mr.segment().get(ValueLayout.JAVA_LONG, 0);
        check(got == other, "rank " + other + " sent " + got);
        System.out.println("link to rank " + other + " still works");
    }

    static long epochNanos(Instant t) {
        return TimeUnit.SECONDS.toNanos(t.getEpochSecond()) + t.getNano();
    }

    private static void check(boolean ok, String what) {
        if (ok) return;
        System.out.println("FAILED: " + what);
        System.exit(1);
    }
}

package dev.jccl.verbs.tcp;

import dev.jccl.config.Config;
import dev.jccl.testkit.Endpoint;
import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.VerbsProvider;
import dev.jccl.verbs.WorkCompletion;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * One side of a test connection: a testkit {@link Endpoint} of the tcp provider on loopback, with
 * one CQ for sends and receives and a queue pair in INIT. Either side may live in another JVM
 * ({@link TcpPeerProcess}).
 */
final class TcpPeer implements AutoCloseable {
    static final String TOKEN = "test-token-7f3a";

    final Endpoint end;
    final DeviceContext context;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final QueuePair qp;

    TcpPeer(Config config, int depth) {
        VerbsProvider provider = Providers.require("tcp");
        end = Endpoint.openWithOneCq("tcp peer", provider, provider.devices(config).getFirst(), config, depth * 4);
        context = end.context();
        pd = end.pd();
        cq = end.sends().queue();
        qp = end.createQp(depth, depth);
        qp.modifyToInit();
    }

    /** Loopback, a shared token, a short RNR timeout and a timeout well under the tests' own. */
    static Config config(int lanes, String... more) {
        Map<String, String> m = new HashMap<>();
        m.put("JCCL_AUTH_TOKEN", TOKEN);
        m.put("JCCL_QPS_PER_CONNECTION", Integer.toString(lanes));
        m.put("JCCL_TIMEOUT", "20s");
        m.put("JCCL_RNR_TIMEOUT", "20ms");
        for (int i = 0; i < more.length; i += 2) m.put(more[i], more[i + 1]);
        return Config.of(m);
    }

    /** {opener, acceptor} of shared sockets (JCCL_TCP_SHARED_SOCKETS=1): the one whose listener address sorts first opens them. */
    static TcpPeer[] byRole(TcpPeer a, TcpPeer b) {
        SocketRole ofA = SocketRole.of(true, a.qp.localInfo().gid(), a.qp.qpn(), b.qp.localInfo().gid(), b.qp.qpn());
        return ofA == SocketRole.OPENER ? new TcpPeer[] {a, b} : new TcpPeer[] {b, a};
    }

    static void connect(TcpPeer a, TcpPeer b) {
        a.qp.modifyToRtr(b.qp.localInfo());
        b.qp.modifyToRtr(a.qp.localInfo());
        a.qp.modifyToRts();
        b.qp.modifyToRts();
    }

    /**
     * A second, connected pair of queue pairs on the peers' queues, created with
     * {@code QpInitAttr.sendBufferCompletion} (as the collectives' links are): {a's, b's}.
     */
    static QueuePair[] bufferCompletionPair(TcpPeer a, TcpPeer b, int depth) {
        QueuePair qa = a.pd.createQp(new QpInitAttr(a.cq, a.cq, depth, depth, true));
        QueuePair qb = b.pd.createQp(new QpInitAttr(b.cq, b.cq, depth, depth, true));
        qa.modifyToInit();
        qb.modifyToInit();
        qa.modifyToRtr(qb.localInfo());
        qb.modifyToRtr(qa.localInfo());
        qa.modifyToRts();
        qb.modifyToRts();
        return new QueuePair[] {qa, qb};
    }

    /** A zeroed region with every right. */
    MemoryRegion region(long bytes) {
        return region(bytes, EnumSet.allOf(Access.class));
    }

    MemoryRegion region(long bytes, EnumSet<Access> access) {
        MemorySegment seg = pd.allocate(bytes);
        seg.fill((byte) 0);
        return pd.register(seg, access);
    }

    /** Waits for exactly one more completion; fails the test when none comes within 15 s. */
    WorkCompletion awaitOne() {
        WorkCompletion[] out = WorkCompletion.array(1);
        int n = cq.await(out, TimeUnit.SECONDS.toNanos(15));
        if (n != 1) fail("no completion within 15 s on qp " + qp.qpn() + " (" + qp.describe() + ", state " + qp.state() + ")");
        return out[0];
    }

    /** Asserts that nothing else completes within {@code ms}. */
    void assertNoCompletion(long ms) {
        WorkCompletion[] out = WorkCompletion.array(1);
        int n = cq.await(out, TimeUnit.MILLISECONDS.toNanos(ms));
        if (n != 0) fail("unexpected completion " + out[0]);
    }

    void awaitState(QpState want) {
        Deadline deadline = Deadline.after(TimeUnit.SECONDS.toNanos(10));
        BackoffIdleStrategy idle = WaitPolicy.stateWait();
        while (qp.state() != want && !deadline.expired()) idle.idle();
        assertEquals(want, qp.state(), "qp " + qp.qpn() + " state");
    }

    /** Fast position-dependent fill, so a misplaced chunk shows up as a mismatch. */
    static void fill(MemorySegment seg, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long n = seg.byteSize();
        long i = 0;
        for (; i + 8 <= n; i += 8) seg.set(ValueLayout.JAVA_LONG_UNALIGNED, i, random.nextLong());
        for (; i < n; i++) seg.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
    }

    static boolean allZero(MemorySegment seg) {
        long n = seg.byteSize();
        for (long i = 0; i < n; i++) if (seg.get(ValueLayout.JAVA_BYTE, i) != 0) return false;
        return true;
    }

    @Override
    public void close() {
        end.close();
    }
}

package dev.jccl.comm;

import dev.jccl.ArrayCall;
import dev.jccl.CommAbortedException;
import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.JcclException;
import dev.jccl.ReduceOp;
import dev.jccl.Work;
import dev.jccl.bootstrap.PeerExchange;
import dev.jccl.bootstrap.Store;
import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.trace.TraceFile;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The public API over a {@link CommEngine}: checks each call ({@link Calls}), numbers it, records it
 * in the flight recorder and queues it. Issuing never blocks on other ranks.
 */
final class CommunicatorImpl implements Communicator {
    private final Membership who;
    private final CommEngine engine;
    private final ProgressAgent agent;
    private final Calls calls;
    private final InlineCalls inline;
    private final ArrayStaging arrays;
    private final Config config;
    private final Store rootStore;
    private final String namespace;
    private final PeerExchange exchange;
    private final CloseHandshake closing;
    private final AutoCloseable owned;
    private final long timeoutNs;
    private final Object issueLock = new Object();
    private final long[] sendSeq;
    private final long[] recvSeq;
    private long opSeq;
    private long collectiveSeq;
    private Operation lastCollective; // guarded by issueLock: for the ranks still working when this one closes
    private int splits;
    private WorkImpl lastIssued;
    private volatile boolean closed;

    CommunicatorImpl(Membership who, CommEngine engine, Scratch scratch, Config config, Store rootStore, String namespace,
                     PeerExchange exchange, CloseHandshake closing, AutoCloseable owned, long timeoutNs) {
        this.who = who;
        this.engine = engine;
        this.config = config;
        this.rootStore = rootStore;
        this.namespace = namespace;
        this.exchange = exchange;
        this.closing = closing;
        this.owned = owned;
        this.timeoutNs = timeoutNs;
        this.agent = new ProgressAgent(engine);
        this.calls = new Calls(who.rank(), who.size(), agent.thread(), scratch);
        this.inline = new InlineCalls(engine, config.get(Knobs.INLINE));
        this.arrays = new ArrayStaging(this, scratch, who.size());
        this.sendSeq = new long[who.size()];
        this.recvSeq = new long[who.size()];
    }

    Calls calls() { return calls; }

    /** The thread that drives progress while no caller awaits (for tests that watch it). */
    Thread progressThread() { return agent.thread(); }

    /** The provider that carries traffic to {@code peer} (for diagnostics and tests). */
    String providerFor(int peer) { return engine.providerFor(peer); }

    /** Where this communicator's runtime records (JCCL_TRACE), or {@link dev.jccl.trace.Timeline#DISABLED}. */
    dev.jccl.trace.Timeline timeline() { return engine.timeline(); }

    /** {allreduces its callers finished inline, ones they handed on unfinished} (for tests; see {@link InlineCalls}). */
    long[] inlineCounts() {
        synchronized (issueLock) {
            return inline.counts();
        }
    }

    /** This rank's flight recorder (for diagnostics and tests). */
    FlightRecorder recorder() { return engine.recorder(); }

    @Override
    public MemorySegment allocate(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("cannot allocate " + bytes + " bytes");
        if (closed) throw new CommAbortedException("communicator is closed", null);
        return engine.allocate(bytes);
    }

    @Override public int rank() { return who.rank(); }
    @Override public int size() { return who.size(); }
    @Override public int localRank() { return who.localRank(); }
    @Override public int localSize() { return who.localSize(); }

    @Override
    public Work allReduce(MemorySegment in, MemorySegment out, long count, DataType type, ReduceOp op) {
        long bytes = calls.checkAllReduce(in, out, count, type, op);
        boolean inPlace = in.address() == out.address();
        synchronized (issueLock) {
            checkUsable();
            if (inline.enter(count, type, inPlace)) { // a repeated small call while idle: its caller runs it (InlineCalls)
                long seq = ++opSeq;
                Work w = inline.run(seq, collectiveSeq++, count, type, op, inline.inView(in, bytes), in, inline.outView(out, bytes), out, inPlace);
                lastIssued = w instanceof WorkImpl handedOn ? handedOn : null; // nothing earlier is unfinished
                return w;
            }
        }
        return issue(OpKind.ALL_REDUCE, count, type, op, 0, calls.allReduce(in, out, count, type, op), null);
    }

    @Override
    public Work reduceScatter(MemorySegment in, MemorySegment out, long recvCount, DataType type, ReduceOp op) {
        return issue(OpKind.REDUCE_SCATTER, recvCount, type, op, 0, calls.reduceScatter(in, out, recvCount, type, op), null);
    }

    @Override
    public Work allGather(MemorySegment in, MemorySegment out, long sendCount, DataType type) {
        return issue(OpKind.ALL_GATHER, sendCount, type, null, 0, calls.allGather(in, out, sendCount, type), null);
    }

    @Override
    public Work broadcast(MemorySegment in, MemorySegment out, long count, DataType type, int root) {
        return issue(OpKind.BROADCAST, count, type, null, root, calls.broadcast(in, out, count, type, root), null);
    }

    @Override
    public Work reduce(MemorySegment in, MemorySegment out, long count, DataType type, ReduceOp op, int root) {
        return issue(OpKind.REDUCE, count, type, op, root, calls.reduce(in, out, count, type, op, root), null);
    }

    @Override
    public Work allToAll(MemorySegment in, MemorySegment out, long count, DataType type) {
        return issue(OpKind.ALL_TO_ALL, count, type, null, 0, calls.allToAll(in, out, count, type), null);
    }

    @Override
    public Work send(MemorySegment buf, long count, DataType type, int peer) {
        return issue(OpKind.SEND, count, type, null, peer, calls.send(buf, count, type, peer), null);
    }

    @Override
    public Work recv(MemorySegment buf, long count, DataType type, int peer) {
        return issue(OpKind.RECV, count, type, null, peer, calls.recv(buf, count, type, peer), null);
    }

    @Override
    public Work barrier() {
        return issue(OpKind.BARRIER, 0, null, null, 0, Operation.bound(null, null, null, null, false), null);
    }

    @Override
    public Work arrays(ArrayCall call) {
        return arrays.run(call);
    }

    /** Queues a checked call; {@code staged} adds the hooks of a call on Java arrays (may be null). */
    Work issue(OpKind kind, long count, DataType type, ReduceOp op, int rootOrPeer, Operation o, ArrayStaging.Hooks staged) {
        synchronized (issueLock) {
            checkUsable();
            long seq = ++opSeq;
            long match = switch (kind) {
                case SEND -> sendSeq[rootOrPeer]++;
                case RECV -> recvSeq[rootOrPeer]++;
                default -> collectiveSeq++;
            };
            o.numbered(seq, kind, match, count, type, op, rootOrPeer); // its descriptor is made only if asked for
            if (!kind.pointToPoint()) {
                lastCollective = o; // no text here: issuing allocates nothing of its own
                inline.queuedCollective();
            }
            WorkImpl work = new WorkImpl(engine, seq);
            o.issued(engine.recorder().add(o), work);
            if (staged != null) {
                o.beforeStart = staged.beforeStart();
                o.afterSuccess = staged.afterSuccess();
                o.afterEnd = staged.afterEnd();
            }
            lastIssued = work;
            engine.submit(o);
            return work;
        }
    }

    /** A failed communicator says why it failed, even once closed or aborted: that names the rank at fault. */
    private void checkUsable() {
        Failure f = engine.failure();
        if (f != null) throw f.afterwards(who.rank());
        if (closed) throw new CommAbortedException("communicator of rank " + who.rank() + " is closed");
    }

    @Override
    public Communicator split(int color, int key) {
        if (color < 0 && color != SPLIT_NONE) throw new IllegalArgumentException("split: color " + color + " must be >= 0 or SPLIT_NONE");
        int round;
        synchronized (issueLock) {
            checkUsable();
            round = splits++;
        }
        List<byte[]> all = exchange.allGather("split", (color + " " + key).getBytes(StandardCharsets.UTF_8));
        if (color == SPLIT_NONE) return null;
        List<int[]> members = new ArrayList<>(); // {rank, key}
        for (int r = 0; r < all.size(); r++) {
            String[] f = new String(all.get(r), StandardCharsets.UTF_8).split(" ");
            if (Integer.parseInt(f[0]) == color) members.add(new int[] {r, Integer.parseInt(f[1])});
        }
        members.sort(Comparator.<int[]>comparingInt(m -> m[1]).thenComparingInt(m -> m[0]));
        int newRank = -1;
        for (int i = 0; i < members.size(); i++) if (members.get(i)[0] == who.rank()) newRank = i;
        String child = namespace + "/s" + round + "c" + color;
        Log.info(Subsys.INIT, "rank %d: split color %d key %d -> rank %d of %d (%s)", who.rank(), color, key, newRank, members.size(), child);
        return CommFactory.create(rootStore, null, newRank, members.size(), config, child, engine.timeline());
    }

    @Override
    public void abort() {
        synchronized (issueLock) {
            if (closed) return;
            closed = true;
        }
        engine.abort();
        shutdown();
    }

    @Override
    public void close() {
        WorkImpl last;
        long collectives;
        OpDescriptor lastColl;
        synchronized (issueLock) {
            if (closed) return;
            closed = true;
            last = lastIssued;
            collectives = collectiveSeq;
            lastColl = inline.lastDesc() != null ? inline.lastDesc() : lastCollective == null ? null : lastCollective.desc();
        }
        if (engine.failure() == null && last != null) {
            try {
                last.await();
            } catch (JcclException e) {
                // already reported to whoever awaits it; close frees everything regardless
            }
        }
        if (engine.failure() == null) {
            engine.drain();
            closing.announce(collectives, lastColl == null ? "none"
                    : lastColl.describe() + " (seq " + lastColl.opSeq() + " on rank " + who.rank() + ")");
            closing.await(engine::nothingToWaitFor);
        }
        shutdown();
        TraceFile.writeAtClose(config.get(Knobs.TRACE), engine.timeline()); // after shutdown: nothing records any more
    }

    private void shutdown() {
        agent.stop(timeoutNs);
        engine.close();
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                Log.warn(Subsys.INIT, "rank %d: closing the rendezvous failed: %s", who.rank(), e);
            }
        }
    }

    @Override
    public String toString() {
        return "Communicator{rank " + who.rank() + " of " + who.size() + ", " + namespace + "}";
    }
}

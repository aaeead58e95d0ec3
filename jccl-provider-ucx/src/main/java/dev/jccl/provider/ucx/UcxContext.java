package dev.jccl.provider.ucx;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.util.WaitPolicy;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * An opened UCX device: one ucp context and worker, the queue pairs it routes active messages to by
 * qpn, and the progress agent that keeps the worker moving when no consumer polls (a tcp peer's put
 * into our memory needs our progress to land).
 *
 * <p>Everything that touches UCX runs under the worker lock through {@link #locked}. UCX callbacks do
 * no work themselves: they queue an event, and the lock holder runs the events after the call that
 * produced them, so no UCX call is ever made from inside a callback (libucp forbids re-entering
 * progress there, and sending from one would be a question of UCX version).
 */
final class UcxContext implements DeviceContext {
    private static final AtomicLong NEXT_ID = new AtomicLong(1);
    private static final Set<Long> LIVE = ConcurrentHashMap.newKeySet();

    private final long id = NEXT_ID.getAndIncrement();
    private final Device device;
    private final Config config;
    private final UcpWorker worker;
    private final long amToken;
    private final Arena arena = Arena.ofShared();
    private final HeaderPool headers = new HeaderPool(arena);
    private final ArrayDeque<Runnable> events = new ArrayDeque<>(); // guarded by the worker lock
    private final OwedWork owed = new OwedWork(); // guarded by the worker lock
    private final UcxOp.Pool ops = new UcxOp.Pool(this);
    private final ArrayDeque<Inbound> inbound = new ArrayDeque<>(); // free arrivals; guarded by the worker lock
    private final AtomicInteger nextQpn = new AtomicInteger(1);
    private final QpTable table = new QpTable();
    private final Set<UcxProtectionDomain> pds = ConcurrentHashMap.newKeySet();
    private final Set<UcxCompletionQueue> cqs = ConcurrentHashMap.newKeySet();
    private final WaitPolicy waitPolicy;
    private final ProgressAgent agent;
    private final PeerAddress address;
    private final WorkerWaits waits = new WorkerWaits(this);
    private volatile boolean closed;

    UcxContext(Device device, Config config) {
        this.device = device;
        this.config = config;
        this.waitPolicy = config.waitPolicy(1);
        this.amToken = UcpCallbacks.register((UcpCallbacks.AmReceiver) this::arrived);
        this.worker = new UcpWorker(amToken);
        this.address = PeerAddress.local(config, worker.address());
        LIVE.add(id);
        this.agent = new ProgressAgent(this);
        agent.start();
    }

    @Override public Device device() { return device; }
    long id() { return id; }
    PeerAddress address() { return address; }

    /** Whether the context {@code id} of this process is still open (a closed one's worker is gone). */
    static boolean isLive(long id) {
        return LIVE.contains(id);
    }
    long timeoutNs() { return config.get(Knobs.TIMEOUT_NS); }
    long rnrTimeoutNs() { return config.get(Knobs.RNR_TIMEOUT_NS); }
    UcpWorker worker() { return worker; }
    HeaderPool headers() { return headers; }
    UcxOp.Pool ops() { return ops; }
    boolean isClosed() { return closed; }

    /** Runs {@code action} under the worker lock, then every event it and UCX produced meanwhile. */
    <T> T locked(Supplier<T> action) {
        worker.acquire();
        try {
            checkUsable();
            T result = action.get();
            runEvents();
            return result;
        } finally {
            worker.lock.unlock();
        }
    }

    /** Takes the worker lock for a call of the data path, without a lambda; {@link #exit} ends it. */
    void enter() {
        worker.acquire();
        if (closed) {
            worker.lock.unlock();
            checkUsable();
        }
    }

    /** Runs the events the call produced and lets go of the worker. */
    void exit() {
        try {
            runEvents();
        } finally {
            worker.lock.unlock();
        }
    }

    void locked(Runnable action) {
        locked(() -> {
            action.run();
            return null;
        });
    }

    /** Queues work for the lock holder to run once the current UCX call has returned. Hold the lock. */
    void later(Runnable event) {
        events.addLast(event);
    }

    /** {@code ack} holds an acknowledgement back until the next progress pass. Hold the lock. */
    void owing(OwedAck ack) {
        owed.owing(ack);
    }

    /** {@code sender} holds the flush of its last writes back until the next progress pass. Hold the lock. */
    void flushLater(UcxSender sender) {
        owed.flushLater(sender);
    }

    private int payOwedAcks() {
        return owed.pay();
    }

    /** A UCX completion that runs {@code handler} as an event, outside the callback. */
    UcpCallbacks.Completion completion(UcpCallbacks.Completion handler) {
        return (status, length) -> later(() -> handler.done(status, length));
    }

    /** Progress from any thread; returns 0 at once when another thread holds the worker. */
    int tryProgress() {
        if (closed || !worker.lock.tryLock()) return 0;
        try {
            if (worker.destroyed()) return 0;
            int n = payOwedAcks() + runEvents();
            // Stop at the first pass that produced work: its completions go to the consumer now,
            // not after one more ucp_worker_progress (on tcp an epoll_wait, ~1 us, per reply).
            for (int i = 0, k; i < 16 && (k = worker.progress()) > 0; i++) {
                n += k;
                int e = runEvents();
                n += e;
                if (e > 0) break;
            }
            return n;
        } finally {
            worker.lock.unlock();
        }
    }

    WorkerWaits waits() {
        return waits;
    }

    /**
     * Under the lock: progresses until nothing is left, then arms the event fd. False when the
     * context is closed or events are pending, so the caller must not sleep.
     */
    boolean quietAndArmed() {
        worker.acquire();
        try {
            if (closed || worker.destroyed()) return false;
            if (payOwedAcks() > 0) return false;
            while (worker.progress() > 0) runEvents();
            return runEvents() == 0 && owed.isEmpty() && worker.wakeup().arm();
        } finally {
            worker.lock.unlock();
        }
    }

    /** Periodic duties of the agent: RNR deadlines and, for same-host peers, whether they still live. */
    void tick(boolean checkPeers) {
        if (closed || !worker.lock.tryLock()) return;
        try {
            if (worker.destroyed()) return;
            long now = System.nanoTime();
            table.tick(now, checkPeers);
            runEvents();
        } finally {
            worker.lock.unlock();
        }
    }

    private int runEvents() {
        int n = 0;
        for (Runnable e; (e = events.pollFirst()) != null; n++) e.run();
        return n;
    }

    /** The AM callback: decode into a pooled {@link Inbound}, keep UCX's data if there is any, leave the work to an event. */
    private int arrived(long header, long headerLength, long data, long length, long attr, long replyEp) {
        Inbound in = inbound.pollFirst();
        if (in == null) in = new Inbound(this);
        if (!AmDescriptor.read(header, headerLength, in.header)) {
            inbound.addLast(in);
            return UcpLayouts.UCS_OK;
        }
        boolean rndv = (attr & UcpLayouts.AM_RECV_ATTR_FLAG_RNDV) != 0;
        boolean keep = rndv || (attr & UcpLayouts.AM_RECV_ATTR_FLAG_DATA) != 0 && data != 0;
        later(in.fill(keep ? data : 0, length, rndv, System.nanoTime(), replyEp));
        return keep ? UcpLayouts.UCS_INPROGRESS : UcpLayouts.UCS_OK;
    }

    void route(Inbound in) {
        UcxQueuePair qp = table.get(in.header.dstQpn());
        if (qp != null) {
            qp.received(in);
        } else {
            release(in); // a message for a queue pair that has closed: nobody waits for it
        }
    }

    /** Gives UCX back what an inbound message kept, and the message to the pool. Hold the lock. */
    void release(Inbound in) {
        if (in.holdsData() && !worker.destroyed()) worker.amDataRelease(in.data);
        in.data = 0;
        inbound.addLast(in);
    }

    @Override
    public ProtectionDomain allocPd() {
        checkUsable();
        UcxProtectionDomain pd = new UcxProtectionDomain(this);
        pds.add(pd);
        return pd;
    }

    @Override
    public CompletionQueue createCq(int depth) {
        checkUsable();
        UcxCompletionQueue cq = new UcxCompletionQueue(this, depth, waitPolicy);
        cqs.add(cq);
        return cq;
    }

    UcxCompletionQueue ownCq(CompletionQueue cq) {
        if (!(cq instanceof UcxCompletionQueue u) || !cqs.contains(u)) {
            throw new VerbsException("completion queue " + cq + " was not created by this UCX context");
        }
        return u;
    }

    UcxQueuePair newQp(UcxProtectionDomain pd, UcxCompletionQueue sendCq, UcxCompletionQueue recvCq, int sendDepth,
                       int recvDepth) {
        checkUsable();
        int qpn = nextQpn.getAndIncrement();
        UcxQueuePair qp = new UcxQueuePair(this, pd, qpn, sendCq, recvCq, sendDepth, recvDepth);
        table.put(qp);
        return qp;
    }

    void forget(UcxQueuePair qp) {
        table.remove(qp);
    }

    void forget(UcxProtectionDomain pd) {
        pds.remove(pd);
    }

    /** Closes every domain (queue pairs say goodbye and close their endpoints), then the worker. */
    @Override
    public void close() {
        if (closed) return;
        for (UcxProtectionDomain pd : new ArrayList<>(pds)) pd.close();
        closed = true;
        LIVE.remove(id);
        agent.stop();
        worker.lock.lock();
        try {
            runEvents();
            ops.close();
            worker.destroy();
        } finally {
            worker.lock.unlock();
        }
        UcpCallbacks.forget(amToken);
        for (UcxCompletionQueue cq : cqs) cq.close();
        arena.close();
    }

    private void checkUsable() {
        if (closed) throw new VerbsException("UCX context on " + device.name() + " is closed");
    }
}

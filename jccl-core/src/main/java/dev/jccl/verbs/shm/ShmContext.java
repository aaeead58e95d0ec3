package dev.jccl.verbs.shm;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.Deadline;
import dev.jccl.util.WaitPolicy;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.jccl.verbs.shm.ControlDescriptor.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * An opened shm0: the control file peers attach to, the shared allocations and published regions,
 * the peers attached to, and the watchdog that keeps the heartbeat and notices dead peers.
 * Thread-safe.
 */
final class ShmContext implements DeviceContext {
    private static final AtomicInteger NEXT_INDEX = new AtomicInteger();
    /** Context numbers open in this process; a file of our pid with another number is stale. */
    static final Set<Integer> OPEN_INDEXES = ConcurrentHashMap.newKeySet();

    private final Device device;
    private final long timeoutNs;
    private final long rnrTimeoutNs;
    private final boolean crossReads;
    private final WaitPolicy waitPolicy;
    private final ShmPaths paths;
    private final long lid;
    private final Arena controlArena = Arena.ofShared();
    private final MemorySegment control;
    private final PublishedRegions publishedRegions;
    private final SharedAllocations allocations = new SharedAllocations();
    private final List<ShmProtectionDomain> pds = new CopyOnWriteArrayList<>();
    private final List<ShmCompletionQueue> cqs = new CopyOnWriteArrayList<>();
    private final Map<Long, RemoteContext> remotes = new HashMap<>(); // guarded by itself
    private final AtomicInteger nextQpn = new AtomicInteger();
    private final AtomicInteger nextAllocId = new AtomicInteger();
    private final AtomicInteger nextPdId = new AtomicInteger();
    private final ShmWatchdog watchdog;
    private volatile boolean closed;

    ShmContext(Device device, Config config) {
        this.device = device;
        this.timeoutNs = config.get(Knobs.TIMEOUT_NS);
        this.rnrTimeoutNs = config.get(Knobs.RNR_TIMEOUT_NS);
        this.crossReads = config.get(Knobs.CMA);
        this.waitPolicy = config.waitPolicy(1);
        long heartbeatNs = config.get(Knobs.HEARTBEAT_NS);
        Path dir = Path.of(config.get(Knobs.SHM_DIR)).toAbsolutePath().normalize();
        StaleFiles.sweep(dir);
        long pid = ProcessHandle.current().pid();
        ShmPaths p;
        do { // another pid namespace may use our pid in the same directory: skip numbers taken there
            int index = NEXT_INDEX.incrementAndGet();
            OPEN_INDEXES.add(index);
            p = new ShmPaths(dir, pid, index);
            if (!Files.exists(p.control())) break;
            OPEN_INDEXES.remove(index);
        } while (true);
        this.paths = p;
        this.lid = (pid << 20) | (p.index() & 0xFFFFF);
        try {
            this.control = ShmFiles.create(paths.control(), fileBytes(REGION_CAPACITY), controlArena);
        } catch (RuntimeException e) {
            controlArena.close();
            OPEN_INDEXES.remove(paths.index());
            throw e;
        }
        control.set(JAVA_INT, VERSION_OFFSET, VERSION);
        control.set(JAVA_LONG, PID_OFFSET, pid);
        control.set(JAVA_LONG, LID_OFFSET, lid);
        control.set(JAVA_LONG, HEARTBEAT_PERIOD_OFFSET, heartbeatNs);
        control.set(JAVA_LONG, PID_NAMESPACE_OFFSET, Processes.pidNamespace());
        control.set(JAVA_INT, REGION_CAPACITY_OFFSET, REGION_CAPACITY);
        control.set(JAVA_LONG, CONTROL_ADDRESS_OFFSET, control.address());
        SharedWords.setIntRelease(control, MAGIC_OFFSET, MAGIC); // pairs with ShmFiles.awaitReady
        this.publishedRegions = new PublishedRegions(control, REGION_CAPACITY, timeoutNs);
        this.watchdog = new ShmWatchdog(this, control, heartbeatNs);
        Log.info(Subsys.SHM, "opened %s as %s (lid 0x%x)", device.name(), paths.control(), lid);
    }

    @Override public Device device() { return device; }
    ShmPaths paths() { return paths; }
    long lid() { return lid; }
    long pid() { return paths.pid(); }
    long timeoutNs() { return timeoutNs; }
    long rnrTimeoutNs() { return rnrTimeoutNs; }
    /** JCCL_CMA: whether private memory may be read across processes, either way. */
    boolean crossReads() { return crossReads; }
    WaitPolicy waitPolicy() { return waitPolicy; }
    SharedAllocations allocations() { return allocations; }
    PublishedRegions publishedRegions() { return publishedRegions; }
    List<ShmProtectionDomain> protectionDomains() { return pds; }
    int nextQpn() { return nextQpn.incrementAndGet(); }
    int nextAllocId() { return nextAllocId.getAndIncrement(); }

    @Override
    public ProtectionDomain allocPd() {
        checkOpen();
        ShmProtectionDomain pd = new ShmProtectionDomain(this, nextPdId.incrementAndGet());
        pds.add(pd);
        return pd;
    }

    @Override
    public CompletionQueue createCq(int depth) {
        checkOpen();
        ShmCompletionQueue cq = new ShmCompletionQueue(this, depth);
        cqs.add(cq);
        return cq;
    }

    /** {@code cq} as one of ours, or a VerbsException saying whose it is. */
    ShmCompletionQueue ownCq(CompletionQueue cq) {
        if (cq instanceof ShmCompletionQueue s && s.context() == this) return s;
        throw new VerbsException("completion queue " + cq + " was not created by this shm context (" + paths.stem() + ")");
    }

    /** Attaches to a peer context (once per peer, counted per queue pair); may wait until {@code deadline}. */
    RemoteContext attachPeer(ShmPaths peerPaths, long peerLid, Deadline deadline) {
        synchronized (remotes) {
            RemoteContext rc = remotes.get(peerLid);
            if (rc != null) {
                rc.retain();
                return rc;
            }
        }
        RemoteContext fresh = RemoteContext.attach(peerPaths, peerLid, deadline); // waits outside the lock
        synchronized (remotes) {
            RemoteContext rc = remotes.putIfAbsent(peerLid, fresh);
            if (rc == null) rc = fresh;
            else fresh.close();
            rc.retain();
            return rc;
        }
    }

    /** Drops a queue pair's hold on {@code rc}; the last one releases the peer's mappings. */
    void detachPeer(RemoteContext rc) {
        synchronized (remotes) {
            if (rc.release() == 0 && remotes.remove(rc.lid(), rc)) rc.close();
        }
    }

    /**
     * Attached peers that look dead, with the cause; asked under the lock that keeps their mappings
     * alive. Called by the watchdog only.
     */
    Map<RemoteContext, String> deadPeers(long nowNs) {
        Map<RemoteContext, String> dead = null;
        synchronized (remotes) {
            for (RemoteContext rc : remotes.values()) {
                String cause = rc.deathCause(nowNs);
                if (cause != null) {
                    if (dead == null) dead = new HashMap<>();
                    dead.put(rc, cause);
                }
            }
        }
        return dead == null ? Map.of() : dead;
    }

    void forget(ShmProtectionDomain pd) {
        pds.remove(pd);
    }

    /**
     * Tells peers we are closing, stops the watchdog, closes every domain (flushing queue pairs),
     * every CQ and every peer mapping, and removes this context's files.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        SharedWords.setIntVolatile(control, CLOSED_OFFSET, 1);
        watchdog.stop(timeoutNs);
        for (ShmProtectionDomain pd : pds) pd.close();
        for (ShmCompletionQueue cq : cqs) cq.close();
        synchronized (remotes) {
            remotes.values().forEach(RemoteContext::close);
            remotes.clear();
        }
        controlArena.close();
        ShmFiles.deleteQuietly(paths.control());
        OPEN_INDEXES.remove(paths.index());
        Log.info(Subsys.SHM, "closed %s", paths.control());
    }

    private void checkOpen() {
        if (closed) throw new VerbsException("shm context " + paths.stem() + " is closed");
    }
}

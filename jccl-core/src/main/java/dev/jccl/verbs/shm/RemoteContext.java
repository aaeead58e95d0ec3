package dev.jccl.verbs.shm;

import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.VerbsException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import static dev.jccl.verbs.shm.ControlDescriptor.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A peer context this context has attached to: its control file, the queue pair files and backing
 * files we mapped, and what the watchdog knows about its health.
 *
 * <p>All mappings live in one shared arena, released when the last queue pair connected to the peer
 * closes. Mapping a peer's file keeps its pages alive even after the peer unlinks it or dies, so a
 * late copy can never fault; it lands in memory nobody reads any more.
 */
final class RemoteContext {
    private static final int MAX_ALLOC_ID = 1 << 24;

    private final ShmPaths paths;
    private final long lid;
    private final long pid;
    private final boolean pidVisible;
    private final long staleNs;
    private final Arena arena;
    private final MemorySegment control;
    private final RemoteRegions regions;
    private volatile MemorySegment[] memory = new MemorySegment[8];
    private int refs; // guarded by the owning ShmContext's remotes map
    private Boolean crossReadable; // guarded by this: null until probed
    private long lastHeartbeat = Long.MIN_VALUE; // watchdog thread only
    private long lastHeartbeatChangeNs;          // watchdog thread only

    private RemoteContext(ShmPaths paths, long lid, Arena arena, MemorySegment control) {
        this.paths = paths;
        this.lid = lid;
        this.arena = arena;
        this.control = control;
        this.pid = control.get(JAVA_LONG, PID_OFFSET);
        this.pidVisible = control.get(JAVA_LONG, PID_NAMESPACE_OFFSET) == Processes.pidNamespace();
        long periodNs = Math.clamp(control.get(JAVA_LONG, HEARTBEAT_PERIOD_OFFSET), 1_000_000L, 60_000_000_000L);
        this.staleNs = Math.max(25 * periodNs, 5_000_000_000L);
        int capacity = control.get(JAVA_INT, REGION_CAPACITY_OFFSET);
        checkCapacity(capacity, control.byteSize(), paths.control().toString());
        this.regions = new RemoteRegions(this, control, capacity);
    }

    /** Maps the peer's control file (waiting, bounded, for it to be ready) and checks its identity. */
    static RemoteContext attach(ShmPaths paths, long lid, Deadline deadline) {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment seg = ShmFiles.awaitReady(paths.control(), HEADER_BYTES, MAGIC, deadline, arena);
            int version = seg.get(JAVA_INT, VERSION_OFFSET);
            long fileLid = seg.get(JAVA_LONG, LID_OFFSET);
            if (version != VERSION || fileLid != lid || seg.get(JAVA_LONG, PID_OFFSET) != paths.pid()) {
                throw new VerbsException("shm: " + paths.control() + " (version " + version + ", lid " + fileLid
                        + ") is not the context with lid " + lid + " that the peer announced");
            }
            return new RemoteContext(paths, lid, arena, seg);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    ShmPaths paths() { return paths; }
    long lid() { return lid; }
    long pid() { return pid; }
    RemoteRegions regions() { return regions; }
    int retain() { return ++refs; }
    int release() { return --refs; }

    /**
     * Whether this process may read the peer's private memory ({@link CrossMemoryReader}): the peer's
     * pids mean the same here, and its control file's fixed header, read back with process_vm_readv
     * from where the peer mapped it, is the header this process maps. Why not is logged. Probed once
     * per peer: every queue pair to it gets the same answer.
     */
    synchronized boolean crossReadable() {
        if (crossReadable == null) crossReadable = probeCrossRead();
        return crossReadable;
    }

    private boolean probeCrossRead() {
        long at = control.get(JAVA_LONG, CONTROL_ADDRESS_OFFSET);
        if (!pidVisible || !CrossMemoryReader.supported() || at == 0) return false;
        try (Arena probe = Arena.ofConfined()) {
            MemorySegment copy = probe.allocate(FIXED_HEADER_BYTES, 8);
            CrossMemoryReader reader = new CrossMemoryReader();
            if (!reader.read(pid, at, FIXED_HEADER_BYTES, copy, 0)) {
                Log.info(Subsys.SHM, "private buffers of pid %d are copied, not read in place: %s", pid, reader.error());
                return false;
            }
            return copy.mismatch(control.asSlice(0, FIXED_HEADER_BYTES)) < 0;
        }
    }

    /** Maps queue pair {@code qpn} of this peer, waiting (bounded) until its file is ready. */
    QpFileCodec attachQp(int qpn, Deadline deadline) {
        return QpFileCodec.open(paths.qp(qpn), arena, qpn, deadline);
    }

    /**
     * The peer's backing file {@code allocId}, mapped once and cached. Returns null and sets
     * {@code t.error} when it cannot be mapped (a bad id, or the peer already freed it).
     */
    MemorySegment memory(int allocId, RemoteTarget t) {
        MemorySegment[] m = memory;
        if (allocId >= 0 && allocId < m.length && m[allocId] != null) return m[allocId];
        return mapMemory(allocId, t);
    }

    private synchronized MemorySegment mapMemory(int allocId, RemoteTarget t) {
        if (allocId < 0 || allocId >= MAX_ALLOC_ID) {
            t.error = "peer (pid " + pid + ") names backing file " + allocId + ", outside [0, " + MAX_ALLOC_ID + ")";
            return null;
        }
        MemorySegment[] m = memory;
        if (allocId < m.length && m[allocId] != null) return m[allocId];
        try {
            MemorySegment seg = ShmFiles.mapExisting(paths.memory(allocId), arena);
            MemorySegment[] grown = allocId < m.length ? m.clone() : Arrays.copyOf(m, Math.max(allocId + 1, 2 * m.length));
            grown[allocId] = seg;
            memory = grown; // volatile publish: readers see the fully built array
            return seg;
        } catch (IOException | IllegalStateException e) {
            t.error = "cannot map the peer's memory " + paths.memory(allocId) + " (pid " + pid + "): " + e.getMessage();
            return null;
        }
    }

    /**
     * Null while the peer looks alive, else why not. Called by the watchdog thread only, once per
     * period: a closed flag, a dead pid (when pids are comparable), or a heartbeat that has not moved
     * for max(25 periods, 5 s) (a stopped process, or one in another pid namespace that died).
     */
    String deathCause(long nowNs) {
        if (SharedWords.getIntVolatile(control, CLOSED_OFFSET) != 0) return "peer context of pid " + pid + " closed";
        if (pidVisible && !Processes.isAlive(pid)) return "peer pid " + pid + " died";
        long hb = SharedWords.getLongAcquire(control, HEARTBEAT_OFFSET);
        if (hb != lastHeartbeat) {
            lastHeartbeat = hb;
            lastHeartbeatChangeNs = nowNs;
        } else if (nowNs - lastHeartbeatChangeNs > staleNs) {
            return "peer pid " + pid + " stopped its heartbeat " + (nowNs - lastHeartbeatChangeNs) / 1_000_000 + " ms ago";
        }
        return null;
    }

    /** Whether a dead peer's pid was checkable here, so its files may be removed on its behalf. */
    boolean pidVisible() { return pidVisible; }

    /** Releases every mapping of this peer. Callers ensure no copy is in flight. */
    void close() {
        arena.close();
    }
}

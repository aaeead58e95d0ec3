package dev.jccl.verbs.tcp;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.base.LocalRegion;
import dev.jccl.verbs.base.RegionTable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Regions and queue pairs of one tcp context. Any native memory the provider's threads can reach may
 * be registered for remote access (sockets read and write it directly). Memory confined to one thread
 * cannot, since other threads touch it; nor can heap memory, which has no address a peer could name.
 * Thread-safe.
 */
final class TcpProtectionDomain implements ProtectionDomain {
    private static final int ALLOCATION_ALIGN = 64;

    private final TcpContext context;
    private final RegionTable regions = new RegionTable();
    private final Arena arena = Arena.ofShared();
    private final Set<TcpQueuePair> qps = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    TcpProtectionDomain(TcpContext context) {
        this.context = context;
    }

    RegionTable regions() {
        return regions;
    }

    @Override
    public DeviceContext context() {
        return context;
    }

    @Override
    public MemorySegment allocate(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("cannot allocate " + bytes + " bytes");
        checkOpen();
        return arena.allocate(bytes, ALLOCATION_ALIGN);
    }

    @Override
    public MemoryRegion register(MemorySegment segment, Set<Access> access) {
        checkOpen();
        if (!segment.isNative()) {
            throw new VerbsException("heap memory (" + segment.byteSize() + " bytes) cannot be registered: it has no "
                    + "stable address for peers to name; use native memory, e.g. ProtectionDomain.allocate()");
        }
        if (!segment.isAccessibleBy(Thread.ofPlatform().unstarted(() -> { }))) {
            throw new VerbsException("memory at 0x" + Long.toHexString(segment.address()) + " (" + segment.byteSize()
                    + " bytes) is confined to one thread; the tcp provider's threads must reach it. Use a shared or "
                    + "global arena, or ProtectionDomain.allocate()");
        }
        return regions.register(segment, access, true);
    }

    @Override
    public void deregister(MemoryRegion region) {
        if (!(region instanceof LocalRegion r) || regions.byLkey(r.lkey()) != r) {
            throw new VerbsException("region " + region + " is not registered in this protection domain");
        }
        regions.deregister(r);
    }

    @Override
    public QueuePair createQp(QpInitAttr attr) {
        checkOpen();
        TcpCompletionQueue sendCq = context.ownCq(attr.sendCq());
        TcpCompletionQueue recvCq = context.ownCq(attr.recvCq());
        if (attr.maxSendWr() > FrameDescriptor.MAX_WINDOW) {
            throw new VerbsException("tcp queue pairs take at most " + FrameDescriptor.MAX_WINDOW + " send work requests, asked for "
                    + attr.maxSendWr());
        }
        TcpQueuePair qp = context.newQp(this, sendCq, recvCq, attr.maxSendWr(), attr.maxRecvWr(),
                context.inlineMaxBytes(attr.sendBufferCompletion()));
        qps.add(qp);
        return qp;
    }

    void forget(TcpQueuePair qp) {
        qps.remove(qp);
    }

    /** Closes the queue pairs first (joining their threads), so no socket touches the memory freed next. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        for (TcpQueuePair qp : new ArrayList<>(qps)) qp.close();
        arena.close();
        context.forget(this);
    }

    private void checkOpen() {
        if (closed) throw new VerbsException("protection domain is closed");
    }
}

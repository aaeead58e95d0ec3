package dev.jccl.verbs.shm;

import dev.jccl.verbs.PeerMemory;

import java.lang.foreign.MemorySegment;

import static dev.jccl.verbs.shm.ControlDescriptor.RIGHT_REMOTE_READ;
import static dev.jccl.verbs.shm.ControlDescriptor.RIGHT_REMOTE_WRITE;

/**
 * Loads from and stores into a connected peer's shared allocations: the region table lookup and
 * pin of an RDMA_READ or RDMA_WRITE ({@link RemoteRegions#acquire}), without the copy. The peer's backing file is mapped
 * once per process ({@link RemoteContext#memory}); readers get a plain native view of it, with the
 * mapping's scope, because the Vector API kernels compile to SIMD only for the segment class they
 * have seen (see {@code Link.slots}). Progress thread only.
 */
final class ShmPeerMemory implements PeerMemory {
    private static final int VIEWS = 8;

    private final RemoteContext peer;
    private final int peerPdId;
    private final RemoteTarget target = new RemoteTarget();
    private final MemorySegment[] mapped = new MemorySegment[VIEWS];
    private final MemorySegment[] plain = new MemorySegment[VIEWS];
    private int nextView;
    private MemorySegment memory;
    private CrossMemoryReader crossReader;
    private String error;

    ShmPeerMemory(RemoteContext peer, int peerPdId) {
        this.peer = peer;
        this.peerPdId = peerPdId;
    }

    @Override
    public long pin(int rkey, long address, long length, boolean write) {
        if (!peer.regions().acquire(rkey, address, length, write ? RIGHT_REMOTE_WRITE : RIGHT_REMOTE_READ, peerPdId, target)) {
            error = target.error;
            return -1;
        }
        memory = plainView(target.memory);
        return target.offset;
    }

    @Override public MemorySegment memory() { return memory; }
    @Override public void unpin() { peer.regions().release(target); }
    @Override public String error() { return error; }

    @Override
    public boolean readPrivate(long address, long length, MemorySegment dst, long dstOffset) {
        if (crossReader == null) crossReader = new CrossMemoryReader();
        if (crossReader.read(peer.pid(), address, length, dst, dstOffset)) return true;
        error = crossReader.error();
        return false;
    }

    @SuppressWarnings("restricted") // a plain view of a mapping this process made, with that mapping's scope
    private MemorySegment plainView(MemorySegment m) {
        for (int i = 0; i < VIEWS; i++) if (mapped[i] == m) return plain[i];
        int i = nextView;
        nextView = (nextView + 1) % VIEWS;
        mapped[i] = m;
        plain[i] = m.reinterpret(m.byteSize());
        return plain[i];
    }
}

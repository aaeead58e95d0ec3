package dev.jccl.provider.ucx;

import dev.jccl.verbs.Access;

import java.lang.foreign.MemorySegment;

/**
 * What the initiator knows of a peer's region: bounds and rights as the peer's region table holds
 * them, and the unpacked UCX rkey. Bounds are checked here, before anything is posted, so a bad
 * access never reaches UCX (whose RMA has no such check on most transports).
 */
record RemoteKey(int rkey, long address, long length, boolean remoteWrite, boolean remoteRead, MemorySegment handle) {
    /** Why {@code [addr, addr+bytes)} with right {@code needed} is refused, or null when it is allowed. */
    String refusal(long addr, long bytes, Access needed) {
        if (needed == Access.REMOTE_WRITE && !remoteWrite || needed == Access.REMOTE_READ && !remoteRead) {
            return String.format("rkey 0x%08x does not grant %s", rkey, needed);
        }
        long off = addr - address;
        if (bytes < 0 || off < 0 || off > length || bytes > length - off) {
            return String.format("[0x%x, +%d) is outside the region [0x%x, +%d) of rkey 0x%08x", addr, bytes, address,
                    length, rkey);
        }
        return null;
    }
}

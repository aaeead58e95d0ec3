package dev.jccl.verbs;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * A registered range. {@code address} plays the role of the virtual address in verbs: work requests
 * name local memory as (address, length, lkey) and remote memory as (address, rkey); the provider
 * checks both against the region's bounds and rights.
 */
public interface MemoryRegion {
    int lkey();

    int rkey();

    /** Start address as peers name it in RDMA requests (the segment's native address). */
    long address();

    long length();

    Set<Access> access();

    /** The registered memory itself. */
    MemorySegment segment();

    /** A scatter-gather entry for {@code [offset, offset+length)} of this region. */
    default Sge sge(long offset, long length) {
        if (offset < 0 || length < 0 || offset > length() || length > length() - offset) {
            throw new IndexOutOfBoundsException("sge [" + offset + ", +" + length + ") outside region of "
                    + length() + " bytes");
        }
        return new Sge(address() + offset, length, lkey());
    }

    /** What a peer needs to RDMA into or out of this region. */
    default RemoteBuffer remote() {
        return new RemoteBuffer(address(), length(), rkey());
    }
}

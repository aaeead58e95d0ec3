package dev.jccl.provider.ucx;

import java.lang.foreign.MemorySegment;

/**
 * A SEND or WRITE_WITH_IMM that arrived and waits for a posted receive. {@code data} is UCX's:
 * eager data kept past its callback (released with ucp_am_data_release) or a rendezvous descriptor
 * (consumed by ucp_am_recv_data_nbx), or NULL when the message carried no bytes.
 */
final class Inbound {
    final AmDescriptor.Header header;
    final MemorySegment data;
    final long length;
    final boolean rendezvous;
    final long arrivedNs;
    /** Where an inline WRITE_WITH_IMM's data goes, once its rkey and bounds were checked. */
    MemorySegment target = MemorySegment.NULL;
    /** A rendezvous receive is under way; later messages wait so receive completions stay in order. */
    boolean receiving;

    Inbound(AmDescriptor.Header header, MemorySegment data, long length, boolean rendezvous, long arrivedNs) {
        this.header = header;
        this.data = data;
        this.length = length;
        this.rendezvous = rendezvous;
        this.arrivedNs = arrivedNs;
    }

    boolean holdsData() {
        return data.address() != 0;
    }
}

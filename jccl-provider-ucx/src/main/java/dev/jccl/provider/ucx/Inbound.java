package dev.jccl.provider.ucx;

/**
 * An active message that arrived: its header, and for a SEND or WRITE_WITH_IMM the data it waits
 * with for a posted receive. {@code data} is UCX's (an address): eager data kept past its callback
 * (released with ucp_am_data_release) or a rendezvous descriptor (consumed by
 * ucp_am_recv_data_nbx), or 0 when the message carried no bytes.
 *
 * <p>Pooled by its context, so an arrival allocates nothing: taken in the AM callback, queued as
 * the event that routes it ({@link #run}), and given back by {@link UcxContext#release}, the one
 * place every message ends (a rendezvous one that was received is simply not reused).
 */
final class Inbound implements Runnable {
    final AmDescriptor.Header header = new AmDescriptor.Header();
    private final UcxContext ctx;
    long data;
    long length;
    boolean rendezvous;
    long arrivedNs;
    /** The endpoint UCX offers for a reply (a peer that has no endpoint of ours yet), or 0. */
    long replyEp;
    /** Where an inline WRITE_WITH_IMM's data goes, once its rkey and bounds were checked. */
    long target;
    /** A rendezvous receive is under way; later messages wait so receive completions stay in order. */
    boolean receiving;

    Inbound(UcxContext ctx) {
        this.ctx = ctx;
    }

    Inbound fill(long data, long length, boolean rendezvous, long arrivedNs, long replyEp) {
        this.data = data;
        this.length = length;
        this.rendezvous = rendezvous;
        this.arrivedNs = arrivedNs;
        this.replyEp = replyEp;
        this.target = 0;
        this.receiving = false;
        return this;
    }

    boolean holdsData() {
        return data != 0;
    }

    @Override
    public void run() {
        ctx.route(this);
    }
}

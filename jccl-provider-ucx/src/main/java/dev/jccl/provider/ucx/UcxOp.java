package dev.jccl.provider.ucx;

import dev.jccl.verbs.WcStatus;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

import static dev.jccl.provider.ucx.UcpLayouts.UCS_OK;

/**
 * One UCX request of the data path (a put, a get, an endpoint flush, an active-message send) and
 * what its completion must do, in a pooled object: it is registered with {@link UcpCallbacks} once,
 * keeps its token for life and goes back to its context's pool after its completion has run. So a
 * request costs no lambda, no map entry and no record; the steady state allocates nothing.
 *
 * <p>Like every completion it does no work inside the callback: {@link #done} queues it as the
 * context's next event, and {@link #run} does the work after the UCX call has returned.
 */
final class UcxOp implements UcpCallbacks.Reusable, Runnable {
    static final int PUT = 1;
    static final int GET = 2;
    static final int FLUSH = 3;
    static final int AM_SEND = 4;

    /** The free operations of one context. Guarded by the worker lock. */
    static final class Pool {
        private final UcxContext ctx;
        private final ArrayDeque<UcxOp> free = new ArrayDeque<>();

        Pool(UcxContext ctx) {
            this.ctx = ctx;
        }

        UcxOp take(int kind, UcxQueuePair qp, long seq) {
            UcxOp op = free.pollFirst();
            if (op == null) op = new UcxOp(ctx, this);
            op.kind = kind;
            op.qp = qp;
            op.seq = seq;
            return op;
        }

        /** Drops the tokens of every pooled operation (the context is closing). */
        void close() {
            for (UcxOp op : free) UcpCallbacks.forget(op.token);
            free.clear();
        }
    }

    private final UcxContext ctx;
    private final Pool pool;
    private final long token;
    int kind;
    UcxQueuePair qp;
    long seq;
    /** FLUSH: the writes it covers, {@code [from, to]}, none when {@code to < from}. */
    long from;
    long to;
    /** FLUSH: whether it stopped the queue, and the immediate to send after it (a large WRITE_WITH_IMM). */
    boolean blocking;
    boolean thenImm;
    int imm;
    long written;
    /** AM_SEND: the header block UCX reads until the send completes, and the message's kind. */
    MemorySegment header;
    int amKind;
    private int status;

    private UcxOp(UcxContext ctx, Pool pool) {
        this.ctx = ctx;
        this.pool = pool;
        this.token = UcpCallbacks.register(this);
    }

    @Override
    public long token() {
        return token;
    }

    @Override
    public void done(int st, long length) {
        status = st;
        ctx.later(this);
    }

    @Override
    public void run() {
        UcxQueuePair q = qp;
        int st = status;
        int k = kind;
        switch (k) {
            case PUT -> {
                if (st != UCS_OK) q.sender().failed(seq, st, "put");
            }
            case GET -> q.sender().completed(seq, st, "get");
            case FLUSH -> q.sender().flushed(st, from, to, blocking, thenImm, seq, imm, written);
            case AM_SEND -> {
                ctx.headers().give(header);
                if (st != UCS_OK && (amKind == AmDescriptor.SEND || amKind == AmDescriptor.WRITE_IMM)) {
                    q.fail(seq, WcStatus.RETRY_EXC, "UCX could not send to the peer: " + Ucp.statusText(st), false);
                }
            }
            default -> throw new IllegalStateException("UCX operation of kind " + k);
        }
        qp = null;
        header = null;
        pool.free.addLast(this);
    }
}

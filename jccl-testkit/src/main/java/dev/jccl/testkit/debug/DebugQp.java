package dev.jccl.testkit.debug;

import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A queue pair whose send requests pass through the rank's {@link Injector} on their way to the
 * inner queue pair. Requests held back (delayed, reordered, or waiting behind one that is, so the
 * queue keeps its order) wait in {@code held} and are released by later posts, by polls of the
 * context's completion queues, or by the context's release timer, whichever comes first. Completions
 * are the inner queue pair's, in the inner order: a dropped write becomes an empty write to the same
 * place, so it completes where it would have, and a duplicate is posted unsignaled, so it adds none.
 */
final class DebugQp implements QueuePair {
    private record Held(SendWr wr, long releaseNs, boolean afterNext) {}

    /** How long a reordered request waits for one to overtake it before it goes anyway. */
    static final long REORDER_WAIT_NS = 2_000_000;

    private final QueuePair inner;
    private final Injector injector;
    private final DebugPd pd;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Held> held = new ArrayDeque<>();

    DebugQp(QueuePair inner, Injector injector, DebugPd pd) {
        this.inner = inner;
        this.injector = injector;
        this.pd = pd;
    }

    @Override public int qpn() { return inner.qpn(); }
    @Override public QpState state() { return inner.state(); }
    @Override public ConnectInfo localInfo() { return inner.localInfo(); }
    @Override public void modifyToInit() { inner.modifyToInit(); }
    @Override public void modifyToRtr(ConnectInfo remote) { inner.modifyToRtr(remote); }
    @Override public void modifyToRts() { inner.modifyToRts(); }
    @Override public void modifyToError() { inner.modifyToError(); }

    @Override
    public String describe() {
        return inner.describe() + " [debug faults, rank " + injector.rank() + "]";
    }

    @Override
    public boolean postSend(SendWr wr) {
        injector.stallIfDue();
        lock.lock();
        try {
            Injector.Decision d = injector.decide(wr);
            boolean accepted = d.kind() == null ? enqueueOrPost(wr) : switch (d.kind()) {
                case DROP -> enqueueOrPost(copy(wr).set(wr.wrId(), Opcode.RDMA_WRITE, 0, 0, 0, wr.remoteAddress(), wr.rkey(), 0,
                        wr.signaled()));
                case DUP -> {
                    boolean ok = enqueueOrPost(wr);
                    if (ok) hold(copy(wr).set(wr.wrId(), wr.opcode(), wr.localAddress(), wr.length(), wr.lkey(), wr.remoteAddress(),
                            wr.rkey(), wr.imm(), false), 0, false);
                    yield ok;
                }
                case CORRUPT -> enqueueOrPost(corrupted(wr));
                case DELAY -> hold(copy(wr), System.nanoTime() + d.delayNs(), false);
                case REORDER -> hold(copy(wr), System.nanoTime() + REORDER_WAIT_NS, true);
                case ERR -> {
                    inner.modifyToError();
                    yield enqueueOrPost(wr);
                }
                case STALL -> enqueueOrPost(wr);
            };
            release(System.nanoTime());
            return accepted;
        } finally {
            lock.unlock();
        }
    }

    private static SendWr copy(SendWr wr) {
        return new SendWr(wr.wrId(), wr.opcode(), wr.local(), wr.remoteAddress(), wr.rkey(), wr.imm(), wr.signaled());
    }

    /** The request reading its payload from a copy with one bit flipped: what arrives is corrupt, the source is not. */
    @SuppressWarnings("restricted") // reading the caller's registered source by address, as a provider does
    private SendWr corrupted(SendWr wr) {
        MemoryRegion bounce = pd.bounce(wr.length());
        MemorySegment dst = bounce.segment();
        MemorySegment.copy(MemorySegment.ofAddress(wr.localAddress()).reinterpret(wr.length()), 0, dst, 0, wr.length());
        long bit = injector.bitToFlip(wr.length());
        byte b = dst.get(ValueLayout.JAVA_BYTE, bit / 8);
        dst.set(ValueLayout.JAVA_BYTE, bit / 8, (byte) (b ^ (1 << (bit % 8))));
        return copy(wr).set(wr.wrId(), wr.opcode(), dst.address(), wr.length(), bounce.lkey(), wr.remoteAddress(), wr.rkey(),
                wr.imm(), wr.signaled());
    }

    /** Posts now unless earlier requests are held, which it must not overtake (then it queues behind them). */
    private boolean enqueueOrPost(SendWr wr) {
        if (held.isEmpty()) return inner.postSend(wr);
        return hold(copy(wr), 0, false);
    }

    private boolean hold(SendWr wr, long releaseNs, boolean overtaken) {
        held.add(new Held(wr, releaseNs, overtaken));
        return true;
    }

    /**
     * Posts the held requests that are due, in order. A reordered one waits for the request behind
     * it, which goes first, or for {@link #REORDER_WAIT_NS} when none comes. Stops where the inner
     * queue is full; what stays is posted at the next chance.
     */
    private void release(long now) {
        while (!held.isEmpty()) {
            Held h = held.peek();
            if (h.afterNext() && held.size() > 1) {
                held.poll();
                Held next = held.poll();
                held.addFirst(new Held(h.wr(), 0, false));
                if (!inner.postSend(next.wr())) {
                    held.addFirst(next);
                    return;
                }
                continue;
            }
            if (now < h.releaseNs() || !inner.postSend(h.wr())) return;
            held.poll();
        }
    }

    /** Releases what is due; called by polls and the context's timer. */
    void tick() {
        if (!lock.tryLock()) return;
        try {
            release(System.nanoTime());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean postRecv(RecvWr wr) {
        injector.stallIfDue();
        return inner.postRecv(wr);
    }

    @Override
    public void close() {
        lock.lock();
        try {
            held.clear();
        } finally {
            lock.unlock();
        }
        inner.close();
        pd.forget(this);
    }
}

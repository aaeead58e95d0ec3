package dev.jccl.verbs.tcp;

import dev.jccl.util.WaitPolicy;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import dev.jccl.verbs.base.BasicCompletionQueue;

import java.io.IOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A completion queue whose consumer reads the sockets of its queue pairs itself.
 *
 * <p>Every inbound socket of a queue pair using this queue is registered with the queue's selector.
 * Polling reads a queue's one or two sockets directly, and asks the selector which of more sockets
 * hold bytes (one system call for all of them), and takes their frames
 * ({@link ReceiverAgent#consumerPump}); a waiter that has run out of spinning sleeps in
 * that selector rather than in a park. So the peer's reply wakes the thread that waits for it, once,
 * as in a plain socket ping-pong, instead of waking a receiver thread that then wakes the waiter.
 *
 * <p>Acknowledgements the consumer's frames produce are deferred while completions go back to the
 * application, which often answers at once (the answer carries them). One its peer waits for is sent
 * when the consumer comes back to poll or finds nothing; a lazy one (its requests completed when
 * posted) only once it is due ({@code OutboundLanes.flushAckIfDue}); all are sent before the consumer
 * sleeps.
 *
 * <p>Waking: producers call {@link #wake} only while the consumer sleeps in the selector. The consumer
 * stores {@code blocking}, then looks at the queue once more before selecting; a producer adds its
 * completion, then loads {@code blocking}. Both are sequentially consistent, so either the consumer
 * sees the completion or the producer sees it blocking and wakes it (a selector wake-up that comes
 * before the select makes it return at once).
 */
final class TcpCompletionQueue extends BasicCompletionQueue {
    private static final long SILENCE_CHECK_NS = 10_000_000;
    /**
     * Up to this many sockets a poll reads each one (a non-blocking read that finds nothing is one
     * system call) instead of asking the selector which hold bytes: a select is a system call too,
     * plus the selector's locks and update queues, and a socket with bytes then costs a second call.
     * A collective's link has one inbound socket per queue pair.
     */
    static final int DIRECT_READ_MAX_SOCKETS = 2;
    private final Selector selector;
    private final ContextSleeper sleeper; // the context's: a caller polling every queue sleeps there
    private final Consumer<SelectionKey> pumpReady = this::pumpReady;
    private volatile ReceiverAgent[] attached = new ReceiverAgent[0];
    private volatile boolean blocking;
    private volatile long lastPollNs;
    private int taken;          // consumer thread only: frames taken by the current selection
    private boolean handedOut;  // consumer thread only: the last poll returned completions
    private boolean selected;   // consumer thread only: a blocking select just took every socket's bytes
    private boolean deferSelect; // consumer thread only: the next poll leaves the sockets to a wait's select
    private long silenceCheckedNs; // consumer thread only

    TcpCompletionQueue(int depth, WaitPolicy wait, ContextSleeper sleeper) {
        super(depth, wait, WaitPolicy.CqKind.SOCKETS);
        this.sleeper = sleeper;
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new VerbsException("cannot open a selector for a tcp completion queue: " + e, e);
        }
        this.lastPollNs = System.nanoTime() - 2 * ConsumerLooks.GRACE_NS;
    }

    ContextSleeper sleeper() {
        return sleeper;
    }

    @Override
    public void push(long wrId, WcStatus status, WcOpcode opcode, long byteLen, int imm, boolean hasImm, int qpn, String detail) {
        super.push(wrId, status, opcode, byteLen, imm, hasImm, qpn, detail);
        sleeper.pushed();
    }

    /** Lets this queue's consumer read {@code channel} (non-blocking) for {@code agent}. */
    synchronized SelectionKey attach(ReceiverAgent agent, SocketChannel channel) throws IOException {
        SelectionKey key = channel.register(selector, SelectionKey.OP_READ, agent);
        ReceiverAgent[] a = Arrays.copyOf(attached, attached.length + 1);
        a[a.length - 1] = agent;
        attached = a;
        selector.wakeup();
        return key;
    }

    synchronized void detach(ReceiverAgent agent) {
        attached = Arrays.stream(attached).filter(a -> a != agent).toArray(ReceiverAgent[]::new);
    }

    /** Whether the consumer counts as watching its sockets: while it sleeps on them, or for {@code graceNs} after its last poll. */
    boolean watching(long nowNs, long graceNs) {
        return attached.length > 0 && (blocking || nowNs - lastPollNs < graceNs);
    }

    /** Tests: the receiver threads of this queue's sockets look every {@code ns} while a consumer watches ({@link ConsumerLooks#fixed}). */
    void receiverLooksForTests(long ns) {
        for (ReceiverAgent a : attached) a.looksForTests(ns);
    }

    /** A socket was handed back to the consumers: a sleeping consumer must select it again. */
    void wakeIfBlocked() {
        if (blocking) selector.wakeup();
    }

    /**
     * A wait's first look at the queue skips the sockets: the wait goes on to select them anyway, and
     * that select returns at once when they already hold bytes. One system call instead of two.
     */
    @Override
    public int await(WorkCompletion[] out, long timeoutNs) {
        if (timeoutNs <= 0) return poll(out);
        deferSelect = true;
        try {
            return super.await(out, timeoutNs);
        } finally {
            deferSelect = false;
        }
    }

    @Override
    public int poll(WorkCompletion[] out) {
        int n = super.poll(out);
        if (n > 0) {
            handedOut = true;
        } else {
            flushAcksIfDue();
        }
        return n;
    }

    @Override
    protected int progress() {
        ReceiverAgent[] agents = attached;
        if (agents.length == 0) return 0;
        lastPollNs = System.nanoTime();
        if (handedOut) { // the application had its chance to answer since; send what is still owed
            handedOut = false;
            flushAcksIfDue();
        }
        taken = 0;
        if (selected || deferSelect) { // one select per wake-up: the last one took what had arrived, or the next will
            selected = false;
            deferSelect = false;
            return 0;
        }
        if (agents.length <= DIRECT_READ_MAX_SOCKETS) {
            for (ReceiverAgent a : agents) taken += a.consumerPump(false);
        } else {
            try {
                selector.selectNow(pumpReady);
            } catch (IOException e) {
                throw new VerbsException("selecting the sockets of a tcp completion queue failed: " + e, e);
            } catch (ClosedSelectorException e) {
                return 0; // the queue was closed
            }
        }
        if (taken == 0) checkSilence(agents, lastPollNs);
        return taken;
    }

    /**
     * A consumer that finds nothing checks its sockets for a silent peer, as their receiver threads
     * do, so a lost peer is noticed at the same JCCL_HEARTBEAT bound when those threads are not
     * scheduled; at most every {@link #SILENCE_CHECK_NS}, so a busy poll stays one system call.
     */
    private void checkSilence(ReceiverAgent[] agents, long nowNs) {
        if (nowNs - silenceCheckedNs < SILENCE_CHECK_NS) return;
        silenceCheckedNs = nowNs;
        for (ReceiverAgent a : agents) a.consumerCheckSilence();
    }

    /**
     * Bulk transfers run on receiver and sender threads, which a spinning consumer would take a core
     * from; the wait policy does not spend the automatic budget while any of them carries some.
     */
    @Override
    protected boolean carryingBulk() {
        for (ReceiverAgent a : attached) if (a.carryingBulk()) return true;
        return false;
    }

    @Override
    protected void block(long ns) {
        if (attached.length == 0) {
            super.block(ns);
            return;
        }
        flushAcks(); // asleep, this consumer cannot carry them, and the peer's window may need them
        blocking = true;
        try {
            taken = 0;
            if (!ready() && !isClosed()) selector.select(pumpReady, Math.max(1, ns / 1_000_000));
            selected = taken > 0;
        } catch (IOException e) {
            throw new VerbsException("waiting on the sockets of a tcp completion queue failed: " + e, e);
        } catch (ClosedSelectorException e) {
            // the queue was closed; the caller sees it
        } finally {
            blocking = false;
            lastPollNs = System.nanoTime();
        }
    }

    @Override
    protected void wake(Thread consumer) {
        if (consumer == Thread.currentThread()) return; // the consumer's own frames: it is not asleep
        if (blocking) {
            selector.wakeup();
        } else {
            super.wake(consumer);
        }
    }

    @Override
    public void close() {
        super.close();
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }

    private void flushAcks() {
        for (ReceiverAgent a : attached) a.flushAcks();
    }

    private void flushAcksIfDue() {
        long now = System.nanoTime();
        for (ReceiverAgent a : attached) a.flushAcksIfDue(now);
    }

    private void pumpReady(SelectionKey key) {
        taken += ((ReceiverAgent) key.attachment()).consumerPump(true);
    }
}

package dev.jccl.testkit;

import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WorkCompletion;

import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;

/**
 * A numbered stream of 8-byte SENDs over one queue pair, and its checked reception: message i
 * carries i, every message arrives exactly once and in order, and send completions come in
 * posting order. Sender and receiver each run on their own thread and read only their own CQ.
 */
final class MessageStream {
    private static final int SOURCE_SLOTS = 32;
    static final int RECEIVE_WINDOW = 16;

    private MessageStream() {}

    /** Memory the receiving end needs; its receives are posted at once, wr_id = slot. */
    static MemoryRegion prepareReceiver(Endpoint to, QueuePair qp) {
        MemoryRegion dst = to.allocateRegion(8L * RECEIVE_WINDOW);
        for (int k = 0; k < RECEIVE_WINDOW; k++) {
            if (!qp.postRecv(new RecvWr(k, dst.sge(8L * k, 8)))) throw new AssertionError("receive queue too small for the window");
        }
        return dst;
    }

    /** Sends {@code messages} numbered SENDs, polling completions whenever the send queue or the slots are full. */
    static void send(Endpoint from, QueuePair qp, int messages) {
        MemoryRegion src = from.allocateRegion(8L * SOURCE_SLOTS);
        long completed = 0;
        for (int i = 0; i < messages; i++) {
            // A slot is rewritten only after the SEND that used it completed (completions are in order).
            while (i - completed >= SOURCE_SLOTS) completed = reap(from, completed);
            src.segment().set(ValueLayout.JAVA_LONG, 8L * (i % SOURCE_SLOTS), i);
            SendWr wr = SendWr.send(i, src.sge(8L * (i % SOURCE_SLOTS), 8));
            while (!qp.postSend(wr)) completed = reap(from, completed); // back-pressure: poll, then retry
        }
        while (completed < messages) completed = reap(from, completed);
    }

    /** Receives {@code messages} numbered SENDs into the window of {@link #prepareReceiver}, re-posting as it goes. */
    static void receive(Endpoint to, QueuePair qp, MemoryRegion dst, int messages) {
        for (int expected = 0; expected < messages; expected++) {
            WorkCompletion wc = to.recvs().next();
            int slot = expected % RECEIVE_WINDOW;
            if (!wc.ok() || wc.wrId() != slot || wc.byteLen() != 8 || wc.qpn() != qp.qpn()) {
                throw new AssertionError(to.name() + ": message " + expected + " should complete receive " + slot
                        + " of qp " + qp.qpn() + " with 8 bytes, got " + wc);
            }
            long value = dst.segment().get(ValueLayout.JAVA_LONG, 8L * slot);
            if (value != expected) throw new AssertionError(to.name() + ": message " + expected + " carried " + value);
            if (expected + RECEIVE_WINDOW < messages && !qp.postRecv(new RecvWr(slot, dst.sge(8L * slot, 8)))) {
                throw new AssertionError(to.name() + ": re-posting receive " + slot + " was refused");
            }
        }
        to.recvs().expectNone(0);
    }

    /** Runs {@code body} on a new daemon thread; the future carries its failure. */
    static CompletableFuture<Void> start(String name, Runnable body) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofPlatform().name(name).daemon().start(() -> {
            try {
                body.run();
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    private static long reap(Endpoint end, long completed) {
        end.sends().nextSuccess(completed); // RC completes sends in posting order
        return completed + 1;
    }
}

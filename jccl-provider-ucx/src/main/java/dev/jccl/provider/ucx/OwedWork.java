package dev.jccl.provider.ucx;

import java.util.ArrayDeque;

/**
 * What a context's queue pairs hold back until the start of its next progress pass: owed
 * acknowledgements ({@link OwedAck}, which a reply may carry instead) and owed flushes (a window of
 * WRITEs flushed once, see {@link UcxSender}). The agent pays before it sleeps. Guarded by the
 * worker lock; the queues grow once and are reused, so owing allocates nothing.
 */
final class OwedWork {
    private final ArrayDeque<OwedAck> acks = new ArrayDeque<>();
    private final ArrayDeque<UcxSender> flushes = new ArrayDeque<>();

    void owing(OwedAck ack) {
        acks.addLast(ack);
    }

    void flushLater(UcxSender sender) {
        flushes.addLast(sender);
    }

    /** Issues every flush and sends every acknowledgement still owed; returns how many. */
    int pay() {
        int n = 0;
        for (UcxSender s; (s = flushes.pollFirst()) != null; ) if (s.flushOwed()) n++;
        for (OwedAck a; (a = acks.pollFirst()) != null; ) if (a.pay()) n++;
        return n;
    }

    boolean isEmpty() {
        return acks.isEmpty() && flushes.isEmpty();
    }
}

package dev.jccl.verbs.tcp;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Arrays;

/**
 * The completion queues whose consumers may read one inbound socket, and the socket's selection key
 * in each of their selectors. A key is armed (OP_READ) while consumers may take the socket's frames
 * and disarmed while its receiver thread reads everything (bulk mode).
 */
final class ConsumerKeys {
    private final TcpCompletionQueue[] queues;
    private final SelectionKey[] keys;
    private SelectionKey sleeperKey; // in the context's sleeper (ContextSleeper), armed as the others

    ConsumerKeys(TcpCompletionQueue... queues) {
        this.queues = Arrays.stream(queues).distinct().toArray(TcpCompletionQueue[]::new);
        this.keys = new SelectionKey[this.queues.length];
    }

    /** Registers the (non-blocking) socket with every queue's selector. */
    void register(ReceiverAgent agent, SocketChannel channel) throws IOException {
        for (int i = 0; i < queues.length; i++) keys[i] = queues[i].attach(agent, channel);
        if (queues.length > 0) sleeperKey = queues[0].sleeper().attach(channel);
    }

    void unregister(ReceiverAgent agent) {
        for (TcpCompletionQueue cq : queues) cq.detach(agent);
        if (sleeperKey != null) sleeperKey.cancel();
    }

    /** Arms or disarms every key; an armed key wakes a consumer asleep without it, so it selects it again. */
    void arm(boolean armed) {
        if (sleeperKey != null) {
            try {
                sleeperKey.interestOps(armed ? SelectionKey.OP_READ : 0);
                if (armed) queues[0].sleeper().wakeup();
            } catch (CancelledKeyException e) {
                // the context closed
            }
        }
        for (int i = 0; i < queues.length; i++) {
            try {
                keys[i].interestOps(armed ? SelectionKey.OP_READ : 0);
                if (armed) queues[i].wakeIfBlocked();
            } catch (CancelledKeyException e) {
                // that queue closed; nobody to hand the socket back to there
            }
        }
    }

    /** Whether some consumer counts as watching the socket. */
    boolean watching(long nowNs, long graceNs) {
        for (TcpCompletionQueue cq : queues) if (cq.watching(nowNs, graceNs)) return true;
        return false;
    }
}

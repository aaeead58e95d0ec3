package dev.jccl.verbs.tcp;

import dev.jccl.verbs.ActivityWait;
import dev.jccl.verbs.VerbsException;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The {@link ActivityWait} of a tcp context: one selector over every inbound socket of the context
 * (armed while consumers may read it, as in {@link ConsumerKeys}), woken also by every completion
 * pushed to one of its queues. The collective runtime's waiting caller sleeps here, between polls of
 * all its links, so the peer's frame wakes it when it lands, rather than at the end of a timed park
 * (1 µs doubling to 100 µs) while the socket's receiver thread stays off the socket for it; and a
 * completion a receiver or sender thread pushes (bulk transfers) wakes it too.
 *
 * <p>No lost wake-up: the sleeper stores {@code sleeping}, then looks at every queue once more before
 * selecting; a producer pushes its completion, then loads {@code sleeping} (both sequentially
 * consistent). Bytes on a socket keep it readable, so they cannot be missed. One thread sleeps at a
 * time; another parks for the period instead.
 */
final class ContextSleeper implements ActivityWait {
    private static final Consumer<SelectionKey> IGNORE_KEY = key -> { };

    private final Selector selector;
    private static final VarHandle PUSHES;
    static {
        try {
            PUSHES = MethodHandles.lookup().findVarHandle(ContextSleeper.class, "pushes", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ReentrantLock sleeper = new ReentrantLock();
    private volatile boolean sleeping;

    @SuppressWarnings("unused") // through PUSHES
    private volatile long pushes; // completions pushed to the context's queues, ever
    private long pushesSeen;      // sleeper only: the count when its last sleep ended (its next poll takes those)

    ContextSleeper() {
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new VerbsException("cannot open a selector for a tcp context: " + e, e);
        }
    }

    /** Watches {@code channel} (non-blocking) for bytes; the key is armed. */
    SelectionKey attach(SocketChannel channel) throws IOException {
        SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
        wakeup();
        return key;
    }

    @Override
    public void sleep(long ns) {
        if (!sleeper.tryLock()) {
            LockSupport.parkNanos(this, ns);
            return;
        }
        try {
            sleeping = true;
            long now = pushes;
            boolean pushed = now != pushesSeen;
            pushesSeen = now;
            if (!pushed) selector.select(IGNORE_KEY, Math.max(1, ns / 1_000_000));
        } catch (IOException e) {
            throw new VerbsException("waiting on the sockets of a tcp context failed: " + e, e);
        } catch (ClosedSelectorException e) {
            // the context was closed; the caller's next poll sees it
        } finally {
            pushesSeen = pushes; // what came before this is the next poll's
            sleeping = false;
            sleeper.unlock();
        }
    }

    /** Counted like a push, so a sleep that begins just after it returns at once. */
    @Override
    public void wakeup() {
        pushed();
    }

    /** A completion was pushed to a queue of the context: a sleeper must poll again. */
    void pushed() {
        PUSHES.getAndAdd(this, 1L);
        if (sleeping) selector.wakeup();
    }

    void close() {
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway: nothing left to release
        }
    }
}

package dev.jccl.comm;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Store calls on the failure path, each with a short bound of its own. A rank whose link to the
 * store's host is down gets no answer and no error from the store for JCCL_TIMEOUT (the request
 * waits in a socket nobody will read); its failure must not wait that long. A call that does not
 * finish in time goes on, on its virtual thread, until the store client's own timeout ends it.
 */
final class StoreBound {
    /** How long a failing rank waits for the store to take or give the first failure. */
    static final long ANSWER_NS = TimeUnit.MILLISECONDS.toNanos(1000);
    /** How long the progress thread waits for one read of the abort board before it goes on. */
    static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private StoreBound() {}

    static <T> CompletableFuture<T> start(Supplier<T> call) {
        return CompletableFuture.supplyAsync(call, r -> Thread.ofVirtual().name("jccl-store-call").start(r));
    }

    /** What {@code call} returned, or empty if it did not return within {@code limitNs}; its exception is rethrown. */
    static <T> Optional<T> call(Supplier<T> call, long limitNs) {
        return await(start(call), limitNs);
    }

    /** The future's value, empty while it is not done after {@code limitNs}; its exception is rethrown. */
    static <T> Optional<T> await(CompletableFuture<T> f, long limitNs) {
        try {
            return Optional.of(f.get(limitNs, TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}

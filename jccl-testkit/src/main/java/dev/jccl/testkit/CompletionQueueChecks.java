package dev.jccl.testkit;

import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Polling and the bounded wait. No check asserts an upper bound on time. */
public abstract class CompletionQueueChecks extends ConformanceCheck {
    protected CompletionQueueChecks(ProviderTarget target) {
        super(target);
    }

    @Test
    @Timeout(30)
    void awaitOnAnEmptyQueueReturnsZeroAfterItsTimeout() {
        try (EndpointPair pair = connected()) {
            CompletionQueue cq = pair.a().recvs().queue();
            WorkCompletion[] out = WorkCompletion.array(4);
            assertEquals(0, cq.poll(out), "poll on an empty queue");
            long start = System.nanoTime();
            int n = cq.await(out, TimeUnit.MILLISECONDS.toNanos(50));
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(0, n, "await on an empty queue");
            assertTrue(waitedMs >= 40, "await(50 ms) returned after only " + waitedMs + " ms");
        }
    }

    @Test
    @Timeout(30)
    void awaitWakesForACompletionThatArrivesWhileWaiting() throws Exception {
        try (EndpointPair pair = connected()) {
            MemoryRegion dst = pair.b().allocateRegion(64);
            MemoryRegion src = pair.a().allocateRegion(64);
            post(pair.b().qp(), new RecvWr(5, dst.sge(0, 64)));
            Thread sender = Thread.ofPlatform().name("late-sender").start(() -> {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
                post(pair.a().qp(), SendWr.send(6, src.sge(0, 64)));
            });
            WorkCompletion[] out = WorkCompletion.array(4);
            int n = pair.b().recvs().queue().await(out, TimeUnit.SECONDS.toNanos(20));
            sender.join(TimeUnit.SECONDS.toMillis(20));
            assertEquals(1, n, "await while a SEND arrives");
            assertEquals(5, out[0].wrId(), out[0].toString());
            assertTrue(out[0].ok(), out[0].toString());
            pair.a().sends().nextSuccess(6);
        }
    }

    /**
     * Eight receives complete into a CQ of depth 4 that nobody polls: the next poll throws rather
     * than silently dropping completions. (The sender's eight completions, polled four at a time,
     * prove all eight messages were taken.)
     */
    @Test
    @Timeout(30)
    void anOverrunQueueFailsLoudlyOnTheNextPoll() {
        try (EndpointPair pair = connected(new EndpointPair.Options(4, 4, 8))) {
            MemoryRegion src = pair.a().allocateRegion(64);
            MemoryRegion dst = pair.b().allocateRegion(8 * 64);
            for (int i = 0; i < 8; i++) post(pair.b().qp(), new RecvWr(i, dst.sge(64L * i, 64)));
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 4; i++) post(pair.a().qp(), SendWr.send(4L * round + i, src.sge(0, 64)));
                for (int i = 0; i < 4; i++) pair.a().sends().nextSuccess(4L * round + i);
            }
            WorkCompletion[] out = WorkCompletion.array(8);
            assertThrows(VerbsException.class, () -> pair.b().recvs().queue().poll(out),
                    "poll of a CQ of depth 4 after 8 unpolled completions");
        }
    }

    @Test
    @Timeout(30)
    void pollReturnsNoMoreThanTheArrayHolds() {
        try (EndpointPair pair = connected()) {
            MemoryRegion src = pair.a().allocateRegion(64);
            MemoryRegion dst = pair.b().allocateRegion(64);
            CompletionQueue cq = pair.a().sends().queue();
            for (int i = 0; i < 3; i++) post(pair.a().qp(), SendWr.write(10 + i, src.sge(0, 64), dst.address(), dst.rkey()));
            WorkCompletion[] one = WorkCompletion.array(1);
            int seen = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (seen < 3 && System.nanoTime() < deadline) {
                int n = cq.await(one, TimeUnit.MILLISECONDS.toNanos(100));
                assertTrue(n <= 1, "poll into an array of 1 returned " + n);
                if (n == 1) assertEquals(10 + seen++, one[0].wrId(), one[0].toString());
            }
            assertEquals(3, seen, "completions seen through an array of one");
        }
    }
}

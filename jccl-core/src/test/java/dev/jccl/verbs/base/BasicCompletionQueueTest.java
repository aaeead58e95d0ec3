package dev.jccl.verbs.base;

import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
@Tag("unit")
class BasicCompletionQueueTest {
    @Test
    void completionsComeOutInOrderAndBatched() {
        BasicCompletionQueue cq = new BasicCompletionQueue(8);
        for (int i = 0; i < 5; i++) cq.push(i, WcStatus.SUCCESS, WcOpcode.SEND, i * 10, 0, false, 1, "");
        WorkCompletion[] wc = WorkCompletion.array(3);
        assertEquals(3, cq.poll(wc));
        assertEquals(2, wc[2].wrId());
        assertEquals(2, cq.poll(wc));
        assertEquals(40, wc[1].byteLen());
        assertEquals(0, cq.poll(wc));
    }

    @Test
    void anOverrunIsReportedNotSilentlyDropped() {
        BasicCompletionQueue cq = new BasicCompletionQueue(2);
        for (int i = 0; i < 3; i++) cq.push(i, WcStatus.SUCCESS, WcOpcode.SEND, 0, 0, false, 1, "");
        VerbsException e = assertThrows(VerbsException.class, () -> cq.poll(WorkCompletion.array(4)));
        assertTrue(e.getMessage().contains("overrun"));
    }

    @Test
    void awaitIsBoundedAndReturnsZeroOnTimeout() {
        BasicCompletionQueue cq = new BasicCompletionQueue(2);
        long t0 = System.nanoTime();
        assertEquals(0, cq.await(WorkCompletion.array(1), 50_000_000));
        assertTrue(System.nanoTime() - t0 >= 45_000_000);
    }

    @Test
    void manyProducersOneConsumerLoseNothing() throws Exception {
        int producers = 4;
        int each = 20_000;
        BasicCompletionQueue cq = new BasicCompletionQueue(producers * each);
        Thread[] ts = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            int base = p * each;
            ts[p] = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < each; i++) cq.push(base + i, WcStatus.SUCCESS, WcOpcode.RECV, 0, 0, false, 0, "");
            });
        }
        boolean[] seen = new boolean[producers * each];
        WorkCompletion[] wc = WorkCompletion.array(64);
        int got = 0;
        while (got < seen.length) {
            int n = cq.await(wc, 5_000_000_000L);
            assertTrue(n > 0, "stalled after " + got);
            for (int i = 0; i < n; i++) {
                assertTrue(!seen[(int) wc[i].wrId()], "duplicate " + wc[i].wrId());
                seen[(int) wc[i].wrId()] = true;
            }
            got += n;
        }
        for (Thread t : ts) t.join();
    }

    @Test
    void aParkedWaiterWakesOnAPush() throws Exception {
        BasicCompletionQueue cq = new BasicCompletionQueue(2);
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException ignored) {
                return;
            }
            cq.push(7, WcStatus.SUCCESS, WcOpcode.RECV, 0, 0, false, 0, "");
        });
        WorkCompletion[] wc = WorkCompletion.array(1);
        assertEquals(1, cq.await(wc, 10_000_000_000L));
        assertEquals(7, wc[0].wrId());
        producer.join();
    }
}

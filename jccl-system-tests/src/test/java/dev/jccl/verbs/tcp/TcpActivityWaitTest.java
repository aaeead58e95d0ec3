package dev.jccl.verbs.tcp;

import dev.jccl.verbs.ActivityWait;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tcp context's {@link ActivityWait}, where the collectives' waiting caller sleeps between polls:
 * a frame landing on a socket, a completion pushed by any thread, or a wake-up ends a sleep, and a
 * wake-up that comes just before a sleep is not lost. Each sleep asks for 30 s; the test allows 10 s,
 * so only a missed wake-up fails it, never a slow machine.
 */
@Timeout(60)
@Tag("unit")
class TcpActivityWaitTest {
    private static final long LONG_SLEEP_NS = TimeUnit.SECONDS.toNanos(30);

    @Test
    void aFrameOnTheSocketWakesTheSleeperWhileNoOtherThreadReadsIt() throws Exception {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 16); TcpPeer b = new TcpPeer(TcpPeer.config(1), 16)) {
            TcpPeer.connect(a, b);
            ((TcpQueuePair) a.qp).holdReceiverThreads(true); // only the sleeper's own selector can notice the frame
            MemoryRegion src = b.region(64), dst = a.region(64);
            assertTrue(a.qp.postRecv(new RecvWr(1, dst.sge(0, 64))));
            Thread sleeper = sleepOn(a);
            assertTrue(b.qp.postSend(SendWr.send(2, src.sge(0, 64))));
            assertWoken(sleeper, "a frame on its socket");
            ((TcpQueuePair) a.qp).holdReceiverThreads(false);
        }
    }

    @Test
    void aCompletionPushedByAnotherThreadWakesTheSleeper() throws Exception {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_INLINE", "8K"), 16);
             TcpPeer b = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_INLINE", "8K"), 16)) {
            TcpPeer.connect(a, b);
            ((TcpQueuePair) b.qp).holdReceiverThreads(true); // no ACK, no reply: the local completion is all there is
            MemoryRegion src = a.region(64), dst = b.region(64);
            Thread sleeper = sleepOn(a);
            assertTrue(a.qp.postSend(SendWr.write(3, src.sge(0, 64), dst.address(), dst.rkey())));
            assertWoken(sleeper, "a completion pushed by the posting thread");
            ((TcpQueuePair) b.qp).holdReceiverThreads(false);
        }
    }

    @Test
    void aWakeupEndsASleepAndOneJustBeforeASleepIsNotLost() throws Exception {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 16)) {
            ActivityWait wait = a.context.activityWait();
            assertNotNull(wait, "a tcp context offers a socket wait");
            wait.sleep(1); // takes whatever was counted before
            Thread sleeper = sleepOn(a);
            wait.wakeup();
            assertWoken(sleeper, "wakeup()");
            wait.wakeup();
            Thread late = sleepOn(a); // begins after the wake-up: returns at once
            assertWoken(late, "a wakeup() that came before the sleep");
        }
    }

    /** Starts a thread that sleeps {@link #LONG_SLEEP_NS} on {@code peer}'s context, and waits until it is asleep or nearly. */
    private static Thread sleepOn(TcpPeer peer) throws InterruptedException {
        Thread t = Thread.ofPlatform().daemon().start(() -> peer.context.activityWait().sleep(LONG_SLEEP_NS));
        for (int i = 0; i < 1000 && t.getState() == Thread.State.NEW; i++) Thread.sleep(1);
        Thread.sleep(50); // into the select, most of the time; a wake-up before it must work as well
        return t;
    }

    private static void assertWoken(Thread sleeper, String by) throws InterruptedException {
        sleeper.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(sleeper.isAlive(), "a 30 s sleep was not ended by " + by + " within 10 s");
    }
}

package dev.jccl.trace;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("unit")
class TimelineTest {
    @Test
    void disabledTimelineRecordsNothing() {
        Timeline t = Timeline.DISABLED;
        t.complete("backward", "fc1", 1, 2);
        try (var s = t.begin("forward", "fc1")) {
            assertFalse(t.enabled());
        }
        t.instant("optimizer", "skip", "");
        assertTrue(t.events().isEmpty());
    }

    @Test
    void registeredTimelinesAreOnePerRank() {
        assertTrue(Timeline.registered(7) == Timeline.registered(7));
        assertTrue(Timeline.registered(7) != Timeline.registered(8));
        assertTrue(Timeline.registered(7).enabled());
        assertEquals(8, Timeline.registered(8).rank());
        assertThrows(IllegalArgumentException.class, () -> Timeline.registered(-1));
    }

    @Test
    void spansKeepTheirOrderAndLength() {
        Timeline t = Timeline.forRank(3);
        long a = Timeline.nowNs();
        t.complete("backward", "fc2", a + 1_000, a + 5_000, "layer 2");
        t.complete("forward", "fc1", a, a + 900);
        List<TraceEvent> ev = t.events();
        assertEquals(2, ev.size());
        assertEquals("fc1", ev.get(0).name());
        assertEquals(900, ev.get(0).durNs());
        assertEquals(3, ev.get(1).rank());
        assertEquals(1_000, ev.get(1).startNs() - ev.get(0).startNs());
    }

    @Test
    void recordingFromManyThreadsLosesNothing() throws InterruptedException {
        Timeline t = Timeline.forRank(0);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int ch = i;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int k = 0; k < 1000; k++) t.complete("ch" + ch + " send", "chunk " + k, k, k + 1);
            }));
        }
        for (Thread th : threads) th.join();
        assertEquals(4000, t.events().size());
    }

    @Test
    void aFullTimelineCountsWhatItDrops() {
        Timeline t = Timeline.forRank(0, 100);
        for (int i = 0; i < 105; i++) t.complete("x", "y", i, i + 1);
        assertEquals(100, t.events().size());
        assertEquals(5, t.dropped());
        t.clear();
        t.complete("x", "z", 0, 1);
        assertEquals(1, t.events().size());
    }

    @Test
    void codecRoundTripsAndRefusesGarbage() {
        Timeline t = Timeline.forRank(1);
        t.complete("allreduce bucket 0", "bucket 0 \"4 MiB\"", 10, 20, "peer 2");
        t.instant("optimizer", "skipped", "overflow");
        List<TraceEvent> back = TraceEventCodec.decode(TraceEventCodec.encode(t.events()));
        assertEquals(t.events(), back);
        assertThrows(IllegalArgumentException.class, () -> TraceEventCodec.decode(new byte[] {1, 2, 3, 4, 0, 0, 0, 1}));
        byte[] ok = TraceEventCodec.encode(t.events());
        byte[] cut = java.util.Arrays.copyOf(ok, ok.length - 5);
        assertThrows(IllegalArgumentException.class, () -> TraceEventCodec.decode(cut));
    }

    @Test
    void chromeJsonNamesRanksAndTracksAndEscapes() {
        Timeline r0 = Timeline.forRank(0);
        Timeline r1 = Timeline.forRank(1);
        long now = Timeline.nowNs();
        r0.complete("forward", "fc1", now, now + 2_000);
        r0.complete("backward", "fc\"1\"", now + 2_000, now + 6_000);
        r1.complete("forward", "fc1", now + 500, now + 2_500, "line\nbreak");
        List<TraceEvent> all = new ArrayList<>(r0.events());
        all.addAll(r1.events());
        String json = ChromeTrace.toJson(all);
        assertTrue(json.startsWith("{\"displayTimeUnit\":\"ms\",\"traceEvents\":["), json);
        assertTrue(json.contains("\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"rank 1\"}"), json);
        assertTrue(json.contains("\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":2,\"args\":{\"name\":\"backward\"}"), json);
        assertTrue(json.contains("\"name\":\"fc\\\"1\\\"\""), json);
        assertTrue(json.contains("line\\nbreak"), json);
        // The earliest event is the origin; rank 1's forward started 0.5 µs later and lasted 2 µs.
        Matcher m = Pattern.compile("\"pid\":1,\"tid\":1,\"ts\":([0-9.]+),\"dur\":([0-9.]+)").matcher(json);
        assertTrue(m.find(), json);
        assertEquals(0.5, Double.parseDouble(m.group(1)), 1e-9);
        assertEquals(2.0, Double.parseDouble(m.group(2)), 1e-9);
        assertEquals(count(json, '{'), count(json, '}'));
        assertEquals(count(json, '['), count(json, ']'));
    }

    private static long count(String s, char c) {
        return s.chars().filter(x -> x == c).count();
    }
}

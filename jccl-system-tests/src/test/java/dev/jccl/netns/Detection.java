package dev.jccl.netns;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The ERROR lines of a fault scenario: how long after the fault each rank failed, and with what message. */
record Detection(int rank, long afterMs, String message) {
    private static final Pattern ERROR = Pattern.compile("ERROR at=(\\d+)(?: done=\\d+)? msg=(.*)");

    /** One detection per rank in {@code ranks}; fails, with the output, for a rank that reported none. */
    static List<Detection> of(ClusterJob job, List<Integer> ranks, long faultAtMs) {
        List<Detection> out = new ArrayList<>();
        for (int r : ranks) {
            List<String> errors = job.lines(r, "ERROR ");
            assertEquals(false, errors.isEmpty(), "rank " + r + " reported no error" + job.output());
            Matcher m = ERROR.matcher(errors.getFirst());
            assertEquals(true, m.matches(), errors.getFirst());
            out.add(new Detection(r, Long.parseLong(m.group(1)) - faultAtMs, m.group(2)));
        }
        return out;
    }

    static long slowestMs(List<Detection> all) {
        return all.stream().mapToLong(Detection::afterMs).max().orElse(-1);
    }
}

package dev.jccl.bootstrap;

import java.util.List;
import java.util.Locale;

/**
 * A bounded wait on the store ran out: some keys never appeared. Carries the missing keys and how
 * long the wait lasted, because "which rank never published what" is the first question of a hang.
 */
public class StoreTimeoutException extends StoreException {
    private final List<String> missingKeys;
    private final long waitedNs;

    public StoreTimeoutException(List<String> missingKeys, long waitedNs) {
        this(defaultMessage(missingKeys, waitedNs), missingKeys, waitedNs);
    }

    public StoreTimeoutException(String message, List<String> missingKeys, long waitedNs) {
        super(message);
        this.missingKeys = List.copyOf(missingKeys);
        this.waitedNs = waitedNs;
    }

    public List<String> missingKeys() {
        return missingKeys;
    }

    public long waitedNs() {
        return waitedNs;
    }

    /** "1.5 s", "250 ms": how long a wait lasted, for messages. */
    static String seconds(long ns) {
        return ns >= 1_000_000_000L ? String.format(Locale.ROOT, "%.1f s", ns / 1e9)
                : String.format(Locale.ROOT, "%d ms", ns / 1_000_000);
    }

    private static String defaultMessage(List<String> missing, long waitedNs) {
        int shown = Math.min(missing.size(), 8);
        String list = String.join(", ", missing.subList(0, shown).stream().map(k -> "'" + k + "'").toList())
                + (missing.size() > shown ? " and " + (missing.size() - shown) + " more" : "");
        return "store keys never appeared after waiting " + seconds(waitedNs) + ": " + list
                + " (raise JCCL_TIMEOUT if the job is just slow to start)";
    }
}

package dev.jccl.cli.launch;

import java.util.List;
import java.util.Locale;

/**
 * How a launched job ended.
 *
 * @param firstRank    global rank of this node's first process (rank of index 0 below)
 * @param exitCodes    exit status per local process, index = local rank; -1 if it could not be reaped
 * @param failedRank   global rank whose non-zero exit ended the job, or -1
 * @param failedStatus that rank's exit status
 * @param stoppedRanks processes still running when the launcher stopped the job
 * @param timedOut     the overall --timeout ran out
 * @param stopReason   why the job was stopped from outside (Ctrl-C), or null
 * @param timeoutNs    the timeout that applied, for the message
 * @param output       captured lines per local rank (stdout and stderr in arrival order), or empty lists
 */
public record LaunchResult(int firstRank, List<Integer> exitCodes, int failedRank, int failedStatus, int stoppedRanks,
                           boolean timedOut, String stopReason, long timeoutNs, List<List<String>> output) {
    /** Exit status of {@code jccl launch} when its --timeout ran out, as timeout(1) uses. */
    public static final int TIMEOUT_EXIT = 124;
    /** Exit status when the launcher was interrupted (128 + SIGINT). */
    public static final int INTERRUPTED_EXIT = 130;

    public LaunchResult {
        exitCodes = List.copyOf(exitCodes);
        output = output.stream().map(List::copyOf).toList();
    }

    public boolean succeeded() {
        return failedRank < 0 && !timedOut && stopReason == null && exitCodes.stream().allMatch(c -> c == 0);
    }

    /** The status {@code jccl launch} exits with: 0, the failed rank's status, 124 or 130. */
    public int launcherExitCode() {
        if (timedOut) return TIMEOUT_EXIT;
        if (failedRank >= 0) return failedStatus > 0 && failedStatus < 256 ? failedStatus : 1;
        if (stopReason != null) return INTERRUPTED_EXIT;
        return succeeded() ? 0 : 1;
    }

    /** One line for the operator, e.g. "jccl launch: rank 2 exited with status 137 (killed by SIGKILL); stopped 3 other ranks". */
    public String message() {
        if (failedRank >= 0) {
            return "jccl launch: rank " + failedRank + " exited with " + ExitStatus.describe(failedStatus) + "; "
                    + (stoppedRanks == 0 ? "no other rank was still running" : "stopped " + ranks(stoppedRanks, "other "));
        }
        if (timedOut) {
            return "jccl launch: timed out after " + seconds(timeoutNs) + "; stopped " + ranks(stoppedRanks, "");
        }
        if (stopReason != null) return "jccl launch: " + stopReason + "; stopped " + ranks(stoppedRanks, "");
        if (succeeded()) return "jccl launch: all " + ranks(exitCodes.size(), "") + " exited with status 0";
        return "jccl launch: exit statuses " + exitCodes;
    }

    /** Captured output of global rank {@code rank}. */
    public List<String> output(int rank) {
        return output.get(rank - firstRank);
    }

    private static String ranks(int n, String adjective) {
        return n + " " + adjective + (n == 1 ? "rank" : "ranks");
    }

    private static String seconds(long ns) {
        return String.format(Locale.ROOT, "%.1f s", ns / 1e9);
    }
}

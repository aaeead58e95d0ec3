package dev.jccl.cli.launch;

/**
 * Reads a process exit status the way a shell does: on Linux, a process killed by signal N reports
 * 128 + N, so 137 is SIGKILL (often the kernel's OOM killer) and 143 is SIGTERM.
 */
public final class ExitStatus {
    private static final String[] SIGNALS = {
            null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL",
            "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"};

    private ExitStatus() {}

    /** "status 3", "status 137 (killed by SIGKILL)", "status 134 (killed by SIGABRT)". */
    public static String describe(int status) {
        String signal = signalName(status);
        return "status " + status + (signal == null ? "" : " (killed by " + signal + ")");
    }

    /** The signal a status of 128 + N stands for, or null for an ordinary exit. */
    static String signalName(int status) {
        int n = status - 128;
        if (n < 1 || n > 64) return null;
        return n < SIGNALS.length ? SIGNALS[n] : "signal " + n;
    }
}

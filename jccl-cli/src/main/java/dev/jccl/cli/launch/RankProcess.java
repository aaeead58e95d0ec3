package dev.jccl.cli.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** One started rank: its process and the two daemon threads pumping its stdout and stderr. */
record RankProcess(int rank, Process process, Thread stdoutPump, Thread stderrPump, List<String> captured) {
    static RankProcess start(int rank, ProcessBuilder pb, PrintStream out, PrintStream err, boolean capture,
                             boolean plainStdout) throws IOException {
        Process p = pb.start();
        p.getOutputStream().close(); // ranks read no input; an open stdin pipe would only leak
        List<String> captured = capture ? new ArrayList<>() : null;
        OutputPump stdout = plainStdout ? new OutputPump(p.getInputStream(), out, "", captured)
                : new OutputPump(p.getInputStream(), out, rank, captured);
        Thread o = pump(stdout, "jccl-launch-out-" + rank);
        Thread e = pump(new OutputPump(p.getErrorStream(), err, rank, captured), "jccl-launch-err-" + rank);
        return new RankProcess(rank, p, o, e, captured);
    }

    /** Captured lines so far (a copy), or an empty list when not capturing. */
    List<String> capturedLines() {
        if (captured == null) return List.of();
        synchronized (captured) {
            return List.copyOf(captured);
        }
    }

    private static Thread pump(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}

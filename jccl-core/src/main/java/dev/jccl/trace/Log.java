package dev.jccl.trace;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The debug log, in NCCL's shape: {@code host:pid:rank [SUBSYS] message}.
 *
 * <p>Process-wide, configured once from {@link Config} (JCCL_DEBUG, JCCL_DEBUG_SUBSYS,
 * JCCL_DEBUG_FILE, JCCL_LOG). WARN lines always print unless the level is NONE. JCCL_DEBUG and
 * JCCL_DEBUG_SUBSYS decide first what jccl produces: a disabled line costs one comparison and
 * builds no string. Thread-safe: each line is one synchronized write, so lines from receiver
 * threads never interleave mid-line.
 *
 * <p><b>Where lines go.</b> With JCCL_LOG=stderr, jccl writes each line to stderr, or to
 * JCCL_DEBUG_FILE when that is set. With JCCL_LOG=system each line becomes a {@link System.Logger}
 * record instead (and is still written to JCCL_DEBUG_FILE when that is set, so the file keeps
 * working), which reaches whatever backend the application installed (SLF4J, Log4j, JUL). The
 * default, {@code auto}, is system when the application set up logging and stderr otherwise
 * ({@link LogRoute} states the rule), so a program that did nothing sees exactly the lines it
 * always did.
 *
 * <p>A record's logger is named by its subsystem ({@code dev.jccl.NET}, {@code dev.jccl.COLL}, ...),
 * so a backend can route and filter per subsystem; its level is WARNING, INFO or TRACE. Its message
 * is the whole NCCL-shaped line, prefix included: the backend knows neither the rank nor, in a
 * collected log, the host and pid, and the same line stays greppable in either destination.
 */
public final class Log {
    public enum Level { NONE, WARN, INFO, TRACE }

    private static volatile Level level = Level.WARN;
    private static volatile Set<Subsys> subsystems = EnumSet.allOf(Subsys.class);
    /** Where jccl writes lines itself: stderr, the JCCL_DEBUG_FILE, or null when only System.Logger gets them. */
    private static volatile PrintStream out = System.err;
    /** By subsystem ordinal; null unless JCCL_LOG chose System.Logger. */
    private static volatile System.Logger[] loggers;
    private static volatile String prefixHost = hostName();
    private static volatile int rank = -1;

    private Log() {}

    /** Applies the debug knobs of {@code cfg}; later calls replace earlier ones. */
    public static synchronized void configure(Config cfg) {
        level = Level.valueOf(cfg.get(Knobs.DEBUG));
        String subs = cfg.get(Knobs.DEBUG_SUBSYS);
        if (subs.isBlank() || subs.equals("ALL")) {
            subsystems = EnumSet.allOf(Subsys.class);
        } else {
            EnumSet<Subsys> s = EnumSet.noneOf(Subsys.class);
            for (String p : subs.split(",")) {
                if (!p.isBlank()) s.add(Subsys.valueOf(p.trim().toUpperCase(Locale.ROOT)));
            }
            subsystems = s;
        }
        String file = cfg.get(Knobs.DEBUG_FILE);
        PrintStream previous = out;
        loggers = LogRoute.toSystemLogger(cfg.get(Knobs.LOG)) ? LogRoute.loggers() : null;
        if (file.isBlank()) {
            out = loggers == null ? System.err : null;
        } else {
            String path = file.replace("%h", prefixHost)
                    .replace("%p", Long.toString(ProcessHandle.current().pid()))
                    .replace("%r", Integer.toString(rank));
            try {
                out = new PrintStream(new FileOutputStream(path, true), true, StandardCharsets.UTF_8);
            } catch (IOException e) {
                out = System.err;
                System.err.println("jccl: cannot open JCCL_DEBUG_FILE " + path + ": " + e.getMessage());
            }
        }
        // A log file opened by an earlier configure() is ours to close; stderr never is.
        if (previous != null && previous != System.err && previous != out) previous.close();
    }

    /** Sets the rank shown in each line once it is known. */
    public static void setRank(int r) {
        rank = r;
    }

    public static boolean enabled(Level l, Subsys s) {
        return l.ordinal() <= level.ordinal() && level != Level.NONE && (l == Level.WARN || subsystems.contains(s));
    }

    public static void warn(Subsys s, String fmt, Object... args) {
        log(Level.WARN, s, fmt, args);
    }

    public static void info(Subsys s, String fmt, Object... args) {
        log(Level.INFO, s, fmt, args);
    }

    public static void trace(Subsys s, String fmt, Object... args) {
        log(Level.TRACE, s, fmt, args);
    }

    /** At a level decided at run time, e.g. WARN where a line would otherwise be INFO. */
    public static void at(Level l, Subsys s, String fmt, Object... args) {
        log(l, s, fmt, args);
    }

    private static void log(Level l, Subsys s, String fmt, Object... args) {
        if (!enabled(l, s)) return;
        PrintStream p = out;
        System.Logger[] ls = loggers;
        System.Logger logger = ls == null ? null : ls[s.ordinal()];
        System.Logger.Level platform = LogRoute.platformLevel(l);
        boolean toLogger = logger != null && logger.isLoggable(platform);
        if (p == null && !toLogger) return;
        String msg = args.length == 0 ? fmt : String.format(Locale.ROOT, fmt, args);
        String line = prefixHost + ":" + ProcessHandle.current().pid() + ":" + rank + " [" + s + "] "
                + (l == Level.WARN ? "WARN " : "") + msg;
        if (p != null) {
            synchronized (Log.class) {
                p.println(line);
            }
        }
        if (toLogger) logger.log(platform, line);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}

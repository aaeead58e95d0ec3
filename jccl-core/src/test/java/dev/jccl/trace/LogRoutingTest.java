package dev.jccl.trace;

import dev.jccl.config.Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the debug log goes: unchanged lines on stderr when the application set nothing up, records
 * with the subsystem's logger name and the mapped level when it goes through System.Logger (here
 * the JDK's finder, so JUL receives them), and JCCL_DEBUG_FILE written either way.
 */
@Tag("unit")
class LogRoutingTest {
    /** host:pid:rank [SUBSYS] (WARN )message, as NCCL prints it. */
    private static final String LINE = "[^:\\s]+:\\d+:-?\\d+ \\[%s\\] %s";

    @AfterEach
    void quietAgain() {
        Log.configure(Config.of(Map.of()));
    }

    @Test
    void theAutoRuleSeesAnApplicationsFinderOrJulConfiguration() {
        Module jdk = System.LoggerFinder.class.getModule();
        Module logging = Logger.class.getModule();
        Module application = LogRoutingTest.class.getModule(); // unnamed, as slf4j's finder on the class path
        assertFalse(LogRoute.backendInstalled(jdk, p -> null));
        assertFalse(LogRoute.backendInstalled(logging, p -> null));
        assertTrue(LogRoute.backendInstalled(application, p -> null));
        for (String p : LogRoute.JUL_PROPERTIES) {
            assertTrue(LogRoute.backendInstalled(jdk, q -> q.equals(p) ? "/etc/logging.properties" : null), p);
        }
    }

    @Test
    void withNothingSetUpLinesGoToStderrAsBefore() {
        assertFalse(LogRoute.toSystemLogger("auto"), "this test JVM has a logging backend installed");
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Log.configure(Config.of(Map.of("JCCL_DEBUG", "INFO")));
            Log.warn(Subsys.NET, "link %d lost", 3);
            Log.info(Subsys.COLL, "plan %s", "ring");
        } finally {
            System.setErr(stderr);
        }
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(2, lines.size(), lines::toString);
        assertTrue(lines.get(0).matches(LINE.formatted("NET", "WARN link 3 lost")), lines.get(0));
        assertTrue(lines.get(1).matches(LINE.formatted("COLL", "plan ring")), lines.get(1));
    }

    @Test
    void throughSystemLoggerRecordsCarryTheSubsystemAndLevel() throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override public void publish(LogRecord r) { records.add(r); }
            @Override public void flush() {}
            @Override public void close() {}
        };
        Logger jccl = Logger.getLogger("dev.jccl");
        Level before = jccl.getLevel();
        jccl.setLevel(Level.ALL);
        jccl.setUseParentHandlers(false);
        jccl.addHandler(capture);
        Path file = Files.createTempFile("jccl-log-", ".txt");
        try {
            Log.configure(Config.of(Map.of("JCCL_LOG", "system", "JCCL_DEBUG", "TRACE", "JCCL_DEBUG_FILE", file.toString())));
            Log.warn(Subsys.NET, "link %d lost", 3);
            Log.info(Subsys.COLL, "plan %s", "ring");
            Log.trace(Subsys.SHM, "slot %d", 7);
            Log.configure(Config.of(Map.of("JCCL_LOG", "system", "JCCL_DEBUG", "WARN")));
            Log.info(Subsys.COLL, "filtered by JCCL_DEBUG first");
        } finally {
            jccl.removeHandler(capture);
            jccl.setUseParentHandlers(true);
            jccl.setLevel(before);
        }
        assertEquals(3, records.size(), records.stream().map(LogRecord::getMessage).toList()::toString);
        assertRecord(records.get(0), "dev.jccl.NET", Level.WARNING, LINE.formatted("NET", "WARN link 3 lost"));
        assertRecord(records.get(1), "dev.jccl.COLL", Level.INFO, LINE.formatted("COLL", "plan ring"));
        assertRecord(records.get(2), "dev.jccl.SHM", Level.FINER, LINE.formatted("SHM", "slot 7")); // JUL's name for TRACE
        List<String> lines = Files.readAllLines(file);
        Files.deleteIfExists(file);
        assertEquals(records.stream().map(LogRecord::getMessage).toList(), lines, "JCCL_DEBUG_FILE gets the same lines");
    }

    private static void assertRecord(LogRecord r, String logger, Level level, String message) {
        assertEquals(logger, r.getLoggerName());
        assertEquals(level, r.getLevel());
        assertTrue(r.getMessage().matches(message), r.getMessage());
    }
}

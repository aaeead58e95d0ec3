package dev.jccl.trace;

import java.util.function.UnaryOperator;

/**
 * Decides whether the debug log goes through {@link System.Logger} or is written as lines by jccl
 * itself (JCCL_LOG).
 *
 * <p>The rule for {@code auto}: the application set up logging when the installed
 * {@link System.LoggerFinder} is not the JDK's own (slf4j-jdk-platform-logging, log4j-jpl and the
 * like register one through {@code ServiceLoader}), or when java.util.logging was configured on the
 * command line ({@code java.util.logging.config.file}, {@code .config.class} or
 * {@code java.util.logging.manager}). Only then is there a backend that wants jccl's records.
 * Without a setup the JDK's finder hands records to JUL's default console handler, which would turn
 * every one-line message into two lines of a different shape; so with nothing set up the lines stay
 * as they always were, on stderr.
 */
final class LogRoute {
    /** JUL system properties that show the application configured java.util.logging. */
    static final String[] JUL_PROPERTIES = {
        "java.util.logging.config.file", "java.util.logging.config.class", "java.util.logging.manager"};

    private LogRoute() {}

    /** Whether JCCL_LOG={@code mode} sends records to System.Logger in this JVM. */
    static boolean toSystemLogger(String mode) {
        return switch (mode) {
            case "system" -> true;
            case "stderr" -> false;
            default -> backendInstalled(System.LoggerFinder.getLoggerFinder().getClass().getModule(), System::getProperty);
        };
    }

    /**
     * The {@code auto} rule, given the module of the installed finder and a system-property lookup:
     * a finder outside the JDK's logging modules, or JUL configured through its properties.
     */
    static boolean backendInstalled(Module finderModule, UnaryOperator<String> property) {
        String m = finderModule.getName();
        if (m == null || !(m.equals("java.base") || m.equals("java.logging"))) return true;
        for (String p : JUL_PROPERTIES) {
            String v = property.apply(p);
            if (v != null && !v.isBlank()) return true;
        }
        return false;
    }

    /** jccl's level as System.Logger's: WARN is WARNING, INFO and TRACE keep their names. */
    static System.Logger.Level platformLevel(Log.Level l) {
        return switch (l) {
            case WARN -> System.Logger.Level.WARNING;
            case INFO -> System.Logger.Level.INFO;
            case TRACE, NONE -> System.Logger.Level.TRACE;
        };
    }

    /** One logger per subsystem, {@code dev.jccl.NET} and so on, indexed by ordinal. */
    static System.Logger[] loggers() {
        Subsys[] all = Subsys.values();
        System.Logger[] out = new System.Logger[all.length];
        for (Subsys s : all) out[s.ordinal()] = System.getLogger(loggerName(s));
        return out;
    }

    static String loggerName(Subsys s) {
        return "dev.jccl." + s.name();
    }
}

package dev.jccl.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import scala.jdk.javaapi.CollectionConverters;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A Spark session for a test class, and the check that stopping it leaves no non-daemon thread
 * behind (Spark 3.5's barrier coordinator did: its timer kept a JVM from exiting). As an extension
 * ({@code @RegisterExtension static final LocalSpark SPARK = new LocalSpark("local[4]")}) it starts
 * the session before the class's tests and fails the class if stopping it leaves a thread behind.
 */
final class LocalSpark implements BeforeAllCallback, AfterAllCallback {
    private final String master;
    private Set<String> threadsBefore;
    private SparkSession session;

    LocalSpark(String master) {
        this.master = master;
    }

    SparkSession session() {
        return session;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        threadsBefore = nonDaemonThreads();
        session = start(master);
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        Set<String> left = stopAndFindLeftThreads(session, threadsBefore);
        if (!left.isEmpty()) throw new AssertionError("non-daemon threads left after the session stopped: " + left);
    }

    static SparkSession start(String master) {
        return start(master, Map.of());
    }

    static SparkSession start(String master, Map<String, String> settings) {
        SparkConf conf = JcclSpark.configure(new SparkConf())
                .setAll(CollectionConverters.asScala(settings))
                .setMaster(master)
                .setAppName("jccl-spark-test")
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1");
        long t0 = System.nanoTime();
        SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
        System.out.printf(Locale.ROOT, "Spark %s %s started in %.1f s%n", spark.version(), master, (System.nanoTime() - t0) / 1e9);
        return spark;
    }

    /** Names of the live non-daemon threads, leaving out main and the test runner's timeout threads. */
    static Set<String> nonDaemonThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !t.isDaemon() && !t.getName().equals("main") && !t.getName().startsWith("junit-"))
                .map(Thread::getName).collect(Collectors.toSet());
    }

    /**
     * Stops {@code spark}; returns the non-daemon threads started since {@code before} that are still
     * alive once stopping has had ten seconds to finish.
     */
    static Set<String> stopAndFindLeftThreads(SparkSession spark, Set<String> before) throws InterruptedException {
        spark.stop();
        Set<String> left = Set.of();
        for (int i = 0; i < 100; i++) {
            left = nonDaemonThreads().stream().filter(n -> !before.contains(n)).collect(Collectors.toSet());
            if (left.isEmpty()) break;
            Thread.sleep(100);
        }
        return left;
    }
}

package dev.jccl.spark;

import org.apache.spark.SparkConf;

import java.util.Arrays;
import java.util.List;

/**
 * The executor settings jccl needs on JDK 25. In {@code local[N]} the executors are the driver JVM,
 * whose own command line must carry the same flags; with separate executor JVMs (a cluster or
 * {@code local-cluster}) they travel in the configuration.
 */
final class ExecutorSetup {
    /** What jccl itself needs: FFM native access (shm mappings) and the Vector API (reduction kernels). */
    static final String JCCL_JVM_OPTIONS = "--enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector";

    private ExecutorSetup() {}

    static SparkConf apply(SparkConf conf) {
        conf.set("spark.executor.extraJavaOptions", merged(conf.get("spark.executor.extraJavaOptions", ""), JCCL_JVM_OPTIONS));
        if (!conf.contains("spark.executorEnv.SPARK_USER")) conf.setExecutorEnv("SPARK_USER", sparkUser());
        return conf;
    }

    /** SPARK_USER when set, else the operating-system user, as Spark itself would fall back to. */
    static String sparkUser() {
        String set = System.getenv("SPARK_USER");
        return set != null && !set.isBlank() ? set : System.getProperty("user.name");
    }

    /** {@code existing} as it is, then each option of {@code added} it does not already carry. */
    static String merged(String existing, String added) {
        List<String> have = Arrays.asList(existing.trim().split("\\s+"));
        StringBuilder out = new StringBuilder(existing.trim());
        for (String option : added.split(" ")) {
            if (!have.contains(option)) out.append(out.isEmpty() ? "" : " ").append(option);
        }
        return out.toString();
    }
}

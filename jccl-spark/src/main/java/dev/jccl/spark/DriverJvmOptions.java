package dev.jccl.spark;

import org.apache.spark.launcher.JavaModuleOptions;

/**
 * Prints the JVM options a Spark driver started with plain {@code java} needs on JDK 25 to run jccl
 * in {@code local[N]}, where the executors are the driver JVM: Spark's own module options (which
 * spark-submit and the cluster managers add by themselves) plus jccl's, less the opening of
 * {@code sun.security.action}, a package JDK 24 removed (the JVM warns about it at every start). Scripts use it as
 * {@code java $(java -cp CP dev.jccl.spark.DriverJvmOptions) ...}.
 */
public final class DriverJvmOptions {
    private DriverJvmOptions() {}

    private static final String REMOVED_PACKAGE = "--add-opens=java.base/sun.security.action=ALL-UNNAMED";

    public static String text() {
        String spark = JavaModuleOptions.defaultModuleOptions().replace(REMOVED_PACKAGE, "").replaceAll("\\s+", " ");
        return ExecutorSetup.merged(spark, ExecutorSetup.JCCL_JVM_OPTIONS);
    }

    public static void main(String[] args) {
        System.out.println(text());
    }
}

package dev.jccl.netns;

/**
 * The scenario table's rows: each scenario test prints one line, {@code SCENARIO | name | outcome
 * | figures}, which bench/netns-cluster.sh collects into the table.
 */
final class Scenarios {
    private Scenarios() {}

    static void report(String scenario, String outcome, String figures) {
        System.out.println("SCENARIO | " + scenario + " | " + outcome + " | " + figures);
        System.out.flush();
    }
}

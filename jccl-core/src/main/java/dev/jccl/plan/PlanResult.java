package dev.jccl.plan;

import java.util.List;

/** Every algorithm's prediction for one request, in {@link Planner#ALGORITHMS} order, and the tuner's pick with its reason. */
public record PlanResult(PlanRequest request, List<AlgorithmPlan> algorithms, String choice, String why) {
    public PlanResult {
        algorithms = List.copyOf(algorithms);
    }

    public AlgorithmPlan get(String algorithm) {
        return algorithms.stream().filter(a -> a.algorithm().equals(algorithm)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no algorithm " + algorithm + " in the plan"));
    }

    public AlgorithmPlan chosen() {
        return get(choice);
    }
}

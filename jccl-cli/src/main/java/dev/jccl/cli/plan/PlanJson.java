package dev.jccl.cli.plan;

import dev.jccl.plan.AlgorithmPlan;
import dev.jccl.plan.PlanRequest;
import dev.jccl.plan.SimResult;
import dev.jccl.plan.StepEstimate;
import dev.jccl.trace.JsonWriter;

import java.util.List;
import java.util.Map;

/** {@code jccl plan --json}: one object with the same numbers as the table (times in ns, sizes in bytes). */
final class PlanJson {
    private PlanJson() {}

    static String render(PlanOutcome o, List<SimRow> sims) {
        StringBuilder sb = new StringBuilder();
        JsonWriter j = new JsonWriter(sb).beginObject();
        PlanJob job = o.job();
        PlanRequest r = job.request();
        j.name("params").value(job.params()).name("gradientBytes").value(job.gradientBytes()).name("wireBytes").value(r.bytes());
        j.name("hosts").value(r.hosts()).name("ranksPerHost").value(r.ranksPerHost()).name("ranks").value(r.ranks());
        link(j.name("intra"), r.intra().name(), r.intra().gbytesPerSec(), r.intra().latencyNs());
        link(j.name("inter"), r.inter().name(), r.inter().gbytesPerSec(), r.inter().latencyNs());
        j.name("computeNs").value(job.computeNs()).name("bucketBytes").value(job.bucketBytes()).name("buckets").value(job.buckets())
                .name("accumulation").value(job.accumulation());
        j.name("algorithms").beginArrayLinePerElement();
        for (AlgorithmPlan a : o.plan().algorithms()) {
            j.beginObject().name("name").value(a.algorithm());
            if (!a.applicable()) {
                j.name("notApplicable").value(a.notApplicable()).endObject();
                continue;
            }
            j.name("allreduceNs").value(a.timeNs()).name("busbwGBps").value(a.busbwGBps(), 3).name("channels").value(a.channels())
                    .name("chunkBytes").value(a.chunkBytes()).name("sentBytesPerRank").value(a.sentBytesPerRank())
                    .name("crossHostBytesPerRank").value(a.crossHostBytesPerRank()).name("hostLinkBytes").value(a.hostLinkBytes());
            StepEstimate s = o.steps().get(a.algorithm());
            if (s != null) {
                j.name("syncNs").value(s.syncNs()).name("exposedNs").value(s.exposedNs()).name("hiddenNs").value(s.hiddenNs())
                        .name("stepNs").value(s.stepNs()).name("exposedShare").value(s.exposedShare(), 4);
            }
            j.endObject();
        }
        j.endArray();
        j.name("tunerChoice").value(o.plan().choice()).name("tunerWhy").value(o.plan().why());
        j.name("fp32AllreduceNs").value(o.fp32Ns()).name("bf16AllreduceNs").value(o.bf16Ns()).name("normRoundNs").value(o.normRoundNs());
        j.name("hideInterGBps").value(o.hideGBps(), 3);
        j.name("findings").beginArray();
        for (String line : PlanFindings.lines(o)) j.value(line);
        j.endArray();
        chart(j.name("chart"), o.chart());
        j.name("simulation").beginArrayLinePerElement();
        for (SimRow row : sims) {
            j.beginObject().name("ranks").value(row.ranks()).name("algorithm").value(row.algorithm());
            SimResult s = row.result();
            if (s == null) {
                j.name("notApplicable").value(row.skipped()).endObject();
                continue;
            }
            j.name("bytes").value(s.bytes()).name("simulatedNs").value(s.simulatedNs()).name("closedFormNs").value(s.closedFormNs())
                    .name("difference").value(s.difference(), 4).name("simChunkBytes").value(s.simChunkBytes()).name("events").value(s.events())
                    .name("wallNs").value(s.wallNs()).name("busiest").value(s.bottleneck());
            j.name("reasons").beginArray();
            for (String why : s.reasons()) j.value(why);
            j.endArray().endObject();
        }
        j.endArray().endObject();
        return sb.toString();
    }

    private static void link(JsonWriter j, String name, double gbps, long latencyNs) {
        j.beginObject().name("name").value(name).name("GBps").value(gbps, 3).name("latencyNs").value(latencyNs).endObject();
    }

    /** {"ranks": [..], "series": {"ring": [ns or null, ..], ..}}. */
    static void chart(JsonWriter j, Map<Integer, Map<String, Long>> chart) {
        j.beginObject().name("ranks").beginArray();
        for (int n : chart.keySet()) j.value(n);
        j.endArray().name("series").beginObject();
        for (String alg : chart.values().iterator().next().keySet()) {
            j.name(alg).beginArray();
            for (Map<String, Long> row : chart.values()) {
                long ns = row.get(alg);
                if (ns < 0) j.nullValue();
                else j.value(ns);
            }
            j.endArray();
        }
        j.endObject().endObject();
    }
}

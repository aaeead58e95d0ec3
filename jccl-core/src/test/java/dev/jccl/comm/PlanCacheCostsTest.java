package dev.jccl.comm;

import dev.jccl.algo.Collective;
import dev.jccl.algo.CostParams;
import dev.jccl.algo.HostTopology;
import dev.jccl.algo.Plan;
import dev.jccl.algo.TuneRequest;
import dev.jccl.algo.Tuner;
import dev.jccl.algo.TunerOverrides;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runtime's cost parameters: where links are sockets, channels are capped by the cores a rank has to itself. */
@Tag("unit")
class PlanCacheCostsTest {
    @Test
    void channelsAreCappedByTheCoresEachRankHasToItself() {
        assertEquals(1, PlanCache.costParams(0).maxChannels(), "more ranks than cores");
        assertEquals(1, PlanCache.costParams(1).maxChannels());
        assertEquals(2, PlanCache.costParams(2).maxChannels());
        assertEquals(CostParams.defaults().maxChannels(), PlanCache.costParams(64).maxChannels(), "never above the tuner's own bound");
    }

    @Test
    void onlyJobsWithSocketLinksAreBoundedByCores() {
        assertEquals(Integer.MAX_VALUE, PlanCache.coresPerRank(HostTopology.singleHost(2), true, 2), "one host, shm: no threads per channel");
        assertEquals(1, PlanCache.coresPerRank(HostTopology.singleHost(2), false, 2), "one host, no shm: tcp");
        assertEquals(2, PlanCache.coresPerRank(HostTopology.uniform(2, 4), true, 8), "ranks on another host: sockets");
        assertEquals(CostParams.defaults().maxChannels(), PlanCache.costParams(Integer.MAX_VALUE).maxChannels());
    }

    @Test
    void aRankWithOneCoreRunsALargeCrossHostAllreduceOnOneChannelWhereOneWithManyUsesMore() {
        TuneRequest req = new TuneRequest(Collective.ALL_REDUCE, 64L << 20, HostTopology.uniform(2, 1));
        Plan many = Tuner.plan(req, PlanCache.costParams(8), TunerOverrides.NONE);
        Plan one = Tuner.plan(req, PlanCache.costParams(1), TunerOverrides.NONE);
        assertTrue(many.channels() > 1, many.why());
        assertEquals(1, one.channels(), one.why());
    }

    @Test
    void twoRanksOnOneHostOverShmRunLargeAllreducesOnAtLeastFourChannels() {
        assertTrue(PlanCache.wideShm(HostTopology.singleHost(2), true));
        assertFalse(PlanCache.wideShm(HostTopology.singleHost(2), false), "tcp");
        assertFalse(PlanCache.wideShm(HostTopology.singleHost(4), true), "measured for two ranks only");
        assertFalse(PlanCache.wideShm(HostTopology.uniform(2, 1), true), "two hosts");
        CostParams shm = PlanCache.costParams(Integer.MAX_VALUE);
        TuneRequest req = new TuneRequest(Collective.ALL_REDUCE, PlanCache.WIDE_SHM_BYTES, HostTopology.singleHost(2));
        Plan model = Tuner.plan(req, shm, TunerOverrides.NONE);
        Plan floored = Tuner.plan(req, shm, TunerOverrides.NONE, PlanCache.WIDE_SHM);
        assertTrue(model.channels() < 4, "the model alone keeps fewer: " + model.why());
        assertEquals(4, floored.channels(), floored.why());
        assertTrue(floored.why().contains("at least 4 channels"), floored.why());
        Plan forced = Tuner.plan(req, shm, TunerOverrides.fromKnobs("", 1, 0, 0), PlanCache.WIDE_SHM);
        assertEquals(1, forced.channels(), "JCCL_NCHANNELS wins over the floor: " + forced.why());
    }
}

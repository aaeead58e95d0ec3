package dev.jccl.faults;

import dev.jccl.testkit.debug.CampaignRun;
import dev.jccl.testkit.debug.FaultCampaign;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A small fault campaign (bench/fault-campaign.sh runs the large ones): no hang, no wrong result. */
@Tag("slow")
class FaultCampaignTest {
    @Test
    @Timeout(300)
    void aFewSeededRunsNeitherHangNorLie() {
        int runs = 12;
        Map<CampaignRun.Outcome, Integer> counts = FaultCampaign.run(runs, 1, false);
        String summary = FaultCampaign.summary(runs, counts);
        System.out.println(summary);
        assertEquals(0, counts.get(CampaignRun.Outcome.HANG) + counts.get(CampaignRun.Outcome.WRONG), summary);
    }
}

package dev.jccl.algo;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.jccl.config.Config;
import dev.jccl.config.ConfigException;
import dev.jccl.config.Knobs;

import static dev.jccl.algo.TunerTest.plan;
import static dev.jccl.algo.TunerTest.topo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Overrides win over the model; bad overrides fail naming the knob and the value. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("unit")
class TunerOverridesTest {
    private static String refused(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void aForcedAlgorithmChannelCountAndChunkWin() {
        TunerOverrides o = TunerOverrides.NONE.withAlgorithms(Algorithm.TREE).withChannels(3).withChunkBytes(64 << 10);
        Plan p = plan(Collective.ALL_REDUCE, "256M", topo("1x8"), o);
        assertEquals(Algorithm.TREE, p.algorithm());
        assertEquals(3, p.channels());
        assertEquals(64 << 10, p.chunkBytes());
        assertTrue(p.why().endsWith("; JCCL_ALGO=tree; JCCL_NCHANNELS=3; JCCL_CHUNKSIZE=65536"), p.why());
    }

    @Test
    void aListOfAlgorithmsIsAChoiceAmongThem() {
        TunerOverrides o = TunerOverrides.fromKnobs("Ring, TREE", 0, 0, 0);
        assertEquals(List.of(Algorithm.RING, Algorithm.TREE), o.algorithms());
        assertEquals(Algorithm.TREE, plan(Collective.ALL_REDUCE, "8", topo("1x8"), o).algorithm());
        assertEquals(Algorithm.RING, plan(Collective.ALL_REDUCE, "256M", topo("1x8"), o).algorithm());
    }

    @Test
    void theBufferSizeBoundsTheChosenChunk() {
        Plan p = plan(Collective.ALL_REDUCE, "256M", topo("1x8"), TunerOverrides.NONE.withBuffBytes(256 << 10));
        assertEquals(256 << 10, p.buffBytes());
        assertTrue(p.chunkBytes() <= (256 << 10) / Tuner.SLOTS, p.why());
    }

    @Test
    void aForcedAlgorithmThatCannotRunFallsBackAndSaysWhy() {
        Plan uneven = plan(Collective.ALL_REDUCE, "64M", HostTopology.of(0, 0, 0, 1, 1), TunerOverrides.NONE.withAlgorithms(Algorithm.HIERARCHICAL));
        assertEquals(Algorithm.RING, uneven.algorithm(), uneven.why());
        assertTrue(uneven.why().contains("JCCL_ALGO=hierarchical cannot run here (hierarchical needs equal ranks per host, "
                + "but there are 2 hosts with 3,2 ranks); using ring"), uneven.why());
        Plan a2a = plan(Collective.ALL_TO_ALL, "1M", topo("1x4"), TunerOverrides.NONE.withAlgorithms(Algorithm.RING));
        assertEquals(Algorithm.PAIRWISE, a2a.algorithm());
        assertTrue(a2a.why().contains("JCCL_ALGO=ring cannot run here (ring does not implement allToAll); using pairwise"), a2a.why());
    }

    @Test
    void forcedHierarchicalOnOneHostRunsAsAsked() {
        assertEquals(Algorithm.HIERARCHICAL, plan(Collective.ALL_REDUCE, "1M", topo("1x4"),
                TunerOverrides.NONE.withAlgorithms(Algorithm.HIERARCHICAL)).algorithm());
    }

    @Test
    void badOverridesAreRefusedNamingKnobAndValue() {
        String m = refused(() -> TunerOverrides.fromKnobs("ring,fastest", 0, 0, 0));
        assertTrue(m.contains("JCCL_ALGO=ring,fastest is invalid: unknown algorithm 'fastest'; expected one of ring, tree, "
                + "halving_doubling, recursive_doubling, hierarchical"), m);
        m = refused(() -> TunerOverrides.fromKnobs("", -2, 0, 0));
        assertTrue(m.contains("JCCL_NCHANNELS=-2 is invalid"), m);
        m = refused(() -> new TunerOverrides(List.of(), OptionalInt.of(0), OptionalLong.empty(), OptionalLong.empty()));
        assertTrue(m.contains("JCCL_NCHANNELS=0 is invalid: need 1..64 channels"), m);
        refused(() -> TunerOverrides.NONE.withChannels(65));
        m = refused(() -> TunerOverrides.NONE.withChunkBytes(0));
        assertTrue(m.contains("JCCL_CHUNKSIZE=0"), m);
        m = refused(() -> TunerOverrides.NONE.withBuffBytes(1 << 20).withChunkBytes(1 << 20));
        assertTrue(m.contains("JCCL_CHUNKSIZE=1048576 does not fit twice in JCCL_BUFFSIZE=1048576"), m);
        refused(() -> TunerOverrides.NONE.withChunkBytes(4 << 20));
    }

    @Test
    void theKnobsFeedTheOverrides() {
        Config cfg = Config.of(Map.of("JCCL_ALGO", " Halving_Doubling ", "JCCL_NCHANNELS", "2", "JCCL_CHUNKSIZE", "32K"));
        TunerOverrides o = TunerOverrides.fromKnobs(cfg.get(Knobs.ALGO), cfg.get(Knobs.NCHANNELS), cfg.get(Knobs.CHUNKSIZE), cfg.get(Knobs.BUFFSIZE));
        Plan p = plan(Collective.ALL_REDUCE, "256M", topo("1x8"), o);
        assertEquals(Algorithm.HALVING_DOUBLING, p.algorithm());
        assertEquals(2, p.channels());
        assertEquals(32 << 10, p.chunkBytes());

        Config defaults = Config.of(Map.of());
        TunerOverrides none = TunerOverrides.fromKnobs(defaults.get(Knobs.ALGO), defaults.get(Knobs.NCHANNELS),
                defaults.get(Knobs.CHUNKSIZE), defaults.get(Knobs.BUFFSIZE));
        assertEquals(List.of(), none.algorithms());
        assertTrue(none.channels().isEmpty() && none.chunkBytes().isEmpty());
        assertEquals(Tuner.DEFAULT_BUFF_BYTES, none.buffBytes().orElseThrow(), "JCCL_BUFFSIZE's default and the tuner's agree");
        assertTrue(Knobs.ALL.containsAll(List.of(Knobs.ALGO, Knobs.NCHANNELS, Knobs.CHUNKSIZE, Knobs.BUFFSIZE)));
    }

    @Test
    void theKnobsRejectNonsenseAtStartup() {
        assertThrows(ConfigException.class, () -> Config.of(Map.of("JCCL_NCHANNELS", "0")));
        assertThrows(ConfigException.class, () -> Config.of(Map.of("JCCL_NCHANNELS", String.valueOf(Channels.MAX_CHANNELS + 1))));
        assertEquals(Channels.MAX_CHANNELS, Config.of(Map.of("JCCL_NCHANNELS", String.valueOf(Channels.MAX_CHANNELS))).get(Knobs.NCHANNELS));
        assertEquals(0, Config.of(Map.of("JCCL_NCHANNELS", "AUTO")).get(Knobs.NCHANNELS));
        assertThrows(ConfigException.class, () -> Config.of(Map.of("JCCL_CHUNKSIZE", "0")));
        assertThrows(ConfigException.class, () -> Config.of(Map.of("JCCL_BUFFSIZE", "auto")));
    }

    @Test
    void costParametersAreChecked() {
        refused(() -> LinkParams.of(1, 0, 1, 0));
        refused(() -> new LinkParams(1, 1, 0.5, 0));
        refused(() -> new CostParams(CostParams.defaults().shm(), CostParams.defaults().net(), 0.1, 0, 0));
    }
}

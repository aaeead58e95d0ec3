package dev.jccl.config;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("unit")
class ConfigTest {
    @Test
    void defaultsApplyAndRecordTheirSource() {
        Config c = Config.of(Map.of());
        assertEquals(60_000_000_000L, c.get(Knobs.TIMEOUT_NS));
        assertEquals(Config.Source.DEFAULT, c.entry(Knobs.TIMEOUT_NS).source());
    }

    @Test
    void explicitValuesWinAndAreParsedOnce() {
        Config c = Config.of(Map.of("JCCL_TIMEOUT", "5s", "JCCL_QPS_PER_CONNECTION", "4"));
        assertEquals(5_000_000_000L, c.get(Knobs.TIMEOUT_NS));
        assertEquals(4, c.get(Knobs.QPS_PER_CONNECTION));
        assertEquals(Config.Source.EXPLICIT, c.entry(Knobs.QPS_PER_CONNECTION).source());
    }

    @Test
    void badValuesFailAtStartupNamingTheKnob() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> Config.of(Map.of("JCCL_QPS_PER_CONNECTION", "0")));
        assertTrue(e.getMessage().contains("JCCL_QPS_PER_CONNECTION='0'"), e.getMessage());
        assertThrows(ConfigException.class, () -> Config.of(Map.of("JCCL_DEBUG", "LOUD")));
        assertThrows(ConfigException.class, () -> Config.of(Map.of("JCCL_TIMEOUT", "0")));
    }

    @Test
    void theWaitPolicyIsConcludedFromJcclSpin() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(20_000, Config.of(Map.of("JCCL_SPIN", "20us")).waitPolicy(1).caller(false).spinNs());
        assertEquals(0, Config.of(Map.of("JCCL_SPIN", "0")).waitPolicy(1).caller(false).spinNs());
        assertTrue(Config.of(Map.of()).waitPolicy(cores + 1).oversubscribed());
        assertEquals(0, Config.of(Map.of()).waitPolicy(cores + 1).caller(false).spinNs(), "auto spins nothing oversubscribed");
    }

    @Test
    void unknownKnobsAreRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> Config.of(Map.of("JCCL_TIMEOUTT", "5s")));
        assertTrue(e.getMessage().contains("JCCL_TIMEOUTT"));
    }

    @Test
    void withKeepsEarlierValuesAndAddsNewOnes() {
        Config c = Config.of(Map.of("JCCL_TIMEOUT", "5s")).with(Map.of("JCCL_DEBUG", "INFO"));
        assertEquals(5_000_000_000L, c.get(Knobs.TIMEOUT_NS));
        assertEquals("INFO", c.get(Knobs.DEBUG));
    }

    @Test
    void tcpAdvertiseTakesAnAddressAndAPortOrNothing() {
        assertEquals("", Knobs.TCP_ADVERTISE.parse(""));
        assertEquals("10.213.1.1:31000", Knobs.TCP_ADVERTISE.parse(" 10.213.1.1:31000 "));
        for (String bad : new String[] {"10.213.1.1", ":31000", "10.213.1.1:0", "10.213.1.1:70000", "host:port"}) {
            assertThrows(RuntimeException.class, () -> Knobs.TCP_ADVERTISE.parse(bad), bad);
        }
    }

    @Test
    void everyKnobHasADocLineAndAParsableDefault() {
        for (Knob<?> k : Knobs.ALL) {
            assertTrue(k.name().startsWith("JCCL_"), k.name());
            assertTrue(!k.doc().isBlank(), k.name());
            k.parse(k.defaultText());
        }
    }
}

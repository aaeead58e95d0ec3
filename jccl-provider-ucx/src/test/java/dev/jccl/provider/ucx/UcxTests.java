package dev.jccl.provider.ucx;

import org.junit.jupiter.api.Assumptions;

/**
 * Where libucp is missing, the UCX tests are skipped. The loud line is the conformance suite's
 * ("SKIPPED conformance of ucx: ... apt-get install libucx0"), printed once per run; the other
 * tests skip with the same reason in their reports, without repeating it.
 */
final class UcxTests {
    private UcxTests() {}

    static void assumeUcpLoads() {
        UcpLibrary.unavailabilityCause().ifPresent(cause -> Assumptions.abort("ucx unavailable: " + cause));
    }
}

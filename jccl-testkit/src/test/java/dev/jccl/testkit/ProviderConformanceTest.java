package dev.jccl.testkit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

/** Runs the conformance suite against shm, tcp with one and four sockets per QP, and any other provider found. */
@ParameterizedClass(name = "{0}")
@MethodSource("targets")
@Tag("multiprocess")
class ProviderConformanceTest extends ProviderConformanceSuite {
    ProviderConformanceTest(ProviderTarget target) {
        super(target);
    }

    static List<ProviderTarget> targets() {
        return ProviderTarget.standard();
    }
}

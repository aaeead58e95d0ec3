package dev.jccl.provider.ucx;

import dev.jccl.testkit.ProviderConformanceSuite;
import dev.jccl.testkit.ProviderTarget;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;

/**
 * The provider conformance suite against UCX. The build runs it twice, with UCX_TLS limited to the
 * shared-memory transports and to tcp (UCX_NET_DEVICES=lo), so nothing leaves loopback; without
 * libucp it is skipped with one line saying so.
 */
@Tag("multiprocess")
@ParameterizedClass(name = "{0}")
@MethodSource("targets")
class UcxConformanceTest extends ProviderConformanceSuite {
    UcxConformanceTest(ProviderTarget target) {
        super(target);
    }

    static List<ProviderTarget> targets() {
        return List.of(ProviderTarget.of("ucx", Map.of(), ProviderTarget.PrivateMemoryRule.EITHER));
    }
}

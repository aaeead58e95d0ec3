package dev.jccl.testkit;

import org.junit.jupiter.api.Nested;

/**
 * The conformance suite every verbs provider must pass, written against the SPI only.
 *
 * <p>A concrete test class extends this and supplies one {@link ProviderTarget} per instance, for
 * example as a {@code @ParameterizedClass} over {@link ProviderTarget#standard()}; every group of
 * checks below then runs against that target. A target that cannot run here is skipped with its
 * reason, never silently.
 */
public abstract class ProviderConformanceSuite {
    private final ProviderTarget target;

    protected ProviderConformanceSuite(ProviderTarget target) {
        this.target = target;
    }

    public ProviderTarget target() {
        return target;
    }

    @Nested
    class Devices extends DeviceChecks {
        Devices() { super(ProviderConformanceSuite.this.target); }
    }

    @Nested
    class Registration extends RegistrationChecks {
        Registration() { super(ProviderConformanceSuite.this.target); }
    }

    @Nested
    class RemoteAccess extends RemoteAccessChecks {
        RemoteAccess() { super(ProviderConformanceSuite.this.target); }
    }

    @Nested
    class LocalProtection extends LocalProtectionChecks {
        LocalProtection() { super(ProviderConformanceSuite.this.target); }
    }

    @Nested
    class QpStates extends QpStateChecks {
        QpStates() { super(ProviderConformanceSuite.this.target); }
    }

    @Nested
    class Transfers extends TransferChecks {
        Transfers() { super(ProviderConformanceSuite.this.target); }
    }

    @Nested
    class Ordering extends OrderingChecks {
        Ordering() { super(ProviderConformanceSuite.this.target); }
    }

    @Nested
    class ReceiverErrors extends ReceiverErrorChecks {
        ReceiverErrors() { super(ProviderConformanceSuite.this.target); }
    }

    @Nested
    class QueueDepth extends QueueDepthChecks {
        QueueDepth() { super(ProviderConformanceSuite.this.target); }
    }

    @Nested
    class PeerLoss extends PeerLossChecks {
        PeerLoss() { super(ProviderConformanceSuite.this.target); }
    }

    @Nested
    class CompletionQueues extends CompletionQueueChecks {
        CompletionQueues() { super(ProviderConformanceSuite.this.target); }
    }
}

package dev.jccl.testkit;

import dev.jccl.verbs.Device;
import dev.jccl.verbs.Port;
import dev.jccl.verbs.VerbsProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a usable provider lists, as {@code ibv_devinfo} would show it, and what an opened context reports. */
public abstract class DeviceChecks extends ConformanceCheck {
    protected DeviceChecks(ProviderTarget target) {
        super(target);
    }

    @Test
    @Timeout(30)
    void aUsableProviderListsDevicesWithNumberedPorts() {
        VerbsProvider provider = target.requireUsable();
        List<Device> devices = provider.devices(target.config());
        assertFalse(devices.isEmpty(), target + " is usable but lists no device");
        for (Device d : devices) {
            assertEquals(provider.name(), d.provider(), "provider named by " + d);
            assertFalse(d.name().isBlank(), "device name of " + d);
            assertFalse(d.ports().isEmpty(), "ports of " + d);
            for (int i = 0; i < d.ports().size(); i++) {
                Port p = d.ports().get(i);
                assertEquals(i + 1, p.number(), "ports are numbered from 1: " + d);
                assertTrue(p.mtu() > 0, "mtu of " + p);
            }
        }
    }

    @Test
    @Timeout(30)
    void anOpenedContextReportsItsDevice() {
        try (EndpointPair pair = EndpointPair.open(target, EndpointPair.Options.DEFAULT)) {
            Device opened = target.activeDevice(target.requireUsable());
            assertEquals(opened.name(), pair.a().context().device().name());
            assertEquals(opened.provider(), pair.a().context().device().provider());
            assertEquals(pair.a().context(), pair.a().pd().context(), "the domain's context");
            assertFalse(pair.a().qp().describe().isBlank(), "describe() of a queue pair");
        }
    }
}

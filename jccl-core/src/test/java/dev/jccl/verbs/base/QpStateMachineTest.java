package dev.jccl.verbs.base;

import dev.jccl.verbs.QpState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("unit")
class QpStateMachineTest {
    @Test
    void followsResetInitRtrRts() {
        QpStateMachine m = new QpStateMachine(3);
        assertFalse(m.canPostRecv());
        m.toInit();
        assertTrue(m.canPostRecv());
        assertFalse(m.canPostSend());
        m.toRtr();
        m.toRts();
        assertEquals(QpState.RTS, m.state());
        assertTrue(m.canPostSend());
    }

    @Test
    void refusesSkippingAndGoingBackNamingBothStates() {
        QpStateMachine m = new QpStateMachine(3);
        IllegalStateException e = assertThrows(IllegalStateException.class, m::toRtr);
        assertTrue(e.getMessage().contains("RESET -> RTR"), e.getMessage());
        m.toInit();
        assertThrows(IllegalStateException.class, m::toRts);
        assertThrows(IllegalStateException.class, m::toInit);
        assertEquals(QpState.INIT, m.state());
    }

    @Test
    void errorIsReachableFromAnywhereAndReportedOnce() {
        QpStateMachine m = new QpStateMachine(3);
        assertTrue(m.toErr());
        assertFalse(m.toErr());
        assertThrows(IllegalStateException.class, m::toInit);
    }
}

package mpi.rma.internal.creation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Supplier;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every window flavour refuses MPJ Express's hybdev before anything collective (so with a null communicator too),
 * with ERR_UNSUPPORTED_OPERATION naming the devices to use; the real job is {@code mpjrun.HybdevWindowsTest}.
 */
public class WindowDevicesTest
{
    @AfterEach
    void forgetTheDevice()
    {
        mpjdev.MPJDev.deviceName = null;
    }

    @Test
    void shouldRefuseEveryFlavourOnHybdev()
    {
        mpjdev.MPJDev.deviceName = WindowDevices.HYBDEV;

        assertRefused("Win.create", () -> Win.create(new double[4], Double.BYTES, null, null));
        assertRefused("Win.allocate", () -> Win.allocate(32, 1, null, null));
        assertRefused("Win.allocateShared", () -> Win.allocateShared(32, 1, null, null));
        assertRefused("Win.createDynamic", () -> Win.createDynamic(null, null));
    }

    @Test
    void shouldLeaveOtherDevicesToTheUsualChecks()
    {
        mpjdev.MPJDev.deviceName = "niodev";

        final RmaException e = assertThrows(RmaException.class, () -> Win.createDynamic(null, null));

        assertEquals(ErrorClass.ERR_COMM, e.errorClass(), e.getMessage());
    }

    private static void assertRefused(final String call, final Supplier<Win> creation)
    {
        final RmaException e = assertThrows(RmaException.class, creation::get);

        assertEquals(ErrorClass.ERR_UNSUPPORTED_OPERATION, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().startsWith("MPI_ERR_UNSUPPORTED_OPERATION: " + call +
            ": windows are not supported on MPJ Express's -dev hybdev"),
            e.getMessage());
        assertTrue(e.getMessage().contains("-dev niodev") && e.getMessage().contains("-dev shm"), e.getMessage());
    }
}

package conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import mpjrun.MpjDevice;
import org.junit.jupiter.api.Test;

/** The dynamic flavour on the matrix's flavour axis: named, run, and skipped only with a reason. */
class FlavourAxisTest
{
    @Test
    void shouldNameTheDynamicFlavourByItsCall()
    {
        assertEquals(Flavour.DYNAMIC, Flavour.named("createDynamic"));
        assertEquals(Set.of(Flavour.DYNAMIC, Flavour.CREATE), Flavour.parse("createDynamic,create"));
        assertEquals("niodev np3 createDynamic 2 nodes",
            Configuration.of(MpjDevice.NIODEV, 3, Flavour.DYNAMIC, 2, "kupl").label());
    }

    @Test
    void shouldRunDynamicWindowsOnEveryDeviceAndOnTwoNodesInTheFullMatrix()
    {
        final List<Configuration> full = ConformanceMatrix.full(List.of(MpjDevice.values()), List.of(1, 2, 3, 4),
            List.of(1, 2), List.of("posix", "sls"), List.of(Flavour.values()), List.of(1, 2), "kupl");
        final List<Configuration> dynamic = full.stream().filter(c -> c.flavour() == Flavour.DYNAMIC).toList();

        assertEquals(4 * MpjDevice.values().length + 3 + 3, dynamic.size(),
            "one node: np 1-4 x device; two: niodev np 2-4 and shm np 2-4");
        assertEquals(102, full.size(), "the full matrix as docs/conformance.md counts it");
        assertTrue(ConformanceMatrix.reduced("kupl").stream().anyMatch(c -> c.flavour() == Flavour.DYNAMIC &&
            c.nodes() == 2), "the reduced matrix should run dynamic windows on two nodes");
    }

    @Test
    void shouldGiveAReasonForEveryCaseThatSkipsDynamicWindows()
    {
        for (final Case c : Catalog.all())
        {
            if (!c.appliesTo(Flavour.DYNAMIC))
            {
                assertFalse(c.flavourNote().isBlank(), c.id() + " skips dynamic windows without saying why");
            }
            if (c.id().startsWith("dynamic."))
            {
                assertEquals(Set.of(Flavour.DYNAMIC), c.flavours(), c.id() + " checks dynamic windows only");
            }
        }
    }
}

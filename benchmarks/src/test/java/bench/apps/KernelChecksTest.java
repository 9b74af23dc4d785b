package bench.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The serial references the kernels' checks compare with can tell a wrong result from a right
 * one (no MPI: the parallel runs are {@link KernelRankTest}'s).
 */
class KernelChecksTest
{
    @Test
    void shouldFindASmallResidualForASerialFactorisationAndALargeOneForACorruptedFactor()
    {
        final int n = 40;
        final double[][] a = LuFactorisation.matrixColumns(n);
        final double[][] factors = LuFactorisation.matrixColumns(n);
        final int[] pivots = new int[n];
        // The parallel algorithm on one rank is dgefa: factor in place.
        for (int k = 0; k < n - 1; k++)
        {
            int best = k;
            for (int i = k + 1; i < n; i++)
            {
                best = Math.abs(factors[k][i]) > Math.abs(factors[k][best]) ? i : best;
            }
            pivots[k] = best;
            for (int j = k; j < n; j++)
            {
                final double t = factors[j][k];
                factors[j][k] = factors[j][best];
                factors[j][best] = t;
            }
            for (int i = k + 1; i < n; i++)
            {
                factors[k][i] *= -1.0 / factors[k][k];
            }
            for (int j = k + 1; j < n; j++)
            {
                for (int i = k + 1; i < n; i++)
                {
                    factors[j][i] += factors[j][k] * factors[k][i];
                }
            }
        }
        pivots[n - 1] = n - 1;
        final double[] b = new double[n];
        for (int j = 0; j < n; j++)
        {
            for (int i = 0; i < n; i++)
            {
                b[i] += a[j][i];
            }
        }
        final double right = LuFactorisation.normalisedResidual(a, LuFactorisation.solve(factors, pivots, b), b);
        assertTrue(right < LuFactorisation.MAX_NORMALISED_RESIDUAL, "residual " + right);
        factors[n / 2][n / 3] += 1e-6;
        final double wrong = LuFactorisation.normalisedResidual(a, LuFactorisation.solve(factors, pivots, b), b);
        assertTrue(wrong > LuFactorisation.MAX_NORMALISED_RESIDUAL, "residual " + wrong);
    }

    @Test
    void shouldChangeTheSerialSorGridWithEveryIterationAndKeepItFinite()
    {
        final double[][] initial = SuccessiveOverRelaxation.initialGrid(20);
        final double[][] after = SuccessiveOverRelaxation.serialRun(20);
        assertNotEquals(initial[10][10], after[10][10]);
        assertEquals(initial[0][5], after[0][5], "the boundary is fixed");
    }

    @Test
    void shouldGiveTheSameForcesWhenTheTriangleIsSplitOverRanks()
    {
        final int particles = 108;
        final double box = Math.cbrt(particles / MolecularDynamics.DENSITY);
        final double[] position = new double[3 * particles];
        final java.util.SplittableRandom random = new java.util.SplittableRandom(1);
        for (int k = 0; k < position.length; k++)
        {
            position[k] = random.nextDouble() * box;
        }
        final double[] serial = new double[3 * particles + 1];
        MolecularDynamics.pairForces(position, box, 0, 0, 1, serial);
        final double[] sum = new double[serial.length];
        for (int rank = 0; rank < 3; rank++)
        {
            final double[] part = new double[serial.length];
            MolecularDynamics.pairForces(position, box, 0, rank, 3, part);
            for (int k = 0; k < sum.length; k++)
            {
                sum[k] += part[k];
            }
        }
        for (int k = 0; k < sum.length; k++)
        {
            assertEquals(serial[k], sum[k], 1e-9 * Math.max(1, Math.abs(serial[k])), "component " + k);
        }
    }

    @Test
    void shouldChangeTheRayTracersChecksumWhenTwoRowsSwap()
    {
        final int[] image = new RayTracer(16).serialRender();
        final long before = RayTracer.checksum(image);
        final int[] swapped = image.clone();
        System.arraycopy(image, 0, swapped, 16 * 8, 16);
        System.arraycopy(image, 16 * 8, swapped, 0, 16);
        assertNotEquals(before, RayTracer.checksum(swapped));
    }

    @Test
    void shouldRejectSizesTooSmallToRun()
    {
        assertThrows(IllegalArgumentException.class, () -> new LuFactorisation(1));
        assertThrows(IllegalArgumentException.class, () -> new SuccessiveOverRelaxation(2));
        assertThrows(IllegalArgumentException.class, () -> new MolecularDynamics(2));
        assertThrows(IllegalArgumentException.class, () -> new SparseMatVec(3));
        assertThrows(IllegalArgumentException.class, () -> new RayTracer(0));
        assertThrows(IllegalArgumentException.class, () -> Kernels.parse("lu,fft"));
    }
}

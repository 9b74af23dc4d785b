package bench.apps;

import java.util.Locale;
import java.util.SplittableRandom;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Lennard-Jones molecular dynamics of 4 m³ particles (a face-centred cubic start in a periodic
 * box, reduced units), velocity Verlet, in the shape of the Java Grande MolDyn kernel.
 *
 * <p>Every rank holds every position and integrates every particle; the force loop over pairs
 * (i, j > i) is split by i, dealt round-robin so that the triangle is shared evenly; after each
 * force computation one {@code Allreduce} sums the 3N force components and the potential energy.
 *
 * <p>Timed: {@value #STEPS} steps. Checked: total energy is conserved to {@value #ENERGY_TOLERANCE}
 * relative, and rank 0 recomputes the forces at the final positions serially and finds the
 * reduced ones equal to {@value #FORCE_TOLERANCE} relative.
 *
 * <pre>bin/mpjrun -np 2 -dev shm -cp benchmarks/target/classes bench.apps.MolecularDynamics [m [repetitions]]</pre>
 */
public final class MolecularDynamics implements Kernel
{
    private final CommunicationClock communication = new CommunicationClock();
    static final int STEPS = 50;
    static final double DENSITY = 0.8442;
    static final double TEMPERATURE = 0.72;
    static final double TIME_STEP = 0.004;
    static final double CUTOFF = 2.5;
    static final double ENERGY_TOLERANCE = 1e-3;
    static final double FORCE_TOLERANCE = 1e-10;
    private static final long SEED = 8_086L;

    private final int particles;
    private final int cellsPerSide;
    private final double box;
    private final double potentialShift;
    private int rank;
    private int ranks;
    private double[] position;
    private double[] velocity;
    /** 3N force components, then the potential energy: what the Allreduce sums. */
    private double[] forcesAndPotential;
    private double[] partial;
    private double initialEnergy;

    MolecularDynamics(final int cellsPerSide)
    {
        if (cellsPerSide < 3)
        {
            // Below 3 cells the box is narrower than twice the cut-off: the minimum image would miss pairs.
            throw new IllegalArgumentException("MD: m=" + cellsPerSide + " cells per side must be at least 3");
        }
        this.cellsPerSide = cellsPerSide;
        this.particles = 4 * cellsPerSide * cellsPerSide * cellsPerSide;
        this.box = Math.cbrt(particles / DENSITY);
        final double inverse6 = Math.pow(CUTOFF, -6);
        this.potentialShift = 4 * inverse6 * (inverse6 - 1);
    }

    public static void main(final String[] args) throws Exception
    {
        KernelRank.main(Kernels.MD, args);
    }

    @Override
    public void setUp(final Intracomm comm) throws MPIException
    {
        rank = comm.Rank();
        ranks = comm.Size();
        position = new double[3 * particles];
        velocity = new double[3 * particles];
        forcesAndPotential = new double[3 * particles + 1];
        partial = new double[3 * particles + 1];
        placeOnLattice();
        drawVelocities();
        computeForces(comm);
        initialEnergy = totalEnergy();
    }

    private void placeOnLattice()
    {
        final double cell = box / cellsPerSide;
        final double[][] basis = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
        int p = 0;
        for (int x = 0; x < cellsPerSide; x++)
        {
            for (int y = 0; y < cellsPerSide; y++)
            {
                for (int z = 0; z < cellsPerSide; z++)
                {
                    for (final double[] offset : basis)
                    {
                        position[3 * p] = (x + offset[0]) * cell;
                        position[3 * p + 1] = (y + offset[1]) * cell;
                        position[3 * p + 2] = (z + offset[2]) * cell;
                        p++;
                    }
                }
            }
        }
    }

    /** Uniform random velocities, no net momentum, scaled to {@link #TEMPERATURE}. */
    private void drawVelocities()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final double[] mean = new double[3];
        for (int k = 0; k < velocity.length; k++)
        {
            velocity[k] = random.nextDouble() - 0.5;
            mean[k % 3] += velocity[k] / particles;
        }
        double squares = 0;
        for (int k = 0; k < velocity.length; k++)
        {
            velocity[k] -= mean[k % 3];
            squares += velocity[k] * velocity[k];
        }
        final double scale = Math.sqrt(3 * particles * TEMPERATURE / squares);
        for (int k = 0; k < velocity.length; k++)
        {
            velocity[k] *= scale;
        }
    }

    @Override
    public void run(final Intracomm comm) throws MPIException
    {
        final double half = 0.5 * TIME_STEP;
        for (int step = 0; step < STEPS; step++)
        {
            for (int k = 0; k < position.length; k++)
            {
                velocity[k] += half * forcesAndPotential[k];
                double moved = position[k] + TIME_STEP * velocity[k];
                moved -= box * Math.floor(moved / box);
                position[k] = moved;
            }
            computeForces(comm);
            for (int k = 0; k < velocity.length; k++)
            {
                velocity[k] += half * forcesAndPotential[k];
            }
        }
    }

    /** This rank's share of the pair forces, summed over ranks into {@link #forcesAndPotential}. */
    private void computeForces(final Intracomm comm) throws MPIException
    {
        pairForces(position, box, potentialShift, rank, ranks, partial);
        communication.start();
        comm.Allreduce(partial, 0, forcesAndPotential, 0, partial.length, MPI.DOUBLE, MPI.SUM);
        communication.stop();
    }

    /**
     * Forces of the pairs (i, j > i) with i = first, first + stride, ... into {@code out} (3N
     * components, then the potential energy), minimum-image convention, truncated and shifted potential.
     */
    static void pairForces(final double[] position, final double box, final double shift, final int first,
        final int stride, final double[] out)
    {
        java.util.Arrays.fill(out, 0);
        final int n = position.length / 3;
        final double cutoffSquared = CUTOFF * CUTOFF;
        double potential = 0;
        for (int i = first; i < n; i += stride)
        {
            final double xi = position[3 * i];
            final double yi = position[3 * i + 1];
            final double zi = position[3 * i + 2];
            double fx = 0;
            double fy = 0;
            double fz = 0;
            for (int j = i + 1; j < n; j++)
            {
                final double dx = nearest(xi - position[3 * j], box);
                final double dy = nearest(yi - position[3 * j + 1], box);
                final double dz = nearest(zi - position[3 * j + 2], box);
                final double r2 = dx * dx + dy * dy + dz * dz;
                if (r2 < cutoffSquared)
                {
                    final double inverse2 = 1 / r2;
                    final double inverse6 = inverse2 * inverse2 * inverse2;
                    final double scalar = 48 * inverse2 * inverse6 * (inverse6 - 0.5);
                    potential += 4 * inverse6 * (inverse6 - 1) - shift;
                    fx += scalar * dx;
                    fy += scalar * dy;
                    fz += scalar * dz;
                    out[3 * j] -= scalar * dx;
                    out[3 * j + 1] -= scalar * dy;
                    out[3 * j + 2] -= scalar * dz;
                }
            }
            out[3 * i] += fx;
            out[3 * i + 1] += fy;
            out[3 * i + 2] += fz;
        }
        out[3 * n] = potential;
    }

    private static double nearest(final double d, final double box)
    {
        return d - box * Math.rint(d / box);
    }

    private double totalEnergy()
    {
        double kinetic = 0;
        for (final double v : velocity)
        {
            kinetic += 0.5 * v * v;
        }
        return kinetic + forcesAndPotential[3 * particles];
    }

    @Override
    public CommunicationClock communication()
    {
        return communication;
    }

    @Override
    public Check validate(final Intracomm comm) throws MPIException
    {
        if (rank != 0)
        {
            return null;
        }
        final double energy = totalEnergy();
        final double drift = Math.abs(energy - initialEnergy) / Math.abs(initialEnergy);
        final double[] serial = new double[partial.length];
        pairForces(position, box, potentialShift, 0, 1, serial);
        double largestForce = 0;
        for (int k = 0; k < 3 * particles; k++)
        {
            largestForce = Math.max(largestForce, Math.abs(serial[k]));
        }
        double largest = 0;
        for (int k = 0; k < serial.length; k++)
        {
            final double scale = k < 3 * particles ? largestForce : Math.abs(serial[k]);
            final double difference = Math.abs(forcesAndPotential[k] - serial[k]) / scale;
            largest = Double.isNaN(difference) ? Double.POSITIVE_INFINITY : Math.max(largest, difference);
        }
        final boolean conserved = drift <= ENERGY_TOLERANCE;
        return new Check(conserved && largest <= FORCE_TOLERANCE, String.format(Locale.ROOT,
            "energy %.6f -> %.6f (drift %.2g, limit %.0e); forces against serial: largest relative difference " +
                "%.3g (limit %.0e)", initialEnergy, energy, drift, ENERGY_TOLERANCE, largest, FORCE_TOLERANCE));
    }
}

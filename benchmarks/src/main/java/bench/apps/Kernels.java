package bench.apps;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * The five application kernels, each with the problem size a full benchmark run uses and the
 * tiny one of a smoke run ({@code --quick}, the tests).
 */
public enum Kernels
{
    /** {@link LuFactorisation}: size is n. */
    LU("lu", 1000, 48, LuFactorisation::new)
    {
        @Override
        public String describe(final int size)
        {
            return "LU, n=" + size;
        }
    },
    /** {@link SuccessiveOverRelaxation}: size is the grid's side. */
    SOR("sor", 1500, 40, SuccessiveOverRelaxation::new)
    {
        @Override
        public String describe(final int size)
        {
            return "SOR, " + size + "x" + size + ", " + SuccessiveOverRelaxation.ITERATIONS + " iterations";
        }
    },
    /** {@link SparseMatVec}: size is the number of rows. */
    SPARSE("sparse", 200_000, 2_000, SparseMatVec::new)
    {
        @Override
        public String describe(final int size)
        {
            return "sparse y=Ax, " + size + " rows, " + SparseMatVec.ITERATIONS + " iterations";
        }
    },
    /** {@link MolecularDynamics}: size is m, the lattice's cells per side (4 m³ particles). */
    MD("md", 8, 3, MolecularDynamics::new)
    {
        @Override
        public String describe(final int size)
        {
            return "MD, " + 4 * size * size * size + " particles, " + MolecularDynamics.STEPS + " steps";
        }
    },
    /** {@link RayTracer}: size is the image's side in pixels. */
    RAY("ray", 500, 24, RayTracer::new)
    {
        @Override
        public String describe(final int size)
        {
            return "ray tracer, " + size + "x" + size;
        }
    };

    private final String shortName;
    private final int fullSize;
    private final int quickSize;
    private final IntFunction<Kernel> factory;

    Kernels(final String shortName, final int fullSize, final int quickSize, final IntFunction<Kernel> factory)
    {
        this.shortName = shortName;
        this.fullSize = fullSize;
        this.quickSize = quickSize;
        this.factory = factory;
    }

    /** The name on command lines ({@code --only lu,sor}). */
    public String shortName()
    {
        return shortName;
    }

    public int fullSize()
    {
        return fullSize;
    }

    public int quickSize()
    {
        return quickSize;
    }

    /** What the kernel computes at {@code size}, for tables. */
    public abstract String describe(int size);

    Kernel create(final int size)
    {
        return factory.apply(size);
    }

    /**
     * The kernels named in {@code names}, comma-separated short names.
     *
     * @throws IllegalArgumentException naming the unknown name and the known ones.
     */
    public static List<Kernels> parse(final String names)
    {
        return Arrays.stream(names.split(",")).map(String::strip).map(Kernels::named).toList();
    }

    /** The kernel called {@code name}. */
    public static Kernels named(final String name)
    {
        for (final Kernels kernel : values())
        {
            if (kernel.shortName.equals(name.toLowerCase(Locale.ROOT)))
            {
                return kernel;
            }
        }
        throw new IllegalArgumentException("kernel \"" + name + "\" is not one of " +
            Arrays.stream(values()).map(Kernels::shortName).collect(Collectors.joining(", ")));
    }
}

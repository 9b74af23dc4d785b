package conformance;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import mpjrun.MpjDevice;
import mpjrun.MpjJobs;

/**
 * The matrix command ({@code bin/conformance}): runs the suite for every configuration asked
 * for, prints the table of cases by configuration, writes {@code conformance.md} and
 * {@code conformance.html}, and exits 1 if a case failed anywhere (2 for bad arguments).
 *
 * <pre>
 *   --np 1,2,3,4          process counts (add 8 for the large run)
 *   --fence 1,2           KUPL_SHM_FENCE_ALGORITHM values (1 linear, 2 recursive doubling)
 *   --type posix,sls      KUPL_SHM_TYPE values
 *   --device multicore,niodev,shm
 *   --flavour allocateShared,create,allocate,createDynamic
 *                         how the cases' windows are made (the engine's settings vary for allocateShared only)
 *   --nodes 1,2           nodes a job spans; 2 or more run niodev (or shm: shared memory within each node) across a simulated cluster, for every flavour but
 *                         allocateShared
 *   --reduced             the CI set instead ({@link #reduced})
 *   --provider NAME       mpi.rma provider under test (default kupl)
 *   --timeout-ms N        per case (default 10000)
 *   --only ID,PREFIX.     run only these cases
 *   --out DIR             where the reports go (default target/conformance)
 * </pre>
 */
public final class ConformanceMatrix
{
    private ConformanceMatrix()
    {
    }

    /**
     * The reduced matrix CI runs: for allocateShared, every process count, each setting and each
     * device at least once; for create, allocate and createDynamic, each device once with a process
     * count of its own; and each of them once across two simulated nodes on niodev, and on shm (across three
     * nodes of 2, 2 and 1 ranks for allocate).
     */
    public static List<Configuration> reduced(final String provider)
    {
        final List<Configuration> configurations = new ArrayList<>(reducedShared(provider));
        configurations.addAll(reducedMessages(provider));
        return configurations;
    }

    /** The flavour and nodes part of {@link #reduced}: the configurations whose windows are reached by messages. */
    public static List<Configuration> reducedMessages(final String provider)
    {
        return List.of(
            Configuration.of(MpjDevice.MULTICORE, 3, Flavour.CREATE, 1, provider),
            Configuration.of(MpjDevice.NIODEV, 2, Flavour.CREATE, 1, provider),
            Configuration.of(MpjDevice.SHM, 4, Flavour.CREATE, 1, provider),
            Configuration.of(MpjDevice.MULTICORE, 4, Flavour.ALLOCATE, 1, provider),
            Configuration.of(MpjDevice.NIODEV, 3, Flavour.ALLOCATE, 1, provider),
            Configuration.of(MpjDevice.SHM, 2, Flavour.ALLOCATE, 1, provider),
            Configuration.of(MpjDevice.MULTICORE, 4, Flavour.DYNAMIC, 1, provider),
            Configuration.of(MpjDevice.NIODEV, 2, Flavour.DYNAMIC, 1, provider),
            Configuration.of(MpjDevice.SHM, 3, Flavour.DYNAMIC, 1, provider),
            Configuration.of(MpjDevice.NIODEV, 4, Flavour.CREATE, 2, provider),
            Configuration.of(MpjDevice.NIODEV, 3, Flavour.ALLOCATE, 2, provider),
            Configuration.of(MpjDevice.NIODEV, 3, Flavour.DYNAMIC, 2, provider),
            Configuration.of(MpjDevice.SHM, 4, Flavour.CREATE, 2, provider),
            Configuration.of(MpjDevice.SHM, 5, Flavour.ALLOCATE, 3, provider),
            Configuration.of(MpjDevice.SHM, 4, Flavour.DYNAMIC, 2, provider));
    }

    /** The allocateShared part of {@link #reduced}, as it was before the flavour axis. */
    public static List<Configuration> reducedShared(final String provider)
    {
        return List.of(
            new Configuration(MpjDevice.MULTICORE, 1, 2, "posix", provider),
            new Configuration(MpjDevice.MULTICORE, 2, 2, "posix", provider),
            new Configuration(MpjDevice.MULTICORE, 3, 2, "posix", provider),
            new Configuration(MpjDevice.MULTICORE, 4, 2, "posix", provider),
            new Configuration(MpjDevice.MULTICORE, 3, 1, "sls", provider),
            new Configuration(MpjDevice.MULTICORE, 4, 1, "posix", provider),
            new Configuration(MpjDevice.NIODEV, 2, 2, "sls", provider),
            new Configuration(MpjDevice.NIODEV, 3, 1, "posix", provider),
            new Configuration(MpjDevice.SHM, 2, 1, "sls", provider),
            new Configuration(MpjDevice.SHM, 4, 2, "posix", provider));
    }

    /**
     * The full matrix: allocateShared on one node for every device, process count and engine
     * setting; create, allocate and createDynamic on one node for every device and process count (the
     * engine's settings do not touch their windows); and, for 2 nodes, the same three on niodev for every
     * process count of at least 2. allocateShared across nodes is a case of those configurations
     * (ERR_RMA_SHARED on every process), not a configuration of its own: none of its windows could exist.
     */
    public static List<Configuration> full(final List<MpjDevice> devices, final List<Integer> nps,
        final List<Integer> fences, final List<String> types, final List<Flavour> flavours,
        final List<Integer> nodeCounts, final String provider)
    {
        final List<Configuration> configurations = new ArrayList<>();
        for (final Flavour flavour : flavours)
        {
            for (final int nodes : nodeCounts)
            {
                if (nodes > 1 && flavour == Flavour.SHARED)
                {
                    continue;
                }
                for (final MpjDevice device : devices)
                {
                    if (nodes > 1 && device != MpjDevice.NIODEV && device != MpjDevice.SHM)
                    {
                        continue;
                    }
                    for (final int np : nps)
                    {
                        if (np < nodes)
                        {
                            continue;
                        }
                        if (flavour != Flavour.SHARED)
                        {
                            configurations.add(Configuration.of(device, np, flavour, nodes, provider));
                            continue;
                        }
                        for (final int fence : fences)
                        {
                            for (final String type : types)
                            {
                                configurations.add(new Configuration(device, np, fence, type, provider));
                            }
                        }
                    }
                }
            }
        }
        return configurations;
    }

    public static void main(final String[] args) throws Exception
    {
        List<Integer> nps = List.of(1, 2, 3, 4);
        List<Integer> fences = List.of(1, 2);
        List<String> types = List.of("posix", "sls");
        List<MpjDevice> devices = List.of(MpjDevice.values());
        List<Flavour> flavours = List.of(Flavour.values());
        List<Integer> nodeCounts = List.of(1, 2);
        boolean reduced = false;
        String provider = ConformanceRank.DEFAULT_PROVIDER;
        long timeoutMs = ConformanceRank.DEFAULT_TIMEOUT_MS;
        List<String> only = List.of();
        Path out = Path.of("target", "conformance");
        try
        {
            for (int i = 0; i < args.length; i++)
            {
                final String option = args[i];
                if (option.equals("--reduced"))
                {
                    reduced = true;
                    continue;
                }
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException(option + " needs a value");
                }
                final String value = args[++i];
                switch (option)
                {
                    case "--np" -> nps = Arrays.stream(value.split(",")).map(Integer::valueOf).toList();
                    case "--fence" -> fences = Arrays.stream(value.split(",")).map(Integer::valueOf).toList();
                    case "--type" -> types = List.of(value.split(","));
                    case "--device" -> devices = Arrays.stream(value.split(",")).map(MpjDevice::named).toList();
                    case "--flavour" -> flavours = Arrays.stream(value.split(",")).map(Flavour::named).toList();
                    case "--nodes" -> nodeCounts = Arrays.stream(value.split(",")).map(Integer::valueOf).toList();
                    case "--provider" -> provider = value;
                    case "--timeout-ms" -> timeoutMs = Long.parseLong(value);
                    case "--only" -> only = List.of(value.split(","));
                    case "--out" -> out = Path.of(value);
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println("conformance: " + e.getMessage() + "\nusage: conformance [--reduced] [--np 1,2,3,4] " +
                "[--fence 1,2] [--type posix,sls] [--device multicore,niodev,shm] " +
                "[--flavour allocateShared,create,allocate,createDynamic] [--nodes 1,2] [--provider NAME] " +
                "[--timeout-ms N] [--only ID,...] [--out DIR]");
            System.exit(2);
            return;
        }
        final List<Configuration> configurations = new ArrayList<>();
        if (reduced)
        {
            configurations.addAll(reduced(provider));
        }
        else
        {
            configurations.addAll(full(devices, nps, fences, types, flavours, nodeCounts, provider));
        }
        final Matrix matrix = new Matrix(MpjJobs.currentClassPath(), timeoutMs, only);
        final List<ConfigurationRun> runs = new ArrayList<>();
        for (final Configuration configuration : configurations)
        {
            final ConfigurationRun run = matrix.run(configuration);
            System.out.println("conformance: " + configuration.label() + ": " +
                (run.unavailable() != null ? "not run (" + run.unavailable() + ")" :
                    run.count(Status.PASS) + " pass, " + (run.results().size() - run.count(Status.PASS)) + " other, " +
                    run.millis() + " ms"));
            runs.add(run);
        }
        final MatrixReport report = new MatrixReport(runs, MatrixReport.checklistHref(out));
        System.out.println();
        System.out.print(report.consoleTable());
        report.write(out);
        System.out.println("\nconformance: reports in " + out.resolve("conformance.md") + " and " +
            out.resolve("conformance.html"));
        System.exit(runs.stream().allMatch(r -> r.isClean() || r.unavailable() != null) ? 0 : 1);
    }
}

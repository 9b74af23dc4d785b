package mpjrun;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import mpjrun.process.RankJvmDefaults;

/**
 * {@code bin/mpjrun}'s command line, parsed and checked:
 * {@code -np N [-dev DEVICE] [-cp CP] [-jvmargs "..."] [-prefix] (Main | -jar JAR) [args...]}.
 * Everything after the main class (or the jar) is the program's.
 *
 * @param processes      {@code -np}, 1 or more.
 * @param device         {@code -dev}: {@value #SHM} or one of MPJ Express's own ({@link #MPJ_DEVICES}).
 * @param classPath      {@code -cp}, split at {@code :} (empty if not given).
 * @param jvmArgs        {@code -jvmargs}, split at white space.
 * @param prefixOutput   {@code -prefix}.
 * @param starterOptions other options, for MPJ Express's starter (not allowed with {@value #SHM}).
 * @param jar            {@code -jar JAR} (MPJ Express's devices only), or null.
 * @param mainClass      the class whose {@code main} each rank runs, or null with {@code -jar}.
 * @param appArgs        the program's arguments.
 * @param nodes          {@code -nodes}: run niodev or hybdev ({@link ClusterDevice}) across a
 *                       {@link SimulatedCluster} of this many nodes; 0 if not given.
 */
record MpjRunArguments(int processes, String device, List<String> classPath, List<String> jvmArgs,
    boolean prefixOutput, List<String> starterOptions, String jar, String mainClass, List<String> appArgs,
    int nodes)
{
    static final String SHM = DeviceName.SHM.text();
    /** The devices MPJ Express 0.44's starter accepts ({@code runtime.starter.MPJRun}), run by it unchanged. */
    static final List<String> MPJ_DEVICES = DeviceName.starterDevices();

    static final String USAGE = """
        Usage: mpjrun -np N [-dev DEVICE] [-nodes N] [-cp CLASSPATH] [-jvmargs "OPTIONS"] [-prefix] MAIN [ARGS...]
        Runs class MAIN (its main(String[]) calling mpi.MPI.Init) on N ranks.

          -np N             number of ranks, 1 or more (required)
          -dev DEVICE       shm        one JVM per rank, shared memory between the ranks of a node; with
                                       -machinesfile FILE (or -nodes N) across nodes: niodev between them,
                                       started by MPJ Express's daemons as niodev is
                            multicore  MPJ Express: one JVM, one thread per rank (the default)
                            niodev     MPJ Express: one JVM per rank over TCP; needs an MPJ Express daemon
                                       on each host of -machinesfile (start it yourself, see docs/clusters.md)
                            hybdev     MPJ Express: threads within a node, niodev between nodes; needs daemons too
          -cp CLASSPATH     the program's class path (MPJ Express and this project are added)
          -jvmargs "OPTS"   options for the ranks' JVMs, separated by spaces; with shm they come after
                            the rank JVM defaults below and replace those that set the same thing
          -nodes N          niodev, hybdev or shm: run across a simulated cluster of N nodes on this machine
                            (network namespaces, a daemon each, made for the job and removed after it; needs root)
          -prefix           start each line a rank prints with its rank (shm only)
          -h, --help        print this help

        With multicore, niodev and hybdev the command line goes to MPJ Express's own starter
        (java -jar $MPJ_HOME/lib/starter.jar) with a complete MPJ_HOME; its other options
        (-machinesfile FILE, -wdir DIR, -psl BYTES, -jar JAR, JVM options) pass through.
        Exit status: the job's (shm: the first failing rank's); 2 for a bad command line.
        """;

    /**
     * The rank JVM defaults that {@code -dev shm} gives on this node (with {@code cores} cores), for the help:
     * what {@link RankJvmDefaults} chooses for a few job sizes, and how to drop them.
     */
    static String rankJvmDefaultsHelp(final int cores)
    {
        final StringBuilder help = new StringBuilder("\nRank JVM defaults of -dev shm on this node (" + cores +
            " cores), chosen for many JVMs per node:\n");
        for (final int ranks : new int[] {1, 2, 4, 8})
        {
            help.append(String.format(Locale.ROOT, "  -np %-3d %s%n", ranks,
                String.join(" ", RankJvmDefaults.defaults(ranks, cores))));
        }
        return help.append("KUPL_RANK_JVM_DEFAULTS=off drops them (the JDK's own choices then).\n")
            .append("Ranks start from an AOT cache of MPJ Express and this project, made by the first job\n")
            .append("(seconds to a minute, once per JDK and build) in $XDG_CACHE_HOME/mpj-kupl or ~/.cache/mpj-kupl;\n")
            .append("KUPL_RANK_AOT_CACHE=off starts them without it. Their MPJ Express collectives run through\n")
            .append("shared memory from MPJ Express's classes woven once with the kupl agent's advice (kept there\n")
            .append("too); KUPL_RANK_WOVEN_CLASSES=off gives them the agent, which weaves at every start.\n").toString();
    }

    /**
     * Parses {@code args}.
     *
     * @throws UsageException naming the bad argument and its value.
     */
    static MpjRunArguments parse(final String... args) throws UsageException
    {
        Integer processes = null;
        String device = DeviceName.MULTICORE.text();
        List<String> classPath = List.of();
        List<String> jvmArgs = List.of();
        boolean prefixOutput = false;
        final List<String> starterOptions = new ArrayList<>();
        String jar = null;
        int nodes = 0;
        int i = 0;
        for (; i < args.length && args[i].startsWith("-"); i++)
        {
            final String option = args[i];
            switch (option)
            {
                case "-np" -> processes = processCount(value(args, i++));
                case "-dev" -> device = value(args, i++);
                case "-cp", "-classpath" -> classPath = splitClassPath(value(args, i++));
                case "-jvmargs" -> jvmArgs = splitJvmArgs(value(args, i++));
                case "-prefix" -> prefixOutput = true;
                case "-nodes" -> nodes = nodeCount(value(args, i++));
                case "-jar" -> jar = value(args, i++);
                default ->
                {
                    starterOptions.add(option);
                    if (StarterOption.takesValue(option))
                    {
                        starterOptions.add(value(args, i++));
                    }
                }
            }
            if (jar != null)
            {
                i++;
                break;
            }
        }
        if (processes == null)
        {
            throw new UsageException("-np is missing: give the number of ranks, e.g. -np 4");
        }
        if (!SHM.equals(device) && !MPJ_DEVICES.contains(device))
        {
            throw new UsageException("-dev " + device + ": unknown device; give -dev " + SHM + " or one of MPJ " +
                "Express's: " + either(MPJ_DEVICES));
        }
        final String mainClass;
        if (jar != null)
        {
            if (SHM.equals(device))
            {
                throw new UsageException("-jar " + jar + ": -dev shm runs a class; give -cp " + jar +
                    " and its main class");
            }
            mainClass = null;
        }
        else
        {
            if (i >= args.length)
            {
                throw new UsageException("the main class is missing: name the class whose main each rank runs " +
                    "after the options, e.g. mpjrun -np 2 -cp my/classes my.Main");
            }
            mainClass = args[i++];
        }
        if (SHM.equals(device) && !starterOptions.isEmpty() && !isMachinesFileOnly(starterOptions))
        {
            throw new UsageException(starterOptions.get(0) + ": unknown option for -dev shm; JVM options go in " +
                "-jvmargs, e.g. -jvmargs \"-Xmx1g -ea\", and -machinesfile FILE runs the job across the hosts it " +
                "names, shared memory within each");
        }
        if (prefixOutput && !SHM.equals(device))
        {
            throw new UsageException("-prefix works with -dev shm only: MPJ Express's starter prints ranks' " +
                "output as is; drop -prefix, or give -dev shm");
        }
        if (nodes > 0)
        {
            checkNodes(nodes, processes, device, starterOptions);
        }
        return new MpjRunArguments(processes, device, classPath, jvmArgs, prefixOutput, List.copyOf(starterOptions),
            jar, mainClass, List.of(Arrays.copyOfRange(args, i, args.length)), nodes);
    }

    /**
     * Whether this is a {@value #SHM} job that spans nodes ({@code -machinesfile} or {@code -nodes}): MPJ
     * Express's starter and daemons run it as a niodev job whose ranks use {@code xdev.shmdev.ClusterShmDevice}.
     */
    boolean spansNodes()
    {
        return SHM.equals(device) && (nodes > 0 || starterOptions.contains(StarterOption.MACHINESFILE.text()));
    }

    /** The {@code -dev} MPJ Express's starter gets: niodev for a {@value #SHM} job that spans nodes. */
    String starterDevice()
    {
        return SHM.equals(device) ? DeviceName.NIODEV.text() : device;
    }

    private static boolean isMachinesFileOnly(final List<String> starterOptions)
    {
        return starterOptions.size() == 2 && starterOptions.get(0).equals(StarterOption.MACHINESFILE.text());
    }

    /** The job for {@link ShmJob}. */
    JobSpec toJobSpec()
    {
        return new JobSpec(processes, classPath, jvmArgs, mainClass, appArgs, prefixOutput);
    }

    private static String value(final String[] args, final int optionIndex) throws UsageException
    {
        if (optionIndex + 1 >= args.length)
        {
            throw new UsageException(args[optionIndex] + " needs a value: give it right after the option, e.g. " +
                example(args[optionIndex]));
        }
        return args[optionIndex + 1];
    }

    private static int processCount(final String value) throws UsageException
    {
        final int processes;
        try
        {
            processes = Integer.parseInt(value);
        }
        catch (final NumberFormatException e)
        {
            throw new UsageException("-np " + value + ": not a number; give the number of ranks, 1 or more");
        }
        if (processes < 1)
        {
            throw new UsageException("-np " + value + ": give the number of ranks, 1 or more, e.g. -np 4");
        }
        return processes;
    }

    private static int nodeCount(final String value) throws UsageException
    {
        try
        {
            final int nodes = Integer.parseInt(value);
            if (nodes >= 1 && nodes <= SimulatedCluster.MAX_NODES)
            {
                return nodes;
            }
        }
        catch (final NumberFormatException e)
        {
            // Reported below, as a value out of range is.
        }
        throw new UsageException("-nodes " + value + ": give the number of simulated nodes, 1 to " +
            SimulatedCluster.MAX_NODES + ", e.g. -nodes 2");
    }

    private static void checkNodes(final int nodes, final int processes, final String device,
        final List<String> starterOptions) throws UsageException
    {
        if (ClusterDevice.named(device) == null)
        {
            throw new UsageException("-nodes with -dev " + device + ": " + whyOneNode(device) + "; give -dev " +
                either(ClusterDevice.texts()) + " to run across simulated nodes");
        }
        if (nodes > processes)
        {
            throw new UsageException("-nodes " + nodes + " is more than -np " + processes +
                ": every node needs a rank; give -np " + nodes + " or more, or -nodes " + processes + " or fewer");
        }
        if (starterOptions.contains(StarterOption.MACHINESFILE.text()))
        {
            throw new UsageException("-machinesfile and -nodes exclude each other: -nodes writes the machines file " +
                "of its simulated nodes; give -nodes N for a simulated cluster, or -machinesfile FILE for real hosts");
        }
    }

    /** Why {@code device} runs on one node only, for {@code -nodes}'s refusal. */
    private static String whyOneNode(final String device)
    {
        if (DeviceName.MULTICORE.text().equals(device))
        {
            return "multicore runs every rank as a thread of one JVM on this node";
        }
        if (DeviceName.MXDEV.text().equals(device))
        {
            return "mxdev needs Myrinet boards, which the simulated nodes do not have";
        }
        return "-nodes does not run " + device;
    }

    /** {@code a}, {@code a or b}, {@code a, b or c}. */
    private static String either(final List<String> names)
    {
        final int last = names.size() - 1;
        return last <= 0 ? String.join("", names) : String.join(", ", names.subList(0, last)) + " or " + names.get(last);
    }

    /** What a value of {@code option} looks like, for the message saying that it is missing. */
    private static String example(final String option)
    {
        return switch (option)
        {
            case "-np" -> "-np 4";
            case "-dev" -> "-dev " + SHM;
            case "-cp", "-classpath" -> option + " my/classes:lib/dep.jar";
            case "-jvmargs" -> "-jvmargs \"-Xmx1g -ea\"";
            case "-nodes" -> "-nodes 2";
            case "-jar" -> "-jar app.jar";
            case "-machinesfile" -> "-machinesfile machines (one host name a line)";
            default -> option + " VALUE";
        };
    }

    private static List<String> splitClassPath(final String value)
    {
        return Arrays.stream(value.split(File.pathSeparator)).filter(entry -> !entry.isEmpty()).toList();
    }

    private static List<String> splitJvmArgs(final String value)
    {
        return Arrays.stream(value.trim().split("\\s+")).filter(arg -> !arg.isEmpty()).toList();
    }
}

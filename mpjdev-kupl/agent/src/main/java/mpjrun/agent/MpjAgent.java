package mpjrun.agent;

import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import net.bytebuddy.asm.Advice;

/**
 * A Java agent that teaches unmodified MPJ Express 0.44 devices it does not know: set
 * {@code JAVA_TOOL_OPTIONS=-javaagent:/path/to/kupl-agent.jar} and use {@code -dev shm}, e.g.
 * {@code mpjrun.sh -np 4 -dev shm App} ({@code java -jar $MPJ_HOME/lib/starter.jar ...}).
 * {@code JAVA_TOOL_OPTIONS} reaches every JVM of the job, so each gets the part it needs:
 * <ul>
 * <li>the starter, {@code runtime.starter.MPJRun.main}: a command line with {@code -dev shm} goes
 *     to the shm launcher ({@link ShmStarter}) instead of MPJRun, whose parser rejects the name; where its
 *     {@code MPJ_HOME} lacks log4j and commons-cli/io/codec (Debian's {@code /usr/bin/mpjrun}), the agent adds
 *     them from {@code /usr/share/java} first ({@link StarterClassPath});</li>
 * <li>each rank, {@code mpjdev.javampjdev.MPJDev.init}: the device named by the rank's third argument
 *     is looked up among the {@code xdev.spi.DeviceProvider} services ({@link DeviceRegistry})
 *     before MPJ Express's hard-coded if-chain, which then finds it set and keeps it;</li>
 * <li>each rank on the shm device, {@code mpi.Intracomm}'s Barrier, Bcast, Reduce, Allreduce, Gather,
 *     Scatter, Allgather and Alltoall: run through shared memory ({@link CollectiveAdvice},
 *     {@code xdev.shmdev.coll.ShmCollectives}), with {@code Comm.Free} and {@code MPI.Finalize} freeing it;</li>
 * <li>each rank on any device: MPJ Express's wrong answers corrected ({@link CorrectionAdvice}:
 *     {@code Group.Translate_ranks}, {@code Gather}'s receive buffer off the root, {@code Recv}'s
 *     exception wrapped twice).</li>
 * </ul>
 * Byte Buddy is relocated into the jar ({@code mpjrun.agent.shaded.net.bytebuddy}), so the agent needs
 * nothing else and clashes with no other Byte Buddy. Cost: a JVM that loads neither target (the
 * daemon, most programs) pays one name comparison per class and never loads Byte Buddy; one that
 * does pays for loading it once, about half a second on a slow machine (see {@code AdviceTransformer}).
 */
public final class MpjAgent
{
    /**
     * What the agent changes in every rank of the shm device: MPJ Express's collectives, and the frees that
     * must take their shared memory with them.
     */
    static final List<AdviceTransformer.Target> SHM_TARGETS = List.of(
        collective("Barrier", CollectiveAdvice.BARRIER, CollectiveAdvice.Barrier.class,
            "a tree of messages (about 18 us on 4 ranks) where the engine's fence takes a few"),
        collective("Bcast", CollectiveAdvice.BCAST, CollectiveAdvice.Bcast.class,
            "a tree of messages, each copied through the device's queues; shared memory needs one copy in"),
        collective("Reduce", CollectiveAdvice.REDUCE, CollectiveAdvice.Reduce.class,
            "a tree of messages; in shared memory the same tree order is evaluated on staged vectors"),
        collective("Allreduce", CollectiveAdvice.ALLREDUCE, CollectiveAdvice.Allreduce.class,
            "a Reduce then a Bcast, two trees of messages; in shared memory one fence for short vectors"),
        collective("Gather", CollectiveAdvice.ROOTED_EXCHANGE, CollectiveAdvice.Gather.class,
            "a tree of messages; in shared memory the root copies each block straight from its sender"),
        collective("Scatter", CollectiveAdvice.ROOTED_EXCHANGE, CollectiveAdvice.Scatter.class,
            "a tree of messages; in shared memory each rank copies its block straight from the root"),
        collective("Allgather", CollectiveAdvice.EXCHANGE, CollectiveAdvice.Allgather.class,
            "N-1 rounds of messages; in shared memory one fence and direct copies"),
        collective("Alltoall", CollectiveAdvice.EXCHANGE, CollectiveAdvice.Alltoall.class,
            "N*(N-1) messages; in shared memory one fence and direct copies"),
        pointToPoint("send", PointToPointAdvice.SEND, PointToPointAdvice.Send.class),
        pointToPoint("ssend", PointToPointAdvice.SEND, PointToPointAdvice.Ssend.class),
        pointToPoint("isend", PointToPointAdvice.START, PointToPointAdvice.Isend.class),
        pointToPoint("issend", PointToPointAdvice.START, PointToPointAdvice.Issend.class),
        pointToPoint("recv", PointToPointAdvice.RECV, PointToPointAdvice.Recv.class),
        pointToPoint("irecv", PointToPointAdvice.START, PointToPointAdvice.Irecv.class),
        new AdviceTransformer.Target("mpi.Comm", "Sendrecv", PointToPointAdvice.SENDRECV,
            PointToPointAdvice.Sendrecv.class, PointToPointAdvice.RUNTIME, "MPJ Express builds Sendrecv of Irecv, " +
            "Isend and two waits, two requests per exchange; the direct path posts both in requests it reuses"),
        new AdviceTransformer.Target("mpi.Comm", "Free", CollectiveAdvice.BARRIER, CollectiveAdvice.Free.class,
            CollectiveAdvice.RUNTIME, "a freed communicator's shared memory for collectives must go with it"),
        new AdviceTransformer.Target("mpi.MPI", "Finalize", CollectiveAdvice.BARRIER, CollectiveAdvice.Finalize.class,
            CollectiveAdvice.RUNTIME, "collectives' shared memory is freed while MPJ Express can still run"));

    /**
     * What the agent corrects in every rank, on any device: answers MPJ Express 0.44 gets wrong
     * (docs/faults.md#corrections-to-mpj-express). {@link MpjClassWeaver} weaves these alone for multicore ranks.
     */
    static final List<AdviceTransformer.Target> CORRECTIONS = List.of(
        new AdviceTransformer.Target("mpi.Group", "Translate_ranks", CorrectionAdvice.TRANSLATE_RANKS,
            CorrectionAdvice.TranslateRanks.class, null, "Translate_ranks translates the positions 0..n-1, not the " +
            "ranks the array holds"),
        new AdviceTransformer.Target("mpi.Intracomm", "Gather", CollectiveAdvice.ROOTED_EXCHANGE,
            CorrectionAdvice.GatherReceiveBuffer.class, null, "Gather throws a NullPointerException for a null " +
            "receive buffer off the root, which MPI ignores"),
        new AdviceTransformer.Target("mpi.Comm", "Recv", CorrectionAdvice.RECV, CorrectionAdvice.RecvException.class,
            null, "Recv wraps recv's MPIException in a second one, so the message reads it twice"));

    /**
     * Every rank's targets: {@link #SHM_TARGETS} and {@link #CORRECTIONS}. {@link MpjClassWeaver} applies these
     * ahead of time for the launcher, so that its ranks start without the agent.
     */
    static final List<AdviceTransformer.Target> RANK_TARGETS = Stream.concat(SHM_TARGETS.stream(),
        CORRECTIONS.stream()).toList();

    /** What the agent changes, and why: one entry per MPJ Express method. */
    static final List<AdviceTransformer.Target> TARGETS = Stream.concat(Stream.of(
        AdviceTransformer.Target.ofArgs("runtime.starter.MPJRun", "main", "V", StarterMainAdvice.class,
            "MPJRun accepts only its own hard-coded -dev names; shm jobs go to the shm launcher"),
        AdviceTransformer.Target.ofArgs("mpjdev.javampjdev.MPJDev", "init", "Lxdev/Device;", DeviceLookupAdvice.class,
            "MPJDev.init picks a device from a hard-coded if-chain; look the name up in a ServiceLoader first")),
        RANK_TARGETS.stream()).toList();

    private static AdviceTransformer transformer;

    /** An {@code Intracomm} collective that runs through shared memory on the shm device ({@code ShmCollectives}). */
    private static AdviceTransformer.Target collective(final String method, final String descriptor,
        final Class<?> advice, final String mpjDoes)
    {
        return new AdviceTransformer.Target("mpi.Intracomm", method, descriptor, advice, CollectiveAdvice.RUNTIME,
            "MPJ Express builds " + method + " from point-to-point messages: " + mpjDoes);
    }

    /** A point-to-point call of {@code mpi.Comm} that moves arrays of basic types without packing ({@code ArrayMessages}). */
    private static AdviceTransformer.Target pointToPoint(final String method, final String descriptor,
        final Class<?> advice)
    {
        return new AdviceTransformer.Target("mpi.Comm", method, descriptor, advice, PointToPointAdvice.RUNTIME,
            "MPJ Express packs every array into an mpjbuf.Buffer (big-endian, behind a section header) and unpacks " +
            "it again; on shared memory the elements can go from array to array with one copy on each side");
    }

    private MpjAgent()
    {
    }

    /**
     * Installs the agent at JVM start ({@code -javaagent:}). A target may be loaded already: a JVM started
     * from an AOT cache (the launcher gives rank JVMs one) loads the cached classes before any agent runs,
     * and with them MPJ Express's {@code mpi.Intracomm}, which their signatures name; left as it was loaded,
     * every collective would run MPJ Express's message trees (a 2-rank Barrier about 2 us instead of 0.2).
     */
    public static void premain(final String arguments, final Instrumentation instrumentation)
    {
        try
        {
            // Before the starter's main class loads: Debian's MPJ_HOME lacks log4j and friends (StarterClassPath).
            StarterClassPath.complete(instrumentation);
        }
        catch (final IllegalStateException e)
        {
            System.err.println("kupl agent: " + e.getMessage());
        }
        try
        {
            install(instrumentation);
            reweaveLoadedTargets(instrumentation);
        }
        catch (final RuntimeException | LinkageError | UnmodifiableClassException e)
        {
            // An exception out of premain stops the JVM: MPJ Express without the agent is the better outcome.
            System.err.println("kupl agent: not installed, MPJ Express runs unchanged: " + e);
        }
    }

    /** Installs the agent into a running JVM (attach API): MPJ Express's classes may be loaded already. */
    public static void agentmain(final String arguments, final Instrumentation instrumentation)
        throws UnmodifiableClassException
    {
        install(instrumentation);
        reweaveLoadedTargets(instrumentation);
    }

    /** Retransforms the targets this JVM has loaded before the transformer was there (usually none). */
    private static void reweaveLoadedTargets(final Instrumentation instrumentation) throws UnmodifiableClassException
    {
        final List<Class<?>> loaded = new ArrayList<>();
        for (final Class<?> type : instrumentation.getAllLoadedClasses())
        {
            if (transformer.targets(type.getName()))
            {
                loaded.add(type);
            }
        }
        if (!loaded.isEmpty())
        {
            instrumentation.retransformClasses(loaded.toArray(Class<?>[]::new));
        }
    }

    /** Installs the transformer once; a second call (the jar given twice, say) changes nothing. */
    static synchronized void install(final Instrumentation instrumentation)
    {
        if (transformer == null)
        {
            transformer = new AdviceTransformer(TARGETS);
            // Retransformable, for targets loaded before it: Advice only inlines code, so the class's shape
            // never changes.
            instrumentation.addTransformer(transformer, true);
        }
    }

    /** {@code MPJRun.main(String[] args)}: a {@code -dev shm} job runs here, and the JVM exits with its code. */
    static final class StarterMainAdvice
    {
        private StarterMainAdvice()
        {
        }

        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(0) final String[] args)
        {
            final int exitCode = ShmStarter.run(args);
            if (exitCode != ShmStarter.NOT_SHM)
            {
                System.exit(exitCode);
            }
        }
    }

    /** {@code MPJDev.init(String[] args)}: a registered device named {@code args[2]} is set before MPJ's own choice. */
    static final class DeviceLookupAdvice
    {
        private DeviceLookupAdvice()
        {
        }

        @Advice.OnMethodEnter
        static void enter(@Advice.Argument(0) final String[] args, @Advice.Origin final Class<?> mpjDev)
        {
            DeviceRegistry.install(mpjDev, args);
        }
    }
}

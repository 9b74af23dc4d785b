package mpjrun.agent;

import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.ArrayList;
import java.util.List;

import net.bytebuddy.asm.Advice;

/**
 * A Java agent that teaches unmodified MPJ Express 0.44 devices it does not know: set
 * {@code JAVA_TOOL_OPTIONS=-javaagent:/path/to/kupl-agent.jar} and use {@code -dev shm}, e.g.
 * {@code mpjrun.sh -np 4 -dev shm App} ({@code java -jar $MPJ_HOME/lib/starter.jar ...}).
 * {@code JAVA_TOOL_OPTIONS} reaches every JVM of the job, so each gets the part it needs:
 * <ul>
 * <li>the starter, {@code runtime.starter.MPJRun.main}: a command line with {@code -dev shm} goes
 *     to the shm launcher ({@link ShmStarter}) instead of MPJRun, whose parser rejects the name;</li>
 * <li>each rank, {@code mpjdev.javampjdev.MPJDev.init}: the device named by the rank's third argument
 *     is looked up among the {@code xdev.spi.DeviceProvider} services ({@link DeviceRegistry})
 *     before MPJ Express's hard-coded if-chain, which then finds it set and keeps it.</li>
 * </ul>
 * Byte Buddy is relocated into the jar ({@code mpjrun.agent.shaded.net.bytebuddy}), so the agent needs
 * nothing else and clashes with no other Byte Buddy. Cost: a JVM that loads neither target (the
 * daemon, most programs) pays one name comparison per class and never loads Byte Buddy; one that
 * does pays for loading it once, about half a second on a slow machine (see {@code AdviceTransformer}).
 */
public final class MpjAgent
{
    /** What the agent changes, and why: one entry per MPJ Express method. */
    static final List<AdviceTransformer.Target> TARGETS = List.of(
        new AdviceTransformer.Target("runtime.starter.MPJRun", "main", StarterMainAdvice.class,
            "MPJRun accepts only its own hard-coded -dev names; shm jobs go to the shm launcher"),
        new AdviceTransformer.Target("mpjdev.javampjdev.MPJDev", "init", DeviceLookupAdvice.class,
            "MPJDev.init picks a device from a hard-coded if-chain; look the name up in a ServiceLoader first"));

    private static AdviceTransformer transformer;

    private MpjAgent()
    {
    }

    /** Installs the agent at JVM start ({@code -javaagent:}). */
    public static void premain(final String arguments, final Instrumentation instrumentation)
    {
        try
        {
            install(instrumentation);
        }
        catch (final RuntimeException | LinkageError e)
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
            // Retransformable, for agentmain: Advice only inlines code, so the class's shape never changes.
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

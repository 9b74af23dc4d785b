package mpjrun.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;

import mpjrun.AgentJarContract;

/**
 * Applies the agent's rank advice ({@link MpjAgent#RANK_TARGETS}) to MPJ Express's classes once, ahead of
 * time, and writes the changed classes to a jar: the launcher puts that jar before {@code mpj.jar} on every
 * rank's class path, so its ranks get the same collectives through shared memory without {@code -javaagent},
 * and never load Byte Buddy.
 *
 * <p>Why: an agent weaves in every rank JVM at every start. Byte Buddy's loading, its type pool and the
 * weaving itself took about 0.7 s of each rank's start here (two ranks on two cores: a Hello job's
 * {@code main} began 0.9-1.0 s after its JVM instead of 0.2 s), and its code was then compiled by every
 * rank's JIT while the program ran. The woven classes are the agent's output byte for byte; they depend only
 * on this jar and on {@code mpj.jar}, which is why the launcher keeps them until either changes.
 *
 * <pre>
 * java -jar kupl-agent.jar MPJ_JAR OUT_JAR [--corrections-only]
 * </pre>
 * (the jar's {@code Main-Class}, the launcher's {@link AgentJarContract}).
 * With {@value #CORRECTIONS_ONLY}, only {@link MpjAgent#CORRECTIONS} (for multicore ranks, which have no use for
 * the shm device's advice).
 * Exit status 0 with {@code OUT_JAR} written; 1 (with the reason on standard error) if a class could not be
 * woven; 2 for a bad command line.
 */
public final class MpjClassWeaver
{
    /** The option that weaves {@link MpjAgent#CORRECTIONS} alone. */
    public static final String CORRECTIONS_ONLY = AgentJarContract.CORRECTIONS_ONLY;
    /** Manifest attribute naming the {@code mpj.jar} the classes were woven from. */
    public static final String WOVEN_FROM = "Kupl-Woven-From";

    private MpjClassWeaver()
    {
    }

    public static void main(final String[] args)
    {
        if (args.length != 2 && (args.length != 3 || !args[2].equals(CORRECTIONS_ONLY)))
        {
            System.err.println("usage: java -jar kupl-agent.jar MPJ_JAR OUT_JAR [" + CORRECTIONS_ONLY + "]");
            System.exit(2);
        }
        try
        {
            weave(Path.of(args[0]), Path.of(args[1]), args.length == 3 ? MpjAgent.CORRECTIONS : MpjAgent.RANK_TARGETS);
        }
        catch (final IOException | RuntimeException | LinkageError e)
        {
            System.err.println("kupl agent: could not weave MPJ Express's classes from " + args[0] + ": " + e);
            System.exit(1);
        }
    }

    /**
     * Writes to {@code out} a jar holding each class of {@code mpjJar} that {@link MpjAgent#RANK_TARGETS} names,
     * with its advice inlined.
     *
     * @throws IOException if a class is missing from {@code mpjJar} or {@code out} cannot be written.
     */
    static void weave(final Path mpjJar, final Path out) throws IOException
    {
        weave(mpjJar, out, MpjAgent.RANK_TARGETS);
    }

    /** Writes to {@code out} a jar holding each class of {@code mpjJar} that {@code targets} names, advice inlined. */
    static void weave(final Path mpjJar, final Path out, final List<AdviceTransformer.Target> targets)
        throws IOException
    {
        final Map<String, List<AdviceTransformer.Target>> byType = targets.stream()
            .collect(Collectors.groupingBy(AdviceTransformer.Target::type, LinkedHashMap::new, Collectors.toList()));
        final Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue(WOVEN_FROM, mpjJar.toAbsolutePath().toString());
        // The loader only resolves the types the woven classes refer to (Byte Buddy reads their class files).
        try (URLClassLoader mpj = new URLClassLoader(new URL[] {mpjJar.toUri().toURL()},
            MpjClassWeaver.class.getClassLoader()); JarFile jar = new JarFile(mpjJar.toFile());
            OutputStream file = Files.newOutputStream(out); JarOutputStream woven = new JarOutputStream(file, manifest))
        {
            for (final Map.Entry<String, List<AdviceTransformer.Target>> type : byType.entrySet())
            {
                final String entry = type.getKey().replace('.', '/') + ".class";
                final JarEntry original = jar.getJarEntry(entry);
                if (original == null)
                {
                    throw new IOException(mpjJar + " has no " + entry + ": not MPJ Express 0.44's mpj.jar?");
                }
                final byte[] classfile;
                try (InputStream in = jar.getInputStream(original))
                {
                    classfile = in.readAllBytes();
                }
                woven.putNextEntry(new JarEntry(entry));
                woven.write(AdviceWeaver.weave(type.getValue(), mpj, classfile));
                woven.closeEntry();
            }
        }
    }
}

package conformance;

import java.nio.file.Path;
import java.util.List;

import mpjrun.MpjJobs;

/** What the tests need to launch conformance jobs from the build's class path. */
final class Jobs
{
    static final Path REPORT_DIR = Path.of(System.getProperty("conformance.report.dir", "target/conformance"));

    private Jobs()
    {
    }

    /** A matrix over this JVM's class path (test classes included: the broken providers live there). */
    static Matrix matrix(final long caseTimeoutMs, final List<String> only)
    {
        return new Matrix(MpjJobs.currentClassPath(), caseTimeoutMs, only);
    }

    /** As {@link #matrix(long, List)}, with more arguments for every rank ({@code --message-fault=NAME}). */
    static Matrix matrix(final long caseTimeoutMs, final List<String> only, final List<String> rankArguments)
    {
        return new Matrix(MpjJobs.currentClassPath(), caseTimeoutMs, only, rankArguments);
    }
}

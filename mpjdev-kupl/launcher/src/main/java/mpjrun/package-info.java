/**
 * Launching MPJ Express programs: {@link mpjrun.MpjJobs} runs one as a real job and judges
 * how it ended (for tests and benchmarks), {@link mpjrun.MpjRun} is {@code bin/mpjrun}'s
 * command line, {@link mpjrun.MpjHome} makes the MPJ_HOME MPJ Express's starter needs, and
 * {@link mpjrun.JobSpec} describes a job whatever device runs it.
 */
package mpjrun;

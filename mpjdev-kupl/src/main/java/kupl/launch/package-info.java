/**
 * Launching MPJ Express programs: {@link kupl.launch.MpjJobs} runs one as a real job and judges
 * how it ended (for tests and benchmarks), {@link kupl.launch.MpjRun} is {@code bin/mpjrun}'s
 * command line, {@link kupl.launch.MpjHome} makes the MPJ_HOME MPJ Express's starter needs, and
 * {@link kupl.launch.JobSpec} describes a job whatever device runs it.
 */
package kupl.launch;

package bench.device;

import java.util.List;
import java.util.Map;

/**
 * What one run of {@link DeviceBenchmark} measured, before anything is judged: each job's output, by
 * {@link DeviceMeasurement#jobKey} for the Java jobs and by process count and C part for Open MPI's, null where a
 * job failed; the floors measured beside the shm jobs (null where no row needed one); and the notes of what
 * could not be measured.
 */
record DeviceOutputs(Map<String, String> shm, Map<String, String> multicore, Map<String, String> niodev,
    Map<String, String> fence, Map<String, String> c, ShortMessageFloor shortFloor, LargeMessageFloor largeFloor,
    List<String> notes)
{
}

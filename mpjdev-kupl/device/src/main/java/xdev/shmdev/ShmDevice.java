package xdev.shmdev;

import java.lang.foreign.MemorySegment;
import java.util.function.UnaryOperator;


import kupl.BackoffIdle;
import kupl.CpuBinding;
import kupl.Doorbell;
import kupl.KuplException;
import kupl.Parker;
import kupl.ShmComm;
import kupl.ShmWin;
import kupl.Waiter;
import mpjbuf.Buffer;
import mpjdev.Request;
import mpjdev.Status;
import xdev.Device;
import xdev.ProcessID;
import xdev.XDevException;

/**
 * MPJ Express's {@code xdev.Device} between JVM processes of one node, through shared memory.
 * This class checks the caller's arguments and wires the parts together; each part of the work
 * is a class of its own:
 *
 * <ul>
 * <li><b>Joining.</b> {@link DeviceBootstrap}: {@code MPI.Init}'s arguments, the out-of-band
 *     hub, the engine comm ({@link ShmComm}) and window ({@link ShmWin}: unnamed shared memory,
 *     nothing left in {@code /dev/shm} by any exit).</li>
 * <li><b>Queues.</b> Every rank has one many-producer single-consumer {@link ShmQueue} in its
 *     segment ({@link SegmentDescriptor}), into which every other rank writes: the device's
 *     shared memory grows linearly with the job's size, and a rank with nothing to receive polls
 *     one word. {@link PeerQueues} reads it and writes what waits for room in the peers'.</li>
 * <li><b>Protocols.</b> {@link MessageProtocol}: eager up to {@link #EAGER_LIMIT} bytes, in
 *     records of at most {@link #CHUNK_BYTES} ({@link MessageRecords}); rendezvous above, the
 *     bytes pipelined through the receiver's staging area ({@link StagedTransfers}); each send
 *     follows its {@link SendStateMachine}.</li>
 * <li><b>Matching.</b> {@link MatchQueues}: source (or {@code ANY_SOURCE}), tag (or
 *     {@code ANY_TAG}) and context, in posting and arrival order, so that messages do not
 *     overtake each other.</li>
 * <li><b>Progress and waiting.</b> No thread of its own: a thread that waits, tests or probes
 *     drains the incoming queues and writes pending records, under the device's lock
 *     ({@link Progress}); {@link DeviceWaiter} waits with the engine's one {@code kupl.Waiter} (spins,
 *     yields, then sleeps on a futex doorbell) and checks every
 *     {@code KUPL_SHM_LIVENESS_MS} that every other rank is alive, failing with an
 *     {@link XDevException} naming a rank that died instead of hanging.</li>
 * <li><b>Binding.</b> The thread that joins is bound to a CPU of its own when the node has one for
 *     each rank ({@link CpuBinding}, {@code KUPL_SHM_BIND}): spinning waits answer fast only while the
 *     ranks they wait for run on other cores.</li>
 * </ul>
 *
 * What it costs per message is measured by {@code bench.device.DeviceBenchmark} ({@code bin/bench-device}).
 */
public final class ShmDevice implements Device
{
    /** Name of the device in {@code -dev} and in {@code MPI.Init}'s third argument. */
    public static final String NAME = "shm";
    /** Messages up to this size (static plus dynamic section) are sent eagerly, as niodev's default. */
    public static final int EAGER_LIMIT = 128 * 1024;
    /**
     * Capacity of each rank's queue, which every other rank writes into: 256 KiB holds four full
     * records of {@link #CHUNK_BYTES}, and with the staging rings ({@link RendezvousRing#ringBytesFor})
     * keeps a job of 128 ranks within 48.1 MiB of shared memory ({@link #sharedMemoryBytes}).
     */
    public static final int QUEUE_BYTES = 256 * 1024;
    /** Largest piece of message data in one record, and copied into a staging ring at once. */
    public static final int CHUNK_BYTES = 64 * 1024;

    /**
     * Shared memory the device reserves for a job of {@code ranks} processes (its engine window):
     * per rank, a doorbell, one queue of {@link #QUEUE_BYTES} and one staging area.
     *
     * @throws IllegalArgumentException naming the value, if {@code ranks} is below 1 or above 65536.
     */
    public static long sharedMemoryBytes(final int ranks)
    {
        return ranks * new SegmentDescriptor(ranks, QUEUE_BYTES).lengthBytes();
    }

    private int rank = -1;
    private DeviceBootstrap joined;
    private JobRanks ranks;
    private PeerQueues queues;
    private final MatchQueues matching = new MatchQueues();
    private MessageProtocol protocol;
    private Progress progress;
    private Doorbell ownBell;
    /** The CPU the joining thread was bound to, or {@link CpuBinding#NOT_BOUND}. */
    private int boundCpu = CpuBinding.NOT_BOUND;
    /** The step of posting a receive, made once: a receive makes no lambda. */
    private final java.util.function.Function<RecvRequest, RecvRequest> postStep = this::postLocked;

    /**
     * Joins the job: {@code args} are {@code MPI.Init}'s, {@code {rank, conf, "shm", ...}},
     * with {@code conf} as {@link ShmConf} writes it. Collective over the job's ranks.
     */
    @Override
    public ProcessID[] init(final String[] args) throws XDevException
    {
        if (rank >= 0)
        {
            throw new XDevException("shm device: init called twice (rank " + rank + ")");
        }
        final DeviceBootstrap job = DeviceBootstrap.join(args, QUEUE_BYTES);
        return start(job, new JobRanks(job.jobId(), job.size()), Long.MAX_VALUE);
    }

    /**
     * Starts on memory shared with the ranks {@code job} joined, whom {@code jobRanks} name: the whole job on
     * one node ({@link #init}), or the ranks of this node in a job that spans nodes ({@link ClusterShmDevice}),
     * whose waits sleep at most {@code maxParkNs} between passes (see {@link Progress}).
     */
    ProcessID[] start(final DeviceBootstrap job, final JobRanks jobRanks, final long maxParkNs)
    {
        final int size = job.size();
        final int own = job.rank();
        // First, so that a rank that cannot be bound fails before it starts to move messages.
        boundCpu = bindJoiningThread(job);
        final SegmentDescriptor layout = new SegmentDescriptor(size, QUEUE_BYTES);
        final Doorbell[] bells = new Doorbell[size];
        final ShmQueue[] outbound = new ShmQueue[size];
        final RendezvousRing[] stagingAreas = new RendezvousRing[size];
        for (int peer = 0; peer < size; peer++)
        {
            final MemorySegment peerSegment = job.window().segment(peer);
            bells[peer] = layout.doorbell(peerSegment);
            outbound[peer] = peer == own ? null : layout.queue(peerSegment, own);
            stagingAreas[peer] = layout.staging(peerSegment);
        }
        final ShmQueue inbound = layout.queue(job.window().segment(own), own);
        final DirectReads directReads = DirectReads.configured(size);
        final Completions completions = new Completions(bells[own]);
        joined = job;
        ranks = jobRanks;
        queues = new PeerQueues(own, inbound, outbound, bells, directReads, completions);
        final StagedTransfers staged = new StagedTransfers(own, stagingAreas, bells, completions);
        protocol = new MessageProtocol(own, size, queues, matching, completions, directReads, staged,
            job.comm()::pid, ranks::uuid);
        progress = new Progress(job.window(), job.comm(), job.config(), queues, protocol, completions, bells[own],
            maxParkNs);
        ownBell = bells[own];
        // A rank's death is then known to every call within one liveness interval, even to ranks that never wait.
        job.window().watchProcesses();
        if (DeviceFault.configured() != DeviceFault.NO_PROGRESS_IN_OTHER_WAITS)
        {
            progress.installForEveryWait();
        }
        rank = own;
        return ranks.ids();
    }

    /**
     * Binds the calling thread as {@code KUPL_SHM_BIND} says, for its rank among those sharing memory with it;
     * ranks that are threads of one JVM (tests) are left as they are.
     */
    private static int bindJoiningThread(final DeviceBootstrap job)
    {
        final long ownPid = job.comm().pid(job.rank());
        for (int peer = 0; peer < job.size(); peer++)
        {
            if (peer != job.rank() && job.comm().pid(peer) == ownPid)
            {
                return CpuBinding.NOT_BOUND;
            }
        }
        try
        {
            return CpuBinding.bindCallingThread(CpuBinding.configured(System.getenv()), job.rank(), job.size());
        }
        catch (final KuplException e)
        {
            throw new XDevException("shm device: rank " + job.rank() + ": " + e.getMessage());
        }
    }

    /** The CPU the thread that joined runs on only ({@code KUPL_SHM_BIND}), or {@link CpuBinding#NOT_BOUND}. */
    public int boundCpu()
    {
        checkInitialised();
        return boundCpu;
    }

    @Override
    public int getSendOverhead()
    {
        return 0;
    }

    @Override
    public int getRecvOverhead()
    {
        return 0;
    }

    @Override
    public ProcessID id()
    {
        checkInitialised();
        return ranks.id(rank);
    }

    /** This process's rank in the job. */
    public int rank()
    {
        checkInitialised();
        return rank;
    }

    /** Number of processes in the job. */
    public int size()
    {
        checkInitialised();
        return ranks.size();
    }

    /**
     * Leaves the job: writes what is still queued, then frees the shared queues together with the
     * other ranks (a collective wait, which fails naming a rank that died instead of hanging).
     */
    @Override
    public void finish() throws XDevException
    {
        checkInitialised();
        if (progress.isFinished())
        {
            return;
        }
        progress.finish();
        joined.leave();
    }

    @Override
    public Request isend(final Buffer buf, final ProcessID destID, final int tag, final int context)
        throws XDevException
    {
        return startSend(buf, destID, tag, context, false);
    }

    @Override
    public void send(final Buffer buf, final ProcessID destID, final int tag, final int context) throws XDevException
    {
        startSend(buf, destID, tag, context, false).iwait();
    }

    @Override
    public Request issend(final Buffer buf, final ProcessID destID, final int tag, final int context)
        throws XDevException
    {
        return startSend(buf, destID, tag, context, true);
    }

    @Override
    public void ssend(final Buffer buf, final ProcessID destID, final int tag, final int context) throws XDevException
    {
        startSend(buf, destID, tag, context, true).iwait();
    }

    @Override
    public Status recv(final Buffer buf, final ProcessID srcID, final int tag, final int context) throws XDevException
    {
        final Status status = new Status(srcID == null ? null : srcID.uuid(), tag, -1);
        return irecv(buf, srcID, tag, context, status).iwait();
    }

    @Override
    public Request irecv(final Buffer buf, final ProcessID srcID, final int tag, final int context,
        final Status status) throws XDevException
    {
        checkUsable();
        if (buf == null)
        {
            throw new XDevException("shm device: irecv with a null buffer");
        }
        return post(new RecvRequest(progress, ranks.sourceRank(srcID, "irecv"), tag, context, buf,
            status == null ? new Status() : status));
    }

    private RecvRequest post(final RecvRequest receive)
    {
        return progress.locked(postStep, receive);
    }

    /** Under the lock: matches {@code receive} with what has arrived, else posts it ({@link #postStep}). */
    private RecvRequest postLocked(final RecvRequest receive)
    {
        // Whatever has arrived is matched first, in arrival order.
        progress.drainInbound();
        final Incoming message = matching.post(receive);
        if (message != null)
        {
            protocol.bindAndFlush(receive, message);
        }
        return receive;
    }

    @Override
    public Status probe(final ProcessID srcID, final int tag, final int context) throws XDevException
    {
        final int source = ranks().sourceRank(srcID, "probe");
        final Status[] found = new Status[1];
        progress.awaitCondition(() -> (found[0] = probeNow(source, tag, context)) != null,
            "probe for a message from " + (source == RecvRequest.ANY ? "any rank" : "rank " + source));
        return found[0];
    }

    @Override
    public Status iprobe(final ProcessID srcID, final int tag, final int context) throws XDevException
    {
        final int source = ranks().sourceRank(srcID, "iprobe");
        progress.pass();
        return progress.locked(() -> probeNow(source, tag, context));
    }

    @Override
    public Status iprobe(final ProcessID srcID, final ProcessID dstID, final int tag, final int context)
        throws XDevException
    {
        // One process per rank: the destination is always this process.
        return iprobe(srcID, tag, context);
    }

    @Override
    public Status iprobeAndFetch(final ProcessID srcID, final ProcessID dstID, final int tag, final int context,
        final Buffer buf) throws XDevException
    {
        final int source = ranks().sourceRank(srcID, "iprobeAndFetch");
        if (buf == null)
        {
            throw new XDevException("shm device: iprobeAndFetch with a null buffer");
        }
        progress.pass();
        final RecvRequest receive = progress.locked(() ->
        {
            final Incoming message = matching.takeUnexpected(source, tag, context);
            if (message == null)
            {
                return null;
            }
            final RecvRequest fetch = new RecvRequest(progress, message.source, message.tag, context, buf,
                new Status(ranks.uuid(message.source), message.tag, -1));
            protocol.bindAndFlush(fetch, message);
            return fetch;
        });
        return receive == null ? null : receive.iwait();
    }

    /** Waits until some request completes and returns it (for {@code Request.iwaitany}), each once. */
    @Override
    public Request peek() throws XDevException
    {
        checkUsable();
        final ShmRequest[] next = new ShmRequest[1];
        progress.awaitCondition(() -> (next[0] = progress.takeCompleted()) != null,
            "peek (waiting for any request to complete)");
        return next[0];
    }

    private SendRequest startSend(final Buffer buf, final ProcessID destID, final int tag, final int context,
        final boolean synchronous)
    {
        checkUsable();
        if (buf == null)
        {
            throw new XDevException("shm device: send with a null buffer");
        }
        return startSend(MessageBytes.of(buf), ranks.rankOf(destID, "send"), tag, context, synchronous, null);
    }

    private SendRequest startSend(final MessageBytes bytes, final int destination, final int tag, final int context,
        final boolean synchronous, final SendRequest reuse)
    {
        final boolean rendezvous = destination != rank && bytes.totalBytes() > EAGER_LIMIT;
        return progress.startSend(bytes, destination, tag, context, synchronous, rendezvous, reuse);
    }

    /** The status of the first unexpected message that fits, or null (under the device's lock). */
    private Status probeNow(final int source, final int tag, final int context)
    {
        final Incoming message = matching.peekUnexpected(source, tag, context);
        return message == null ? null :
            new Status(ranks.uuid(message.source), message.tag, -1, message.type(), message.numEls);
    }

    // ---- for ArrayMessages: sends and receives of Java arrays of a basic type, without mpjbuf ----

    /** The device rank of {@code id}; an {@link XDevException} if it is not a rank of this job. */
    int rankOf(final ProcessID id)
    {
        return ranks().rankOf(id, "send");
    }

    /**
     * Starts a send of {@code bytes} ({@link MessageBytes#ofElements}) to device rank {@code destination}, in
     * {@code reuse} if it is not null: a request of this thread's that was waited for and failed not.
     */
    SendRequest sendElements(final MessageBytes bytes, final int destination, final int tag, final int context,
        final boolean synchronous, final SendRequest reuse)
    {
        checkUsable();
        if (reuse != null && destination == rank)
        {
            throw new IllegalArgumentException("a send to this very process cannot reuse a request: its message " +
                "keeps the send until a receive matches it");
        }
        // A request of an earlier device of this JVM (a test's) is not this one's to reuse.
        return startSend(bytes, destination, tag, context, synchronous, reuse != null && reuse.driver == progress ?
            reuse : null);
    }

    /**
     * Posts a receive into {@code target} from device rank {@code source} (or {@link RecvRequest#ANY}); {@code reuse}
     * is null, or a request of this thread's that was waited for, into {@code target}, and did not fail.
     */
    RecvRequest receiveElements(final ElementReceive target, final int source, final int tag, final int context,
        final RecvRequest reuse)
    {
        checkUsable();
        if (reuse == null || reuse.driver != progress)
        {
            return post(new RecvRequest(progress, source, tag, context, target, new Status()));
        }
        reuse.restart(source, tag, context);
        return post(reuse);
    }

    // ---- for ClusterShmDevice, which runs this device among the ranks of one node ----

    /** The device's lock and passes. */
    Progress progress()
    {
        checkInitialised();
        return progress;
    }

    /**
     * A waiter of this device's rank that spins {@code spins} times, yields for {@code yieldNs}, then sleeps
     * with {@code parker} (given this rank's doorbell's parker) for {@code minParkNs} to {@code maxParkNs}; it
     * checks that the node's other ranks are alive, as the device's own waits do.
     */
    DeviceWaiter waiterWith(final int spins, final long yieldNs, final UnaryOperator<Parker> parker,
        final long minParkNs, final long maxParkNs)
    {
        checkInitialised();
        final Waiter base = joined.window().waiter();
        final BackoffIdle.Settings idle = new BackoffIdle.Settings(spins, yieldNs, minParkNs, maxParkNs,
            parker.apply(ownBell.asParker()));
        return new DeviceWaiter(new Waiter(idle, base.liveness(), joined.config().livenessIntervalNs())
            .withProgressInAttempts(), joined.comm());
    }

    /** Takes back a receive nothing has matched yet (under the device's lock); whether it was still posted. */
    boolean retract(final RecvRequest receive)
    {
        return matching.retract(receive);
    }

    // ---- checks ----

    private JobRanks ranks()
    {
        checkInitialised();
        return ranks;
    }

    private void checkInitialised()
    {
        if (rank < 0)
        {
            throw new XDevException("shm device: not initialised (MPI.Init has not run with -dev shm)");
        }
    }

    private void checkUsable()
    {
        checkInitialised();
        progress.checkUsable();
    }

    @Override
    public String toString()
    {
        return "ShmDevice[rank " + rank + " of " + (ranks == null ? 0 : ranks.size()) +
            (progress != null && progress.isFinished() ? ", finished" : "") + "]";
    }
}

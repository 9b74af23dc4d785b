package xdev.shmdev;

import static xdev.shmdev.MessageRecords.ENVELOPE_BYTES;
import static xdev.shmdev.MessageRecords.KIND_ACK;
import static xdev.shmdev.MessageRecords.KIND_CLEAR_TO_SEND;
import static xdev.shmdev.MessageRecords.KIND_DATA;
import static xdev.shmdev.MessageRecords.KIND_EAGER;
import static xdev.shmdev.MessageRecords.KIND_READ;
import static xdev.shmdev.MessageRecords.KIND_RENDEZVOUS;
import static xdev.shmdev.MessageRecords.SEQUENCE_BYTES;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import kupl.Doorbell;
import kupl.IdleBackoff;
import kupl.KuplConfig;
import kupl.KuplException;
import kupl.PeerDeathException;
import kupl.ShmComm;
import kupl.ShmWin;
import kupl.bootstrap.SocketOob;
import mpjbuf.Buffer;
import mpjbuf.NIOBuffer;
import mpjdev.Request;
import mpjdev.Status;
import xdev.Device;
import xdev.ProcessID;
import xdev.XDevException;

/**
 * MPJ Express's {@code xdev.Device} between JVM processes of one node, through shared memory.
 *
 * <p><b>Queues.</b> Every ordered pair of processes has a single-producer single-consumer
 * {@link ShmRing} in the receiver's segment of one engine window ({@link ShmComm},
 * {@link ShmWin}: unnamed shared memory, nothing left in {@code /dev/shm} by any exit). A
 * message is an envelope record (sequence number, tag, context, sizes, the buffer's first
 * section type and element count) followed by its bytes: the {@code mpjbuf.Buffer}'s static
 * section, then its dynamic section.
 *
 * <p><b>Protocols.</b> Up to {@link #EAGER_LIMIT} bytes a message goes at once (eager): the
 * receiver copies it straight into a posted receive's buffer, or into a staging array if none
 * is posted yet. A larger one sends only its envelope (rendezvous); once a receive matches it,
 * the receiver answers clear-to-send and the sender streams the bytes in chunks of at most
 * {@link #CHUNK_BYTES}, so nothing larger than the queue is ever buffered. A synchronous send
 * completes when the receiver has matched it (an acknowledgement for eager messages, the
 * clear-to-send for rendezvous ones).
 *
 * <p><b>Matching.</b> Receives match on source (or {@code ANY_SOURCE}), tag (or
 * {@code ANY_TAG}) and context, in the order they were posted; messages are matched in the
 * order their envelopes arrived, and one sender's envelopes arrive in the order it sent them
 * (one queue per pair), so messages do not overtake each other.
 *
 * <p><b>Progress and waiting.</b> No thread of its own: a thread that waits, tests or probes
 * drains the incoming queues and writes pending outgoing records, spinning briefly, then
 * yielding, then parking ({@link IdleBackoff}, the engine's settings). While it waits it
 * checks every {@code KUPL_SHM_LIVENESS_MS} that every other rank is alive, and fails with an
 * {@link XDevException} naming a rank that died, instead of hanging.
 */
public final class ShmDevice implements Device
{
    /** Name of the device in {@code -dev} and in {@code MPI.Init}'s third argument. */
    public static final String NAME = "shm";
    /** Messages up to this size (static plus dynamic section) are sent eagerly, as niodev's default. */
    public static final int EAGER_LIMIT = 128 * 1024;
    /** Capacity of each queue between two processes. */
    public static final int QUEUE_BYTES = 512 * 1024;
    /** Largest piece of message data in one record. */
    public static final int CHUNK_BYTES = 64 * 1024;

    static final int ANY_TAG = Device.ANY_TAG;

    /** {@code -Dxdev.shmdev.directReads=false} streams every large message through the queues. */
    private static final boolean DIRECT_READS =
        !"false".equals(System.getProperty("xdev.shmdev.directReads"));
    /** Bytes of a segment ahead of its queues: the owner's doorbell, padded to keep the queues apart. */
    private static final long BELL_BYTES = 256;

    private int rank = -1;
    private int size;
    private ProcessID[] ids;
    private final Map<UUID, Integer> ranksById = new HashMap<>();
    private KuplConfig config;
    private SocketOob oob;
    private ShmComm comm;
    private ShmWin window;
    private ShmRing[] inbound;
    private ShmRing[] outbound;
    /** Where this process sleeps when it has waited long enough, and where its peers sleep. */
    private Doorbell bell;
    private Doorbell[] peerBells;
    private List<ArrayDeque<Outgoing>> pending;
    private int[] nextSequence;
    private List<Map<Integer, Incoming>> arriving;
    private List<Map<Integer, SendRequest>> awaitingReceiver;
    private final List<RecvRequest> posted = new ArrayList<>();
    private final List<Incoming> unexpected = new ArrayList<>();
    private final LinkedHashSet<ShmRequest> completed = new LinkedHashSet<>();
    private ThreadLocal<IdleBackoff> backoffs;
    private final ShmRing.Reader reader = this::onRecord;
    private volatile boolean finished;
    /** Whether large messages are read straight from the sender; off after the first refusal. */
    private boolean directReads = DIRECT_READS;
    private volatile XDevException broken;

    /** Something waiting to be written into one outgoing queue. */
    private record Outgoing(int kind, SendRequest send, int sequence)
    {
    }

    /**
     * Joins the job: {@code args} are {@code MPI.Init}'s, {@code {rank, conf, "shm", ...}},
     * with {@code conf} as {@link ShmConf} writes it. Collective over the job's ranks.
     */
    @Override
    public ProcessID[] init(final String[] args) throws XDevException
    {
        if (args == null || args.length < 3)
        {
            throw new XDevException("shm device: MPI.Init needs {rank, conf, \"shm\", ...}, got " +
                (args == null ? "null" : args.length + " arguments"));
        }
        if (rank >= 0)
        {
            throw new XDevException("shm device: init called twice (rank " + rank + ")");
        }
        final int ownRank;
        final ShmConf conf;
        try
        {
            ownRank = Integer.parseInt(args[0].trim());
            conf = ShmConf.parse(args[1]);
        }
        catch (final IllegalArgumentException e)
        {
            throw new XDevException("shm device: bad MPI.Init arguments (rank '" + args[0] + "', conf '" + args[1] +
                "'): " + e.getMessage());
        }
        if (ownRank < 0 || ownRank >= conf.size())
        {
            throw new XDevException("shm device: rank=" + ownRank + " is outside the job of " + conf.size() +
                " ranks (0-" + (conf.size() - 1) + ")");
        }
        try
        {
            config = KuplConfig.fromEnvironment();
            oob = SocketOob.connect(conf.port(), conf.token(), ownRank, conf.size());
            comm = ShmComm.create(conf.size(), ownRank, ProcessHandle.current().pid(), oob, null, config);
            window = comm.allocate(BELL_BYTES + conf.size() * ShmRing.bytesFor(QUEUE_BYTES), false);
        }
        catch (final IOException | KuplException e)
        {
            closeQuietly();
            throw new XDevException("shm device: rank " + ownRank + " could not join the job (" + conf + "): " +
                e.getMessage());
        }
        setUp(ownRank, conf);
        return ids.clone();
    }

    private void setUp(final int ownRank, final ShmConf conf)
    {
        size = conf.size();
        final long slot = ShmRing.bytesFor(QUEUE_BYTES);
        inbound = new ShmRing[size];
        outbound = new ShmRing[size];
        pending = new ArrayList<>(size);
        arriving = new ArrayList<>(size);
        awaitingReceiver = new ArrayList<>(size);
        nextSequence = new int[size];
        ids = new ProcessID[size];
        peerBells = new Doorbell[size];
        for (int peer = 0; peer < size; peer++)
        {
            // Each segment: its owner's doorbell, then the queue from sender s to the owner in slot s.
            peerBells[peer] = new Doorbell(window.segment(peer).asSlice(0, Doorbell.BYTES));
            inbound[peer] = new ShmRing(window.segment(ownRank).asSlice(BELL_BYTES + peer * slot, slot), QUEUE_BYTES);
            outbound[peer] = new ShmRing(window.segment(peer).asSlice(BELL_BYTES + ownRank * slot, slot), QUEUE_BYTES);
            pending.add(new ArrayDeque<>());
            arriving.add(new HashMap<>());
            awaitingReceiver.add(new HashMap<>());
            ids[peer] = new ProcessID(new UUID(conf.token(), peer));
            ranksById.put(ids[peer].uuid(), peer);
        }
        bell = peerBells[ownRank];
        final KuplConfig settings = config;
        final int processes = size;
        backoffs = ThreadLocal.withInitial(() -> new IdleBackoff(settings, processes));
        rank = ownRank;
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
        return ids[rank];
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
        return size;
    }

    /**
     * Leaves the job: writes what is still queued, then frees the shared queues together with the
     * other ranks (a collective wait, which fails naming a rank that died instead of hanging).
     */
    @Override
    public void finish() throws XDevException
    {
        checkInitialised();
        if (finished)
        {
            return;
        }
        awaitCondition(this::nothingPending, "finish (writing queued messages)");
        finished = true;
        try
        {
            window.close();
            comm.close();
        }
        catch (final KuplException e)
        {
            throw new XDevException("shm device: rank " + rank + " could not finish: " + e.getMessage());
        }
        finally
        {
            closeQuietly();
        }
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
        final RecvRequest receive = new RecvRequest(this, sourceRank(srcID, "irecv"), tag, context, buf,
            status == null ? new Status() : status);
        synchronized (this)
        {
            // Whatever has arrived is matched first, in arrival order.
            drainInbound();
            final Incoming message = firstUnexpected(receive.source, tag, context);
            if (message != null)
            {
                unexpected.remove(message);
                bind(receive, message);
                flushAll();
            }
            else
            {
                posted.add(receive);
            }
        }
        return receive;
    }

    @Override
    public Status probe(final ProcessID srcID, final int tag, final int context) throws XDevException
    {
        final int source = sourceRank(srcID, "probe");
        final Status[] found = new Status[1];
        awaitCondition(() -> (found[0] = probeNow(source, tag, context)) != null,
            "probe for a message from " + (source == RecvRequest.ANY ? "any rank" : "rank " + source));
        return found[0];
    }

    @Override
    public Status iprobe(final ProcessID srcID, final int tag, final int context) throws XDevException
    {
        final int source = sourceRank(srcID, "iprobe");
        synchronized (this)
        {
            progress();
            return probeNow(source, tag, context);
        }
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
        final int source = sourceRank(srcID, "iprobeAndFetch");
        final RecvRequest receive;
        synchronized (this)
        {
            progress();
            final Incoming message = firstUnexpected(source, tag, context);
            if (message == null)
            {
                return null;
            }
            receive = new RecvRequest(this, message.source, message.tag, context, buf,
                new Status(ids[message.source].uuid(), message.tag, -1));
            unexpected.remove(message);
            bind(receive, message);
            flushAll();
        }
        return receive.iwait();
    }

    /** Waits until some request completes and returns it (for {@code Request.iwaitany}), each once. */
    @Override
    public Request peek() throws XDevException
    {
        checkUsable();
        final ShmRequest[] next = new ShmRequest[1];
        awaitCondition(() ->
        {
            final Iterator<ShmRequest> first = completed.iterator();
            if (!first.hasNext())
            {
                return false;
            }
            next[0] = first.next();
            first.remove();
            return true;
        }, "peek (waiting for any request to complete)");
        return next[0];
    }

    // ---- sending ----

    private SendRequest startSend(final Buffer buf, final ProcessID destID, final int tag, final int context,
        final boolean synchronous)
    {
        checkUsable();
        if (buf == null)
        {
            throw new XDevException("shm device: send with a null buffer");
        }
        final int destination = rankOf(destID, "send");
        int typeCode = -1;
        int numEls = 0;
        try
        {
            buf.commit();
            if (buf.getSize() > 0)
            {
                typeCode = buf.getSectionHeader().getCode();
                numEls = buf.getSectionSize();
            }
        }
        catch (final mpjbuf.BufferException e)
        {
            throw new XDevException("shm device: cannot read the message buffer: " + e.getMessage());
        }
        final ByteBuffer staticBuffer = ((NIOBuffer)buf.getStaticBuffer()).getBuffer();
        final MemorySegment staticData = MemorySegment.ofBuffer(staticBuffer.duplicate().clear())
            .asSlice(buf.offset(), buf.getSize());
        final byte[] dynamicData = buf.getDynamicBuffer() == null || buf.getDynamicBuffer().length == 0 ? null :
            buf.getDynamicBuffer();
        synchronized (this)
        {
            final long total = staticData.byteSize() + (dynamicData == null ? 0 : dynamicData.length);
            final boolean rendezvous = destination != rank && total > EAGER_LIMIT;
            final SendRequest send = new SendRequest(this, destination, tag, context, nextSequence[destination]++,
                synchronous, rendezvous, staticData, dynamicData, numEls, typeCode);
            if (destination == rank)
            {
                deliverLocally(send);
            }
            else
            {
                if (rendezvous || synchronous)
                {
                    awaitingReceiver.get(destination).put(send.sequence, send);
                }
                pending.get(destination).add(
                    new Outgoing(rendezvous ? KIND_RENDEZVOUS : KIND_EAGER, send, send.sequence));
                flush(destination);
            }
            return send;
        }
    }

    /** A message to this very process: matched here, its bytes staged (it cannot wait in a queue). */
    private void deliverLocally(final SendRequest send)
    {
        final Incoming message = new Incoming(rank, send.sequence, send.tag, send.context, send.staticBytes,
            send.dynamicBytes, send.numEls, send.typeCode, send.synchronous, false);
        message.staging = new byte[(int)send.totalBytes()];
        send.copyPayload(0, MemorySegment.ofArray(message.staging), 0, message.staging.length);
        message.arrived = message.totalBytes();
        send.written = send.totalBytes();
        message.localSend = send;
        if (!send.synchronous)
        {
            completeRequest(send);
        }
        arrive(message);
    }

    /** Writes what the queue to {@code peer} has room for; returns whether anything was written. */
    private boolean flush(final int peer)
    {
        final ArrayDeque<Outgoing> queue = pending.get(peer);
        final ShmRing ring = outbound[peer];
        final long before = ring.producerPosition();
        Outgoing next;
        while ((next = queue.peek()) != null)
        {
            final boolean done = switch (next.kind())
            {
                case KIND_EAGER, KIND_RENDEZVOUS -> MessageRecords.writeEnvelope(ring, next.kind(), next.send(), directReads);
                case KIND_DATA -> MessageRecords.writeData(ring, next.send());
                default -> MessageRecords.writeControl(ring, next.kind(), next.sequence());
            };
            if (!done)
            {
                break;
            }
            queue.poll();
            final SendRequest send = next.send();
            if (send != null && !send.isDone() && send.isFinished())
            {
                completeRequest(send);
            }
        }
        if (ring.producerPosition() == before)
        {
            return false;
        }
        peerBells[peer].ringIfSleeping();
        return true;
    }

    // ---- receiving ----

    /** Handles one record from {@code source}'s queue (called by {@link ShmRing#poll}). */
    private void onRecord(final int source, final int kind, final MemorySegment memory, final long offset,
        final int length)
    {
        final int sequence = MessageRecords.sequence(memory, offset);
        switch (kind)
        {
            case KIND_EAGER, KIND_RENDEZVOUS ->
            {
                final Incoming message = MessageRecords.readEnvelope(source, kind, memory, offset);
                if (!message.rendezvous && message.totalBytes() > 0)
                {
                    message.staging = new byte[(int)message.totalBytes()];
                }
                if (!message.isComplete())
                {
                    arriving.get(source).put(sequence, message);
                }
                arrive(message);
                final int inline = length - ENVELOPE_BYTES;
                if (inline > 0)
                {
                    accept(message, memory, offset + ENVELOPE_BYTES, inline);
                }
            }
            case KIND_DATA ->
            {
                final Incoming message = arriving.get(source).get(sequence);
                if (message == null)
                {
                    throw broken(new XDevException("shm device: rank " + rank + " got data for unknown message " +
                        sequence + " from rank " + source + " (corrupted queue?)"));
                }
                accept(message, memory, offset + SEQUENCE_BYTES, length - SEQUENCE_BYTES);
            }
            case KIND_CLEAR_TO_SEND ->
            {
                final SendRequest send = awaitingReceiver.get(source).remove(sequence);
                send.matched = true;
                pending.get(source).add(new Outgoing(KIND_DATA, send, sequence));
            }
            case KIND_READ ->
            {
                final SendRequest send = awaitingReceiver.get(source).remove(sequence);
                send.matched = true;
                send.written = send.totalBytes();
                if (!send.isDone())
                {
                    completeRequest(send);
                }
            }
            case KIND_ACK ->
            {
                final SendRequest send = awaitingReceiver.get(source).remove(sequence);
                send.matched = true;
                if (!send.isDone() && send.isFinished())
                {
                    completeRequest(send);
                }
            }
            default -> throw broken(new XDevException("shm device: rank " + rank + " got a record of unknown kind " +
                kind + " from rank " + source + " (corrupted queue?)"));
        }
    }

    private void accept(final Incoming message, final MemorySegment memory, final long at, final int length)
    {
        message.accept(memory, at, length);
        if (message.isComplete())
        {
            arriving.get(message.source).remove(message.sequence);
            finishReceive(message);
        }
    }

    /** A new envelope: matched with the first posted receive that fits, else kept as unexpected. */
    private void arrive(final Incoming message)
    {
        for (final Iterator<RecvRequest> receives = posted.iterator(); receives.hasNext(); )
        {
            final RecvRequest receive = receives.next();
            if (receive.matches(message))
            {
                receives.remove();
                bind(receive, message);
                return;
            }
        }
        unexpected.add(message);
    }

    private void bind(final RecvRequest receive, final Incoming message)
    {
        if (message.staticBytes > receive.staticRoom())
        {
            message.discard = true;
            message.staging = null;
            receive.markFailed(new XDevException("shm device: message truncated: rank " + message.source +
                " sent " + message.staticBytes + " bytes (tag " + message.tag + "), but " + receive.describe() +
                " on rank " + rank + " has room for " + receive.staticRoom()));
            completed.add(receive);
        }
        else
        {
            receive.bind(message);
            message.receive = receive;
            if (message.staging != null)
            {
                if (message.arrived > 0)
                {
                    receive.accept(0, MemorySegment.ofArray(message.staging), 0, (int)message.arrived);
                }
                message.staging = null;
            }
        }
        if (message.localSend != null)
        {
            final SendRequest send = message.localSend;
            send.matched = true;
            if (!send.isDone() && send.isFinished())
            {
                completeRequest(send);
            }
        }
        else if (message.rendezvous && (message.discard || readDirectly(message)))
        {
            // Read (or dropped): the sender's buffer is free again.
            message.arrived = message.totalBytes();
            arriving.get(message.source).remove(message.sequence);
            pending.get(message.source).add(new Outgoing(KIND_READ, null, message.sequence));
        }
        else if (message.rendezvous)
        {
            pending.get(message.source).add(new Outgoing(KIND_CLEAR_TO_SEND, null, message.sequence));
        }
        else if (message.synchronous)
        {
            pending.get(message.source).add(new Outgoing(KIND_ACK, null, message.sequence));
        }
        if (message.isComplete())
        {
            finishReceive(message);
        }
    }

    /**
     * Copies a rendezvous message straight from the sender's memory into the receive buffer, if
     * the sender allowed it and this process may read the sender's memory.
     *
     * @return false if the bytes must be streamed through the queue instead.
     */
    private boolean readDirectly(final Incoming message)
    {
        final MemorySegment target = message.receive.staticTarget(message.staticBytes);
        if (!directReads || message.senderAddress == 0 || !target.isNative())
        {
            return false;
        }
        try
        {
            ProcessMemory.read(comm.pid(message.source), message.senderAddress, target);
            return true;
        }
        catch (final ProcessMemory.ReadFailedException e)
        {
            // Not allowed here (ptrace rules): stream this and every later message.
            directReads = false;
            return false;
        }
    }

    private void finishReceive(final Incoming message)
    {
        final RecvRequest receive = message.receive;
        if (receive != null && !receive.isDone())
        {
            receive.finish(ids[message.source].uuid());
            completeRequest(receive);
        }
    }

    private Incoming firstUnexpected(final int source, final int tag, final int context)
    {
        for (final Incoming message : unexpected)
        {
            if (message.context == context && (source == RecvRequest.ANY || source == message.source) &&
                (tag == ANY_TAG || tag == message.tag))
            {
                return message;
            }
        }
        return null;
    }

    private synchronized Status probeNow(final int source, final int tag, final int context)
    {
        final Incoming message = firstUnexpected(source, tag, context);
        return message == null ? null :
            new Status(ids[message.source].uuid(), message.tag, -1, message.type(), message.numEls);
    }

    // ---- progress and waiting ----

    private void completeRequest(final ShmRequest request)
    {
        request.markDone();
        completed.add(request);
        // Another thread of this process may sleep waiting for this request.
        bell.ringIfSleeping();
    }

    synchronized void forgetCompleted(final ShmRequest request)
    {
        completed.remove(request);
    }

    /** One pass over every queue, for tests of completion ({@code itest}). */
    void progressOnce()
    {
        synchronized (this)
        {
            checkUsable();
            progress();
        }
    }

    private boolean progress()
    {
        final boolean read = drainInbound();
        return flushAll() | read;
    }

    private boolean drainInbound()
    {
        boolean read = false;
        for (int peer = 0; peer < size; peer++)
        {
            if (peer != rank && inbound[peer].poll(reader, peer))
            {
                // The sender may be asleep waiting for room in this queue.
                peerBells[peer].ringIfSleeping();
                read = true;
            }
        }
        return read;
    }

    private boolean flushAll()
    {
        boolean wrote = false;
        for (int peer = 0; peer < size; peer++)
        {
            if (peer != rank && !pending.get(peer).isEmpty())
            {
                wrote |= flush(peer);
            }
        }
        return wrote;
    }

    private boolean nothingPending()
    {
        for (final ArrayDeque<Outgoing> queue : pending)
        {
            if (!queue.isEmpty())
            {
                return false;
            }
        }
        return true;
    }

    /** Waits until {@code request} completes, driving the device. */
    void await(final ShmRequest request)
    {
        if (!request.isDone())
        {
            awaitCondition(request::isDone, request.describe());
        }
    }

    /**
     * Drives the device until {@code condition} (evaluated under the device's lock) holds: spin,
     * yield, park; and, at intervals, checks that no other rank has died.
     */
    private void awaitCondition(final BooleanSupplier condition, final String what)
    {
        final IdleBackoff backoff = backoffs.get();
        backoff.reset();
        long nextCheckNs = 0;
        while (true)
        {
            final int outcome = attempt(condition);
            if (outcome == MET)
            {
                return;
            }
            if (outcome == WORKED)
            {
                backoff.reset();
            }
            else if (!backoff.isTimeToSleep())
            {
                if (backoff.idle())
                {
                    checkPeers(what, backoff.waitedNs());
                }
            }
            else
            {
                // Long enough: sleep until a peer rings (it writes to us or frees room in a queue).
                final int seen = bell.ringCount();
                bell.enter();
                try
                {
                    final int last = attempt(condition);
                    if (last == MET)
                    {
                        return;
                    }
                    if (last == IDLE)
                    {
                        bell.sleep(seen, config.livenessIntervalNs());
                    }
                }
                finally
                {
                    bell.leave();
                }
                final long nowNs = System.nanoTime();
                if (nowNs - nextCheckNs >= 0)
                {
                    if (nextCheckNs != 0)
                    {
                        checkPeers(what, backoff.waitedNs());
                    }
                    nextCheckNs = nowNs + config.livenessIntervalNs();
                }
            }
        }
    }

    /** Outcomes of {@link #attempt}. */
    private static final int MET = 0;
    private static final int WORKED = 1;
    private static final int IDLE = 2;

    /**
     * Checks {@code condition}, drives the device once, and checks again; under the device's lock.
     *
     * @return {@link #MET}, else {@link #WORKED} if anything was read or written, else {@link #IDLE}.
     */
    private synchronized int attempt(final BooleanSupplier condition)
    {
        checkUsable();
        if (condition.getAsBoolean())
        {
            return MET;
        }
        final boolean worked = progress();
        return condition.getAsBoolean() ? MET : worked ? WORKED : IDLE;
    }

    private void checkPeers(final String what, final long waitedNs)
    {
        for (int peer = 0; peer < size; peer++)
        {
            if (peer != rank && !comm.isAlive(peer))
            {
                final String death = "rank " + peer + " (pid " + comm.pid(peer) + ") has died (exited without " +
                    "MPI.Finalize or was killed); rank " + rank + " gave up after waiting " + waitedNs / 1_000_000 +
                    " ms in " + what;
                // The cause survives MPJ Express's wrapping (MPIException(Throwable)): mpi.rma finds the dead rank there.
                final XDevException error = new XDevException("shm device: " + death);
                error.initCause(new PeerDeathException(peer, death));
                throw broken(error);
            }
        }
    }

    private XDevException broken(final XDevException error)
    {
        if (broken == null)
        {
            broken = error;
        }
        return error;
    }

    // ---- identities and checks ----

    private int rankOf(final ProcessID id, final String operation)
    {
        checkInitialised();
        final Integer peer = id == null ? null : ranksById.get(id.uuid());
        if (peer == null)
        {
            throw new XDevException("shm device: " + operation + " names process " + (id == null ? null : id.uuid()) +
                ", which is not a rank of this job of " + size);
        }
        return peer;
    }

    private int sourceRank(final ProcessID id, final String operation)
    {
        if (id != null && Device.ANY_SRC.uuid().equals(id.uuid()))
        {
            return RecvRequest.ANY;
        }
        return rankOf(id, operation);
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
        if (broken != null)
        {
            final XDevException error = new XDevException(broken.getMessage());
            error.initCause(broken.getCause());
            throw error;
        }
        if (finished)
        {
            throw new XDevException("shm device: rank " + rank + " has already finished (MPI.Finalize)");
        }
    }

    private void closeQuietly()
    {
        if (oob != null)
        {
            try
            {
                oob.close();
            }
            catch (final IOException ignored)
            {
                // the hub is going away anyway
            }
        }
    }

    @Override
    public String toString()
    {
        return "ShmDevice[rank " + rank + " of " + size + (finished ? ", finished" : "") + "]";
    }
}

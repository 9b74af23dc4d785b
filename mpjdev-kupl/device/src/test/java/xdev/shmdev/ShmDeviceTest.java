package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import mpjbuf.Buffer;
import mpjbuf.Type;
import mpjdev.Request;
import mpjdev.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import xdev.Device;
import xdev.XDevException;

/**
 * The {@code xdev.Device} contract of {@link ShmDevice}, rank by rank, with ranks as threads of
 * this JVM (the queues are the same shared memory as between processes; {@link ShmJobTest}
 * covers separate JVMs and dying processes).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShmDeviceTest
{
    private static final Duration JOB = Duration.ofSeconds(40);
    private static final int CONTEXT = 11;

    @Test
    void pingPongKeepsEveryValueAndStatus() throws Exception
    {
        ThreadJob.run(2, JOB, (device, ids) ->
        {
            final int peer = 1 - device.rank();
            for (int i = 0; i < 2000; i++)
            {
                if (device.rank() == 0)
                {
                    device.send(Messages.ints(i, -i), ids[peer], 5, CONTEXT);
                    final Buffer reply = Messages.empty(64);
                    final Status status = device.recv(reply, ids[peer], 6, CONTEXT);
                    assertArrayEquals(new int[] {i + 1, -i}, Messages.readInts(reply, 2));
                    assertEquals(ids[peer].uuid(), status.srcID);
                    assertEquals(6, status.tag);
                    assertEquals(2, status.numEls);
                    assertSame(Type.INT, status.type);
                }
                else
                {
                    final Buffer request = Messages.empty(64);
                    device.recv(request, ids[peer], 5, CONTEXT);
                    final int[] values = Messages.readInts(request, 2);
                    device.send(Messages.ints(values[0] + 1, values[1]), ids[peer], 6, CONTEXT);
                }
            }
        });
    }

    @Test
    void messagesOfOneSenderAndContextDoNotOvertake() throws Exception
    {
        final int count = 300;
        ThreadJob.run(2, JOB, (device, ids) ->
        {
            if (device.rank() == 0)
            {
                final List<Request> sends = new ArrayList<>();
                for (int i = 0; i < count; i++)
                {
                    // Same tag everywhere; two contexts interleaved; some messages are rendezvous-sized.
                    final Buffer message = i % 50 == 7 ? Messages.bytes(ShmDevice.EAGER_LIMIT + 1000, i) :
                        Messages.ints(i);
                    sends.add(device.isend(message, ids[1], 3, i % 2 == 0 ? CONTEXT : CONTEXT + 1));
                }
                for (final Request send : sends)
                {
                    send.iwait();
                }
            }
            else
            {
                // Receive the odd context first: each context's messages still come in sending order.
                for (final int context : new int[] {CONTEXT + 1, CONTEXT})
                {
                    for (int i = context == CONTEXT ? 0 : 1; i < count; i += 2)
                    {
                        final Buffer buffer = Messages.empty(ShmDevice.EAGER_LIMIT + 2000);
                        final Status status = device.recv(buffer, ids[0], 3, context);
                        if (i % 50 == 7)
                        {
                            assertTrue(Messages.isPattern(Messages.readBytes(buffer, status.numEls), i),
                                "message " + i);
                        }
                        else
                        {
                            assertEquals(i, Messages.readInts(buffer, 1)[0], "message order in context " + context);
                        }
                    }
                }
            }
        });
    }

    @Test
    void wildcardsMatchAnySourceAndAnyTagButNotAnotherContext() throws Exception
    {
        ThreadJob.run(3, JOB, (device, ids) ->
        {
            if (device.rank() == 0)
            {
                // A message in another context must not be taken by a wildcard receive.
                final Buffer other = Messages.empty(64);
                final Request otherContext = device.irecv(other, Device.ANY_SRC, Device.ANY_TAG, CONTEXT + 5,
                    new Status());
                final Set<Integer> seen = new HashSet<>();
                for (int i = 0; i < 4; i++)
                {
                    final Buffer buffer = Messages.empty(64);
                    final Status status = device.recv(buffer, Device.ANY_SRC, Device.ANY_TAG, CONTEXT);
                    final int[] values = Messages.readInts(buffer, 2);
                    assertEquals(status.tag, values[1], "tag in status");
                    assertEquals(ids[values[0]].uuid(), status.srcID, "source in status");
                    seen.add(values[0] * 100 + values[1]);
                }
                assertEquals(Set.of(100 + 1, 100 + 2, 200 + 1, 200 + 2), seen);
                assertNull(otherContext.itest(), "a receive in another context matched");
                device.send(Messages.ints(0, 0), ids[0], 0, CONTEXT + 5);
                otherContext.iwait();
                assertEquals(0, Messages.readInts(other, 2)[0]);
            }
            else
            {
                device.send(Messages.ints(device.rank(), 1), ids[0], 1, CONTEXT);
                device.send(Messages.ints(device.rank(), 2), ids[0], 2, CONTEXT);
            }
        });
    }

    @Test
    void probeIprobeAndPeekSeeArrivedMessages() throws Exception
    {
        ThreadJob.run(2, JOB, (device, ids) ->
        {
            if (device.rank() == 0)
            {
                assertNull(device.iprobe(ids[1], 4, CONTEXT), "nothing sent yet");
                device.send(Messages.ints(1), ids[1], 1, CONTEXT);
                final Status probed = device.probe(Device.ANY_SRC, Device.ANY_TAG, CONTEXT);
                assertEquals(ids[1].uuid(), probed.srcID);
                assertEquals(4, probed.tag);
                assertEquals(3, probed.numEls);
                assertSame(Type.INT, probed.type);
                // Probing does not receive: the message is still there for iprobe and recv.
                assertNotNull(device.iprobe(ids[1], 4, CONTEXT));
                assertNull(device.iprobe(ids[1], 5, CONTEXT), "no message with tag 5");
                final Buffer buffer = Messages.empty(64);
                final Request receive = device.irecv(buffer, ids[1], 4, CONTEXT, new Status());
                assertSame(receive, device.peek(), "peek returns the completed request");
                receive.iwait();
                assertArrayEquals(new int[] {7, 8, 9}, Messages.readInts(buffer, 3));
                final Buffer fetched = Messages.empty(64);
                device.send(Messages.ints(2), ids[1], 1, CONTEXT);
                Status status;
                while ((status = device.iprobeAndFetch(ids[1], ids[0], 6, CONTEXT, fetched)) == null)
                {
                    Thread.onSpinWait();
                }
                assertEquals(6, status.tag);
                assertArrayEquals(new int[] {10}, Messages.readInts(fetched, 1));
            }
            else
            {
                device.recv(Messages.empty(64), ids[0], 1, CONTEXT);
                device.send(Messages.ints(7, 8, 9), ids[0], 4, CONTEXT);
                device.recv(Messages.empty(64), ids[0], 1, CONTEXT);
                device.send(Messages.ints(10), ids[0], 6, CONTEXT);
            }
        });
    }

    @Test
    void synchronousSendCompletesOnlyOnceMatched() throws Exception
    {
        final CountDownLatch checked = new CountDownLatch(2);
        ThreadJob.run(2, JOB, (device, ids) ->
        {
            if (device.rank() == 0)
            {
                // Eager-sized and rendezvous-sized: neither may complete before rank 1 receives.
                final Request small = device.issend(Messages.ints(5), ids[1], 1, CONTEXT);
                final Request large = device.issend(Messages.bytes(ShmDevice.EAGER_LIMIT * 2, 3), ids[1], 2, CONTEXT);
                final Request standard = device.isend(Messages.ints(6), ids[1], 3, CONTEXT);
                final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                while (System.nanoTime() < until)
                {
                    assertNull(small.itest(), "synchronous eager send completed before its receive");
                    assertNull(large.itest(), "synchronous rendezvous send completed before its receive");
                }
                assertNotNull(standard.iwait(), "a standard eager send completes without its receive");
                checked.countDown();
                small.iwait();
                large.iwait();
            }
            else
            {
                checked.countDown();
                assertTrue(checked.await(20, TimeUnit.SECONDS));
                device.recv(Messages.empty(64), ids[0], 1, CONTEXT);
                final Buffer large = Messages.empty(ShmDevice.EAGER_LIMIT * 2 + 64);
                device.recv(large, ids[0], 2, CONTEXT);
                assertTrue(Messages.isPattern(Messages.readBytes(large, ShmDevice.EAGER_LIMIT * 2), 3));
                device.recv(Messages.empty(64), ids[0], 3, CONTEXT);
            }
        });
    }

    @Test
    void messagesLargerThanTheQueueArriveWhole() throws Exception
    {
        final int large = 16 << 20;
        ThreadJob.run(2, JOB, (device, ids) ->
        {
            if (device.rank() == 0)
            {
                device.send(Messages.bytes(large, 1), ids[1], 1, CONTEXT);
                // Sent before rank 1 posts its receive: rendezvous keeps it out of the queue until then.
                final Request unexpected = device.isend(Messages.bytes(3 * ShmDevice.QUEUE_BYTES, 2), ids[1], 2,
                    CONTEXT);
                device.send(Messages.ints(1), ids[1], 3, CONTEXT);
                unexpected.iwait();
                // On the heap, the bytes have no fixed address to read from: they go through the queue.
                final int onHeap = 2 * ShmDevice.QUEUE_BYTES;
                device.send(Messages.bytes(Messages.emptyOnHeap(onHeap + 64), onHeap, 4), ids[1], 4, CONTEXT);
            }
            else
            {
                final Buffer first = Messages.empty(large + 64);
                final Status status = device.recv(first, ids[0], 1, CONTEXT);
                assertEquals(large, status.numEls);
                assertTrue(Messages.isPattern(Messages.readBytes(first, large), 1), "16 MiB message corrupted");
                device.recv(Messages.empty(64), ids[0], 3, CONTEXT);
                final Buffer second = Messages.empty(3 * ShmDevice.QUEUE_BYTES + 64);
                device.recv(second, ids[0], 2, CONTEXT);
                assertTrue(Messages.isPattern(Messages.readBytes(second, 3 * ShmDevice.QUEUE_BYTES), 2));
                final Buffer third = Messages.emptyOnHeap(2 * ShmDevice.QUEUE_BYTES + 64);
                device.recv(third, ids[0], 4, CONTEXT);
                assertTrue(Messages.isPattern(Messages.readBytes(third, 2 * ShmDevice.QUEUE_BYTES), 4));
            }
        });
    }

    @Test
    void manySmallMessagesSentAheadOfTheirReceivesAllArrive() throws Exception
    {
        final int count = 20_000;
        ThreadJob.run(2, JOB, (device, ids) ->
        {
            if (device.rank() == 0)
            {
                // Far more than one queue holds: the receiver stages them while it has no receive posted.
                final List<Request> sends = new ArrayList<>(count);
                for (int i = 0; i < count; i++)
                {
                    sends.add(device.isend(Messages.ints(i), ids[1], i % 7, CONTEXT));
                }
                for (final Request send : sends)
                {
                    send.iwait();
                }
                device.send(Messages.ints(-1), ids[1], 100, CONTEXT);
            }
            else
            {
                device.recv(Messages.empty(64), ids[0], 100, CONTEXT);
                for (int i = 0; i < count; i++)
                {
                    final Buffer buffer = Messages.empty(64);
                    device.recv(buffer, ids[0], i % 7, CONTEXT);
                    assertEquals(i, Messages.readInts(buffer, 1)[0]);
                }
            }
        });
    }

    @Test
    void dynamicSectionsAndSelfMessagesArrive() throws Exception
    {
        ThreadJob.run(2, JOB, (device, ids) ->
        {
            final int peer = 1 - device.rank();
            device.send(Messages.objects("from " + device.rank(), List.of(1, 2, 3)), ids[peer], 1, CONTEXT);
            final Buffer buffer = Messages.empty(64);
            device.recv(buffer, ids[peer], 1, CONTEXT);
            final Object[] objects = Messages.readObjects(buffer, 2);
            assertEquals("from " + peer, objects[0]);
            assertEquals(List.of(1, 2, 3), objects[1]);
            // To itself, synchronous or not, matched in either order.
            final Request self = device.issend(Messages.ints(42), ids[device.rank()], 2, CONTEXT);
            assertNull(self.itest(), "synchronous send to self completed before its receive");
            final Buffer own = Messages.empty(64);
            device.recv(own, ids[device.rank()], 2, CONTEXT);
            self.iwait();
            assertEquals(42, Messages.readInts(own, 1)[0]);
        });
    }

    @Test
    void aTooSmallReceiveFailsWithSizesAndLeavesTheDeviceUsable() throws Exception
    {
        ThreadJob.run(2, JOB, (device, ids) ->
        {
            if (device.rank() == 0)
            {
                device.send(Messages.bytes(5000, 1), ids[1], 1, CONTEXT);
                device.send(Messages.ints(3), ids[1], 2, CONTEXT);
            }
            else
            {
                final XDevException error = assertThrows(XDevException.class,
                    () -> device.recv(Messages.empty(100), ids[0], 1, CONTEXT));
                assertTrue(error.getMessage().contains("rank 0 sent 50") && error.getMessage().contains("room for 100"),
                    error.getMessage());
                final Buffer next = Messages.empty(64);
                device.recv(next, ids[0], 2, CONTEXT);
                assertEquals(3, Messages.readInts(next, 1)[0]);
            }
        });
    }

    @Test
    void badInitArgumentsAreNamed()
    {
        final ShmDevice device = new ShmDevice();
        final String conf = "kupl-shm:2:3:/tmp/kupl-oob-none/hub";
        assertTrue(assertThrows(XDevException.class, () -> device.init(new String[] {"0", "mpj.conf", "shm"}))
            .getMessage().contains("'mpj.conf'"));
        assertTrue(assertThrows(XDevException.class, () -> device.init(new String[] {"x", conf, "shm"}))
            .getMessage().contains("rank 'x'"));
        assertTrue(assertThrows(XDevException.class, () -> device.init(new String[] {"2", conf, "shm"}))
            .getMessage().contains("rank=2 is outside the job of 2 ranks"));
        assertTrue(assertThrows(XDevException.class, () -> device.init(new String[] {"0"}))
            .getMessage().contains("1 arguments"));
        assertTrue(assertThrows(XDevException.class, device::id).getMessage().contains("not initialised"));
        assertFalse(new ShmDeviceProvider().create() == device);
        assertEquals("shm", new ShmDeviceProvider().name());
    }
}

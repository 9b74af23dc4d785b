/**
 * The {@code shm} device of MPJ Express: point-to-point messages between JVM processes of one
 * node through shared-memory queues ({@link xdev.shmdev.ShmDevice}), found by name through
 * {@link xdev.spi.DeviceProvider}. Jobs are started by {@code mpjrun.ShmJob}.
 */
package xdev.shmdev;

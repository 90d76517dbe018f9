import type { Socket as ClientSocket } from 'socket.io-client';
import type { RealtimePublisher } from '../../src/ports/realtime-publisher';
import { useTestDatabase } from '../helpers/test-database';
import {
  BookWriter, CHAIN_ID, client, ClientBook, connected, eventually, GatewayServer, LevelChange, newPublisher, request, seedMarket, startGatewayServer,
} from './gateway-harness';

/** A deterministic pseudo-random generator, so a failing sequence can be replayed. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

function randomChanges(next: () => number): LevelChange[] {
  const count = 1 + Math.floor(next() * 3);
  const changes: LevelChange[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < count; i += 1) {
    const side = next() < 0.5 ? 'bid' : 'ask';
    const ticks = side === 'bid' ? 1 + Math.floor(next() * 49) : 51 + Math.floor(next() * 49);
    if (seen.has(`${side}${ticks}`)) continue;
    seen.add(`${side}${ticks}`);
    const units = next() < 0.25 ? 0n : BigInt(100_000 + Math.floor(next() * 50_000_000));
    changes.push({ side, ticks, units });
  }
  return changes;
}

describe('realtime gateway: book channel', () => {
  const { db } = useTestDatabase('gw_book');
  let server: GatewayServer;
  let publisher: RealtimePublisher;
  const sockets: ClientSocket[] = [];
  const open = async (target = server) => {
    const socket = client(target.api);
    sockets.push(socket);
    await connected(socket);
    return socket;
  };

  beforeAll(async () => {
    server = await startGatewayServer(db());
    publisher = newPublisher(db());
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('when a client subscribes, then it gets the stored book as a snapshot, then deltas that rebuild exactly the stored book', async () => {
    const market = await seedMarket(db());
    const writer = new BookWriter(db(), publisher, market);
    await writer.step([{ side: 'bid', ticks: 40, units: 1_500_000n }, { side: 'bid', ticks: 45, units: 2_000_000n }, { side: 'ask', ticks: 60, units: 300_000n }]);
    const socket = await open();
    const book = new ClientBook(socket, market);
    expect(await request(socket, 'subscribe', { channel: 'book', condition_id: market, chain_id: CHAIN_ID })).toEqual({ ok: true });
    await eventually(() => book.snapshots === 1, 5_000, 'snapshot');
    expect(book.seq).toBe(1);
    expect(book.view()).toEqual({ bids: [{ price: '0.45', remainingSize: '2' }, { price: '0.4', remainingSize: '1.5' }], asks: [{ price: '0.6', remainingSize: '0.3' }] });

    const next = rng(7);
    for (let i = 0; i < 40; i += 1) await writer.step(randomChanges(next));
    await eventually(() => book.seq === writer.seq, 5_000, 'last delta');
    expect(book.faults).toEqual([]);
    expect(book.deltas).toBe(40);
    expect(book.snapshots).toBe(1);
    expect(book.view()).toEqual(writer.expected());
  });

  it('when a client subscribes while the book is changing, then its snapshot and the deltas after it still add up to the stored book', async () => {
    const market = await seedMarket(db());
    const writer = new BookWriter(db(), publisher, market);
    const next = rng(11);
    let writing = true;
    const loop = (async () => {
      for (let i = 0; i < 60 || writing; i += 1) {
        await writer.step(randomChanges(next));
        if (i > 400) break;
      }
    })();
    await new Promise((r) => setTimeout(r, 50));
    const socket = await open();
    const book = new ClientBook(socket, market);
    expect(await request(socket, 'subscribe', { channel: 'book', condition_id: market })).toEqual({ ok: true });
    await eventually(() => book.snapshots >= 1 && book.deltas >= 5, 10_000, 'snapshot and some deltas');
    writing = false;
    await loop;
    await eventually(() => book.seq === writer.seq, 5_000, 'last delta');
    expect(book.faults).toEqual([]);
    expect(book.view()).toEqual(writer.expected());
  });

  it('when a delta never reaches the gateway (a gap in seq), then the client is sent a fresh snapshot instead of the gap', async () => {
    const market = await seedMarket(db());
    const writer = new BookWriter(db(), publisher, market);
    await writer.step([{ side: 'ask', ticks: 70, units: 1_000_000n }]);
    const socket = await open();
    const book = new ClientBook(socket, market);
    await request(socket, 'subscribe', { channel: 'book', condition_id: market, chain_id: CHAIN_ID });
    await eventually(() => book.snapshots === 1, 5_000, 'snapshot');
    await writer.step([{ side: 'ask', ticks: 70, units: 0n }, { side: 'ask', ticks: 65, units: 700_000n }], false); // stored, never published
    await writer.step([{ side: 'bid', ticks: 30, units: 2_000_000n }]);
    await eventually(() => book.snapshots === 2 && book.seq === writer.seq, 5_000, 'fresh snapshot');
    expect(book.faults).toEqual([]);
    expect(book.view()).toEqual(writer.expected());
    expect(book.view().asks).toEqual([{ price: '0.65', remainingSize: '0.7' }]);
  });

  it('when a client subscribes again, then it gets a fresh snapshot (the documented recovery), and after unsubscribe nothing more', async () => {
    const market = await seedMarket(db());
    const writer = new BookWriter(db(), publisher, market);
    await writer.step([{ side: 'bid', ticks: 10, units: 1_000_000n }]);
    const socket = await open();
    const book = new ClientBook(socket, market);
    await request(socket, 'subscribe', { channel: 'book', condition_id: market });
    await eventually(() => book.snapshots === 1, 5_000, 'snapshot');
    await request(socket, 'subscribe', { channel: 'book', condition_id: market });
    await eventually(() => book.snapshots === 2, 5_000, 'second snapshot');
    expect(await request(socket, 'unsubscribe', { channel: 'book', condition_id: market })).toEqual({ ok: true });
    await writer.step([{ side: 'bid', ticks: 11, units: 1_000_000n }]);
    const other = await open();
    const watcher = new ClientBook(other, market);
    await request(other, 'subscribe', { channel: 'book', condition_id: market });
    await writer.step([{ side: 'bid', ticks: 12, units: 1_000_000n }]);
    await eventually(() => watcher.seq === writer.seq, 5_000, 'watcher caught up');
    expect(book.seq).toBe(1);
    expect(book.deltas).toBe(0);
  });

  it('when several API processes serve sockets, then each one delivers what one worker published, within tens of ms', async () => {
    const second = await startGatewayServer(db());
    // A worker started now: it finds both API processes in the registry (others do within 1 s).
    const publisher = newPublisher(db());
    try {
      const market = await seedMarket(db());
      const writer = new BookWriter(db(), publisher, market);
      const [a, b] = [await open(server), await open(second)];
      const books = [new ClientBook(a, market), new ClientBook(b, market)];
      await request(a, 'subscribe', { channel: 'book', condition_id: market });
      await request(b, 'subscribe', { channel: 'book', condition_id: market });
      await eventually(() => books.every((x) => x.snapshots === 1), 5_000, 'snapshots');
      const latencies: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const arrived = Promise.all([a, b].map((s) => new Promise<number>((resolve) => s.once('book', () => resolve(Date.now())))));
        const event = await writer.step([{ side: 'ask', ticks: 80 + i, units: 1_000_000n }], false);
        const sentAt = Date.now();
        await publisher.publish([event]);
        latencies.push(Math.max(...(await arrived)) - sentAt);
      }
      expect(books.map((x) => x.view())).toEqual([writer.expected(), writer.expected()]);
      latencies.sort((x, y) => x - y);
      if (process.env.GATEWAY_LATENCY_LOG) process.stderr.write(`publish-to-delivery ms: ${latencies.join(' ')}\n`);
      // Median from publish() (log insert) to delivery on both processes; the poll period is 10 ms here.
      expect(latencies[5]).toBeLessThan(100);
    } finally {
      await second.close();
    }
  });
});

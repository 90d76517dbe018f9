import type { Socket as ClientSocket } from 'socket.io-client';
import { FloodGenerator } from '../../bench/flood-generator';
import { DEFAULT_GATEWAY_LIMITS } from '../../src/gateway';
import { heapUse } from '../../src/gateway/memory-guard';
import { createChainRegistry, createMarketStore, marketsRoutes } from '../../src/markets';
import { useTestDatabase } from '../helpers/test-database';
import { BookWriter, CHAIN_ID, client, ClientBook, connected, eventually, GatewayServer, newPublisher, request, seedMarket, startGatewayServer } from './gateway-harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const quantile = (samples: number[], q: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * q))];
const median = (samples: number[]) => quantile(samples, 0.5);
/**
 * p99 per window, then the median over the windows: a few ms of another process's burst on this
 * shared machine lands in one window and moves the p99 of the pooled samples (~50 per window,
 * so p99 is the slowest one) far more than the flood's steady cost does.
 */
const robustP99 = (windows: number[][]) => median(windows.map((w) => quantile(w, 0.99)));
/**
 * Idle p99 below this is scheduler noise on a shared machine (another process taking the core
 * for a few ms), not the API: twice a 2 ms p99 is not a meaningful bound.
 */
const IDLE_FLOOR_MS = 10;

/**
 * REST latency beside a flood is a speed target, so it is printed here and judged by a benchmark
 * (`npm run bench:flood`, against an idle-vs-idle noise band), not asserted: on two shared cores
 * the generator's own clients take the same cores as the server, and the re-subscribe flood's
 * ratio was 2.6x and 7.6x in two runs of one commit.
 */
function reportRest(result: { idle: number; loaded: number; idleMedian: number; loadedMedian: number }): void {
  const ratio = (result.loaded / Math.max(result.idle, IDLE_FLOOR_MS)).toFixed(1);
  process.stdout.write(`REST p99 idle ${result.idle.toFixed(1)} ms, under flood ${result.loaded.toFixed(1)} ms (${ratio}x); medians ${result.idleMedian.toFixed(1)} / ${result.loadedMedian.toFixed(1)} ms\n`);
}

describe('realtime gateway: floods from one address', () => {
  const { db } = useTestDatabase('gw_flood');
  let server: GatewayServer;
  const sockets: ClientSocket[] = [];

  // A server per test: one flood's exhausted address buckets must not meet the next test's client.
  beforeEach(async () => {
    const chains = createChainRegistry([{ chain_id: CHAIN_ID, collateral_token: `0x${'1'.repeat(40)}`, ctf_exchange_address: `0x${'2'.repeat(40)}`, conditional_tokens_address: `0x${'3'.repeat(40)}`, collateral_decimals: 6 }]);
    server = await startGatewayServer(db(), { v1Routers: [marketsRoutes({ store: createMarketStore(db()), chains })] });
  });
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.disconnect();
    await server?.close();
  });

  /** Sequential `GET /v1/markets/{id}/book` for `ms`: each one's latency. */
  async function restLatencies(market: string, ms: number): Promise<number[]> {
    const samples: number[] = [];
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const started = performance.now();
      const response = await fetch(`${server.api.url}/v1/markets/${market}/book`);
      await response.arrayBuffer();
      // No request may fail under the flood.
      if (response.status !== 200) throw new Error(`REST answered ${response.status}`);
      samples.push(performance.now() - started);
      await sleep(5);
    }
    return samples;
  }

  /**
   * A well-behaved client on its own market, a writer stepping that book 20 times a second, and
   * REST sampled in alternating windows: flood paused (idle) and flood running, five of each, so
   * that what other processes on the machine do meanwhile weighs on both alike.
   */
  async function underFlood(start: (market: string) => Record<string, unknown>, nice = 0) {
    const quiet = await seedMarket(db());
    const busy = await seedMarket(db());
    const writer = new BookWriter(db(), newPublisher(db()), quiet);
    await writer.step([{ side: 'bid', ticks: 40, units: 1_000_000n }]);
    const good = client(server.api);
    sockets.push(good);
    await connected(good);
    let dropped = false;
    good.on('disconnect', () => (dropped = true));
    const book = new ClientBook(good, quiet);
    expect(await request(good, 'subscribe', { channel: 'book', condition_id: quiet })).toEqual({ ok: true });
    let writing = true;
    const writes = (async () => {
      for (let i = 0; writing; i += 1) {
        await writer.step([{ side: i % 2 ? 'bid' : 'ask', ticks: i % 2 ? 30 + (i % 10) : 60 + (i % 10), units: BigInt(1_000_000 + i) }]);
        await sleep(50);
      }
    })();
    let peakConnections = 0;
    let peakHeap = 0;
    const watch = setInterval(() => {
      peakConnections = Math.max(peakConnections, server.gateway.stats().connections);
      peakHeap = Math.max(peakHeap, heapUse().used);
    }, 50);
    const generator = new FloodGenerator(nice);
    try {
      await generator.ready();
      const floodStarted = Date.now();
      generator.send({ type: 'start', url: server.api.url, ...start(busy) });
      await sleep(2_000); // the flood ramps up
      const seqBefore = book.seq;
      const idle: number[][] = [];
      const loaded: number[][] = [];
      for (let i = 0; i < 5; i += 1) {
        generator.send({ type: 'pause' });
        await sleep(300);
        idle.push(await restLatencies(busy, 2_000));
        generator.send({ type: 'resume' });
        await sleep(300);
        loaded.push(await restLatencies(busy, 2_000));
      }
      const counts = await generator.stop();
      const floodMs = Date.now() - floodStarted;
      const deltasDuringFlood = book.seq - seqBefore;
      writing = false;
      await writes;
      await eventually(() => book.seq === writer.seq, 10_000, 'the good client caught up');
      const result = {
        counts, floodMs, idle: robustP99(idle), loaded: robustP99(loaded), idleMedian: median(idle.flat()), loadedMedian: median(loaded.flat()),
        idleSamples: idle.flat().length, loadedSamples: loaded.flat().length, peakConnections, peakHeapMb: Math.round(peakHeap / 2 ** 20), deltasDuringFlood,
      };
      if (process.env.GATEWAY_FLOOD_LOG) process.stderr.write(`${JSON.stringify(result)}\n`);
      expect(book.faults).toEqual([]);
      expect(book.view()).toEqual(writer.expected());
      expect(dropped).toBe(false);
      return result;
    } finally {
      generator.kill();
      writing = false;
      clearInterval(watch);
      await writes;
    }
  }

  it('when 1,000 connections from one address re-subscribe every 100 ms, then the address holds at most its cap, the process keeps serving, and a good client gets every delta in order', async () => {
    const result = await underFlood((market) => ({ mode: 'resubscribe', connections: 1_000, condition_id: market, everyMs: 100 }));
    // The admitted ones are served (acked, with a book copy each time), the rest refused RATE_LIMITED.
    expect(result.counts.acked).toBeGreaterThan(1_000);
    expect(result.counts.book).toBeGreaterThan(1_000);
    expect(result.counts.refused_RATE_LIMITED).toBeGreaterThan(100);
    expect(result.peakConnections).toBeLessThanOrEqual(DEFAULT_GATEWAY_LIMITS.maxConnectionsPerAddress);
    expect(result.deltasDuringFlood).toBeGreaterThan(50);
    reportRest(result);
    // One store read for the flooded market, however many subscribes.
    expect(server.gateway.stats().seedReads).toBeLessThanOrEqual(3);
  }, 90_000);

  it('when one address makes 2,000 handshakes a second, then the excess is refused RATE_LIMITED, the process keeps serving, and a good client gets every delta in order', async () => {
    const result = await underFlood(() => ({ mode: 'handshakes', perSecond: 2_000 }), 10);
    // Offered at 2,000/s in the flood windows (8 s); a handshake not answered yet holds one of the
    // generator's 1,000 slots, and what finds none is counted as skipped (a starved machine).
    expect(result.counts.attempted + (result.counts.skipped ?? 0)).toBeGreaterThan(10_000);
    const refused = (result.counts.refused_RATE_LIMITED ?? 0) + (result.counts.cut_RATE_LIMITED ?? 0);
    expect(refused).toBeGreaterThan(1_000);
    // Admitted: no more than the address's bucket allows over the whole run.
    const { handshakeBurst, handshakesPerSecond } = DEFAULT_GATEWAY_LIMITS;
    expect(result.counts.connected ?? 0).toBeLessThanOrEqual(handshakeBurst + handshakesPerSecond * (result.floodMs / 1000));
    expect(result.peakConnections).toBeLessThanOrEqual(DEFAULT_GATEWAY_LIMITS.maxConnectionsPerAddress);
    expect(result.deltasDuringFlood).toBeGreaterThan(50);
    reportRest(result);
  }, 90_000);
});

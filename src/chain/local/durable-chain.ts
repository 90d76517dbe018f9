/**
 * The gate in front of the in-process EDR chain that every JSON-RPC request passes (the HTTP
 * endpoint calls `request`). It
 * - serialises state-changing requests and, when a journal is attached, appends each successful
 *   one to it (fdatasync'ed) before answering: the write-ahead journal of docs/chain.md;
 * - runs the idle block miner itself (instead of EDR's interval mining, whose blocks would bypass
 *   the journal) and records its empty blocks compactly;
 * - replays a journal into a fresh chain, block by block with the recorded timestamps, checking
 *   every block hash against the recording.
 */
import type { EdrChain, JsonRpcRequest, JsonRpcResponse } from './edr-provider';
import {
  ChainJournalError, type JournalDeployment, type JournalEmpty, type JournalEntry, type JournalRpc, type JournalWriter, type ReadJournal,
} from './chain-journal';

const TRANSACTION_METHODS = new Set(['eth_sendRawTransaction', 'eth_sendTransaction']);
/** evm_ and hardhat_ methods that do not change the chain; every other one is journaled. */
const READ_ONLY_DEV_METHODS = new Set([
  'hardhat_metadata', 'hardhat_getAutomine', 'hardhat_getStackTraceFailuresCount', 'hardhat_addCompilationResult',
  'hardhat_setLoggingEnabled', 'hardhat_setVerboseTracing',
]);
/** Requests that move the chain's clock on purpose (evm_mine only with a timestamp). */
const TIME_TRAVEL_METHODS = new Set(['evm_increaseTime', 'evm_setNextBlockTimestamp', 'evm_mine']);
/** Flush a run of empty interval blocks to the journal at least every this many blocks. */
const EMPTY_RUN_FLUSH_BLOCKS = 60;

export function isStateChanging(method: string): boolean {
  if (TRANSACTION_METHODS.has(method)) return true;
  return (method.startsWith('evm_') || method.startsWith('hardhat_')) && !READ_ONLY_DEV_METHODS.has(method);
}

interface BlockHead {
  number: number;
  timestamp: number;
  hash: string;
  txCount: number;
}

const hex = (n: number) => `0x${n.toString(16)}`;

export class DurableChain {
  private journal: JournalWriter | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private emptyRun: JournalEmpty | undefined;
  private miner: NodeJS.Timeout | undefined;
  private minerIntervalMs = 0;
  private broken: Error | undefined;
  private closed = false;

  constructor(private readonly chain: EdrChain) {}

  /** From now on, successful state-changing requests are journaled. */
  attachJournal(journal: JournalWriter): void {
    this.journal = journal;
  }

  /** Mines an empty block every `intervalMs` (0 = off) through the gate, so it is journaled. */
  setIntervalMining(intervalMs: number): void {
    if (this.miner) clearInterval(this.miner);
    this.miner = undefined;
    this.minerIntervalMs = intervalMs;
    if (intervalMs > 0 && !this.closed) {
      this.miner = setInterval(() => void this.mineIdleBlock().catch(() => undefined), intervalMs);
      this.miner.unref();
    }
  }

  async request(request: JsonRpcRequest): Promise<JsonRpcResponse> {
    if (request.method === 'evm_setIntervalMining') return this.setIntervalMiningRequest(request);
    if (!isStateChanging(request.method)) return this.chain.request(request);
    return this.exclusive(() => this.executeAndRecord(request));
  }

  /** Records where the contracts are, so a restart replays the deployment instead of redeploying. */
  recordDeployment(deployment: Omit<JournalDeployment, 'k'>): Promise<void> {
    return this.exclusive(async () => {
      if (!this.journal) return;
      await this.flushEmptyRun();
      await this.journal.append({ k: 'deployment', ...deployment });
    });
  }

  /** Stops the miner, waits for requests in flight, writes the pending empty blocks, closes the journal. */
  async close(): Promise<void> {
    this.closed = true;
    this.setIntervalMining(0);
    await this.exclusive(async () => {
      if (!this.journal) return;
      if (!this.broken) await this.flushEmptyRun();
      await this.journal.close();
      this.journal = undefined;
    });
  }

  /**
   * Replays a journal into this (fresh) chain. Throws ChainJournalError on the first difference
   * from the recording. Returns the recorded deployment and the number of entries replayed.
   */
  async replay(read: ReadJournal, file: string): Promise<{ deployment?: JournalDeployment; replayed: number }> {
    const genesis = await this.block(0);
    if (genesis.hash !== read.header.genesisHash) {
      throw new ChainJournalError(file, 1, `the genesis block differs from the recorded one (${genesis.hash} vs ${read.header.genesisHash}): chain settings or dev accounts changed`);
    }
    let deployment: JournalDeployment | undefined;
    let offset = 0;
    let timeTravelled = false;
    for (const { line, entry } of read.entries) {
      const fail = (problem: string) => new ChainJournalError(file, line, problem);
      if (entry.k === 'deployment') {
        deployment = entry;
        continue;
      }
      if (entry.k === 'empty') {
        await this.replayEmpty(entry, fail);
        continue;
      }
      await this.replayRpc(entry, fail);
      offset = entry.o;
      if (TIME_TRAVEL_METHODS.has(entry.m) && (entry.m !== 'evm_mine' || entry.p.length > 0)) timeTravelled = true;
    }
    // Replayed blocks pinned the clock to their recorded timestamps (EDR's offset is now negative).
    // Continue from wall-clock time: offset 0, or the recorded offset when someone moved the clock
    // on purpose. (EDR also raises its offset when a burst of blocks runs ahead of the clock; that
    // lead is not carried over.) EDR can raise its offset, not lower it.
    const target = timeTravelled ? offset : 0;
    const current = await this.timeOffset();
    if (target > current) await this.call('evm_increaseTime', [target - current]);
    return { deployment, replayed: read.entries.length };
  }

  // --- recording -------------------------------------------------------------------------------

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async executeAndRecord(request: JsonRpcRequest): Promise<JsonRpcResponse> {
    const id = request.id ?? null;
    if (this.broken) {
      return { jsonrpc: '2.0', id, error: { code: -32603, message: `the embedded chain's journal failed, state changes are refused until restart: ${this.broken.message}` } };
    }
    const before = this.journal ? await this.headNumber() : 0;
    const response = await this.chain.request(request);
    if (response.error || !this.journal) return response;
    try {
      await this.record(request, response, before);
      return response;
    } catch (error) {
      // The change happened in memory but is not durable: answering success would be a lie, and
      // further changes would build on it. Refuse everything from here on.
      this.broken = error instanceof Error ? error : new Error(String(error));
      return { jsonrpc: '2.0', id, error: { code: -32603, message: `the embedded chain could not journal this request: ${this.broken.message}` } };
    }
  }

  private async record(request: JsonRpcRequest, response: JsonRpcResponse, before: number): Promise<void> {
    const journal = this.journal;
    if (!journal) return;
    const head = await this.block('latest');
    const entry: JournalRpc = { k: 'rpc', m: request.method, p: request.params ?? [], n: head.number, h: head.hash, o: 0 };
    if (head.number > before) entry.t0 = (head.number === before + 1 ? head : await this.block(before + 1)).timestamp;
    if (TRANSACTION_METHODS.has(request.method)) {
      entry.r = response.result;
      if (typeof response.result === 'string') {
        const receipt = (await this.call('eth_getTransactionReceipt', [response.result])) as { status?: string } | null;
        if (receipt?.status) entry.s = receipt.status;
      }
    }
    entry.o = await this.timeOffset();
    await this.flushEmptyRun();
    await journal.append(entry);
  }

  private async mineIdleBlock(): Promise<void> {
    await this.exclusive(async () => {
      if (this.closed || this.broken) return;
      if (!this.journal) {
        await this.chain.request({ method: 'evm_mine', params: [] });
        return;
      }
      const before = await this.headNumber();
      const response = await this.chain.request({ method: 'evm_mine', params: [] });
      if (response.error) return;
      const head = await this.block('latest');
      try {
        if (head.number !== before + 1 || head.txCount > 0) {
          await this.record({ method: 'evm_mine', params: [] }, response, before); // it mined pending transactions
        } else {
          this.addEmptyBlock(head);
          if (this.emptyRun && this.emptyRun.to - this.emptyRun.from + 1 >= EMPTY_RUN_FLUSH_BLOCKS) await this.flushEmptyRun();
        }
      } catch (error) {
        this.broken = error instanceof Error ? error : new Error(String(error));
      }
    });
  }

  private addEmptyBlock(head: BlockHead): void {
    const run = this.emptyRun;
    if (!run) {
      this.emptyRun = { k: 'empty', from: head.number, to: head.number, runs: [[head.timestamp, 1, 1]], h: head.hash };
      return;
    }
    run.to = head.number;
    run.h = head.hash;
    const last = run.runs[run.runs.length - 1];
    const [first, count, interval] = last;
    if (count === 1) {
      last[1] = 2;
      last[2] = head.timestamp - first;
    } else if (head.timestamp === first + count * interval) {
      last[1] = count + 1;
    } else {
      run.runs.push([head.timestamp, 1, 1]);
    }
  }

  private async flushEmptyRun(): Promise<void> {
    const run = this.emptyRun;
    if (!run || !this.journal) return;
    await this.journal.append(run);
    this.emptyRun = undefined;
  }

  private setIntervalMiningRequest(request: JsonRpcRequest): JsonRpcResponse {
    const id = request.id ?? null;
    const value = request.params?.[0];
    const ms = Array.isArray(value) ? Number(value[0]) : Number(value);
    if (!Number.isFinite(ms) || ms < 0) return { jsonrpc: '2.0', id, error: { code: -32602, message: 'evm_setIntervalMining: expected milliseconds' } };
    this.setIntervalMining(ms);
    return { jsonrpc: '2.0', id, result: true };
  }

  // --- replay ----------------------------------------------------------------------------------

  private async replayEmpty(entry: JournalEmpty, fail: (problem: string) => Error): Promise<void> {
    const current = await this.headNumber();
    if (current + 1 !== entry.from) throw fail(`empty blocks from ${entry.from} recorded, but the chain is at block ${current}`);
    for (const [first, count, interval] of entry.runs) {
      for (let i = 0; i < count; i++) {
        const mined = await this.chain.request({ method: 'evm_mine', params: [first + i * interval] });
        if (mined.error) throw fail(`mining an empty block at ${first + i * interval} failed: ${mined.error.message}`);
      }
    }
    await this.expectHead(entry.to, entry.h, 'empty blocks', fail);
  }

  private async replayRpc(entry: JournalRpc, fail: (problem: string) => Error): Promise<void> {
    if (entry.t0 !== undefined) {
      const set = await this.chain.request({ method: 'evm_setNextBlockTimestamp', params: [entry.t0] });
      if (set.error) throw fail(`cannot give the next block its recorded timestamp ${entry.t0}: ${set.error.message}`);
    }
    const response = await this.chain.request({ method: entry.m, params: entry.p });
    if (response.error) throw fail(`${entry.m} succeeded when recorded but fails on replay: ${response.error.message}`);
    if (entry.r !== undefined && JSON.stringify(response.result) !== JSON.stringify(entry.r)) {
      throw fail(`${entry.m} returned ${JSON.stringify(response.result)} on replay, ${JSON.stringify(entry.r)} when recorded`);
    }
    if (entry.s !== undefined && typeof response.result === 'string') {
      const receipt = (await this.call('eth_getTransactionReceipt', [response.result])) as { status?: string } | null;
      const status = receipt?.status ?? 'pending';
      if (status !== entry.s) {
        const word = (s: string) => (s === '0x1' ? 'successful' : s === '0x0' ? 'reverted' : s);
        throw fail(`transaction ${response.result} was ${word(entry.s)} when recorded but is ${word(status)} on replay`);
      }
    }
    await this.expectHead(entry.n, entry.h, entry.m, fail);
  }

  private async expectHead(number: number, hash: string, what: string, fail: (problem: string) => Error): Promise<void> {
    const head = await this.block('latest');
    if (head.number !== number || head.hash !== hash) {
      throw fail(`after ${what} the chain head should be block ${number} ${hash}, but it is block ${head.number} ${head.hash}`);
    }
  }

  // --- plumbing --------------------------------------------------------------------------------

  private async call(method: string, params: unknown[] = []): Promise<unknown> {
    const response = await this.chain.request({ method, params });
    if (response.error) throw new Error(`${method}: ${response.error.message}`);
    return response.result;
  }

  private async headNumber(): Promise<number> {
    return Number(await this.call('eth_blockNumber'));
  }

  private async block(tag: number | 'latest'): Promise<BlockHead> {
    const block = (await this.call('eth_getBlockByNumber', [typeof tag === 'number' ? hex(tag) : tag, false])) as
      { number: string; timestamp: string; hash: string; transactions: unknown[] } | null;
    if (!block) throw new Error(`block ${tag} not found`);
    return { number: Number(block.number), timestamp: Number(block.timestamp), hash: block.hash, txCount: block.transactions.length };
  }

  /** EDR's clock offset in seconds; evm_increaseTime(0) reads it without changing it. */
  private async timeOffset(): Promise<number> {
    return Number(await this.call('evm_increaseTime', [0]));
  }
}

export type { JournalEntry };

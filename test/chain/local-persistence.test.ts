/** The embedded chain's write-ahead journal: a restart with the same dataDir restores the chain block for block. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createWalletClient, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  createChainPort, orderFillFor, questionIdOf, startLocalChain, type ChainPort, type LocalChain, type PreparedCondition,
} from '../../src/chain';
import { collateralAbi, conditionalTokensAbi, exchangeAbi } from '../../src/chain/generated';
import { buildOrder, signOrder, type BuildOrderInput, type SignedOrder } from '../../src/signing';

const E18 = 10n ** 18n;
const dirs: string[] = [];
const running: LocalChain[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'predex-persist-'));
  dirs.push(dir);
  return dir;
}
async function start(dataDir: string, blockIntervalMs = 0): Promise<LocalChain> {
  const chain = await startLocalChain({ port: 0, dataDir, blockIntervalMs });
  running.push(chain);
  return chain;
}
async function stop(chain: LocalChain): Promise<void> {
  running.splice(running.indexOf(chain), 1);
  await chain.stop();
}
afterAll(async () => {
  for (const chain of running) await chain.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const portOf = (chain: LocalChain) => createChainPort({
  rpcUrl: chain.rpcUrl, chainId: chain.chainId, operatorKey: chain.operatorKey, addresses: chain.addresses, confirmations: 0, pollingIntervalMs: 20,
});
const walletOf = (chain: LocalChain, port: ChainPort, key: Hex) =>
  createWalletClient({ chain: port.context.chain, transport: http(chain.rpcUrl), account: privateKeyToAccount(key) });

async function latestBlock(port: ChainPort) {
  return port.context.publicClient.getBlock({ blockTag: 'latest' });
}
async function sleepUntilUnix(seconds: bigint): Promise<void> {
  const ms = Number(seconds) * 1000 - Date.now();
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Everything the service would remember about the chain. */
async function snapshot(chain: LocalChain, condition: PreparedCondition, wallets: Address[], orders: Hex[]) {
  const port = portOf(chain);
  const client = port.context.publicClient;
  const head = await client.getBlockNumber();
  const hashes: Hex[] = [];
  for (let n = 0n; n <= head; n++) hashes.push((await client.getBlock({ blockNumber: n })).hash);
  const perWallet = await Promise.all(wallets.map(async (address) => ({
    native: await client.getBalance({ address }),
    txCount: await client.getTransactionCount({ address }),
    exchangeNonce: await port.makerNonce(address),
    funds: await port.readWalletBalances(address, [condition.yesTokenId, condition.noTokenId]),
  })));
  const statuses = await Promise.all(orders.map((hash) => port.orderStatus(hash)));
  return { head, hashes, perWallet, statuses };
}

describe('embedded chain persistence (write-ahead journal)', () => {
  it('when stopped and started again with the same dataDir, then addresses, balances, nonces, fills, cancels and block timestamps are the same and new transactions run on wall-clock time', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir, 1000);
    const port = portOf(first);
    const condition = await port.prepareCondition(questionIdOf('persistence'));
    const [operator, alice, bob, carol] = first.accounts;
    await port.fundWallet(alice.address, 1000n * E18, { privateKey: alice.privateKey });
    await port.fundWallet(bob.address, 1000n * E18, { privateKey: bob.privateKey });
    const market: BuildOrderInput['market'] = {
      exchange: first.addresses.exchange, chainId: first.chainId, decimals: 18, feeRateBps: 100,
      tokens: [{ outcome: 1, token_id: condition.yesTokenId.toString() }, { outcome: 0, token_id: condition.noTokenId.toString() }],
    };
    const sign = (key: Hex, maker: Address, input: Omit<BuildOrderInput, 'market' | 'maker'>): SignedOrder & { hash: Hex } => {
      const built = buildOrder({ market, maker, ...input });
      const signed = signOrder(built, key);
      return { ...built.order, signature: signed.signature, hash: signed.orderHash };
    };
    const strip = ({ hash: _hash, ...order }: SignedOrder & { hash: Hex }): SignedOrder => order;

    // A match whose maker order expires two seconds after the current chain time: valid only then.
    const chainNow = (await latestBlock(port)).timestamp;
    const expiration = chainNow + 3n;
    const taker = sign(alice.privateKey, alice.address, { side: 'BUY', outcome: 1, price: '0.6', size: '10' });
    const maker = sign(bob.privateKey, bob.address, { side: 'BUY', outcome: 0, price: '0.45', size: '10', expiration });
    const matchHash = await port.submitMatch({
      taker: strip(taker), makers: [strip(maker)],
      takerFill: orderFillFor('BUY', 10n * E18, 55), makerFills: [orderFillFor('BUY', 10n * E18, 45)],
    });
    const matchReceipt = await port.waitForReceipt(matchHash, 0);
    expect(matchReceipt.status).toBe('success');
    const matchBlock = await port.context.publicClient.getBlock({ blockNumber: matchReceipt.blockNumber });
    expect(matchBlock.timestamp).toBeLessThan(expiration);

    // ERC-20 transfer, ERC-20 approval + ERC-1155 split, ERC-1155 transfer, an on-chain cancel.
    const aliceWallet = walletOf(first, port, alice.privateKey);
    const { collateral, conditionalTokens } = first.addresses;
    const wait = async (hash: Hex) => expect((await port.waitForReceipt(hash, 0)).status).toBe('success');
    await wait(await aliceWallet.writeContract({ address: collateral, abi: collateralAbi, functionName: 'transfer', args: [carol.address, 7n * E18] }));
    await wait(await aliceWallet.writeContract({ address: collateral, abi: collateralAbi, functionName: 'approve', args: [conditionalTokens, 20n * E18] }));
    await wait(await aliceWallet.writeContract({
      address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'splitPosition', args: [collateral, condition.conditionId, 20n * E18],
    }));
    await wait(await aliceWallet.writeContract({
      address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'safeTransferFrom',
      args: [alice.address, carol.address, condition.noTokenId, 3n * E18, '0x'],
    }));
    const cancelled = sign(bob.privateKey, bob.address, { side: 'BUY', outcome: 1, price: '0.2', size: '5' });
    const bobWallet = walletOf(first, port, bob.privateKey);
    await wait(await bobWallet.sendTransaction({ ...port.cancelOrderCalldata(strip(cancelled)) }));
    await wait(await bobWallet.writeContract({ address: first.addresses.exchange, abi: exchangeAbi, functionName: 'incrementNonce' }));
    // Dev methods go through the journal too.
    await port.context.publicClient.request({ method: 'hardhat_setBalance' as never, params: [carol.address, '0x1234'] as never });
    await port.context.publicClient.request({ method: 'hardhat_mine' as never, params: ['0x3'] as never });

    // Idle blocks were mined meanwhile; stop them (through the endpoint) and let wall-clock time pass
    // the order's expiration and the last block's timestamp (a burst of blocks runs ahead of it).
    await sleepUntilUnix(chainNow + 2n);
    await port.context.publicClient.request({ method: 'evm_setIntervalMining' as never, params: [0] as never });
    await sleepUntilUnix((await latestBlock(port)).timestamp + 4n);
    const wallets = [operator.address, alice.address, bob.address, carol.address];
    const orders = [taker.hash, maker.hash, cancelled.hash];
    const before = await snapshot(first, condition, wallets, orders);
    expect(before.statuses[1]).toEqual({ filledOrCancelled: true, cancelled: false, remaining: 0n });
    expect(before.statuses[2]).toMatchObject({ filledOrCancelled: true, cancelled: true });
    expect(before.perWallet[3].native).toBe(0x1234n);
    await stop(first);

    const journal = fs.readFileSync(path.join(dataDir, 'chain', 'journal.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { k: string });
    expect(journal[0].k).toBe('header');
    expect(journal.filter((e) => e.k === 'deployment')).toHaveLength(1);
    expect(journal.some((e) => e.k === 'empty')).toBe(true); // the idle miner's blocks, compactly

    const second = await start(dataDir);
    expect(second.replayedEntries).toBe(journal.length - 1);
    expect(second.addresses).toEqual(first.addresses);
    const after = await snapshot(second, condition, wallets, orders);
    expect(after).toEqual(before); // same blocks (hashes cover timestamps), balances, nonces, fills, cancels
    // The match was replayed at its recorded time although its maker order has expired by now.
    const replayedMatch = await portOf(second).context.publicClient.getTransactionReceipt({ hash: matchHash });
    expect(replayedMatch.status).toBe('success');
    expect(BigInt(Math.floor(Date.now() / 1000))).toBeGreaterThan(expiration);

    // New transactions work, on a clock that continues from wall-clock time.
    const port2 = portOf(second);
    const aliceWallet2 = walletOf(second, port2, alice.privateKey);
    const fresh = await port2.waitForReceipt(await aliceWallet2.writeContract({
      address: collateral, abi: collateralAbi, functionName: 'transfer', args: [carol.address, E18],
    }), 0);
    expect(fresh.status).toBe('success');
    const freshBlock = await port2.context.publicClient.getBlock({ blockNumber: fresh.blockNumber });
    // Not the replayed blocks' time (the last one is 4+ s old): wall-clock time, to the second.
    expect(Math.abs(Number(freshBlock.timestamp) - Math.floor(Date.now() / 1000))).toBeLessThanOrEqual(2);
    expect(fresh.blockNumber).toBe(before.head + 1n);
    const carolAfter = (await port2.readWalletBalances(carol.address)).collateralBalance;
    await stop(second);

    // What the second run added is journaled after the replayed part: a third start has it too.
    const third = await start(dataDir);
    expect((await portOf(third).readWalletBalances(carol.address)).collateralBalance).toBe(carolAfter);
    expect(carolAfter).toBe(8n * E18);
    await stop(third);
  });

  it('when the clock was moved on purpose (evm_increaseTime), then the offset survives the restart', async () => {
    const rpc = async (chain: LocalChain, method: string, params: unknown[] = []) => {
      const response = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      return ((await response.json()) as { result: unknown }).result;
    };
    const latestTimestamp = async (chain: LocalChain) => Number(((await rpc(chain, 'eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp);
    const dataDir = tempDir();
    const first = await start(dataDir);
    await rpc(first, 'evm_increaseTime', [3600]);
    await rpc(first, 'evm_mine');
    expect(await latestTimestamp(first) - Date.now() / 1000).toBeGreaterThan(3598);
    await stop(first);

    const second = await start(dataDir);
    await rpc(second, 'evm_mine');
    const ahead = await latestTimestamp(second) - Date.now() / 1000;
    expect(ahead).toBeGreaterThan(3598);
    expect(ahead).toBeLessThan(3610); // the recorded offset, which also holds the deployment burst's lead of a few seconds
    await stop(second);
  });

  describe('a journal that does not replay', () => {
    let source: string;
    beforeAll(async () => {
      source = tempDir();
      const chain = await start(source);
      const port = portOf(chain);
      const [, alice, bob] = chain.accounts;
      // Alice mints herself (open mint): the operator's viem nonce manager is process-wide and
      // still counts the previous test's chain.
      const alicesWallet = walletOf(chain, port, alice.privateKey);
      await port.waitForReceipt(await alicesWallet.writeContract({
        address: chain.addresses.collateral, abi: collateralAbi, functionName: 'mint', args: [alice.address, 10n * E18],
      }), 0);
      const hash = await alicesWallet.writeContract({
        address: chain.addresses.collateral, abi: collateralAbi, functionName: 'transfer', args: [bob.address, E18],
      });
      await port.waitForReceipt(hash, 0);
      await stop(chain);
    });

    /** A copy of the source journal with `edit` applied to its lines. */
    function copyWith(edit: (lines: string[]) => string): { dataDir: string; file: string } {
      const dataDir = tempDir();
      const file = path.join(dataDir, 'chain', 'journal.ndjson');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const lines = fs.readFileSync(path.join(source, 'chain', 'journal.ndjson'), 'utf8').split('\n').filter(Boolean);
      fs.writeFileSync(file, edit(lines));
      return { dataDir, file };
    }
    const lastTransaction = (lines: string[]) => {
      const i = [...lines].reverse().findIndex((line) => line.includes('"eth_sendRawTransaction"'));
      return lines.length - 1 - i;
    };

    it('when a recorded transaction status differs from its replay, then the start is refused naming the journal and how to move it aside', async () => {
      const { dataDir, file } = copyWith((lines) => {
        const i = lastTransaction(lines);
        lines[i] = lines[i].replace('"s":"0x1"', '"s":"0x0"');
        return `${lines.join('\n')}\n`;
      });
      const error = await startLocalChain({ port: 0, dataDir, blockIntervalMs: 0 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ChainJournalError' });
      expect((error as Error).message).toContain(file);
      expect((error as Error).message).toMatch(/was reverted when recorded but is successful on replay/);
      expect((error as Error).message).toContain(`mv '${file}'`);
    });

    it('when a recorded block hash differs, then the start is refused', async () => {
      const { dataDir } = copyWith((lines) => {
        const i = lastTransaction(lines);
        lines[i] = lines[i].replace(/"h":"0x[0-9a-f]{4}/, '"h":"0xdead');
        return `${lines.join('\n')}\n`;
      });
      await expect(startLocalChain({ port: 0, dataDir, blockIntervalMs: 0 })).rejects.toThrow(/chain head should be block \d+ 0xdead/);
    });

    it('when a line in the middle is garbage, then the start is refused as corrupted', async () => {
      const { dataDir, file } = copyWith((lines) => {
        lines.splice(3, 0, '{"k":"rpc","m":"eth_sendRawTr');
        return `${lines.join('\n')}\n`;
      });
      await expect(startLocalChain({ port: 0, dataDir, blockIntervalMs: 0 })).rejects.toThrow(`${file} line 4: line is not valid JSON`);
    });

    it('when the last line was torn by a crash (never answered), then it is cut off and the rest replays', async () => {
      const { dataDir, file } = copyWith((lines) => `${lines.join('\n')}\n{"k":"rpc","m":"eth_sendRawTransaction","p":["0x02f8`);
      const lines = [] as string[];
      const chain = await startLocalChain({ port: 0, dataDir, blockIntervalMs: 0, log: (line) => lines.push(line) });
      running.push(chain);
      const port = portOf(chain);
      expect((await port.readWalletBalances(chain.accounts[2].address)).collateralBalance).toBe(E18);
      expect(lines.join('\n')).toMatch(/torn last line/);
      await stop(chain);
      expect(fs.readFileSync(file, 'utf8').endsWith('}\n')).toBe(true);
    });
  });
});

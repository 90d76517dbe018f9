import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { getAddress } from 'viem';
import { AppError } from '../../src/errors';
import { createChainPort, devAccounts, outcomeTokenIds, conditionIdOf, questionIdOf, startLocalChain, type LocalChain } from '../../src/chain';
import { conditionalTokensAbi, exchangeAbi } from '../../src/chain/generated';

let chain: LocalChain;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'predex-chain-'));
  chain = await startLocalChain({ port: 0, dataDir, blockIntervalMs: 200 });
});
afterAll(async () => {
  await chain.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function post(body: string): Promise<unknown> {
  const response = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return response.json();
}

describe('startLocalChain', () => {
  it('when started, then the deployment file names the chain, the rpc url and the three contracts', () => {
    const deployment = JSON.parse(fs.readFileSync(path.join(dataDir, 'chain', 'deployment.json'), 'utf8'));
    expect(deployment).toMatchObject({ chainId: 56, rpcUrl: chain.rpcUrl, addresses: chain.addresses, operatorAddress: devAccounts()[0].address });
    expect(Number(deployment.deployedAtBlock)).toBeGreaterThan(0);
  });

  it('when sent single and batch JSON-RPC requests over HTTP, then it answers each with its id', async () => {
    expect(await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }))).toEqual({ jsonrpc: '2.0', id: 1, result: '0x38' });
    const batch = (await post(JSON.stringify([
      { jsonrpc: '2.0', id: 'a', method: 'eth_getBalance', params: [devAccounts()[9].address, 'latest'] },
      { jsonrpc: '2.0', id: 'b', method: 'no_such_method', params: [] },
      { jsonrpc: '2.0', id: 'c', method: 'eth_getCode', params: [chain.addresses.exchange, 'latest'] },
    ]))) as { id: string; result?: string; error?: unknown }[];
    expect(batch.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(BigInt(batch[0].result!)).toBe(10_000n * 10n ** 18n);
    expect(batch[1].error).toBeDefined();
    expect(batch[2].result!.length).toBeGreaterThan(1000);
    expect(await post('{not json')).toMatchObject({ error: { code: -32700 } });
  });

  it('when restarted, then the contracts come back at the same addresses on a fresh state', async () => {
    const second = await startLocalChain({ port: 0, blockIntervalMs: 0 });
    try {
      expect(second.addresses).toEqual(chain.addresses);
      expect(second.rpcUrl).not.toBe(chain.rpcUrl);
    } finally {
      await second.stop();
    }
  });

  it('when preparing a condition, then TS ids equal the contracts ids and the exchange registers both tokens', async () => {
    const port = createChainPort({ rpcUrl: chain.rpcUrl, chainId: 56, operatorKey: chain.operatorKey, addresses: chain.addresses, confirmations: 0, pollingIntervalMs: 20 });
    const questionId = questionIdOf('Will it rain?');
    const prepared = await port.prepareCondition(questionId);
    expect(await port.prepareCondition(questionId)).toEqual(prepared); // idempotent
    expect(prepared.conditionId).toBe(conditionIdOf(port.operatorAddress, questionId));
    expect({ yes: prepared.yesTokenId, no: prepared.noTokenId }).toEqual(outcomeTokenIds(chain.addresses.collateral, prepared.conditionId));
    const read = port.context.publicClient.readContract;
    const ctf = { address: chain.addresses.conditionalTokens, abi: conditionalTokensAbi } as const;
    expect(await read({ ...ctf, functionName: 'getPositionId', args: [chain.addresses.collateral, prepared.conditionId, 2n] })).toBe(prepared.yesTokenId);
    expect(await read({ ...ctf, functionName: 'getPositionId', args: [chain.addresses.collateral, prepared.conditionId, 1n] })).toBe(prepared.noTokenId);
    const registry = await read({ address: chain.addresses.exchange, abi: exchangeAbi, functionName: 'registry', args: [prepared.yesTokenId] });
    expect(registry).toEqual([prepared.noTokenId, prepared.conditionId]);
  });

  it('when funding a wallet, then it holds collateral, native coin and both exchange approvals', async () => {
    const port = createChainPort({ rpcUrl: chain.rpcUrl, chainId: 56, operatorKey: chain.operatorKey, addresses: chain.addresses, confirmations: 0, pollingIntervalMs: 20 });
    const fresh = { address: getAddress('0x00000000000000000000000000000000000f00d1') };
    await port.fundWallet(fresh.address, 5n * 10n ** 18n, { nativeAmount: 10n ** 17n });
    const balances = await port.readWalletBalances(fresh.address, [1n, 2n]);
    expect(balances).toMatchObject({ collateralBalance: 5n * 10n ** 18n, collateralAllowance: 0n, tokenBalances: { '1': 0n, '2': 0n }, tokensApprovedForAll: false });
    expect(await port.context.publicClient.getBalance({ address: fresh.address })).toBe(10n ** 17n);
    const trader = chain.accounts[7];
    await port.fundWallet(trader.address, 1n, { privateKey: trader.privateKey });
    expect(await port.readWalletBalances(trader.address)).toMatchObject({ collateralAllowance: 2n ** 256n - 1n, tokensApprovedForAll: true });
    await expect(port.fundWallet(trader.address, 1n, { privateKey: chain.accounts[6].privateKey })).rejects.toThrow(RangeError);
  });

  it('when reading a wallet, then the block number and the four reads cost two HTTP requests (one JSON-RPC batch)', async () => {
    const bodies: unknown[] = [];
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        bodies.push(JSON.parse(body));
        fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
          .then((r) => r.text())
          .then((text) => res.writeHead(200, { 'content-type': 'application/json' }).end(text), () => res.writeHead(502).end());
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const port = createChainPort({ rpcUrl: url, chainId: 56, operatorKey: chain.operatorKey, addresses: chain.addresses, confirmations: 0 });
      await port.readWalletBalances(chain.accounts[2].address, [1n, 2n, 3n]);
      expect(bodies).toHaveLength(2);
      expect(Array.isArray(bodies[1]) && (bodies[1] as unknown[]).length).toBe(4);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('when waiting for confirmations, then the receipt comes once blocks are mined on top', async () => {
    const port = createChainPort({ rpcUrl: chain.rpcUrl, chainId: 56, operatorKey: chain.operatorKey, addresses: chain.addresses, confirmations: 2, pollingIntervalMs: 20 });
    const hash = await port.context.walletClient.sendTransaction({ to: chain.accounts[8].address, value: 1n });
    const receipt = await port.waitForReceipt(hash);
    expect(receipt.status).toBe('success');
    const state = await port.getReceiptState(hash);
    expect(state).toMatchObject({ status: 'success', blockNumber: receipt.blockNumber });
    expect(state.status !== 'pending' && state.confirmations).toBeGreaterThanOrEqual(2);
    expect(await port.getReceiptState(`0x${'ab'.repeat(32)}`)).toEqual({ status: 'pending' });
    expect(await port.getBlockNumber()).toBeGreaterThanOrEqual(receipt.blockNumber + 2n);
  });

  it('when the node is unreachable, then calls fail with AppError SERVICE_DEGRADED', async () => {
    const dead = createChainPort({ rpcUrl: 'http://127.0.0.1:1', chainId: 56, operatorKey: chain.operatorKey, addresses: chain.addresses, confirmations: 0, requestTimeoutMs: 2000 });
    const error = await dead.makerNonce(chain.accounts[1].address).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'SERVICE_DEGRADED', status: 503, retryable: true });
    await expect(dead.readWalletBalances(chain.accounts[1].address, [1n])).rejects.toMatchObject({ code: 'SERVICE_DEGRADED' });
  });
});

/**
 * The saved-transaction workflow on the real Temporal dev server, with an in-test chain that mines
 * a transaction when told: it polls on durable timers until the receipt exists, checks the sender,
 * ends the record and tells the wallet each status. Histories recorded here are replayed by
 * replay.test.ts (RECORD_HISTORIES=1 to record them again).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Hex } from 'viem';
import { createTradeTxActivities } from '../../activities/trade-tx.activities';
import type { RealtimeEvent } from '../../src/ports/realtime-publisher';
import { createTradeTxModel } from '../../src/db/models';
import { createTradeTxStarter, tradeTxWorkflowId } from '../../src/temporal/trade-tx.client';
import { saveTradeTx } from '../../src/trade/save-trade-tx';
import type { TradeTxChain, TxReceipt } from '../../src/trade/trade-tx-chain';
import { useTestDatabase } from '../helpers/test-database';
import { testTemporalAddress, uniqueTaskQueue } from '../helpers/test-temporal';
import { testWorkflowBundle } from '../helpers/workflow-bundle';

const CTF = '0x00000000000000000000000000000000000000c7';
const WALLET = '0x1111111111111111111111111111111111111111';
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe('saved-transaction workflow', () => {
  const database = useTestDatabase('tradetx');
  const taskQueue = uniqueTaskQueue('tradetx');
  const receipts = new Map<string, TxReceipt>();
  const polls = new Map<string, number>();
  const published: RealtimeEvent[] = [];
  let client: Client;
  let connection: Connection;
  let native: NativeConnection;
  let worker: Worker;
  let running: Promise<void>;

  const chain: TradeTxChain = {
    chainId: 56,
    addresses: { conditionalTokens: CTF, exchange: '0x00000000000000000000000000000000000000e0' },
    receipt: async (hash: Hex) => {
      polls.set(hash, (polls.get(hash) ?? 0) + 1);
      return receipts.get(hash) ?? { status: 'pending' };
    },
  };

  beforeAll(async () => {
    connection = await Connection.connect({ address: testTemporalAddress() });
    client = new Client({ connection });
    native = await NativeConnection.connect({ address: testTemporalAddress() });
    const activities = createTradeTxActivities({ db: database.db(), publisher: { publish: async (events) => void published.push(...events) }, chain: () => chain });
    worker = await Worker.create({ connection: native, taskQueue, workflowBundle: await testWorkflowBundle(), activities });
    running = worker.run();
  }, 60_000);
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await native?.close();
    await connection?.close();
  });

  const starter = () => createTradeTxStarter(client, taskQueue);
  async function save(hash: string, receiptWaitMs?: number) {
    const base = createTradeTxStarter(client, taskQueue);
    const withWait = { start: (input: Parameters<typeof base.start>[0]) => base.start({ ...input, ...(receiptWaitMs ? { receiptWaitMs } : {}) }) };
    return saveTradeTx({ txs: createTradeTxModel(database.db()), starter: receiptWaitMs ? withWait : starter() }, { chain_id: 56, tx_hash: hash, wallet: WALLET });
  }
  const statuses = (hash: string) =>
    published.flatMap((e) => (e.channel === 'user' && e.payload.type === 'trade_tx' && e.payload.trade_tx.tx_hash === hash ? [e.payload.trade_tx.status] : []));
  async function record(name: string, hash: string) {
    if (process.env.RECORD_HISTORIES !== '1') return;
    const history = await client.workflow.getHandle(tradeTxWorkflowId(56, hash)).fetchHistory();
    writeFileSync(join(__dirname, 'histories', name), JSON.stringify(history));
  }

  test('when the receipt appears after a few polls, then the workflow waits on timers and ends CONFIRMED with the decoded events', async () => {
    const hash = hashOf(1);
    expect(await save(hash)).toMatchObject({ status: 'PENDING' });
    const deadline = Date.now() + 30_000;
    while ((polls.get(hash) ?? 0) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // The second read came a second after the first; the third waits two more: timers, not a busy loop.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(polls.get(hash)).toBe(2);
    const approval = {
      address: CTF, logIndex: 0, data: '0x0000000000000000000000000000000000000000000000000000000000000001' as Hex,
      topics: ['0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31', `0x000000000000000000000000${WALLET.slice(2)}`, `0x000000000000000000000000${'e0'.padStart(40, '0')}`] as Hex[],
    };
    receipts.set(hash, { status: 'success', from: WALLET, blockNumber: 12n, logs: [approval] });
    expect(await client.workflow.getHandle(tradeTxWorkflowId(56, hash)).result()).toBe('CONFIRMED');
    const row = await createTradeTxModel(database.db()).findOne({ tx_hash: hash }).lean().exec();
    expect(row).toMatchObject({ status: 'CONFIRMED', block_number: '12', events: [{ contract: 'conditional_tokens', name: 'ApprovalForAll', log_index: 0 }] });
    expect(statuses(hash)).toEqual(['PENDING', 'CONFIRMED']);
    await record('trade-tx-confirmed.json', hash);
  }, 60_000);

  test('when another address sent the transaction, then the record ends NOT_FOUND SENDER_MISMATCH', async () => {
    const hash = hashOf(2);
    receipts.set(hash, { status: 'success', from: '0x2222222222222222222222222222222222222222', blockNumber: 3n, logs: [] });
    await save(hash);
    expect(await client.workflow.getHandle(tradeTxWorkflowId(56, hash)).result()).toBe('NOT_FOUND');
    expect(await createTradeTxModel(database.db()).findOne({ tx_hash: hash }).lean().exec()).toMatchObject({ status: 'NOT_FOUND', status_reason: 'SENDER_MISMATCH' });
  }, 60_000);

  test('when the receipt never comes, then the wait ends NOT_FOUND RECEIPT_TIMEOUT at its bound', async () => {
    const hash = hashOf(3);
    await save(hash, 3_000);
    expect(await client.workflow.getHandle(tradeTxWorkflowId(56, hash)).result()).toBe('NOT_FOUND');
    expect(await createTradeTxModel(database.db()).findOne({ tx_hash: hash }).lean().exec()).toMatchObject({ status: 'NOT_FOUND', status_reason: 'RECEIPT_TIMEOUT' });
    expect(statuses(hash)).toEqual(['PENDING', 'NOT_FOUND']);
    // 1 s, then 2 s (cut to the bound): three reads, not a busy loop.
    expect(polls.get(hash)).toBe(3);
    await record('trade-tx-timeout.json', hash);
  }, 60_000);
});

/**
 * An order's whole story for operators: when the API accepted it, the market step that put it on
 * the book, each fill with the settlement batch that settles it (its workflow, transaction and
 * status), and how it ended; each step names the Temporal workflow run that did it. The store says
 * what happened and when; Temporal's visibility finds the workflows by the order's hash (a
 * settlement batch's `OrderHashes`, an on-chain cancel's `OrderHash`) and the market run of a time.
 */
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { AppError } from '../errors';
import { findByIds, type FillRecord, type MatchingCollections, type StoredOrder } from '../matching/collections';
import { settlementWorkflowId } from '../matching/market-ids';
import { statusReasonOf } from '../ports/status-reasons';
import { TERMINAL_STATUSES } from '../ports/order-record';
import { workflowLink, type WorkflowRef } from './workflow-links';

export type TimelineStep = 'ACCEPTED' | 'REACHED_BOOK' | 'FILL' | 'WORKFLOW' | 'FINAL' | 'NOW';

export interface TimelineEvent {
  at: string | null;
  step: TimelineStep;
  /** One line for a human. */
  summary: string;
  /** The workflow run that did it; null for the API's own steps. */
  workflow: WorkflowRef | null;
  /** FILL: the fill's trade, role, size, price, settlement status, transaction and batch. */
  fill?: { trade_id: string; role: string; size: string; price: string; settlement_status: string; tx_hash: string | null; settlement_batch: string | null };
}

export interface OrderTimeline {
  order_hash: string;
  wallet: string;
  market_key: string;
  status: string;
  status_reason: string | null;
  events: TimelineEvent[];
  /** Every workflow Temporal's visibility lists under the order's hash (settlement batches, on-chain cancels). */
  found_by_hash: WorkflowRef[];
}

export interface OrderTimelineDeps {
  collections: MatchingCollections;
  client: Client;
  namespace: string;
  /** Temporal Web UI base URL (config/temporal-ui-url.ts); undefined: the steps name their runs without a link. */
  uiUrl: string | undefined;
}

/** Reasons a settlement gives: the settlement batch of the order's last fill ended it. */
const SETTLEMENT_REASONS = new Set(['SETTLEMENT_FAILED', 'SIGNATURE_REFUSED', 'TOKENS_REFUSED', 'GAS_BURNED']);
/** Runs of one market workflow looked at to find the one that was current at a time. */
const RUNS_LOOKED_AT = 50;

const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

export async function readOrderTimeline(deps: OrderTimelineDeps, orderHash: string): Promise<OrderTimeline> {
  const hash = orderHash.toLowerCase();
  const order = (await deps.collections.orders.findOne({ _id: hash })) as StoredOrder | null;
  if (!order) throw new AppError('NOT_FOUND', `no order ${hash}`);
  const fills = (await findByIds(deps.collections.fills, order.fill_ids ?? [])).sort((a, b) => +a.created_at - +b.created_at);
  const ref = (info: Pick<WorkflowExecutionInfo, 'workflowId' | 'runId' | 'type' | 'status'>): WorkflowRef =>
    workflowLink(deps.uiUrl, deps.namespace, info.workflowId, info.runId, info.type, info.status.name);

  const found = await list(deps.client, `OrderHashes = "${hash}" OR OrderHash = "${hash}"`, 100);
  const marketRuns = await list(deps.client, `WorkflowId = "market-${order.market_key}"`, RUNS_LOOKED_AT);
  const marketRunAt = (at: Date | null | undefined): WorkflowRef => {
    const when = at ? +new Date(at) : Date.now();
    const run = marketRuns.filter((r) => +r.startTime <= when).sort((a, b) => +b.startTime - +a.startTime)[0];
    return run ? ref(run) : workflowLink(deps.uiUrl, deps.namespace, `market-${order.market_key}`, null, 'marketWorkflow', null);
  };
  const batchRef = async (batch: string | undefined): Promise<WorkflowRef | null> => {
    if (!batch) return null;
    const id = settlementWorkflowId(batch);
    const listed = found.filter((w) => w.workflowId === id).sort((a, b) => +b.startTime - +a.startTime)[0];
    if (listed) return ref(listed);
    // Batches started before they listed their orders: asked by id.
    try {
      return ref(await deps.client.workflow.getHandle(id).describe());
    } catch {
      return workflowLink(deps.uiUrl, deps.namespace, id, null, 'settlementWorkflow', null);
    }
  };

  const events: TimelineEvent[] = [{ at: iso(order.created_at), step: 'ACCEPTED', summary: `accepted by the API: ${order.side} ${order.size} ${order.order_type} @ ${order.price}`, workflow: null }];
  const reached = order.book_added_at ?? fills[0]?.created_at ?? null;
  if (reached) events.push({ at: iso(reached), step: 'REACHED_BOOK', summary: 'taken by its market workflow (a matching step)', workflow: marketRunAt(reached) });
  const fillEvents = await Promise.all(fills.map(async (f): Promise<TimelineEvent> => ({
    at: iso(f.created_at),
    step: 'FILL',
    summary: `${f.role} fill ${f.size} @ ${f.price}, settlement ${f.settlement_status}${f.tx_hash ? ` tx ${f.tx_hash}` : ''}`,
    workflow: await batchRef(f.settlement_batch),
    fill: {
      trade_id: f.trade_id, role: f.role, size: f.size, price: f.price, settlement_status: f.settlement_status,
      tx_hash: f.tx_hash || null, settlement_batch: f.settlement_batch ?? null,
    },
  })));
  events.push(...fillEvents);
  const named = new Set(fillEvents.map((e) => e.workflow?.workflow_id));
  for (const w of found) {
    if (!named.has(w.workflowId)) events.push({ at: iso(w.startTime), step: 'WORKFLOW', summary: `${w.type} found by the order's hash`, workflow: ref(w) });
  }
  const reason = statusReasonOf(order);
  const final = TERMINAL_STATUSES.includes(order.status);
  events.push({
    at: iso(order.updated_at),
    step: final ? 'FINAL' : 'NOW',
    summary: `${final ? 'ended' : 'now'} ${order.status}${reason ? ` (${reason})` : ''}`,
    workflow: await endedBy(order, reason, fills, batchRef, marketRunAt),
  });
  events.sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''));
  return {
    order_hash: hash, wallet: order.wallet, market_key: order.market_key, status: order.status, status_reason: reason, events, found_by_hash: found.map(ref),
  };
}

/** The run that gave the order its status: a settlement batch for settlement's outcomes, else its market's run of the time. */
async function endedBy(
  order: StoredOrder, reason: string | null, fills: FillRecord[],
  batchRef: (batch: string | undefined) => Promise<WorkflowRef | null>, marketRunAt: (at: Date | null | undefined) => WorkflowRef,
): Promise<WorkflowRef | null> {
  const bySettlement = order.status === 'FILLED' || order.status === 'MATCHED' || (reason !== null && SETTLEMENT_REASONS.has(reason));
  if (bySettlement && fills.length > 0) {
    const last = [...fills].sort((a, b) => +b.updated_at - +a.updated_at)[0];
    return batchRef(last.settlement_batch);
  }
  return marketRunAt(order.updated_at);
}

async function list(client: Client, query: string, max: number): Promise<WorkflowExecutionInfo[]> {
  const rows: WorkflowExecutionInfo[] = [];
  for await (const info of client.workflow.list({ query, pageSize: max })) {
    rows.push(info);
    if (rows.length >= max) break;
  }
  return rows;
}

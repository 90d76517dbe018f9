/**
 * Claims of `client_order_id`s: one document per (wallet, id) in `client_order_ids`, `_id` =
 * `{wallet}|{id}`, naming the order that holds it. The primary key makes a claim race-free across
 * API processes: of two requests inserting the same id at once, exactly one insert succeeds.
 *
 * A claim is not deleted when its order ends (every writer of a terminal status would have to know
 * of it); it goes stale instead, and the next placement with that id takes it over: a claim whose
 * order is terminal, or whose order was never stored and is older than CLAIM_GRACE_MS (a request
 * that died between claim and insert), is deleted by `_id` and holder, then inserted again. Two
 * requests taking over the same stale claim still race on the insert, so one wins.
 *
 * FerretDB 1.24 (the embedded store) answers "Index option partialFilterExpression is not implemented
 * yet" (and keeps a `sparse` unique index as a plain unique one), so a unique partial index
 * on the orders (wallet, client_order_id, live statuses only) is not available there
 * (docs/market-makers.md).
 */
import type { Connection, mongo } from 'mongoose';
import { TERMINAL_STATUSES, type OrderStatus } from '../ports/order-record';
import { insertEach } from '../db/insert-each';
import type { OrderModel } from './models';

export const CLIENT_ORDER_IDS = 'client_order_ids';
/** Longest a placement may take from its claim to its order's insert before the claim counts as abandoned. */
export const CLAIM_GRACE_MS = 60_000;
const TAKEOVER_ATTEMPTS = 3;

export interface ClientIdClaim {
  _id: string;
  order_hash: string;
  created_at: Date;
}

export interface ClaimRequest {
  clientOrderId: string;
  orderHash: string;
}

/** `claimed`: this call inserted it; `own`: the order already held it (the same signed order again); else the live holder. */
export type ClaimOutcome = { claimed: true } | { own: true } | { heldBy: string };

export class ClientOrderIds {
  constructor(
    private readonly claims: mongo.Collection<ClientIdClaim>,
    private readonly orders: OrderModel,
    private readonly clock: () => Date,
    private readonly graceMs = CLAIM_GRACE_MS,
  ) {}

  static on(connection: Connection, orders: OrderModel, clock: () => Date): ClientOrderIds {
    return new ClientOrderIds((connection.db as mongo.Db).collection<ClientIdClaim>(CLIENT_ORDER_IDS), orders, clock);
  }

  /** Claims each id for its order (one insert for all, then a takeover per id found taken). */
  async claim(wallet: string, requests: ClaimRequest[]): Promise<ClaimOutcome[]> {
    if (requests.length === 0) return [];
    const now = this.clock();
    const docs = requests.map((r) => ({ _id: claimId(wallet, r.clientOrderId), order_hash: r.orderHash, created_at: now }));
    const inserted = await insertEach(() => this.claims.insertMany(docs, { ordered: false }), docs.length, 'client order id');
    return Promise.all(requests.map(async (r, i) => {
      const outcome = inserted[i];
      if (outcome instanceof Error) throw outcome;
      return outcome ? { claimed: true } : this.takeOver(docs[i]);
    }));
  }

  /** Gives back claims this request made for orders it did not place. */
  async release(wallet: string, requests: ClaimRequest[]): Promise<void> {
    if (requests.length === 0) return;
    await this.claims.deleteMany({ $or: requests.map((r) => ({ _id: claimId(wallet, r.clientOrderId), order_hash: r.orderHash })) });
  }

  private async takeOver(doc: ClientIdClaim): Promise<ClaimOutcome> {
    let holder = '';
    for (let attempt = 0; attempt < TAKEOVER_ATTEMPTS; attempt++) {
      const held = await this.claims.findOne({ _id: doc._id });
      if (held) {
        if (held.order_hash === doc.order_hash) return { own: true };
        holder = held.order_hash;
        if (await this.holds(held)) return { heldBy: holder };
        await this.claims.deleteOne({ _id: doc._id, order_hash: held.order_hash });
      }
      const [inserted] = await insertEach(() => this.claims.insertMany([{ ...doc, created_at: this.clock() }], { ordered: false }), 1, 'client order id');
      if (inserted instanceof Error) throw inserted;
      if (inserted) return { claimed: true };
    }
    return { heldBy: holder };
  }

  /** Whether a claim still binds its id: its order lives, or may still be on its way to the store. */
  private async holds(claim: ClientIdClaim): Promise<boolean> {
    const order = await this.orders.findById(claim.order_hash, { status: 1 }).lean();
    if (order) return !TERMINAL_STATUSES.includes(order.status as OrderStatus);
    return this.clock().getTime() - new Date(claim.created_at).getTime() < this.graceMs;
  }
}

export function claimId(wallet: string, clientOrderId: string): string {
  return `${wallet.toLowerCase()}|${clientOrderId}`;
}

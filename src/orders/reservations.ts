import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../errors';
import type { OrderModel } from './models/order.model';
import type { ReservationHold, WalletReservationModel } from './models/wallet-reservation.model';

/** A hold of an order whose document never appeared (a crash between reserve and insert) is dropped after this. */
export const ORPHAN_HOLD_MS = 60_000;
/** Old versions kept per key (for audit); older ones are deleted now and then. */
const KEEP_VERSIONS = 20;
const MAX_ATTEMPTS = 100;
const MAX_FORWARD_PROBES = 8;

export interface HoldRequest {
  order_hash: string;
  units: bigint;
}

export interface ReserveOutcome {
  accepted: Set<string>;
  /** Per rejected order: what it needed and what was left for it. */
  rejected: Map<string, { required: bigint; available: bigint }>;
}

/** The asset part of a reservation key: collateral of one ERC-20 or one outcome token. */
export function collateralAsset(collateral: string): string {
  return `collateral:${collateral.toLowerCase()}`;
}
export function tokenAsset(tokenId: string): string {
  return `token:${tokenId}`;
}

export function reservationKey(wallet: string, chainId: number, asset: string): string {
  return `${chainId}:${wallet.toLowerCase()}:${asset}`;
}

/** The holds of a stored version, in either stored form. */
function holdsOf(row: { holds_json?: string; holds?: Record<string, ReservationHold> }): Record<string, ReservationHold> {
  if (row.holds_json === undefined) return row.holds ?? {};
  const holds: Record<string, ReservationHold> = {};
  for (const [hash, hold] of Object.entries(JSON.parse(row.holds_json) as Record<string, { units: string; at: string }>)) {
    holds[hash] = { units: hold.units, at: new Date(hold.at) };
  }
  return holds;
}

function sumHolds(holds: Record<string, ReservationHold>): bigint {
  let total = 0n;
  for (const hold of Object.values(holds)) total += BigInt(hold.units);
  return total;
}

interface Head {
  version: number;
  holds: Record<string, ReservationHold>;
}

type Change = (holds: Record<string, ReservationHold>) => Record<string, ReservationHold> | undefined;

/** Whose holds of which asset: the parts of a reservation key. */
export interface HoldOwner {
  wallet: string;
  chainId: number;
  asset: string;
}

/** The holds with each order in `lowers` brought down to its units (dropped at 0); undefined if none moved. */
function lowered(holds: Record<string, ReservationHold>, lowers: Map<string, bigint>): Record<string, ReservationHold> | undefined {
  let next: Record<string, ReservationHold> | undefined;
  for (const [hash, units] of lowers) {
    const hold = holds[hash];
    if (!hold || BigInt(hold.units) <= units) continue;
    next ??= { ...holds };
    if (units <= 0n) delete next[hash];
    else next[hash] = { ...hold, units: units.toString() };
  }
  return next;
}

/**
 * Race-free reservations without transactions (decisions section 8). Every change of a wallet's
 * holds of one asset is a new version whose id is unique, so concurrent placements from any number
 * of API processes serialise: two batches can never together hold more than the spendable balance.
 * Holds only shrink through `setHold`/`release` (the matcher) or the repair from the orders'
 * own `reserved_units` that runs when a reservation comes up short.
 */
export class ReservationStore {
  /** The newest version this process has read or written, per key (versions are immutable). */
  private readonly lastHead = new Map<string, Head>();
  /** Per reservation key: the batch of lowers still open to new calls, and the write before it. */
  private readonly lowering = new Map<string, { next: Map<string, bigint> | null; tail: Promise<void> }>();

  constructor(
    private readonly reservations: WalletReservationModel,
    private readonly orders: OrderModel,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Holds `items` (in request order, greedily) against `available`. Items already held (a retry)
   * count as accepted. On a shortfall, holds left behind by orders that ended are repaired once.
   */
  async reserve(input: { wallet: string; chainId: number; asset: string; available: bigint; items: HoldRequest[] }): Promise<ReserveOutcome> {
    const key = reservationKey(input.wallet, input.chainId, input.asset);
    let outcome: ReserveOutcome = { accepted: new Set(), rejected: new Map() };
    const attempt = (holds: Record<string, ReservationHold>) => {
      outcome = { accepted: new Set(), rejected: new Map() };
      let held = sumHolds(holds);
      const next = { ...holds };
      let added = false;
      const at = this.clock();
      for (const item of input.items) {
        if (next[item.order_hash]) {
          outcome.accepted.add(item.order_hash);
          continue;
        }
        const left = input.available > held ? input.available - held : 0n;
        if (item.units <= left) {
          held += item.units;
          next[item.order_hash] = { units: item.units.toString(), at };
          added = true;
          outcome.accepted.add(item.order_hash);
        } else {
          outcome.rejected.set(item.order_hash, { required: item.units, available: left });
        }
      }
      return added ? next : undefined;
    };
    await this.change(key, input, attempt);
    if (outcome.rejected.size > 0 && (await this.repair(key, input))) await this.change(key, input, attempt);
    return outcome;
  }

  /**
   * Lowers (or drops, at 0) the hold of one order, wherever it is held; never raises one. For the
   * matcher, as the order's `reserved_units` shrinks (fill settled, cancel, expiry, match failure).
   */
  async setHold(wallet: string, orderHash: string, units: bigint): Promise<void> {
    // Looks at the newest version of every asset of the wallet (a query by wallet: a scan on
    // FerretDB); callers that know the asset use lowerHold.
    const rows = await this.reservations.find({ wallet: wallet.toLowerCase() }, { key: 1, chain_id: 1, asset: 1 }).lean();
    const keys = new Map(rows.map((r) => [r.key, r]));
    for (const [key, row] of keys) {
      if (!(await this.head(key)).holds[orderHash]) continue;
      await this.change(key, { wallet, chainId: row.chain_id, asset: row.asset }, (holds) => lowered(holds, new Map([[orderHash, units]])));
    }
  }

  /**
   * Lowers (or drops, at 0) the hold of one order of a known asset; never raises one. Calls for the
   * same asset that arrive while one is being written are written together as the next version,
   * so a burst of fills costs a few versions rather than one each.
   */
  lowerHold(where: HoldOwner, orderHash: string, units: bigint): Promise<void> {
    const key = reservationKey(where.wallet, where.chainId, where.asset);
    let lane = this.lowering.get(key);
    if (!lane) {
      lane = { next: null, tail: Promise.resolve() };
      this.lowering.set(key, lane);
    }
    const current = lane;
    if (!current.next) {
      const batch = new Map<string, bigint>();
      current.next = batch;
      const written: Promise<void> = current.tail.catch(() => undefined).then(async () => {
        if (current.next === batch) current.next = null; // later calls start the next batch
        await this.change(key, where, (holds) => lowered(holds, batch));
      });
      current.tail = written;
      void written.catch(() => undefined).then(() => {
        if (current.tail === written && current.next === null) this.lowering.delete(key);
      });
    }
    const batch = current.next!;
    const before = batch.get(orderHash);
    batch.set(orderHash, before === undefined || units < before ? units : before);
    return current.tail;
  }

  release(wallet: string, orderHash: string): Promise<void> {
    return this.setHold(wallet, orderHash, 0n);
  }

  /** Total held of one asset (for tests and operators). */
  async held(wallet: string, chainId: number, asset: string): Promise<bigint> {
    return sumHolds((await this.head(reservationKey(wallet, chainId, asset))).holds);
  }

  /**
   * The newest version. Versions never change once written, so the last one this process saw is
   * kept in memory: when `key:N+1` does not exist it is still the newest, at the cost of one
   * primary-key probe (a wallet with many open orders has large versions; reading one back each
   * time cost FerretDB more than writing it). Otherwise it walks forward by primary key
   * (`key:N+1`, `key:N+2`, ...); only an unknown key or a long walk falls back to the sorted query.
   */
  private async head(key: string): Promise<Head> {
    const seen = this.lastHead.get(key);
    if (seen) {
      // Still there, and nothing after it: still the newest (the same test as the walk below).
      const ids = await this.reservations.find({ _id: { $in: [`${key}:${seen.version}`, `${key}:${seen.version + 1}`] } }, { _id: 1 }).lean();
      if (ids.length === 1 && ids[0]._id === `${key}:${seen.version}`) return seen;
      let row = await this.reservations.findById(`${key}:${seen.version + 1}`).lean();
      for (let step = 0; row && step < MAX_FORWARD_PROBES; step++) {
        const next = await this.reservations.findById(`${key}:${row.version + 1}`).lean();
        if (!next) return this.remember(key, { version: row.version, holds: holdsOf(row) });
        row = next;
      }
    }
    const row = await this.reservations.findOne({ key }).sort({ version: -1 }).lean();
    return this.remember(key, row ? { version: row.version, holds: holdsOf(row) } : { version: 0, holds: {} });
  }

  private remember(key: string, head: Head): Head {
    if (head.version === 0) return head;
    if (this.lastHead.size > 10_000) this.lastHead.clear();
    this.lastHead.set(key, head);
    return head;
  }

  /** Applies `change` to the newest version as version N+1; re-reads and re-applies when another writer won N+1. */
  private async change(key: string, where: HoldOwner, change: Change): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const head = await this.head(key);
      const next = change(head.holds);
      if (!next) return;
      const version = head.version + 1;
      try {
        await this.reservations.create({
          _id: `${key}:${version}`,
          key,
          wallet: where.wallet.toLowerCase(),
          chain_id: where.chainId,
          asset: where.asset,
          version,
          holds_json: JSON.stringify(next),
          created_at: this.clock(),
        });
      } catch (error) {
        if ((error as { code?: number }).code !== 11000) throw error;
        await sleep(Math.floor(Math.random() * Math.min(20, 2 * (attempt + 1))));
        continue;
      }
      this.remember(key, { version, holds: next });
      if (version % KEEP_VERSIONS === 0 && version > KEEP_VERSIONS) {
        // The writer of every KEEP_VERSIONS-th version drops the two blocks before the last
        // KEEP_VERSIONS (the older one again, in case its own prune failed), by primary key: a
        // query by `key` would read the whole collection on FerretDB.
        const first = Math.max(1, version - 3 * KEEP_VERSIONS + 1);
        const ids = Array.from({ length: version - KEEP_VERSIONS - first + 1 }, (_, i) => `${key}:${first + i}`);
        await this.reservations.deleteMany({ _id: { $in: ids } }).catch(() => undefined);
      }
      return;
    }
    throw new AppError('SERVICE_DEGRADED', 'Balance reservation is contended; retry');
  }

  /**
   * Brings holds down to what the orders themselves say they still reserve (`reserved_units`,
   * kept by the matcher) and drops orphans. Never raises a hold. Returns whether anything changed.
   */
  private async repair(key: string, where: { wallet: string; chainId: number; asset: string }): Promise<boolean> {
    const { holds } = await this.head(key);
    const hashes = Object.keys(holds);
    if (hashes.length === 0) return false;
    // One primary-key query (`_id` is the order hash), narrowed by `_id` on FerretDB too.
    const orders = await this.orders.find({ _id: { $in: hashes } }, { order_hash: 1, reserved_units: 1 }).lean();
    const truth = new Map(orders.map((o) => [o.order_hash, BigInt(o.reserved_units)]));
    let changed = false;
    await this.change(key, where, (current) => {
      const now = this.clock().getTime();
      const next = { ...current };
      let any = false;
      for (const [hash, hold] of Object.entries(current)) {
        const reserved = truth.get(hash);
        if (reserved === undefined) {
          if (now - new Date(hold.at).getTime() > ORPHAN_HOLD_MS) {
            delete next[hash];
            any = true;
          }
        } else if (reserved <= 0n) {
          delete next[hash];
          any = true;
        } else if (reserved < BigInt(hold.units)) {
          next[hash] = { ...hold, units: reserved.toString() };
          any = true;
        }
      }
      changed = any;
      return any ? next : undefined;
    });
    return changed;
  }
}

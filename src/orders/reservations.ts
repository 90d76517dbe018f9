import { setTimeout as sleep } from 'node:timers/promises';
import type { mongo } from 'mongoose';
import type { OrderRecord } from '../ports/order-record';
import { AppError } from '../errors';
import { sameTickLoader } from '../db/coalescing-loader';
import { insertEach } from '../db/insert-each';
import { DelayedPruner } from './delayed-pruner';
import { findByIds } from '../matching/collections';
import type { OrderModel } from './models/order.model';
import type { ReservationHold, WalletReservationModel, WalletReservationRecord } from './models/wallet-reservation.model';

/** A hold of an order whose document never appeared (a crash between reserve and insert) is dropped after this. */
export const ORPHAN_HOLD_MS = 60_000;
/** Old versions kept per key (for audit); older ones are deleted, `pruneAfterMs` later. */
const KEEP_VERSIONS = 20;

/**
 * How long old versions live and how long a cached version is written on without a read. A
 * version that is pruned is older than `pruneAfterMs`; a cache younger than `trustCachedMs` can
 * therefore not stand below a pruned (free again) id, as long as its insert lands within the
 * difference (docs/orders.md, "Several API processes"). Intervals of one process's monotonic
 * clock, so no two machines' clocks are compared.
 */
export interface VersionAging {
  pruneAfterMs: number;
  trustCachedMs: number;
  now: () => number;
}

export const DEFAULT_VERSION_AGING: VersionAging = { pruneAfterMs: 12_000, trustCachedMs: 4_000, now: () => performance.now() };

/**
 * Every this many versions one carries the whole holds map; the ones between carry only what they
 * changed (a wallet with thousands of open holds wrote ~200 KB per version, ~3 MB/s under the
 * e2e bench). Below KEEP_VERSIONS, so pruning never removes the base the newest version folds on.
 */
export const SNAPSHOT_EVERY = 16;
const MAX_ATTEMPTS = 100;
/** Folds of a key's newest version tried before giving up (each failed one means heavy contention). */
const MAX_FOLDS = 10;
/** Versions looked up per primary-key query when finding the newest from a hint. */
const PROBE_WINDOW = 3 * KEEP_VERSIONS;

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

/** The holds of a whole version (`holds_json`, or `holds` in versions written before it). */
function holdsOf(row: Pick<WalletReservationRecord, 'holds_json' | 'holds'>): Record<string, ReservationHold> {
  if (row.holds_json === undefined) return row.holds ?? {};
  const holds: Record<string, ReservationHold> = {};
  for (const [hash, hold] of Object.entries(JSON.parse(row.holds_json) as Record<string, { units: string; at: string }>)) {
    holds[hash] = { units: hold.units, at: new Date(hold.at) };
  }
  return holds;
}

/** Applies a change-only version's `changes_json` (a hold set, or null: dropped) to `holds`. */
function applyChanges(holds: Record<string, ReservationHold>, changesJson: string): void {
  for (const [hash, hold] of Object.entries(JSON.parse(changesJson) as Record<string, { units: string; at: string } | null>)) {
    if (hold === null) delete holds[hash];
    else holds[hash] = { units: hold.units, at: new Date(hold.at) };
  }
}

/** Whether a stored version carries only its changes (else it is whole). */
const changesOnly = (row: Pick<WalletReservationRecord, 'changes_json' | 'base'>): boolean => row.changes_json !== undefined && row.base !== undefined;

function sumHolds(holds: Record<string, ReservationHold>): bigint {
  let total = 0n;
  for (const hold of Object.values(holds)) total += BigInt(hold.units);
  return total;
}

interface Head {
  version: number;
  /** The newest whole version at or below `version` (the one the versions after it fold on). */
  base: number;
  holds: Record<string, ReservationHold>;
  /** The sum of `holds`, once known (kept along as versions are written). */
  sum?: bigint;
  /**
   * When (`VersionAging.now`) `version` was last known to be the newest: the start of the read
   * that found no later one, or of the insert that wrote it. A later version is younger than this.
   */
  seenAt: number;
}

/** A key with no version yet (a new object each time: a draft changes its holds in place). */
const noHead = (seenAt: number): Head => ({ version: 0, base: 0, holds: {}, seenAt });

/**
 * The holds of the version being written, changed in place with an undo log, and the running
 * total kept as holds move: a version costs what it changes, not what the key holds. (Copying
 * the whole map once per version and summing it again, with a few hundred holds per wallet, is
 * a tenth of the API's CPU under single-order requests.)
 * `rollback` puts the holds back as they were when the version is not written.
 */
class HoldsDraft {
  /** Each changed order's hold before this draft (undefined: it had none). */
  private readonly undo = new Map<string, ReservationHold | undefined>();
  /** What this draft changed, per order: its new hold, or null if dropped. */
  private readonly changed = new Map<string, ReservationHold | null>();
  private readonly sumBefore: bigint | undefined;
  constructor(private readonly holds: Record<string, ReservationHold>, private sum?: bigint) {
    this.sumBefore = sum;
  }

  get(hash: string): ReservationHold | undefined {
    return this.holds[hash];
  }

  entries(): [string, ReservationHold][] {
    return Object.entries(this.holds);
  }

  total(): bigint {
    this.sum ??= sumHolds(this.holds);
    return this.sum;
  }

  /** The total if it was needed (or known), for the next version's draft. */
  knownTotal(): bigint | undefined {
    return this.sum;
  }

  set(hash: string, hold: ReservationHold): void {
    const before = this.remember(hash);
    this.holds[hash] = hold;
    this.changed.set(hash, hold);
    if (this.sum !== undefined) this.sum += BigInt(hold.units) - (before ? BigInt(before.units) : 0n);
  }

  delete(hash: string): void {
    const before = this.holds[hash];
    if (!before) return;
    this.remember(hash);
    delete this.holds[hash];
    this.changed.set(hash, null);
    if (this.sum !== undefined) this.sum -= BigInt(before.units);
  }

  /** The new holds, or undefined if no change moved any. */
  result(): Record<string, ReservationHold> | undefined {
    return this.changed.size > 0 ? this.holds : undefined;
  }

  /** The changes alone, as stored in a change-only version. */
  changes(): Record<string, ReservationHold | null> {
    return Object.fromEntries(this.changed);
  }

  /** Undoes every change: the holds are the head's again. */
  rollback(): void {
    for (const [hash, before] of this.undo) {
      if (before === undefined) delete this.holds[hash];
      else this.holds[hash] = before;
    }
    this.undo.clear();
    this.changed.clear();
    this.sum = this.sumBefore;
  }

  private remember(hash: string): ReservationHold | undefined {
    const before = this.holds[hash];
    if (!this.undo.has(hash)) this.undo.set(hash, before);
    return before;
  }
}

/** One change of a key's holds, applied to the draft of the next version. */
type Change = (draft: HoldsDraft) => void;

interface Lane {
  waiting: { change: Change; resolve: () => void; reject: (error: unknown) => void }[];
  running: boolean;
}

/** Whose holds of which asset: the parts of a reservation key. */
export interface HoldOwner {
  wallet: string;
  chainId: number;
  asset: string;
}

/** Brings the order's hold down to `units` (dropped at 0); never raises it. */
function lower(draft: HoldsDraft, hash: string, units: bigint): void {
  const hold = draft.get(hash);
  if (!hold || BigInt(hold.units) <= units) return;
  if (units <= 0n) draft.delete(hash);
  else draft.set(hash, { ...hold, units: units.toString() });
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
  /** Per reservation key: changes waiting for the next version this process writes. */
  private readonly lanes = new Map<string, Lane>();
  /**
   * Versions of different keys (wallets, assets) written in the same tick go out as one unordered
   * insert: a step's hold levels lower the holds of every wallet it touched at once. Per version:
   * inserted, or false when `key:N` was taken (another process wrote N first). A key's lane writes
   * one version at a time, so a batch holds each key at most once. Same tick only, not the group
   * commit of the order inserts: waiting for the insert in flight put another wallet's write
   * (a whole snapshot, at times) in front of a reservation, and the batched requests' p99 rose in
   * four side-by-side pairs of e2e runs out of four.
   */
  private readonly versionInserts = sameTickLoader((records: readonly WalletReservationRecord[]) =>
    insertEach(() => this.reservations.collection.insertMany(records as unknown as mongo.Document[], { ordered: false }), records.length, 'reservation version'));

  private readonly aging: VersionAging;
  private readonly pruner: DelayedPruner;

  constructor(
    private readonly reservations: WalletReservationModel,
    private readonly orders: OrderModel,
    private readonly clock: () => Date = () => new Date(),
    aging: Partial<VersionAging> = {},
  ) {
    this.aging = { ...DEFAULT_VERSION_AGING, ...aging };
    // Half the prune delay at most: the rest is the margin for the insert that relies on the cache.
    if (this.aging.trustCachedMs > this.aging.pruneAfterMs / 2) throw new Error('trustCachedMs must be at most half of pruneAfterMs');
    this.pruner = new DelayedPruner((ids) => this.reservations.deleteMany({ _id: { $in: ids } }), this.aging.pruneAfterMs, this.aging.now);
  }

  /** Old versions waiting for their delete (for tests and operators). */
  get versionsAwaitingPrune(): number {
    return this.pruner.pending;
  }

  /**
   * Holds `items` (in request order, greedily) against `available`. Items already held (a retry)
   * count as accepted. On a shortfall, holds left behind by orders that ended are repaired once.
   */
  async reserve(input: { wallet: string; chainId: number; asset: string; available: bigint; items: HoldRequest[] }): Promise<ReserveOutcome> {
    const key = reservationKey(input.wallet, input.chainId, input.asset);
    let outcome: ReserveOutcome = { accepted: new Set(), rejected: new Map() };
    const attempt = (draft: HoldsDraft) => {
      outcome = { accepted: new Set(), rejected: new Map() };
      const at = this.clock();
      for (const item of input.items) {
        if (draft.get(item.order_hash)) {
          outcome.accepted.add(item.order_hash);
          continue;
        }
        const held = draft.total();
        const left = input.available > held ? input.available - held : 0n;
        if (item.units <= left) {
          draft.set(item.order_hash, { units: item.units.toString(), at });
          outcome.accepted.add(item.order_hash);
        } else {
          outcome.rejected.set(item.order_hash, { required: item.units, available: left });
        }
      }
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
      await this.change(key, { wallet, chainId: row.chain_id, asset: row.asset }, (draft) => lower(draft, orderHash, units));
    }
  }

  /**
   * Lowers (or drops, at 0) the hold of one order of a known asset; never raises one. Like every
   * change, it joins the changes of the same key waiting for this process's next version.
   */
  lowerHold(where: HoldOwner, orderHash: string, units: bigint): Promise<void> {
    return this.change(reservationKey(where.wallet, where.chainId, where.asset), where, (draft) => lower(draft, orderHash, units));
  }

  release(wallet: string, orderHash: string): Promise<void> {
    return this.setHold(wallet, orderHash, 0n);
  }

  /** Total held of one asset (for tests and operators). */
  async held(wallet: string, chainId: number, asset: string): Promise<bigint> {
    return sumHolds((await this.head(reservationKey(wallet, chainId, asset))).holds);
  }

  /**
   * The newest version, read. Versions never change once written, so the last one this process
   * saw is kept in memory and taken again, without a fold, when it is still the newest.
   */
  private head(key: string): Promise<Head> {
    const seen = this.lastHead.get(key);
    return this.findHead(key, seen?.version ?? 0, seen);
  }

  /**
   * The newest version at or after `from`, found by primary key only (a query by `key` reads the
   * whole collection on FerretDB): versions are dense, so the newest is the highest id present in
   * a window of ids starting at the larger of `from` and the key's head hint (moved up before old
   * versions are pruned, never more than a few windows behind). The hint is read first: a version
   * missing below it may be pruned, one missing above it was never written.
   */
  private async findHead(key: string, from: number, seen?: Head): Promise<Head> {
    const seenAt = this.aging.now();
    const hint = await this.heads().findOne({ _id: key });
    let start = Math.max(from, hint?.version ?? 0, 1);
    // A fold fails only when another process pruned under it, i.e. wrote 20 versions meanwhile.
    let folds = 0;
    const fold = async (row: WalletReservationRecord): Promise<Head | null> => {
      if (++folds > MAX_FOLDS) throw new AppError('SERVICE_DEGRADED', 'Balance reservation is contended; retry');
      return this.headOf(key, row, seenAt);
    };
    for (;;) {
      const ids = Array.from({ length: PROBE_WINDOW }, (_, i) => `${key}:${start + i}`);
      const rows = await this.reservations.find({ _id: { $in: ids } }, { version: 1 }).lean();
      const newest = Math.max(0, ...rows.map((r) => r.version));
      if (newest === 0 && start > 1) {
        // Nothing from the hint on (only if the hint ran ahead of a pruned or reset key): read by key.
        const row = await this.reservations.findOne({ key }).sort({ version: -1 }).lean();
        if (!row) return noHead(seenAt);
        const head = await fold(row);
        if (head) return this.remember(key, head);
        start = row.version; // pruned under our feet: look again from there
        continue;
      }
      if (newest < start + PROBE_WINDOW - 1) {
        if (newest === 0) return noHead(seenAt);
        if (seen && newest === seen.version) return this.remember(key, { ...seen, seenAt });
        const row = await this.reservations.findById(`${key}:${newest}`).lean();
        const head = row ? await fold(row) : null;
        if (head) return this.remember(key, head);
      }
      start = newest; // the whole window exists (or the newest was just pruned): look further on
    }
  }

  /**
   * The holds as of `row`: its own map if it is whole, else its base's map with the changes of
   * every version after the base folded on (one primary-key query). Null if one of them was
   * pruned meanwhile (a newer version exists then: the caller looks again).
   */
  private async headOf(key: string, row: WalletReservationRecord, seenAt: number): Promise<Head | null> {
    if (!changesOnly(row)) return { version: row.version, base: row.version, holds: holdsOf(row), seenAt };
    const base = row.base!;
    const ids = Array.from({ length: row.version - base }, (_, i) => `${key}:${base + i}`);
    const earlier = new Map((await this.reservations.find({ _id: { $in: ids } }).lean()).map((r) => [r.version, r]));
    const first = earlier.get(base);
    if (!first || changesOnly(first)) return null;
    const holds = holdsOf(first);
    for (let v = base + 1; v <= row.version; v++) {
      const r = v === row.version ? row : earlier.get(v);
      if (!r?.changes_json) return null;
      applyChanges(holds, r.changes_json);
    }
    return { version: row.version, base, holds, seenAt };
  }

  private remember(key: string, head: Head): Head {
    if (head.version === 0) return head;
    if (this.lastHead.size > 10_000) this.lastHead.clear();
    this.lastHead.set(key, head);
    return head;
  }

  private heads(): mongo.Collection<{ _id: string; version: number }> {
    return this.reservations.db.collection<{ _id: string; version: number }>('wallet_reservation_heads');
  }

  /**
   * Applies `change` as part of this process's next version of the key. Changes that arrive while
   * a version is being written wait and are written together as the following one (so concurrent
   * orders and fills of one wallet cost a few versions, not one each); each sees the holds the
   * changes before it left.
   */
  private change(key: string, where: HoldOwner, change: Change): Promise<void> {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { waiting: [], running: false };
      this.lanes.set(key, lane);
    }
    const promise = new Promise<void>((resolve, reject) => lane.waiting.push({ change, resolve, reject }));
    if (!lane.running) {
      lane.running = true;
      // A microtask later: calls made in the same tick join the first version.
      queueMicrotask(() => void this.drain(key, where, lane));
    }
    return promise;
  }

  private async drain(key: string, where: HoldOwner, lane: Lane): Promise<void> {
    while (lane.waiting.length > 0) {
      const batch = lane.waiting.splice(0);
      const all: Change = (draft) => {
        for (const { change } of batch) change(draft);
      };
      try {
        await this.write(key, where, all);
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
    lane.running = false;
    if (this.lanes.get(key) === lane) this.lanes.delete(key);
  }

  /**
   * Writes `change` of the newest version as version N+1. The cached newest version is used
   * without a read while it was seen within `trustCachedMs`: the insert of `key:N+1` succeeds only
   * if no one wrote after N (versions are dense, and none after N is pruned yet), and when another
   * process did, the key is read again and the change re-applied. An older cache is read first.
   */
  private async write(key: string, where: HoldOwner, change: Change): Promise<void> {
    const cached = this.lastHead.get(key);
    let head = cached && this.aging.now() - cached.seenAt < this.aging.trustCachedMs ? cached : await this.head(key);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const draft = new HoldsDraft(head.holds, head.sum);
      try {
        change(draft);
      } catch (error) {
        draft.rollback();
        throw error;
      }
      const next = draft.result();
      if (!next) return;
      const version = head.version + 1;
      // Whole for a key's first version and SNAPSHOT_EVERY versions after the last whole one, else changes only.
      const whole = head.version === 0 || version - head.base >= SNAPSHOT_EVERY;
      const base = whole ? version : head.base;
      // The driver's insert, not Model.create: hydrating and validating a mongoose document per
      // write was a visible share of the API's CPU.
      const record: WalletReservationRecord = {
        _id: `${key}:${version}`,
        key,
        wallet: where.wallet.toLowerCase(),
        chain_id: where.chainId,
        asset: where.asset,
        version,
        base,
        ...(whole ? { holds_json: JSON.stringify(next) } : { changes_json: JSON.stringify(draft.changes()) }),
        created_at: this.clock(),
      };
      // Rejects on any error but a taken `key:N`, which answers false. Either way the draft's
      // changes come off the head's holds, which stay version N's.
      const sentAt = this.aging.now();
      const inserted = await this.versionInserts.load(record).catch((error: unknown) => {
        draft.rollback();
        throw error;
      });
      if (!inserted) {
        draft.rollback();
        await sleep(Math.floor(Math.random() * Math.min(20, 2 * (attempt + 1))));
        head = await this.findHead(key, version);
        continue;
      }
      this.remember(key, { version, base, holds: next, sum: draft.knownTotal(), seenAt: sentAt });
      if (version % KEEP_VERSIONS === 0 && version > KEEP_VERSIONS) await this.prune(key, version);
      return;
    }
    throw new AppError('SERVICE_DEGRADED', 'Balance reservation is contended; retry');
  }

  /**
   * The writer of every KEEP_VERSIONS-th version moves the key's head hint up and schedules the
   * two blocks before the last KEEP_VERSIONS (the older one again, in case its own prune was lost)
   * for deletion `pruneAfterMs` later, by primary key: a query by `key` would read the whole
   * collection on FerretDB. Then it deletes whatever of any key is due.
   */
  private async prune(key: string, version: number): Promise<void> {
    await this.heads().updateOne({ _id: key }, { $max: { version: version - KEEP_VERSIONS } }, { upsert: true }).catch(() => undefined);
    const first = Math.max(1, version - 3 * KEEP_VERSIONS + 1);
    this.pruner.schedule(Array.from({ length: version - KEEP_VERSIONS - first + 1 }, (_, i) => `${key}:${first + i}`));
    await this.pruner.run();
  }

  /**
   * Brings holds down to what the orders themselves say they still reserve (`reserved_units`,
   * kept by the matcher) and drops orphans. Never raises a hold. Returns whether anything changed.
   */
  private async repair(key: string, where: { wallet: string; chainId: number; asset: string }): Promise<boolean> {
    const { holds } = await this.head(key);
    const hashes = Object.keys(holds);
    if (hashes.length === 0) return false;
    // Primary-key queries (`_id` is the order hash) in chunks FerretDB narrows by its index.
    const orders = await findByIds(this.orders.collection as unknown as mongo.Collection<OrderRecord>, hashes);
    const truth = new Map(orders.map((o) => [o.order_hash, BigInt(o.reserved_units)]));
    let changed = false;
    await this.change(key, where, (draft) => {
      changed = false; // a retried write applies the change again, to the newer holds
      const now = this.clock().getTime();
      for (const [hash, hold] of draft.entries()) {
        const reserved = truth.get(hash);
        if (reserved === undefined) {
          if (now - new Date(hold.at).getTime() > ORPHAN_HOLD_MS) {
            draft.delete(hash);
            changed = true;
          }
        } else if (reserved < BigInt(hold.units)) {
          lower(draft, hash, reserved);
          changed = true;
        }
      }
    });
    return changed;
  }
}

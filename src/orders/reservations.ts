import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../errors';
import type { OrderModel } from './models/order.model';
import type { ReservationHold, WalletReservationModel, WalletReservationRecord } from './models/wallet-reservation.model';

/** A hold of an order whose document never appeared (a crash between reserve and insert) is dropped after this. */
export const ORPHAN_HOLD_MS = 60_000;
const MAX_CAS_ATTEMPTS = 50;

export interface HoldRequest {
  order_hash: string;
  units: bigint;
}

export interface ReserveOutcome {
  accepted: Set<string>;
  /** Per rejected order: what it needed and what was left for it. */
  rejected: Map<string, { required: bigint; available: bigint }>;
}

/** The asset part of a reservation id: collateral of one ERC-20 or one outcome token. */
export function collateralAsset(collateral: string): string {
  return `collateral:${collateral.toLowerCase()}`;
}
export function tokenAsset(tokenId: string): string {
  return `token:${tokenId}`;
}

function reservationId(wallet: string, chainId: number, asset: string): string {
  return `${chainId}:${wallet.toLowerCase()}:${asset}`;
}

function sumHolds(holds: Record<string, ReservationHold>): bigint {
  let total = 0n;
  for (const hold of Object.values(holds)) total += BigInt(hold.units);
  return total;
}

/**
 * Race-free reservations without transactions (decisions section 8, issue 5). Every write bumps
 * `version`; adding holds is a compare-and-set on it, so two API processes placing for one wallet
 * at once serialise on the document and can never together hold more than the wallet's spendable
 * balance. Releases (`setHold`, `release`) only lower holds and are safe to repeat.
 */
export class ReservationStore {
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
    const id = reservationId(input.wallet, input.chainId, input.asset);
    let repaired = false;
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const doc = await this.load(id, input);
      const holds = doc.holds ?? {};
      let held = sumHolds(holds);
      const outcome: ReserveOutcome = { accepted: new Set(), rejected: new Map() };
      const add: Record<string, ReservationHold> = {};
      const now = this.clock();
      for (const item of input.items) {
        if (holds[item.order_hash] || add[item.order_hash]) {
          outcome.accepted.add(item.order_hash);
          continue;
        }
        const left = input.available > held ? input.available - held : 0n;
        if (item.units <= left) {
          held += item.units;
          add[item.order_hash] = { units: item.units.toString(), at: now };
          outcome.accepted.add(item.order_hash);
        } else {
          outcome.rejected.set(item.order_hash, { required: item.units, available: left });
        }
      }
      if (outcome.rejected.size > 0 && !repaired) {
        repaired = true;
        if (await this.repair(id)) continue;
      }
      if (Object.keys(add).length === 0) return outcome;
      const set: Record<string, unknown> = { updated_at: now };
      for (const [hash, hold] of Object.entries(add)) set[`holds.${hash}`] = hold;
      const won = await this.reservations.findOneAndUpdate({ _id: id, version: doc.version }, { $set: set, $inc: { version: 1 } }, { new: true }).lean();
      if (won) return outcome;
      await sleep(Math.floor(Math.random() * 5 * (attempt + 1)));
    }
    throw new AppError('SERVICE_DEGRADED', 'Balance reservation is contended; retry');
  }

  /**
   * Lowers (or drops, at 0) the hold of one order, wherever it is held. The matcher calls it as
   * the order's `reserved_units` shrinks: fill settled, cancel, expiry, match failure.
   */
  async setHold(wallet: string, orderHash: string, units: bigint): Promise<void> {
    const path = `holds.${orderHash}`;
    const update = units <= 0n
      ? { $unset: { [path]: '' }, $inc: { version: 1 }, $set: { updated_at: this.clock() } }
      : { $set: { [`${path}.units`]: units.toString(), updated_at: this.clock() }, $inc: { version: 1 } };
    await this.reservations.updateMany({ wallet: wallet.toLowerCase(), [path]: { $exists: true } }, update);
  }

  release(wallet: string, orderHash: string): Promise<void> {
    return this.setHold(wallet, orderHash, 0n);
  }

  /** Total held of one asset (for tests and operators). */
  async held(wallet: string, chainId: number, asset: string): Promise<bigint> {
    const doc = await this.reservations.findById(reservationId(wallet, chainId, asset)).lean();
    return doc ? sumHolds(doc.holds ?? {}) : 0n;
  }

  private async load(id: string, input: { wallet: string; chainId: number; asset: string }): Promise<WalletReservationRecord> {
    const found = await this.reservations.findById(id).lean();
    if (found) return found;
    try {
      const created = await this.reservations.create({
        _id: id,
        wallet: input.wallet.toLowerCase(),
        chain_id: input.chainId,
        asset: input.asset,
        holds: {},
        version: 0,
        updated_at: this.clock(),
      });
      return created.toObject();
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
      const again = await this.reservations.findById(id).lean();
      if (!again) throw error;
      return again;
    }
  }

  /**
   * Brings holds down to what the orders themselves say they reserve (`reserved_units`, kept by
   * the matcher), and drops orphans. Never raises a hold. Returns whether anything changed.
   */
  private async repair(id: string): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const doc = await this.reservations.findById(id).lean();
      if (!doc) return false;
      const hashes = Object.keys(doc.holds ?? {});
      if (hashes.length === 0) return false;
      const orders = await this.orders.find({ order_hash: { $in: hashes } }, { order_hash: 1, reserved_units: 1 }).lean();
      const truth = new Map(orders.map((o) => [o.order_hash, BigInt(o.reserved_units)]));
      const now = this.clock().getTime();
      const unset: Record<string, ''> = {};
      const set: Record<string, unknown> = {};
      for (const [hash, hold] of Object.entries(doc.holds)) {
        const current = BigInt(hold.units);
        const reserved = truth.get(hash);
        if (reserved === undefined) {
          if (now - new Date(hold.at).getTime() > ORPHAN_HOLD_MS) unset[`holds.${hash}`] = '';
        } else if (reserved <= 0n) {
          unset[`holds.${hash}`] = '';
        } else if (reserved < current) {
          set[`holds.${hash}.units`] = reserved.toString();
        }
      }
      if (Object.keys(unset).length === 0 && Object.keys(set).length === 0) return false;
      const update: Record<string, unknown> = { $inc: { version: 1 }, $set: { ...set, updated_at: new Date(now) } };
      if (Object.keys(unset).length > 0) update.$unset = unset;
      const won = await this.reservations.findOneAndUpdate({ _id: id, version: doc.version }, update).lean();
      if (won) return true;
    }
    return false;
  }
}

import type { MarketStatus } from '../db/models';

/**
 * Operator transitions. SEEDING is a new market not yet trading; PAUSED halts trading and keeps
 * the book; CLOSED ends trading (open orders are cancelled by the matcher) but can be reopened;
 * RESOLVED is final and needs the winning outcome. Resolving an OPEN or PAUSED market closes it too.
 */
export const ALLOWED_TRANSITIONS: Record<MarketStatus, readonly MarketStatus[]> = {
  SEEDING: ['OPEN', 'PAUSED', 'CLOSED'],
  OPEN: ['PAUSED', 'CLOSED', 'RESOLVED'],
  PAUSED: ['OPEN', 'CLOSED', 'RESOLVED'],
  CLOSED: ['OPEN', 'RESOLVED'],
  RESOLVED: [],
};

export function canTransition(from: MarketStatus, to: MarketStatus): boolean {
  return ALLOWED_TRANSITIONS[from].includes(to);
}

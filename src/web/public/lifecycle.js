// What each market status means to a trader (docs/markets.md has the transitions).
const MEANINGS = {
  SEEDING: 'Being set up: not open for orders yet.',
  OPEN: 'Open: orders are accepted and matched.',
  PAUSED: 'Paused: new orders are refused; resting orders wait until trading resumes.',
  CLOSED: 'Closed: trading has ended; the market waits for its resolution.',
  RESOLVED: 'Resolved: winning shares redeem for collateral on chain.',
};

export function statusMeaning(status) {
  return MEANINGS[status] ?? `Status ${status}.`;
}

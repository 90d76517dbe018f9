/**
 * Custom search attributes that let operators find an order's or a market's workflows in the
 * Temporal UI (e.g. `MarketId = "56-0xabc…"`, `Wallet = "0x…"`). The embedded dev server registers
 * them at start; an external cluster needs them registered once (docker-compose.yml's `temporal-setup` does).
 */
export const SEARCH_ATTRIBUTES = {
  MarketId: 'Keyword',
  Wallet: 'Keyword',
  OrderHash: 'Keyword',
} as const;

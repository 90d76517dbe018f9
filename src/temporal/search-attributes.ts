/**
 * Custom search attributes that let operators find an order's or a market's workflows in the
 * Temporal UI (e.g. `MarketId = "56-0xabc…"`, `Wallet = "0x…"`, `OrderHashes = "0x…"`). The
 * embedded dev server registers them at start; an external cluster needs them registered once
 * (docker-compose.yml's `temporal-setup` does).
 *
 * `OrderHash` and `Wallet` name one order (an on-chain cancel) or a settlement batch's first taker;
 * `OrderHashes` and `Wallets` list every order and wallet a settlement batch settles, so a maker
 * matched in any batch finds it (`OrderHashes = "0x…"` matches a list that holds the value).
 */
export const SEARCH_ATTRIBUTES = {
  MarketId: 'Keyword',
  Wallet: 'Keyword',
  OrderHash: 'Keyword',
  OrderHashes: 'KeywordList',
  Wallets: 'KeywordList',
} as const;

/**
 * Bytes of one search attribute value the server accepts (`frontend.searchAttributesSizeOfValueLimit`,
 * 2 KB by default: ~30 hashes). A settlement batch takes steps while under 500 trades, up to ~1,000
 * orders (~69 KB as a JSON list); 128 KiB holds ~1,900. A value over the server's limit fails the
 * workflow task that sets it, again and again: lists are cut to this size before they are set.
 */
export const SEARCH_ATTRIBUTE_VALUE_BYTES = 128 * 1024;

/** Bytes of all of a workflow's search attributes together (`frontend.searchAttributesTotalSizeLimit`, 40 KB by default). */
export const SEARCH_ATTRIBUTES_TOTAL_BYTES = 3 * SEARCH_ATTRIBUTE_VALUE_BYTES;

/**
 * The longest head of `values` (distinct, in order) whose JSON list fits in `maxBytes`, and how
 * many were left off.
 */
export function listWithin(values: Iterable<string>, maxBytes = SEARCH_ATTRIBUTE_VALUE_BYTES): { list: string[]; leftOff: number } {
  const list: string[] = [];
  const seen = new Set<string>();
  let bytes = 2;
  let leftOff = 0;
  for (const value of values) {
    if (seen.has(value)) continue;
    seen.add(value);
    const cost = Buffer.byteLength(JSON.stringify(value)) + (list.length > 0 ? 1 : 0);
    if (bytes + cost > maxBytes) {
      leftOff += 1;
      continue;
    }
    list.push(value);
    bytes += cost;
  }
  return { list, leftOff };
}

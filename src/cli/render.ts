/** Human output: aligned columns, one row per record; `--json` bypasses all of it. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((row) => columns.map((c) => (row[c] === null || row[c] === undefined ? '-' : String(row[c]))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(columns), ...cells.map(line)].join('\n');
}

/** A depth view: asks above (highest first), bids below, YES prices. */
export function depth(book: { bids: { price: string; remainingSize: string }[]; asks: { price: string; remainingSize: string }[] }, levels = 10): string {
  const asks = book.asks.slice(0, levels).reverse();
  const bids = book.bids.slice(0, levels);
  const row = (side: string, l: { price: string; remainingSize: string }) => `${side}  ${l.price.padStart(5)}  ${l.remainingSize}`;
  return ['side  price  size', ...asks.map((l) => row('ask ', l)), '----  -----', ...bids.map((l) => row('bid ', l))].join('\n');
}

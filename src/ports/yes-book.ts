/**
 * A CLOB book in YES terms, as the matcher writes it: levels in YES ticks (1..99) with the size
 * resting there in base units, and the book seq they reflect. The gateway's market feed keeps one
 * current per market; a quote walks one.
 */

export interface YesLevel {
  ticks: number;
  remaining: bigint;
}

export interface YesBook {
  seq: number;
  bids: YesLevel[];
  asks: YesLevel[];
}

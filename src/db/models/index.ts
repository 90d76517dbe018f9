export * from './model-of';
export * from './market.model';
export * from './market-status-change.model';
export * from './book-level.model';
export * from './ticker.model';
export * from './public-trade.model';
export * from './api-key.model';
export * from './ws-token.model';

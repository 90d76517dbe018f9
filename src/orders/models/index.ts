export * from './order.model';
export * from './idempotency-key.model';
export * from './wallet-reservation.model';
export * from './fill.model';

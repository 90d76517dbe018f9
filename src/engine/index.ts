/** Public surface of the pure matching engine. */
export { Engine } from './engine';
export { EngineError, isEngineError, type EngineErrorCode } from './engine-error';
export { LOT_SIZE, MAX_TICK, MIN_TICK, canTrade, collateralOf, feeOf, isLotSize, isTick, lotFloor, reserveOf, signedAmounts, toYesPrice } from './amounts';
export { SNAPSHOT_VERSION, type EngineSnapshot, type SnapshotOrder } from './snapshot';
export * from './types';

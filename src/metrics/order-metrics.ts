import { ordersPlaced } from './metrics';

/** Counts each answered order: accepted, or rejected with its error code (one of the error table's). */
export function countOrderResults(results: readonly object[]): void {
  for (const result of results) {
    const error = (result as { error?: { code?: string } }).error;
    if (error?.code) ordersPlaced.inc({ outcome: 'rejected', code: error.code });
    else ordersPlaced.inc({ outcome: 'accepted', code: '' });
  }
}

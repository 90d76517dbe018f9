import { randomBytes } from 'node:crypto';

export function testTemporalAddress(): string {
  const address = process.env.TEST_TEMPORAL_ADDRESS;
  if (!address) throw new Error('TEST_TEMPORAL_ADDRESS is unset: run through jest (global setup starts the servers)');
  return address;
}

/** A task queue no other test file polls, so workers of different files never steal each other's tasks. */
export function uniqueTaskQueue(prefix = 'test'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

import { compileSchema } from '../validation/ajv';

export const CHANNELS = ['book', 'ticker', 'trades', 'user'] as const;
export type Channel = (typeof CHANNELS)[number];
export const MARKET_CHANNELS: readonly Channel[] = ['book', 'ticker', 'trades'];

/** Body of a `subscribe` / `unsubscribe` message (decisions section 7). */
export interface SubscriptionMessage {
  channel: Channel;
  condition_id?: string;
  chain_id?: number;
}

const CONDITION_ID = { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' } as const;

export const subscriptionMessageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['channel'],
  properties: {
    channel: { type: 'string', enum: CHANNELS },
    condition_id: CONDITION_ID,
    chain_id: { type: 'integer', minimum: 1 },
  },
  // Market channels name their market; `user` is the connection's own wallet and takes no market.
  if: { properties: { channel: { enum: MARKET_CHANNELS } } },
  then: { required: ['condition_id'], properties: { condition_id: CONDITION_ID } },
  else: { properties: { condition_id: false, chain_id: false } },
} as const;

export const validateSubscriptionMessage = compileSchema<SubscriptionMessage>(subscriptionMessageSchema);

/** Per-connection limits of the gateway; every one is a bound on server memory or work. */
export interface GatewayLimits {
  /** Subscriptions one connection may hold (default 50); more are refused with RATE_LIMITED. */
  maxSubscriptions: number;
  /**
   * Packets queued for a socket (socket.io's engine write buffer) above which the gateway stops
   * queueing replaceable data (default 256): book deltas are dropped and replaced by one fresh
   * snapshot once the socket drains; tickers are conflated to the latest per market.
   */
  softBufferedPackets: number;
  /**
   * Packets queued above which the connection is cut (default 1024): trades and user events
   * cannot be replaced by a snapshot, so a consumer this slow is told SLOW_CONSUMER and dropped.
   */
  maxBufferedPackets: number;
  /** Deltas a market feed holds while its seed is read (default 1000); past it the gap re-seeds. */
  maxPendingDeltas: number;
  /** Shortest time between two book copies to one stale subscription, and between two seeds of one market after gaps (default 200 ms). */
  minResyncIntervalMs: number;
  /** First wait after a failed seed read of a market (default 100 ms), doubling per failure... */
  seedBackoffMs: number;
  /** ...up to this (default 5 s). */
  maxSeedBackoffMs: number;
  /** How long a market feed is kept after its last subscription ends (default 60 s). */
  feedLingerMs: number;
  /** Open connections one client address may hold (default 100); more handshakes are refused RATE_LIMITED. */
  maxConnectionsPerAddress: number;
  /** Handshakes one client address may make per second on average (default 20)... */
  handshakesPerSecond: number;
  /** ...and in a burst (default 40); beyond, refused RATE_LIMITED. */
  handshakeBurst: number;
  /** Share of the heap limit in use above which the newest connections are shed and handshakes refused (default 0.8). */
  memoryShedFraction: number;
  /** How often the heap is checked (default 500 ms). */
  memoryCheckMs: number;
  /** After SLOW_CONSUMER, how long the goodbye may take before the transport is destroyed (default 5 s). */
  killGraceMs: number;
  /** subscribe/unsubscribe messages per second one connection may send on average (default 20)... */
  messagesPerSecond: number;
  /** ...and in a burst (default 50); beyond, the ack is RATE_LIMITED, then gateway_error RATE_LIMITED and the connection closes. */
  messageBurst: number;
  /** On shutdown, how long connections get to close cleanly before their transports are destroyed (default 1 s). */
  shutdownGraceMs: number;
  /** How often the API keys of open connections are checked (default 2 s): a revoked key's connections end within it. */
  keyCheckMs: number;
}

export const DEFAULT_GATEWAY_LIMITS: GatewayLimits = {
  maxSubscriptions: 50,
  softBufferedPackets: 256,
  maxBufferedPackets: 1024,
  maxPendingDeltas: 1000,
  minResyncIntervalMs: 200,
  seedBackoffMs: 100,
  maxSeedBackoffMs: 5_000,
  feedLingerMs: 60_000,
  maxConnectionsPerAddress: 100,
  handshakesPerSecond: 20,
  handshakeBurst: 40,
  memoryShedFraction: 0.8,
  memoryCheckMs: 500,
  killGraceMs: 5_000,
  messagesPerSecond: 20,
  messageBurst: 50,
  shutdownGraceMs: 1_000,
  keyCheckMs: 2_000,
};

/** socket.io server options the gateway expects (pass to startApiServer's `socketOptions`). */
export const GATEWAY_SOCKET_OPTIONS = {
  /** A heartbeat every 20 s; a client silent 20 s more is dropped. */
  pingInterval: 20_000,
  pingTimeout: 20_000,
  /** Client messages are tiny subscribe/unsubscribe objects. */
  maxHttpBufferSize: 16 * 1024,
  /** A transport that has not joined the namespace (or was refused) within 10 s is closed. */
  connectTimeout: 10_000,
} as const;

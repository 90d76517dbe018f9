import type { Gateway } from '../gateway';
import { gaugeOf } from './metrics';

/** The gateway's own counters as gauges, read at scrape time; returns the gateway. */
export function observeGateway<G extends Pick<Gateway, 'stats'>>(gateway: G): G {
  gaugeOf('predex_gateway_connections', 'Open realtime (socket.io) connections on this API process', () => gateway.stats().connections);
  gaugeOf('predex_gateway_subscriptions', 'Channel subscriptions of the open realtime connections', () => gateway.stats().subscriptions);
  gaugeOf('predex_gateway_max_buffered_packets', 'Largest queue of one realtime connection (SLOW_CONSUMER cuts past the limit)', () => gateway.stats().maxBufferedPackets);
  return gateway;
}

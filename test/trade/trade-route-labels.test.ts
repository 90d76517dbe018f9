/** The /trade routes are served at the root: their metrics labels are their own templates, not "other". */
import { routeOf } from '../../src/api/http-metrics';

describe('HTTP metrics labels of the /trade routes', () => {
  it('when a /trade route is called, then it is labelled by its root template, not under /v1', () => {
    expect(routeOf('/trade/quote')).toBe('/trade/quote');
    expect(routeOf('/trade/save/0xab')).toBe('/trade/save/{tx_hash}');
    expect(routeOf('/trade/quote')).toBe('/trade/quote');
    expect(routeOf('/v1/trade/quote')).toBe('other');
  });
});

import { routeOf } from '../../src/api/http-metrics';

describe('HTTP metrics route labels', () => {
  it('when a path carries an id, then it is labelled by its template, literal segments first', () => {
    expect(routeOf('/v1/orders/0xabc')).toBe('/v1/orders/{order_hash}');
    expect(routeOf('/v1/orders/cancel')).toBe('/v1/orders/cancel');
    expect(routeOf('/v1/markets/0x12/book')).toBe('/v1/markets/{condition_id}/book');
    expect(routeOf('/admin/markets/0x12/status')).toBe('/admin/markets/{condition_id}/status');
    expect(routeOf('/metrics')).toBe('/metrics');
  });

  it('when the market page loads, then its files share one label', () => {
    expect(routeOf('/')).toBe('/');
    expect(routeOf('/web/app.js')).toBe('/web/{file}');
    expect(routeOf('/web/style.css')).toBe('/web/{file}');
    expect(routeOf('/web-config.json')).toBe('/web-config.json');
  });

  it('when a path is unknown, then it shares one label: scanners cannot grow the series', () => {
    expect(routeOf('/wp-login.php')).toBe('other');
    expect(routeOf('/v1/orders/a/b/c')).toBe('other');
  });
});

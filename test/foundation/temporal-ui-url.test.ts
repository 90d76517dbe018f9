import { loadConfig } from '../../src/config';
import { temporalUiUrlFor, temporalUiUrlOf } from '../../src/config/temporal-ui-url';

const uiOf = (env: Record<string, string>) => temporalUiUrlOf(loadConfig(env));

describe('the Temporal UI base URL that links point at', () => {
  it('when nothing is set, then it is the embedded dev server UI on HOST', () => {
    expect(uiOf({})).toBe('http://127.0.0.1:8233');
    expect(uiOf({ HOST: '::1' })).toBe('http://[::1]:8233');
  });

  it('when TEMPORAL_UI_URL is set, then it is that URL without a trailing slash, also with an external Temporal', () => {
    expect(uiOf({ TEMPORAL_UI_URL: 'https://temporal.example.com/ui/', TEMPORAL_ADDRESS: 'temporal:7233' })).toBe('https://temporal.example.com/ui');
  });

  it('when Temporal is external and no UI URL is given, or the UI port is 0, then there is no UI to link', () => {
    expect(uiOf({ TEMPORAL_ADDRESS: 'temporal:7233' })).toBeUndefined();
    expect(uiOf({ TEMPORAL_UI_PORT: '0' })).toBeUndefined();
  });

  it('when the UI listens on every interface, then a request names it by the host it reached the server by', () => {
    expect(temporalUiUrlFor(uiOf({ HOST: '0.0.0.0' }), 'exchange.lan')).toBe('http://exchange.lan:8233');
    expect(temporalUiUrlFor(uiOf({ HOST: '::' }), '[::1]')).toBe('http://[::1]:8233');
    expect(temporalUiUrlFor('http://127.0.0.1:8233', 'exchange.lan')).toBe('http://127.0.0.1:8233');
    expect(temporalUiUrlFor(undefined, 'exchange.lan')).toBeUndefined();
  });
});

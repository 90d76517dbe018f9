import { loadConfig } from '../../src/config';
import { webConfigOf, webSettingsOf } from '../../src/web';

const settingsOf = (env: Record<string, string>) => webSettingsOf(loadConfig(env));

describe('the market page configuration', () => {
  it('when nothing is set, then the workflow link goes to the embedded dev server UI', () => {
    expect(webConfigOf(settingsOf({}), '/v1/ws', 'localhost')).toEqual({
      chain_id: 56,
      ws_path: '/v1/ws',
      temporal_namespace: 'default',
      temporal_ui_url: 'http://127.0.0.1:8233',
    });
  });

  it('when TEMPORAL_UI_URL is set, then it is the link base, without a trailing slash', () => {
    const settings = settingsOf({ TEMPORAL_UI_URL: 'https://temporal.example.com/ui/', TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_NAMESPACE: 'predex' });
    expect(webConfigOf(settings, '/v1/ws', 'api.example.com')).toMatchObject({ temporal_ui_url: 'https://temporal.example.com/ui', temporal_namespace: 'predex' });
  });

  it('when Temporal is external and no UI URL is given, then the page shows no link', () => {
    expect(webConfigOf(settingsOf({ TEMPORAL_ADDRESS: 'temporal:7233' }), '/v1/ws', 'localhost').temporal_ui_url).toBeNull();
  });

  it('when the embedded UI listens on every interface, then it is named by the host the browser used', () => {
    expect(webConfigOf(settingsOf({ HOST: '0.0.0.0' }), '/v1/ws', 'exchange.lan').temporal_ui_url).toBe('http://exchange.lan:8233');
    expect(webConfigOf(settingsOf({ HOST: '::' }), '/v1/ws', '[::1]').temporal_ui_url).toBe('http://[::1]:8233');
  });

  it('when the UI port is 0, then there is no embedded UI to link', () => {
    expect(webConfigOf(settingsOf({ TEMPORAL_UI_PORT: '0' }), '/v1/ws', 'localhost').temporal_ui_url).toBeNull();
  });
});

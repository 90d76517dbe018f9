import { api } from './api.js';
import { fill, h } from './dom.js';
import { showMarket } from './market-view.js';
import { showMarkets } from './markets-view.js';
import { connectRealtime } from './realtime.js';

// Routes live in the hash (#/, #/?status=paused, #/markets/<condition_id>?chain_id=56), so the
// server serves one page and a link to a market works as it is.
const MARKET_ROUTE = /^#\/markets\/(0x[0-9a-fA-F]{64})(?:\?(.*))?$/;
const CONNECTION_TEXT = { connecting: 'connecting…', live: 'live', reconnecting: 'reconnecting…', refused: 'refused' };

const main = document.getElementById('main');
const connection = document.getElementById('connection');
let stopView = () => {};

function showConnection(state, detail) {
  connection.dataset.state = state;
  connection.textContent = detail && state !== 'live' ? `${CONNECTION_TEXT[state]} (${detail})` : CONNECTION_TEXT[state];
}

function route(config, socket) {
  stopView();
  const hash = location.hash || '#/';
  const market = MARKET_ROUTE.exec(hash);
  if (market) {
    const params = new URLSearchParams(market[2] ?? '');
    const chainId = Number.parseInt(params.get('chain_id') ?? '', 10) || config.chain_id;
    stopView = showMarket(main, { conditionId: market[1], chainId, config, socket });
  } else {
    const params = new URLSearchParams(hash.split('?')[1] ?? '');
    stopView = showMarkets(main, { status: params.get('status') ?? 'open' });
  }
  main.focus({ preventScroll: true });
}

async function start() {
  let config;
  let socket;
  try {
    config = await api.config();
    socket = await connectRealtime(config, showConnection);
  } catch (error) {
    fill(main, h('p', { class: 'error', role: 'alert' }, `The page could not start: ${error.code ?? ''} ${error.message}`));
    return;
  }
  window.addEventListener('hashchange', () => route(config, socket));
  route(config, socket);
}

void start();

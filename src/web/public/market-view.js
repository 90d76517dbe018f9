import { api } from './api.js';
import { compareDecimal, permille } from './decimal.js';
import { fill, h, time } from './dom.js';
import { statusMeaning } from './lifecycle.js';
import { LiveBook } from './live-book.js';
import { request } from './realtime.js';

const SHOWN_LEVELS = 25;
const SHOWN_TRADES = 30;
// The gateway has no market-status channel: the lifecycle is read again this often.
const LIFECYCLE_POLL_MS = 5000;
const CHANNELS = ['book', 'ticker', 'trades'];
const TICKER_FIELDS = [
  ['best_bid', 'Best bid'],
  ['best_ask', 'Best ask'],
  ['spread', 'Spread'],
  ['last_price', 'Last price'],
  ['display_price_yes', 'YES'],
  ['display_price_no', 'NO'],
];

/** The link to the market's workflow runs in the Temporal UI (workflow id: market-{chain}-{condition}). */
export function workflowLink(config, market) {
  const workflowId = `market-${market.chain_id}-${market.condition_id.toLowerCase()}`;
  if (!config.temporal_ui_url) return h('code', {}, workflowId);
  const query = encodeURIComponent(`WorkflowId="${workflowId}"`);
  const href = `${config.temporal_ui_url}/namespaces/${encodeURIComponent(config.temporal_namespace)}/workflows?query=${query}`;
  return h('a', { id: 'workflow-link', href, target: '_blank', rel: 'noopener' }, workflowId);
}

/** One market, kept live over the socket; returns what stops it. */
export function showMarket(main, { conditionId, chainId, config, socket }) {
  const view = new MarketView(main, { conditionId, chainId, config, socket });
  void view.start();
  return () => view.stop();
}

class MarketView {
  constructor(main, { conditionId, chainId, config, socket }) {
    Object.assign(this, { main, config, socket });
    this.ref = { condition_id: conditionId.toLowerCase(), chain_id: chainId };
    this.book = new LiveBook();
    this.trades = new Map();
    this.ticker = null;
    this.frame = 0;
    this.handlers = {
      connect: () => void this.subscribeAll(),
      book: (message) => this.mine(message) && this.onBook(message),
      ticker: (message) => this.mine(message) && this.onTicker(message),
      trades: (message) => this.mine(message) && this.onTrade(message),
    };
  }

  mine(message) {
    return message.condition_id?.toLowerCase() === this.ref.condition_id && message.chain_id === this.ref.chain_id;
  }

  async start() {
    fill(this.main, h('p', { class: 'loading' }, 'Loading market…'));
    try {
      this.market = await api.market(this.ref.condition_id, this.ref.chain_id);
    } catch (error) {
      fill(this.main, h('h1', {}, 'Market'), h('p', { class: 'error', role: 'alert' }, `${error.code}: ${error.message}`), h('p', {}, h('a', { href: '#/' }, 'All markets')));
      return;
    }
    if (this.stopped) return;
    this.ref.chain_id = this.market.chain_id;
    this.layout();
    this.showLifecycle();
    for (const [event, handler] of Object.entries(this.handlers)) this.socket.on(event, handler);
    if (this.socket.connected) void this.subscribeAll();
    this.poll = setInterval(() => void this.refreshLifecycle(), LIFECYCLE_POLL_MS);
    await Promise.all([this.loadTrades(), this.loadTicker()]);
  }

  stop() {
    this.stopped = true;
    clearInterval(this.poll);
    cancelAnimationFrame(this.frame);
    for (const [event, handler] of Object.entries(this.handlers)) this.socket.off(event, handler);
    if (this.market && this.socket.connected) {
      for (const channel of CHANNELS) void request(this.socket, 'unsubscribe', { channel, ...this.ref });
    }
  }

  /** At first and after every reconnect: the gateway sends a fresh snapshot and the latest ticker. */
  async subscribeAll() {
    this.book.reset();
    const acks = await Promise.all(CHANNELS.map((channel) => request(this.socket, 'subscribe', { channel, ...this.ref })));
    const refused = acks.find((ack) => !ack.ok);
    this.els.notice.textContent = refused ? `Live updates refused: ${refused.error.code}: ${refused.error.message}` : '';
    // Prints settled while the socket was away are on REST.
    await Promise.all([this.loadTrades(), this.refreshLifecycle()]);
  }

  onBook(message) {
    if (message.type === 'snapshot') this.book.applySnapshot(message);
    else if (this.book.applyDelta(message) === 'gap') void request(this.socket, 'subscribe', { channel: 'book', ...this.ref });
    this.schedule();
  }

  onTicker(message) {
    // REST and the socket may answer in either order: the newer ticker wins.
    if (this.ticker && this.ticker.timestamp > message.timestamp) return;
    this.ticker = message;
    this.schedule();
  }

  onTrade(trade) {
    this.trades.set(trade.trade_id, trade);
    this.schedule();
  }

  async loadTrades() {
    try {
      const page = await api.trades(this.ref, SHOWN_TRADES);
      for (const trade of page.data) this.trades.set(trade.trade_id, trade);
      this.schedule();
    } catch (error) {
      this.els.notice.textContent = `Could not load trades: ${error.code}: ${error.message}`;
    }
  }

  async loadTicker() {
    try {
      this.onTicker(await api.ticker(this.ref));
    } catch (error) {
      this.els.notice.textContent = `Could not load the ticker: ${error.code}: ${error.message}`;
    }
  }

  async refreshLifecycle() {
    try {
      const market = await api.market(this.ref.condition_id, this.ref.chain_id);
      if (this.stopped) return;
      this.market = market;
      this.showLifecycle();
    } catch {
      // The next poll tries again; the status shown stays the last one read.
    }
  }

  /** Renders at most once per frame however many messages arrive. */
  schedule() {
    if (this.frame || this.stopped || !this.els) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  layout() {
    const m = this.market;
    const els = {
      status: h('span', { id: 'market-status', class: 'badge' }),
      meaning: h('span', { id: 'market-status-meaning' }),
      notice: h('p', { class: 'notice', role: 'status', 'aria-live': 'polite' }),
      ticker: h('dl', { id: 'ticker', class: 'ticker' }),
      seq: h('span', { id: 'book-seq' }),
      bids: h('tbody'),
      asks: h('tbody'),
      trades: h('tbody'),
    };
    this.els = els;
    const sideTable = (id, title, body) =>
      h('table', { id, class: `side ${id}` }, h('caption', {}, title), h('thead', {}, h('tr', {}, ['Price', 'Size', 'Total'].map((t) => h('th', { scope: 'col' }, t)))), body);
    fill(
      this.main,
      h('nav', { 'aria-label': 'Breadcrumb' }, h('a', { href: '#/' }, 'Markets')),
      h('h1', { id: 'market-question' }, m.question),
      m.summary ? h('p', { class: 'summary' }, m.summary) : null,
      h(
        'dl',
        { class: 'facts' },
        h('div', {}, h('dt', {}, 'Status'), h('dd', { 'aria-live': 'polite' }, els.status, ' ', els.meaning)),
        h('div', {}, h('dt', {}, 'Ends'), h('dd', {}, time(m.end_date, true))),
        h('div', {}, h('dt', {}, 'Fee'), h('dd', {}, `${m.fee_rate_bps} bps`)),
        h('div', {}, h('dt', {}, 'Condition'), h('dd', {}, h('code', { class: 'id' }, m.condition_id), ` on chain ${m.chain_id}`)),
        h('div', {}, h('dt', {}, 'Workflow (operators)'), h('dd', {}, workflowLink(this.config, m))),
      ),
      els.notice,
      h('section', { 'aria-labelledby': 'ticker-title' }, h('h2', { id: 'ticker-title' }, 'Ticker'), els.ticker),
      h(
        'section',
        { 'aria-labelledby': 'book-title', class: 'book' },
        h('h2', { id: 'book-title' }, 'Order book ', h('small', {}, 'prices in YES terms · ', els.seq)),
        h('div', { class: 'sides' }, sideTable('book-bids', 'Bids (buy YES)', els.bids), sideTable('book-asks', 'Asks (sell YES)', els.asks)),
      ),
      h(
        'section',
        { 'aria-labelledby': 'trades-title' },
        h('h2', { id: 'trades-title' }, 'Recent trades ', h('small', {}, 'settled prints')),
        h('table', { id: 'trades', class: 'trades' }, h('thead', {}, h('tr', {}, ['Time', 'Price', 'Size'].map((t) => h('th', { scope: 'col' }, t)))), els.trades),
      ),
    );
    this.render();
  }

  showLifecycle() {
    const status = this.market.status;
    this.els.status.textContent = status;
    this.els.status.className = `badge status-${status.toLowerCase()}`;
    this.els.meaning.textContent = statusMeaning(status);
  }

  render() {
    this.renderTicker();
    this.renderBook();
    this.renderTrades();
  }

  renderTicker() {
    const t = this.ticker;
    fill(
      this.els.ticker,
      TICKER_FIELDS.map(([field, label]) => h('div', {}, h('dt', {}, label), h('dd', { id: `ticker-${field.replaceAll('_', '-')}`, class: 'num' }, t?.[field] ?? '–'))),
      h('div', {}, h('dt', {}, 'Updated'), h('dd', {}, t ? time(t.timestamp) : '–')),
    );
  }

  renderBook() {
    const waiting = this.book.seq === null;
    this.els.seq.textContent = waiting ? 'waiting for the live book…' : `seq ${this.book.seq}`;
    if (waiting) return;
    const bids = this.book.levels('bid');
    const asks = this.book.levels('ask');
    const deepest = [bids.at(-1)?.total ?? '0', asks.at(-1)?.total ?? '0'].sort(compareDecimal).at(-1);
    const rows = (levels, empty) =>
      levels.length === 0
        ? [h('tr', { class: 'empty' }, h('td', { colspan: 3 }, empty))]
        : levels.slice(0, SHOWN_LEVELS).map((level) => {
            const row = h('tr', {}, h('td', { class: 'num price' }, level.price), h('td', { class: 'num size' }, level.size), h('td', { class: 'num' }, level.total));
            row.style.setProperty('--depth', `${permille(level.total, deepest) / 10}%`);
            return row;
          });
    fill(this.els.bids, rows(bids, 'No bids'), bids.length > SHOWN_LEVELS ? moreRow(bids.length - SHOWN_LEVELS) : null);
    fill(this.els.asks, rows(asks, 'No asks'), asks.length > SHOWN_LEVELS ? moreRow(asks.length - SHOWN_LEVELS) : null);
  }

  renderTrades() {
    // Prints arrive as they settle, so a little out of match order: sorted by match time.
    const trades = [...this.trades.values()].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    for (const old of trades.slice(SHOWN_TRADES)) this.trades.delete(old.trade_id);
    fill(
      this.els.trades,
      trades.length === 0
        ? h('tr', { class: 'empty' }, h('td', { colspan: 3 }, 'No trades yet'))
        : trades.slice(0, SHOWN_TRADES).map((t) =>
            h('tr', { 'data-trade-id': t.trade_id }, h('td', {}, time(t.created_at)), h('td', { class: 'num price' }, t.price), h('td', { class: 'num size' }, t.size)),
          ),
    );
  }
}

const moreRow = (count) => h('tr', { class: 'more' }, h('td', { colspan: 3 }, `${count} more levels`));

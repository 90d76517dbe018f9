import { api } from './api.js';
import { fill, h, time } from './dom.js';

const STATUSES = ['open', 'paused', 'closed', 'resolved'];

export const marketHref = (market) => `#/markets/${market.condition_id}?chain_id=${market.chain_id}`;

/** The list of markets of one status, 50 at a time. */
export function showMarkets(main, { status = 'open' } = {}) {
  const rows = h('tbody');
  const note = h('p', { class: 'note', role: 'status', 'aria-live': 'polite' });
  const more = h('button', { type: 'button', hidden: true }, 'More markets');
  const picker = h(
    'select',
    { id: 'status-filter', onchange: (event) => void (location.hash = `#/?status=${event.target.value}`) },
    STATUSES.map((s) => h('option', { value: s, selected: s === status }, s[0].toUpperCase() + s.slice(1))),
  );
  fill(
    main,
    h('h1', {}, 'Markets'),
    h('p', { class: 'controls' }, h('label', { for: 'status-filter' }, 'Status '), picker),
    h(
      'table',
      { id: 'markets', class: 'markets' },
      h('caption', { class: 'visually-hidden' }, `Markets with status ${status}`),
      h('thead', {}, h('tr', {}, ['Question', 'Status', 'Last price', 'Fee (bps)', 'Ends'].map((t) => h('th', { scope: 'col' }, t)))),
      rows,
    ),
    note,
    more,
  );

  let cursor = '';
  let alive = true;
  async function load() {
    note.textContent = 'Loading markets…';
    more.hidden = true;
    try {
      const page = await api.markets(status, cursor);
      if (!alive) return;
      for (const market of page.data) rows.append(marketRow(market));
      cursor = page.next_cursor;
      more.hidden = !page.has_more;
      note.textContent = rows.children.length === 0 ? `No ${status} markets.` : '';
    } catch (error) {
      note.textContent = `Could not load the markets: ${error.code}: ${error.message}`;
    }
  }
  more.addEventListener('click', () => void load());
  void load();
  return () => {
    alive = false;
  };
}

function marketRow(market) {
  // The embedded ticker's values are JSON numbers (api-v1); shown as given, never computed with.
  const last = market.ticker?.lastPrice;
  return h(
    'tr',
    { 'data-condition-id': market.condition_id },
    h('td', {}, h('a', { href: marketHref(market) }, market.question)),
    h('td', {}, h('span', { class: `badge status-${market.status.toLowerCase()}` }, market.status)),
    h('td', { class: 'num' }, last === undefined || last === null ? '–' : String(last)),
    h('td', { class: 'num' }, String(market.fee_rate_bps)),
    h('td', {}, time(market.end_date, true)),
  );
}

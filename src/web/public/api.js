// REST reads of the public (L0) market data. Errors carry the API's envelope code and message.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function getJson(path) {
  let response;
  try {
    response = await fetch(path, { headers: { accept: 'application/json' } });
  } catch (cause) {
    throw new ApiError(0, 'NETWORK_ERROR', `The API could not be reached (${cause.message})`);
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, body?.code ?? `HTTP_${response.status}`, body?.message ?? response.statusText);
  }
  return body;
}

const marketPath = (market) => `/v1/markets/${encodeURIComponent(market.condition_id)}`;
const chainQuery = (market) => `chain_id=${encodeURIComponent(market.chain_id)}`;

export const api = {
  config: () => getJson('/web-config.json'),
  markets: (status, cursor) =>
    getJson(`/v1/markets?status=${encodeURIComponent(status)}&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
  market: (conditionId, chainId) => getJson(`${marketPath({ condition_id: conditionId })}?${chainQuery({ chain_id: chainId })}`),
  ticker: (market) => getJson(`${marketPath(market)}/ticker?${chainQuery(market)}`),
  trades: (market, limit) => getJson(`${marketPath(market)}/trades?${chainQuery(market)}&limit=${limit}`),
};

import { buildOpenApiDocument } from '../../src/api/openapi/openapi-document';
import { compileSchema } from '../../src/validation/ajv';
import { useTestDatabase } from '../helpers/test-database';
import { call, Harness, startHarness } from './app-harness';

type Doc = { paths: Record<string, Record<string, { parameters: { in: string; schema: object }[]; requestBody?: { content: Record<string, { schema: object }> }; responses: Record<string, { content?: Record<string, { schema: object }> }> }>> };

describe('OpenAPI document and reference page', () => {
  const database = useTestDatabase('openapi');
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(database.db());
  });
  afterAll(async () => harness.close());

  test('when /v1/openapi.json is fetched, then it is an OpenAPI 3.1 document of every /v1 route of the spec', async () => {
    const res = await call(`${harness.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const operations = Object.entries(res.body.paths as Doc['paths']).flatMap(([path, item]) => Object.keys(item).filter((k) => k !== 'servers').map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations.sort()).toEqual(
      [
        'GET /markets', 'GET /markets/{condition_id}', 'GET /markets/{condition_id}/tokens', 'GET /markets/{condition_id}/book',
        'GET /markets/{condition_id}/ticker', 'GET /markets/{condition_id}/trades', 'POST /auth/api-keys', 'GET /auth/api-keys',
        'DELETE /auth/api-keys/{key_id}', 'POST /auth/api-keys/{key_id}/regenerate', 'POST /auth/ws-token', 'POST /orders',
        'GET /orders', 'GET /orders/{order_hash}', 'POST /orders/cancel', 'POST /orders/{order_hash}/cancel-onchain',
        'GET /fills', 'GET /positions', 'GET /balances', 'POST /heartbeat', 'GET /markets/{condition_id}/candles',
        // Served at the root (path-level servers `/`): the /trade API.
        'GET /trade/markets', 'POST /trade/quote', 'POST /trade', 'POST /trade/redeem', 'GET /trade/positions', 'POST /trade/save', 'GET /trade/save/{tx_hash}',
      ].sort(),
    );
  });

  test('when every schema in the document is compiled with the service ajv, then all compile (they are the validation schemas)', () => {
    const doc = buildOpenApiDocument() as unknown as Doc;
    let compiled = 0;
    for (const { servers: _servers, ...item } of Object.values(doc.paths) as (Doc['paths'][string] & { servers?: unknown })[]) {
      for (const op of Object.values(item)) {
        const schemas = [
          // A parameter's schema is a property schema (a default is meaningful there, not at a root).
          ...op.parameters.map((p) => ({ type: 'object', properties: { value: p.schema } })),
          ...(op.requestBody ? [op.requestBody.content['application/json'].schema] : []),
          ...Object.values(op.responses).flatMap((r) => (r.content && !('$ref' in r.content['application/json'].schema) ? [r.content['application/json'].schema] : [])),
        ];
        for (const schema of schemas) {
          compileSchema(schema);
          compiled += 1;
        }
      }
    }
    expect(compiled).toBeGreaterThan(50);
  });

  test('when the tiers are read from the document, then they match the spec: markets L0, key management L1, the rest L2', () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, { 'x-tier': string; 'x-permission'?: string }>> };
    expect(doc.paths['/markets'].get['x-tier']).toBe('L0');
    expect(doc.paths['/auth/api-keys'].post['x-tier']).toBe('L1');
    expect(doc.paths['/auth/ws-token'].post['x-tier']).toBe('L2');
    expect(doc.paths['/orders'].post).toMatchObject({ 'x-tier': 'L2', 'x-permission': 'trade' });
    expect(doc.paths['/fills'].get).toMatchObject({ 'x-tier': 'L2', 'x-permission': 'read' });
  });

  test('when /docs is fetched, then a self-contained HTML page that loads the document is served', async () => {
    const res = await fetch(`${harness.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain("fetch('/v1/openapi.json')");
    expect(html).not.toMatch(/<script[^>]+src=/);
  });

  test('when an unknown route is asked, then the error envelope says NOT_FOUND', async () => {
    const res = await call(`${harness.url}/v1/nothing-here`, { headers: { 'x-correlation-id': 'abc-123' } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', correlation_id: 'abc-123', status_code: 404, path: '/v1/nothing-here' });
  });
});

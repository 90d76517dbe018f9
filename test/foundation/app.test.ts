import { Router } from 'express';
import { MongoClient } from 'mongodb';
import request from 'supertest';
import { createApp } from '../../src/api/app';
import { ReadinessCheck } from '../../src/http/health.routes';
import { AppError } from '../../src/errors';
import { createLogger } from '../../src/logging/logger';

const logger = createLogger({ level: 'silent' });

function appWith(readiness: ReadinessCheck[] = [], extra?: Router) {
  const router = Router();
  router.post('/echo', (req, res) => {
    res.json(req.body);
  });
  router.get('/boom', () => {
    throw new Error('secret internals: mongodb://user:pass@host');
  });
  router.get('/async-boom', async () => {
    await Promise.resolve();
    throw new Error('async internals');
  });
  router.get('/items/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  router.get('/database-down', async () => {
    // A real driver error: nothing listens on port 1.
    const client = new MongoClient('mongodb://127.0.0.1:1', { serverSelectionTimeoutMS: 200 });
    try {
      await client.db('x').collection('orders').findOne({});
    } finally {
      await client.close();
    }
  });
  router.get('/app-error', () => {
    throw new AppError('MARKET_NOT_ACTIVE', 'Market is paused', { status: 'PAUSED' });
  });
  return createApp({ logger, readiness, v1Routers: extra ? [router, extra] : [router] });
}

const ENVELOPE_KEYS = ['code', 'correlation_id', 'message', 'path', 'status_code', 'timestamp'];

describe('HTTP foundation', () => {
  it('when a route is unknown, then the answer is the NOT_FOUND envelope', async () => {
    const res = await request(appWith()).get('/v1/does-not-exist?x=1');
    expect(res.status).toBe(404);
    expect(Object.keys(res.body).sort()).toEqual(ENVELOPE_KEYS);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', status_code: 404, path: '/v1/does-not-exist', correlation_id: 'unknown' });
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
  });

  it('when x-correlation-id is sent, then it is echoed in the header and the envelope', async () => {
    const res = await request(appWith()).get('/v1/nowhere').set('x-correlation-id', 'req-42');
    expect(res.headers['x-correlation-id']).toBe('req-42');
    expect(res.body.correlation_id).toBe('req-42');
  });

  it('when x-correlation-id carries control characters, then it is not trusted', async () => {
    const res = await request(appWith()).get('/v1/nowhere').set('x-correlation-id', 'a b\tc');
    expect(res.body.correlation_id).toBe('unknown');
  });

  it('when the JSON body is malformed, then the answer is 422 VALIDATION_ERROR', async () => {
    const res = await request(appWith()).post('/v1/echo').set('content-type', 'application/json').send('{"orders": [');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  it('when a path parameter has a broken percent-encoding, or a gzip body does not decode, then 422 VALIDATION_ERROR, not 500', async () => {
    const path = await request(appWith()).get('/v1/items/%E0%A4%A');
    expect({ status: path.status, code: path.body.code, message: path.body.message }).toEqual({ status: 422, code: 'VALIDATION_ERROR', message: 'Malformed percent-encoding in the URL' });
    const body = await request(appWith()).post('/v1/echo').set('content-type', 'application/json').set('content-encoding', 'gzip').send('{"not":"gzip"}');
    expect({ status: body.status, code: body.body.code }).toEqual({ status: 422, code: 'VALIDATION_ERROR' });
  });

  it('when the database cannot be reached, then 503 SERVICE_DEGRADED, with no internals in the answer', async () => {
    const res = await request(appWith()).get('/v1/database-down');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'SERVICE_DEGRADED', message: 'The database is unavailable; retry' });
    expect(JSON.stringify(res.body)).not.toContain('127.0.0.1');
  });

  it('when the body is oversized, then the answer is 422 VALIDATION_ERROR', async () => {
    const res = await request(appWith()).post('/v1/echo').set('content-type', 'application/json').send(JSON.stringify({ a: 'x'.repeat(300 * 1024) }));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  it('when a handler throws, then INTERNAL_ERROR is answered without internals', async () => {
    for (const path of ['/v1/boom', '/v1/async-boom']) {
      const res = await request(appWith()).get(path);
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('INTERNAL_ERROR');
      expect(JSON.stringify(res.body)).not.toMatch(/internals|mongodb:|stack/);
    }
  });

  it('when a handler throws an AppError, then its code, status and details are rendered', async () => {
    const res = await request(appWith()).get('/v1/app-error');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'MARKET_NOT_ACTIVE', message: 'Market is paused', status_code: 422, details: { status: 'PAUSED' } });
  });

  it('when the process is up, then /healthz is 200', async () => {
    const res = await request(appWith()).get('/healthz');
    expect(res.status).toBe(200);
  });

  it('when a dependency fails or hangs, then /readyz is 503 SERVICE_DEGRADED naming it', async () => {
    const res = await request(
      appWith([
        { name: 'mongodb', check: async () => {} },
        { name: 'temporal', check: () => Promise.reject(new Error('down')) },
        { name: 'chain', check: () => new Promise(() => {}) },
      ]),
    ).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('SERVICE_DEGRADED');
    expect(res.body.details.failing).toEqual(['temporal', 'chain']);
  });
});

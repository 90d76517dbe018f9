/**
 * Every request gets its log line at `info`; below that level the request log is skipped whole
 * (a polled route such as POST /trade/quote pays nothing for lines that would not be written),
 * and it comes back when the level is lowered while the process runs.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { requestLog } from '../../src/http/middleware/request-log';

describe('request log by level', () => {
  test('when the level is warn, then requests are not logged; at info each one is', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk, _enc, done) => { lines.push(String(chunk)); done(); } }));
    const app = express();
    app.use(requestLog(logger));
    app.post('/trade/quote', (_req, res) => void res.json({ ok: true }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/trade/quote`;
    try {
      expect((await fetch(url, { method: 'POST' })).status).toBe(200);
      expect(lines).toEqual([]);
      logger.level = 'info';
      expect((await fetch(url, { method: 'POST' })).status).toBe(200);
      await new Promise((r) => setImmediate(r));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({ msg: expect.stringMatching(/^POST \/trade\/quote 200 \d+ms$/), res: { statusCode: 200 } });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

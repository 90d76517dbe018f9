import { Router } from 'express';
import { noQueryParams, parseQuery } from '../http/query';
import { validateOrThrow } from '../validation/ajv';
import { readTradeTx, saveTradeTx } from './save-trade-tx';
import type { TradeDeps } from './trade-deps';
import { saveQuerySchema, validateSaveBody, validateSaveQuery, validateTxHashParam } from './trade.schemas';

/** POST /trade/save (platform key) starts a saved transaction's workflow; GET /trade/save/{tx_hash} (public) reads it. */
export function tradeSaveRoutes(deps: TradeDeps): Router {
  const router = Router();

  router.post('/trade/save', deps.requirePlatform, noQueryParams, async (req, res) => {
    const body = validateOrThrow(validateSaveBody, req.body ?? {}, 'body');
    deps.chains.require(body.chain_id);
    res.status(202).json(await saveTradeTx({ txs: deps.txs, starter: deps.starter }, body));
  });

  router.get('/trade/save/:tx_hash', async (req, res) => {
    const { tx_hash } = validateOrThrow(validateTxHashParam, req.params, 'path');
    const q = parseQuery(saveQuerySchema, validateSaveQuery, req.query);
    const chain = deps.chains.require(q.chain_id);
    res.json(await readTradeTx(deps.txs, chain.chain_id, tx_hash));
  });

  return router;
}

/** A placement step's claim and its kept write, made before anything of the step is written. */
import { isDuplicateKey } from '../../src/matching/collections';
import type { MarketRef } from '../../src/matching/market-ids';
import type { BatchWrite, StepInputs } from '../../src/matching/payloads';
import { decisionOf, sameDecision, stepNumberOf } from '../../src/matching/step-journal';
import type { MarketContext } from './context';

export function createStepClaims({ c, logger }: MarketContext) {
  /**
   * Claims a placement step before anything of it is written (src/matching/step-journal.ts).
   * False: another attempt claimed it over other inputs (it raced this one, both alive), and this
   * one must not write; the workflow task runs again and its load finds that claim.
   */
  async function claimStep(market: MarketRef, marketKey: string, at: number, step: StepInputs): Promise<boolean> {
    const decision = decisionOf(marketKey, at, step, new Date());
    try {
      await c.steps.insertOne(decision);
      return true;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const claim = await c.steps.findOne({ _id: decision._id });
    if (claim && sameDecision(claim, decision)) return true;
    logger.error({ market, step: decision._id }, 'a placement step was claimed by another attempt with other inputs: its workflow task runs again');
    return false;
  }

  /**
   * Keeps a placement step's whole write as the market's last, before anything of it is written,
   * for the next run to finish it if this run is cut short for good (finishEarlierRun). A stale
   * attempt of an earlier step of the run replaces nothing (its upsert meets the row's key).
   */
  async function keepLastStep(marketKey: string, batch: BatchWrite, step: StepInputs): Promise<void> {
    const n = stepNumberOf(step.id);
    const row = { step: step.id, run_id: step.runId, n, write_json: JSON.stringify({ ...batch, step: undefined }), updated_at: new Date() };
    await c.lastSteps.updateOne({ _id: marketKey, $or: [{ run_id: { $ne: step.runId } }, { n: { $lte: n } }] }, { $set: row }, { upsert: true }).catch((error: unknown) => {
      if (!isDuplicateKey(error)) throw error;
    });
  }

  return { claimStep, keepLastStep };
}

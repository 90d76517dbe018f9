import type { Logger } from '../../src/logging/logger';
import { startStageTimings, timed } from '../../src/logging/stage-timings';

function recordingLogger() {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const logger = { warn: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }) } as unknown as Logger;
  return { logger, lines };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('stage timings', () => {
  it('when on, then each stage is logged with its count, mean and max, and a failing stage is counted and still throws', async () => {
    const { logger, lines } = recordingLogger();
    const stop = startStageTimings(logger, 3600);
    expect(await timed('step.a', async () => {
      await pause(30);
      return 'a';
    })).toBe('a');
    await timed('step.a', () => Promise.resolve());
    await expect(timed('step.b', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    stop();
    expect(lines).toHaveLength(1);
    const stages = lines[0].fields.stages as Record<string, { n: number; mean_ms: number; max_ms: number }>;
    expect(Object.keys(stages)).toEqual(['step.a', 'step.b']);
    expect(stages['step.a'].n).toBe(2);
    expect(stages['step.a'].max_ms).toBeGreaterThanOrEqual(25);
    expect(stages['step.a'].mean_ms).toBeLessThan(stages['step.a'].max_ms);
    expect(stages['step.b'].n).toBe(1);
  });

  it('when off (unset), then stages run unchanged and nothing is logged', async () => {
    const { logger, lines } = recordingLogger();
    const stop = startStageTimings(logger, undefined);
    expect(await timed('step.a', () => Promise.resolve(7))).toBe(7);
    stop();
    expect(lines).toEqual([]);
  });
});

import { ResendSchedule } from '../../src/temporal/resend-schedule';

describe('resend schedule of lost hand-offs', () => {
  test('when an order is sent again and again, then each wait doubles from the first, up to the bound', () => {
    const schedule = new ResendSchedule(2_000, 30_000);
    const sends: number[] = [];
    for (let now = 0; now <= 120_000; now += 100) {
      if (!schedule.due('0xa', now)) continue;
      schedule.sent('0xa', now);
      sends.push(now);
    }
    expect(sends.slice(0, 6)).toEqual([0, 4_000, 12_000, 28_000, 58_000, 88_000]);
    expect(sends).toHaveLength(7);
  });

  test('when orders are sent, then each has its own schedule, and a forgotten one is due again', () => {
    const schedule = new ResendSchedule(1_000, 10_000);
    schedule.sent('0xa', 0);
    expect(schedule.due('0xa', 1_999)).toBe(false);
    expect(schedule.due('0xb', 1_999)).toBe(true);
    schedule.keepOnly(new Set(['0xb']));
    expect(schedule.size).toBe(0);
    expect(schedule.due('0xa', 1)).toBe(true);
  });

  test('when the schedule reaches its bound of entries, then it starts over instead of growing', () => {
    const schedule = new ResendSchedule(1_000, 10_000, 3);
    for (const hash of ['0x1', '0x2', '0x3', '0x4']) schedule.sent(hash, 0);
    expect(schedule.size).toBe(1);
    expect(schedule.due('0x1', 0)).toBe(true);
    expect(schedule.due('0x4', 0)).toBe(false);
  });
});

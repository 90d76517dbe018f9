import { MarkerSightings } from '../../src/temporal/marker-sightings';

describe('MarkerSightings', () => {
  it('when a marker is seen again, then its age counts from the first sight by this clock', () => {
    const s = new MarkerSightings();
    s.see(['a', 'b'], 1_000, {});
    s.see(['a', 'b', 'c'], 3_000, {});
    expect([s.ageOf('a', 3_500), s.ageOf('c', 3_500), s.ageOf('unseen', 3_500)]).toEqual([2_500, 500, 0]);
  });

  it('when a page no longer holds a marker of its _id range, then that marker is forgotten, and markers outside the range are kept', () => {
    const s = new MarkerSightings();
    s.see(['a', 'b', 'c', 'd'], 1_000, {});
    // A page after 'a' up to 'c' without 'b': taken. 'a' and 'd' lie outside the range.
    s.see(['c'], 2_000, { after: 'a', upTo: 'c' });
    expect(s.size).toBe(3);
    expect(s.ageOf('b', 2_000)).toBe(0);
    expect(s.ageOf('a', 2_000)).toBe(1_000);
    // The last page (no upper bound) without 'd': gone too. A marker seen again later starts over.
    s.see([], 3_000, { after: 'c' });
    s.see(['b'], 4_000, { upTo: 'b' });
    expect([s.ageOf('a', 4_000), s.ageOf('b', 4_000), s.ageOf('c', 4_000), s.ageOf('d', 4_000)]).toEqual([0, 0, 3_000, 0]);
  });
});

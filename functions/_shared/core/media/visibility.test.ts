import { describe, expect, it } from 'vitest';
import { MediaVisibility } from './visibility.ts';

const ORG = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const REVIEW = '33333333-3333-4333-8333-333333333333';
const key = (org: string, n: number) =>
  `${org}/${REVIEW}/${String(n).padStart(8, '0')}-0000-4000-8000-000000000000.jpg`;

/** A cache on a clock the test moves by hand. */
function cache(ttlMs: number, maxEntries?: number) {
  let now = 1_000;
  const visibility = new MediaVisibility({ ttlMs, maxEntries, now: () => now });
  return { visibility, advance: (ms: number) => (now += ms) };
}

describe('MediaVisibility', () => {
  it('serves a visible file from memory until its time is up, not a millisecond longer', () => {
    const { visibility, advance } = cache(10_000);
    expect(visibility.visible(key(ORG, 1))).toBeUndefined();
    visibility.remember(key(ORG, 1), 'image/jpeg');
    expect(visibility.visible(key(ORG, 1))).toBe('image/jpeg');
    advance(9_999);
    expect(visibility.visible(key(ORG, 1))).toBe('image/jpeg');
    advance(1);
    // The bound: a file hidden meanwhile is asked of the database again, and answers 404 from there.
    expect(visibility.visible(key(ORG, 1))).toBeUndefined();
    expect(visibility.count).toBe(0);
  });

  it('starts the time again when the database answers again', () => {
    const { visibility, advance } = cache(10_000);
    visibility.remember(key(ORG, 1), 'video/mp4');
    advance(10_000);
    expect(visibility.visible(key(ORG, 1))).toBeUndefined();
    visibility.remember(key(ORG, 1), 'video/mp4');
    advance(9_000);
    expect(visibility.visible(key(ORG, 1))).toBe('video/mp4');
  });

  it('keeps nothing with no time to keep it', () => {
    const { visibility } = cache(0);
    visibility.remember(key(ORG, 1), 'image/jpeg');
    expect(visibility.visible(key(ORG, 1))).toBeUndefined();
    expect(visibility.count).toBe(0);
  });

  it("forgets one organization's files at once, and only theirs", () => {
    const { visibility } = cache(10_000);
    visibility.remember(key(ORG, 1), 'image/jpeg');
    visibility.remember(key(ORG, 2), 'image/jpeg');
    visibility.remember(key(OTHER, 3), 'image/jpeg');
    visibility.forgetOrganization(ORG);
    expect(visibility.visible(key(ORG, 1))).toBeUndefined();
    expect(visibility.visible(key(ORG, 2))).toBeUndefined();
    expect(visibility.visible(key(OTHER, 3))).toBe('image/jpeg');
    expect(visibility.count).toBe(1);
    visibility.forgetOrganization(ORG);
    expect(visibility.count).toBe(1);
  });

  it('holds at most its bound of files, the oldest going first', () => {
    const { visibility } = cache(10_000, 3);
    for (let n = 1; n <= 5; n++) visibility.remember(key(ORG, n), 'image/jpeg');
    expect(visibility.count).toBe(3);
    expect([1, 2, 3, 4, 5].map((n) => visibility.visible(key(ORG, n)) !== undefined)).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
    visibility.remember(key(ORG, 5), 'image/jpeg'); // known already: nothing goes
    expect(visibility.count).toBe(3);
  });
});

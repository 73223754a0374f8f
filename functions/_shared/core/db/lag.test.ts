import { describe, expect, it } from 'vitest';
import { isLsn, parseLsn, PrimaryPositions } from './lag.ts';

describe('parseLsn', () => {
  it('reads both halves of a WAL position, so that positions compare', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16B3748n);
    expect(parseLsn('1/0')).toBe(1n << 32n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });

  it('refuses anything else', () => {
    for (const bad of ['', '0', '0/', 'x/1', '0/1; drop', '123456789/0']) {
      expect(isLsn(bad)).toBe(false);
      expect(() => parseLsn(bad)).toThrow('not a WAL position');
    }
  });
});

describe('PrimaryPositions', () => {
  it('knows no lag before its first sample', () => {
    expect(new PrimaryPositions(10_000).lagMs(5n, 0)).toBeNull();
  });

  it('says 0 for a standby that replayed the newest position, however long the primary was idle', () => {
    const p = new PrimaryPositions(10_000);
    p.record(100n, 0);
    p.record(100n, 60_000);
    expect(p.lagMs(100n, 60_500)).toBe(0);
  });

  it('measures a standby behind by the age of the newest position it holds', () => {
    const p = new PrimaryPositions(10_000);
    p.record(100n, 1_000);
    p.record(200n, 2_000);
    p.record(300n, 3_000);
    expect(p.lagMs(250n, 3_500)).toBe(1_500);
    expect(p.lagMs(200n, 3_500)).toBe(1_500);
    expect(p.lagMs(150n, 3_500)).toBe(2_500);
  });

  it('keeps an idle primary’s position fresh, so lag counts from when it last moved', () => {
    const p = new PrimaryPositions(10_000);
    p.record(100n, 0);
    p.record(100n, 5_000);
    p.record(200n, 6_000);
    expect(p.lagMs(100n, 7_000)).toBe(2_000);
  });

  it('answers at least the window for a standby older than every sample kept', () => {
    const p = new PrimaryPositions(1_000);
    p.record(100n, 0);
    p.record(200n, 5_000);
    p.record(300n, 5_500);
    expect(p.lagMs(50n, 6_000)).toBe(1_000);
  });
});

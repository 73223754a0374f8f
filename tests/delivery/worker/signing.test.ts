import { describe, expect, it } from 'vitest';
import {
  nextRetryDelay,
  parseRetryAfter,
  WEBHOOK_SCHEDULE_MS,
} from '../../../functions/_shared/core/webhooks/retry.ts';
import {
  hexSignature,
  standardSignature,
  timingSafeEqual,
  verifyStandardSignature,
} from '../../../functions/_shared/core/webhooks/signing.ts';
import { db } from '../../helpers/db.ts';

describe('signatures', () => {
  it("matches GitHub's known answer for the hex HMAC", async () => {
    expect(await hexSignature("It's a Secret to Everybody", 'Hello, World!'))
      .toBe('757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
  });

  it('matches the Standard Webhooks reference vector', async () => {
    expect(
      await standardSignature(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    )
      .toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('is computed the same way inside the database', async () => {
    const [s] = await db`
      select * from plaudit.webhook_signatures('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', null, null,
        'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')`;
    expect(s.webhook_signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(s.signature_hex).toBe(await hexSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '{"test": 2432232314}'));
    expect(s.previous_signature_hex).toBeNull();
    // Non-ASCII bodies are signed as their UTF-8 bytes.
    const body = '{"content":"Très bien 👍 \\"quoted\\""}';
    const [u] =
      await db`select * from plaudit.webhook_signatures('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', null, null, 'msg_1', 1, ${body})`;
    expect(u.signature_hex).toBe(await hexSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', body));
    expect(u.webhook_signature).toBe(
      await standardSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_1', 1, body),
    );
  });

  it('rejects stale timestamps and wrong signatures', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const sig = await standardSignature(secret, 'msg_1', 1000, 'x');
    expect(
      await verifyStandardSignature(secret, 'x', { id: 'msg_1', timestamp: '1000', signature: sig }, {
        nowSeconds: 1100,
      }),
    ).toBe(true);
    expect(
      await verifyStandardSignature(secret, 'x', { id: 'msg_1', timestamp: '1000', signature: sig }, {
        nowSeconds: 2000,
      }),
    ).toBe(false);
    expect(
      await verifyStandardSignature(secret, 'y', { id: 'msg_1', timestamp: '1000', signature: sig }, {
        nowSeconds: 1000,
      }),
    ).toBe(false);
    expect(timingSafeEqual('abc', 'abc')).toBe(true);
    expect(timingSafeEqual('abc', 'abd')).toBe(false);
    expect(timingSafeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('retry schedule', () => {
  it('follows the Standard Webhooks schedule with ±20 % jitter, then gives up', () => {
    const mid = () => 0.5;
    expect(WEBHOOK_SCHEDULE_MS.map((_, i) => nextRetryDelay(WEBHOOK_SCHEDULE_MS, i + 1, { random: mid })))
      .toEqual([
        5_000,
        300_000,
        1_800_000,
        7_200_000,
        18_000_000,
        36_000_000,
        50_400_000,
        72_000_000,
        86_400_000,
        null,
      ]);
    expect(nextRetryDelay(WEBHOOK_SCHEDULE_MS, 1, { random: () => 0 })).toBe(4000);
    expect(nextRetryDelay(WEBHOOK_SCHEDULE_MS, 1, { random: () => 0.9999 })).toBe(6000);
    expect(nextRetryDelay(WEBHOOK_SCHEDULE_MS, 2, { random: mid, scale: 0.001 })).toBe(300);
  });

  it('waits at least as long as Retry-After asks, up to a day', () => {
    expect(nextRetryDelay(WEBHOOK_SCHEDULE_MS, 1, { random: () => 0.5, retryAfterMs: 60_000 })).toBe(60_000);
    expect(nextRetryDelay(WEBHOOK_SCHEDULE_MS, 1, { random: () => 0.5, retryAfterMs: 10 })).toBe(5000);
    expect(nextRetryDelay(WEBHOOK_SCHEDULE_MS, 1, { random: () => 0.5, retryAfterMs: 9e9 })).toBe(86_400_000);
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(new Date(Date.now() + 30_000).toUTCString())).toBeGreaterThan(28_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });
});

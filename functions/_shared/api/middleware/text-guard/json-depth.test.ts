import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, mixed, and allows exactly the limit', () => {
    expect(nestsDeeperThan(arrays(3), 3)).toBe(false);
    expect(nestsDeeperThan(arrays(4), 3)).toBe(true);
    expect(nestsDeeperThan(objects(3), 3)).toBe(false);
    expect(nestsDeeperThan(objects(4), 3)).toBe(true);
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[[1]]}]}', 4)).toBe(true);
  });

  it('measures depth, not the number of brackets: siblings do not add up', () => {
    expect(nestsDeeperThan(`[${Array(1000).fill('[[]]').join(',')}]`, 3)).toBe(false);
    expect(nestsDeeperThan('{"a":{},"b":{},"c":{"d":{}}}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":{},"b":{},"c":{"d":{}}}', 2)).toBe(true);
  });

  it('ignores brackets inside strings, keys and values alike', () => {
    expect(nestsDeeperThan(JSON.stringify({ '[[[[': '{{{{[[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify(['[[[', ']]]', '{']), 1)).toBe(false);
  });

  it('follows escapes: an escaped quote does not end a string, an escaped backslash does not escape the quote', () => {
    // "a\"[[[" is one string holding a quote; "\\" ends after the backslash, so the [ after it counts.
    expect(nestsDeeperThan(JSON.stringify(['a"[[[', 'b']), 1)).toBe(false);
    expect(nestsDeeperThan('["\\\\",[[1]]]', 2)).toBe(true);
    expect(nestsDeeperThan('["\\\\",[1]]', 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify(['\\"[[[[']), 1)).toBe(false);
    expect(nestsDeeperThan('["\\u005b[[["]', 1)).toBe(false);
  });

  it('uses MAX_JSON_DEPTH by default: 64 levels pass, 65 do not', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(nestsDeeperThan(arrays(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(arrays(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it('measures 10,000 levels, and text that is not JSON, without throwing', () => {
    expect(nestsDeeperThan(arrays(10_000))).toBe(true);
    expect(nestsDeeperThan('['.repeat(10_000))).toBe(true);
    expect(nestsDeeperThan(']]]]{')).toBe(false);
    expect(nestsDeeperThan('"unterminated [[[[')).toBe(false);
    expect(nestsDeeperThan('')).toBe(false);
  });
});

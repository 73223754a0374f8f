import { describe, expect, it } from 'vitest';
import { languageDetection } from './config.ts';

describe('REVIEW_LANGUAGES', () => {
  it('detects by default and with `detect`, never with `off`', () => {
    expect(languageDetection(undefined)).toBe(true);
    expect(languageDetection('')).toBe(true);
    expect(languageDetection('detect')).toBe(true);
    expect(languageDetection('off')).toBe(false);
  });

  it('refuses anything else, naming the values it takes', () => {
    expect(() => languageDetection('no')).toThrow('REVIEW_LANGUAGES must be detect or off');
  });
});

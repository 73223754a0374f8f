import { describe, expect, it } from 'vitest';
import { fieldProblem, GTIN_RULE, gtinIsValid } from './fields.ts';

describe('gtinIsValid', () => {
  it('takes EAN-8, UPC-A, EAN-13 and GTIN-14 with their check digit', () => {
    for (const gtin of ['96385074', '036000291452', '4006381333931', '10012345678902']) {
      expect(gtinIsValid(gtin), gtin).toBe(true);
    }
  });

  it('refuses a wrong check digit, other lengths and anything but digits', () => {
    for (const gtin of ['96385075', '036000291453', '4006381333932', '0000000000', '12345', '40063813339x1', '']) {
      expect(gtinIsValid(gtin), gtin).toBe(false);
    }
  });
});

describe('fieldProblem', () => {
  it('says what the API would say of each kind of field, after trimming', () => {
    expect(fieldProblem('name', '  ')).toBe('is required');
    expect(fieldProblem('name', ' Mug ')).toBeUndefined();
    expect(fieldProblem('name', 'x'.repeat(501))).toBe('must be at most 500 characters');
    expect(fieldProblem('external_id', 'x'.repeat(201))).toBe('must be at most 200 characters');
    expect(fieldProblem('sku', '')).toBeUndefined();
    expect(fieldProblem('url', 'https://shop.example/mug')).toBeUndefined();
    expect(fieldProblem('url', 'ftp://shop.example/mug')).toBe('must be an http(s) URL');
    expect(fieldProblem('image_url', 'javascript:alert(1)')).toBe('must be an http(s) URL');
    expect(fieldProblem('image_url', 'http://shop.example/mug.jpg')).toBeUndefined(); // as the API takes it
    expect(fieldProblem('url', `https://a.example/${'x'.repeat(2000)}`)).toBe('must be at most 2,000 characters');
    expect(fieldProblem('gtin', '4006381333931')).toBeUndefined();
    expect(fieldProblem('gtin', '4006381333932')).toBe(GTIN_RULE);
  });

  it('explains a GTIN a spreadsheet wrote as a number', () => {
    expect(fieldProblem('gtin', '4.00638E+12')).toMatch(/format the column as text/);
  });
});

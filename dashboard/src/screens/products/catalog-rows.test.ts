import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../csv.ts';
import { addAnswer, catalogTemplate, checkCatalog, chunkRows, MAX_FILE_ROWS, NO_TOTALS } from './catalog-rows.ts';

const check = (text: string) => checkCatalog(parseCsv(text).rows);

describe('checkCatalog', () => {
  it('maps columns by header in any order and case, lists unknown ones, and sends only filled cells', () => {
    const c = check('Name;EXTERNAL_ID;colour;gtin\n"Mug; blue";M-1;blue;4006381333931\nPlate;P-1;;\n');
    expect(c.fileProblems).toEqual([]);
    expect(c.columns).toEqual(['external_id', 'name', 'gtin']);
    expect(c.ignored).toEqual(['colour']);
    expect(c.rows.map((r) => r.input)).toEqual([
      { external_id: 'M-1', name: 'Mug; blue', gtin: '4006381333931' },
      { external_id: 'P-1', name: 'Plate' },
    ]);
    expect(c.rows.map((r) => r.row)).toEqual([2, 3]);
  });

  it('reads the column names of a Google Merchant feed', () => {
    const c = check('id,title,link,image_link,item_group_id\nA,Mug,https://s.example/a,https://s.example/a.jpg,mugs\n');
    expect(c.rows[0].input).toEqual({
      external_id: 'A',
      name: 'Mug',
      url: 'https://s.example/a',
      image_url: 'https://s.example/a.jpg',
      group: 'mugs',
    });
  });

  it('names every bad row and why, as the API would refuse it, and a product id given twice', () => {
    const c = check(
      'external_id,name,url,gtin\n' +
        'A,Mug,https://s.example/a,4006381333931\n' +
        ',Nameless id,,\n' +
        'B,,ftp://s.example/b,4006381333932\n' +
        `A,Again,,\n` +
        `C,${'x'.repeat(501)},,\n`,
    );
    expect(c.rows.map((r) => [r.row, r.problems])).toEqual([
      [2, []],
      [3, ['Your product id: is required.']],
      [4, [
        'Name: is required.',
        'Product page: must be an http(s) URL.',
        'GTIN: must be 8, 12, 13 or 14 digits with a valid check digit.',
      ]],
      [5, ['The same product id as row 2: each product once per file.']],
      [6, ['Name: must be at most 500 characters.']],
    ]);
    expect(c.rows.filter((r) => r.input).map((r) => r.row)).toEqual([2]);
  });

  it('refuses a file without the required columns, an empty one and one past the limit', () => {
    expect(check('sku,brand\nS,Acme\n').fileProblems).toEqual([
      'The first row names no "external_id" column. The first row must name the columns, as in the template.',
      'The first row names no "name" column. The first row must name the columns, as in the template.',
    ]);
    expect(check('').fileProblems).toEqual(['The file is empty.']);
    expect(check('external_id,name\n').fileProblems).toEqual(['The file has a header row but no products under it.']);
    const big = [['external_id', 'name'], ...Array.from({ length: MAX_FILE_ROWS + 1 }, (_, i) => [`P${i}`, 'Mug'])];
    expect(checkCatalog(big).fileProblems[0]).toMatch(/^The file has 50,001 products; at most 50,000/);
  });

  it('reads its own template without a problem', () => {
    const c = check(catalogTemplate());
    expect(c.fileProblems).toEqual([]);
    expect(c.ignored).toEqual([]);
    expect(c.rows.every((r) => r.input)).toBe(true);
  });
});

describe('chunkRows and addAnswer', () => {
  const rows =
    check(`external_id,name\n${Array.from({ length: 5 }, (_, i) => `P${i},Mug ${i}`).join('\n')}\nP9,\n`).rows;

  it('cuts the ready rows into calls of at most so many rows and bytes, leaving out rows with problems', () => {
    expect(chunkRows(rows, 2).map((c) => c.map((r) => r.row))).toEqual([[2, 3], [4, 5], [6]]);
    const bytes = JSON.stringify(rows[0].input).length + 1;
    expect(chunkRows(rows, 1000, bytes * 3).map((c) => c.length)).toEqual([3, 2]);
  });

  it("adds each call's counts and maps its refusals back to the file's rows", () => {
    const [first, second] = chunkRows(rows, 3);
    let totals = addAnswer(NO_TOTALS, first, {
      created: 2,
      updated: 0,
      unchanged: 0,
      rejected: [{ index: 2, message: 'x' }],
    });
    totals = addAnswer(totals, second, {
      created: 0,
      updated: 1,
      unchanged: 0,
      rejected: [{ index: 1, message: 'y' }],
    });
    expect(totals).toEqual({
      created: 2,
      updated: 1,
      unchanged: 0,
      rejected: [{ row: 4, message: 'x' }, { row: 6, message: 'y' }],
    });
  });
});

import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../csv.ts';
import { checkRows, MAX_ROWS, outcomes, templateCsv } from './bulk-rows.ts';

const NOW = new Date(2026, 10, 1, 12, 0).getTime();
const check = (text: string) => checkRows(parseCsv(text).rows, NOW);

describe('checkRows', () => {
  it('finds the columns by name or alias, in any order and case, and names the ones it ignores', () => {
    const r = check('Customer Name;E-Mail Address;Order Number;Notes\nAda;ada@example.com;A-1;vip');
    expect(r.fileProblems).toEqual([]);
    expect(r.columns).toEqual(['email', 'name', 'order_id']);
    expect(r.ignored).toEqual(['Notes']);
    expect(r.rows[0].input).toEqual({
      email: 'ada@example.com',
      name: 'Ada',
      order_id: 'A-1',
      external_id: undefined,
      locale: 'en',
      send_at: undefined,
    });
  });

  it('names what is wrong with the file as a whole', () => {
    expect(checkRows([], NOW).fileProblems).toEqual(['The file is empty.']);
    expect(check('email,name\n').fileProblems).toEqual(['The file has a header row but no customers under it.']);
    expect(check('mail,phone\na@b.de,1').fileProblems).toEqual([
      'The first row names no "name" column. The first row must name the columns, as in the template.',
    ]);
  });

  it("names each row's problems by its spreadsheet row number", () => {
    const r = check(
      [
        'email,name,external_id,locale,send_at',
        'ada@example.com,Ada,r-1,de_at,2026-12-01 09:00',
        'not-an-address,,r-1,english,someday',
        'ADA@example.com,Ada again,,,',
      ].join('\n'),
    );
    expect(r.rows.map((x) => x.row)).toEqual([2, 3, 4]);
    expect(r.rows[0].problems).toEqual([]);
    expect(r.rows[0].input?.locale).toBe('de-AT');
    expect(r.rows[0].input?.send_at).toBe(new Date(2026, 11, 1, 9, 0).toISOString());
    expect(r.rows[1].problems).toEqual([
      '"not-an-address" is not a valid e-mail address.',
      'Name missing.',
      'The same reference as row 2.',
      'Language "english" is not a code such as en or de.',
      'Send at "someday" is not a date and time such as 2026-12-01 09:00.',
    ]);
    expect(r.rows[1].input).toBeUndefined();
    expect(r.rows[2].problems).toEqual(['The same e-mail as row 2: each customer is asked once per file.']);
  });

  it('refuses values longer than the API takes', () => {
    const long = 'x'.repeat(201);
    const r = check(`email,name,order_id,external_id\na@b.de,${long},${long},${long}`);
    expect(r.rows[0].problems).toEqual([
      'Name longer than 200 characters.',
      'Order longer than 200 characters.',
      'Reference longer than 200 characters.',
    ]);
  });

  it(`holds back the ready rows beyond ${MAX_ROWS}`, () => {
    const lines = ['email,name', ...Array.from({ length: MAX_ROWS + 1 }, (_, i) => `c${i}@example.com,C ${i}`)];
    const r = check(lines.join('\n'));
    expect(r.rows.filter((x) => x.input)).toHaveLength(MAX_ROWS);
    expect(r.rows.at(-1)!.problems[0]).toMatch(/^Beyond the .* requests that can be sent at once/);
  });
});

describe('the template', () => {
  it('names every column and passes its own check', () => {
    const r = checkRows(parseCsv(templateCsv()).rows, NOW);
    expect(r.columns).toEqual(['email', 'name', 'order_id', 'external_id', 'locale', 'send_at']);
    expect(r.fileProblems).toEqual([]);
    expect(r.rows.every((x) => x.input)).toBe(true);
  });
});

describe('outcomes', () => {
  it('matches accepted rows by address and refused rows by their index among the rows sent', () => {
    const checked = check('email,name\na@example.com,A\nbad,B\nc@example.com,C');
    const upload = { fileName: 'f.csv', key: 'k', ...checked };
    const sent = checked.rows.filter((r) => r.input);
    const request = { id: 'r1', email: 'A@example.com', status: 'queued' } as never;
    const result = { data: [request], rejected: [{ index: 1, message: 'refused' }] } as never;
    const o = outcomes(upload, sent, result);
    expect(o.map((x) => [x.row.row, x.sent, x.message, x.request])).toEqual([
      [2, true, undefined, request],
      [3, false, '"bad" is not a valid e-mail address.', undefined],
      [4, true, 'refused', undefined],
    ]);
  });
});

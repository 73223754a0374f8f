import { describe, expect, it } from 'vitest';
import { csvCell, decodeCsvBytes, detectDelimiter, parseCsv, toCsv } from './csv.ts';

describe('parseCsv', () => {
  it('reads RFC 4180 quoting: separators, doubled quotes and line breaks inside quotes', () => {
    const { rows } = parseCsv('a,b,c\r\n"x, y","say ""hi""","two\r\nlines"\r\n');
    expect(rows).toEqual([['a', 'b', 'c'], ['x, y', 'say "hi"', 'two\r\nlines']]);
  });

  it('drops a byte-order mark and reads CRLF, LF and CR line ends alike', () => {
    expect(parseCsv('\ufeffemail,name\r\na@x.de,A\nb@x.de,B\rc@x.de,C').rows).toEqual([
      ['email', 'name'],
      ['a@x.de', 'A'],
      ['b@x.de', 'B'],
      ['c@x.de', 'C'],
    ]);
  });

  it('finds the separator of the first line: commas, semicolons or tabs, not those inside quotes', () => {
    expect(detectDelimiter('email;name\na,b')).toBe(';');
    expect(detectDelimiter('"a;b;c",d\n')).toBe(',');
    expect(detectDelimiter('email\tname')).toBe('\t');
    expect(parseCsv('email;name\r\n"a;b";B').rows).toEqual([['email', 'name'], ['a;b', 'B']]);
  });

  it('takes a given separator over the one it would find', () => {
    expect(parseCsv('a;b,c', ',').rows).toEqual([['a;b', 'c']]);
  });

  it('skips blank lines but keeps rows of empty cells, and names the line each record starts on', () => {
    const parsed = parseCsv('h1,h2\n\n"multi\nline",x\n,\n');
    expect(parsed.rows).toEqual([['h1', 'h2'], ['multi\nline', 'x'], ['', '']]);
    expect(parsed.lines).toEqual([1, 3, 5]);
  });

  it('keeps a last record without a line end, and reads an empty file as no records', () => {
    expect(parseCsv('a,b\n1,2').rows).toEqual([['a', 'b'], ['1', '2']]);
    expect(parseCsv('').rows).toEqual([]);
    expect(parseCsv('\ufeff').rows).toEqual([]);
  });

  it('drops spaces before an opening quote', () => {
    expect(parseCsv('a, "b, c"').rows).toEqual([['a', 'b, c']]);
  });
});

describe('writing CSV', () => {
  it('quotes cells with quotes, separators or line breaks, and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a "b"')).toBe('"a ""b"""');
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell(null)).toBe('');
    expect(csvCell(3)).toBe('3');
  });

  it('writes CRLF records that the parser reads back', () => {
    const rows = [['email', 'note'], ['a@x.de', 'line one\nline two, "quoted"']];
    const text = toCsv(rows);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text).rows).toEqual(rows);
  });
});

describe('decodeCsvBytes', () => {
  it('reads UTF-8, and Windows-1252 when the bytes are not UTF-8', () => {
    expect(decodeCsvBytes(new TextEncoder().encode('Müller'))).toBe('Müller');
    expect(decodeCsvBytes(new Uint8Array([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]))).toBe('Müller');
  });
});

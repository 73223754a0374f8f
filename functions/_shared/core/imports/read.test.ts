import { describe, expect, it } from 'vitest';
import { detectFormat, FORMATS, IMPORT_FORMATS } from './formats.ts';
import { readImport, readImportDate } from './read.ts';

const NOW = new Date('2026-11-28T12:00:00Z');
const utf8 = (s: string) => new TextEncoder().encode(s);
const read = (s: string | Uint8Array, format: Parameters<typeof readImport>[1] = null) =>
  readImport(typeof s === 'string' ? utf8(s) : s, format, { now: NOW });

/** The one review of a file, or the failure's message. */
function only(s: string, format: Parameters<typeof readImport>[1] = null) {
  const r = read(s, format);
  if (!r.ok) throw new Error(r.message);
  expect(r.rejected).toEqual([]);
  expect(r.reviews).toHaveLength(1);
  return { format: r.format, review: r.reviews[0] };
}

describe("a review's language", () => {
  it('is told from its title and text, and null when they are too short to tell', () => {
    const head = 'Review Title,Review Content,Review Score,Date,Display Name\n';
    expect(only(head + ',Sehr zufrieden mit der Lieferung und der Qualität.,5,2024-03-01,Jo\n').review.language)
      .toBe('de');
    expect(
      only(head + 'Superbe,Le produit est arrivé rapidement et fonctionne très bien.,5,2024-03-01,Jo\n').review
        .language,
    ).toBe('fr');
    expect(only(head + 'Great,Works,5,2024-03-01,Jo\n').review.language).toBeNull();
  });
});

describe('the formats', () => {
  it('reads one review of each platform, as its export writes it', () => {
    const judgeme = only(
      'title,body,rating,review_date,source,curated,reviewer_name,reviewer_email,product_id,product_handle,reply,reply_date,picture_urls,ip_address,location\n' +
        'Great,"Lovely mug, ""really""",5,2024-03-01 10:20:30 UTC,web,ok,Ann,ann@example.com,123,blue-mug,Thanks!,2024-03-02,https://cdn.example/a.jpg,1.2.3.4,Oslo\n',
    );
    expect(judgeme.format).toBe('judgeme');
    expect(judgeme.review).toMatchObject({
      row: 2,
      rating: 5,
      title: 'Great',
      content: 'Lovely mug, "really"',
      reviewer_name: 'Ann',
      reviewer_email: 'ann@example.com',
      created_at: '2024-03-01T10:20:30.000Z',
      reply: 'Thanks!',
      replied_at: '2024-03-02T00:00:00.000Z',
      product_external_id: '123',
      product_name: 'blue-mug',
      published: true,
      imported_as_verified: false,
      media_urls: ['https://cdn.example/a.jpg'],
    });
    expect(JSON.stringify(judgeme.review)).not.toContain('1.2.3.4');

    expect(
      only(
        'Review Title,Review Content,Review Score,Date,Product ID,Product Name,Display Name,Email\nNice,Works,4,2023-12-31,P1,Pot,Bo,bo@example.com\n',
      ),
    ).toMatchObject({
      format: 'yotpo',
      review: { rating: 4, product_external_id: 'P1', product_name: 'Pot', reviewer_name: 'Bo' },
    });

    expect(
      only(
        'Review ID,Product ID,Product Name,Rating,Title,Body,Reviewer Name,Is Verified Buyer,Date Created,Status\nr-9,P2,Vase,3,Ok,Fine,Cy,true,2023-05-05T08:00:00Z,approved\n',
      ),
    ).toMatchObject({ format: 'okendo', review: { source_id: 'r-9', imported_as_verified: true, published: true } });

    expect(
      only(
        'id,status,rating,email,nickname,full_name,review,date,productId,handle,img,variant,verified_purchase\nL1,hidden,2,dee@example.com,,Dee Dee,Meh,2022-01-02,777,cup,,Large,FALSE\n',
      ),
    ).toMatchObject({ format: 'loox', review: { source_id: 'L1', reviewer_name: 'Dee Dee', published: false } });

    expect(
      only(
        'product_handle,state,rating,title,author,email,location,body,reply,created_at,replied_at\nbowl,published,5,Wow,Eve,eve@example.com,Paris,Superb,,2021-06-07 09:10:11,\n',
      ),
    ).toMatchObject({ format: 'shopify', review: { product_external_id: 'bowl', reply: null, replied_at: null } });
  });

  it("reads Plaudit's own export back, with its defused formulas as the text they were", () => {
    const { review } = only(
      'id,rating,title,content,reviewer_name,reviewer_email,verification_status,is_hidden,created_at,form_id,product_external_id,product_name,custom_fields.city\n' +
        `9b1f0f8e-1c55-4f7e-9b5e-1d2c3b4a5f60,1,'=SUM(A1),'=cmd|' /C calc'!A0,Fay,,verified,true,2025-01-02T03:04:05.678Z,f,,,Oslo\n`,
    );
    expect(review).toMatchObject({
      source_id: '9b1f0f8e-1c55-4f7e-9b5e-1d2c3b4a5f60',
      title: '=SUM(A1)',
      content: "=cmd|' /C calc'!A0",
      reviewer_email: null,
      published: false,
      imported_as_verified: true,
      created_at: '2025-01-02T03:04:05.678Z',
    });
  });

  it('tells the formats apart by their header alone, in any order, extra columns aside', () => {
    for (const f of IMPORT_FORMATS) {
      expect(detectFormat([...FORMATS[f].header].reverse().concat('Something else'))).toBe(f);
    }
    expect(detectFormat(['name', 'stars'])).toBeNull();
  });
});

describe('refusals', () => {
  it('takes each good row and names each bad one by its row and reason', () => {
    const r = read(
      'Review Title,Review Content,Review Score,Date,Product ID,Product Name,Display Name,Email\n' +
        'A,Good,5,2024-01-01,,,Al,\n' +
        'B,Too good,9,2024-01-01,,,Bea,\n' +
        'C,"Two\nlines",4,2024-01-01,,,Cid,not-an-address\n' +
        'D,,4,2024-01-01,,,Dan,\n' +
        'E,Later,4,2027-01-01,,,Eli,\n' +
        'F,When,4,2024-02-30,,,Flo,\n',
    );
    if (!r.ok) throw new Error(r.message);
    expect(r.total_rows).toBe(6);
    expect(r.reviews.map((x) => [x.row, x.content, x.reviewer_email])).toEqual([
      [2, 'Good', null],
      [4, 'Two\nlines', null],
    ]);
    expect(r.rejected).toEqual([
      { row: 3, message: 'Review Score: must be a whole number from 1 to 5, not "9"' },
      { row: 5, message: 'Review Content: empty; a review needs its text' },
      { row: 6, message: 'Date: in the future ("2027-01-01")' },
      { row: 7, message: 'Date: not a date ("2024-02-30")' },
    ]);
  });

  it('reads UTF-8 with and without a byte-order mark, and Windows-1252', () => {
    const csv =
      'Review Title,Review Content,Review Score,Date,Product ID,Product Name,Display Name,Email\nCafé,Très bien,5,2024-01-01,,,Zoë,\n';
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(csv)]);
    const cp1252 = new Uint8Array(
      [...csv].map((ch) => ({ é: 0xe9, è: 0xe8, ë: 0xeb } as Record<string, number>)[ch] ?? ch.charCodeAt(0)),
    );
    for (const bytes of [utf8(csv), withBom, cp1252]) {
      const r = read(bytes);
      if (!r.ok) throw new Error(r.message);
      expect(r.reviews[0]).toMatchObject({ title: 'Café', content: 'Très bien', reviewer_name: 'Zoë' });
    }
  });

  it('refuses UTF-16, a binary file, an empty one, an unknown or ambiguous header, missing columns', () => {
    const fail = (x: string | Uint8Array, format: Parameters<typeof readImport>[1] = null) => {
      const r = read(x, format);
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.message;
    };
    expect(fail(new Uint8Array([0xff, 0xfe, 0x41, 0]))).toBe(
      'file: UTF-16 is not read; save the file as CSV UTF-8 and upload it again',
    );
    expect(fail(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]))).toBe(
      'file: this is not a text file; upload the CSV the platform exported',
    );
    expect(fail('')).toBe('file: empty; it needs a header row and reviews');
    expect(fail('name,stars\nA,5\n')).toMatch(/^format: the header row is none of the formats read/);
    // Both Loox's and Plaudit's required columns.
    expect(fail('id,rating,content,reviewer_name,verification_status,is_hidden,created_at,review,date,productId\n'))
      .toBe(
        'format: the header fits Plaudit and Loox; choose one',
      );
    expect(fail('title,body,rating\n', 'judgeme')).toBe(
      'file: the Judge.me header lacks review_date, reviewer_name, curated',
    );
  });
});

describe('readImportDate', () => {
  const iso = (s: string, order: 'dmy' | 'mdy' | null = null) => {
    const r = readImportDate(s, order);
    return 'date' in r ? r.date.toISOString() : r.problem;
  };
  it('reads the ways platforms write dates, in UTC unless they say otherwise', () => {
    expect(iso('2024-03-01')).toBe('2024-03-01T00:00:00.000Z');
    expect(iso('2024-03-01T10:00:00+02:00')).toBe('2024-03-01T08:00:00.000Z');
    expect(iso('2024-03-01 10:00')).toBe('2024-03-01T10:00:00.000Z');
    expect(iso('03/01/2024 10:00:05', 'mdy')).toBe('2024-03-01T10:00:05.000Z');
    for (const bad of ['', 'yesterday', '2024-13-01', '2024-02-30', '2024-01-01 25:00', '2024-01-01T00:00:00+99:99']) {
      expect(iso(bad)).toBe('invalid');
    }
  });

  it('takes day and month by the order chosen, else by a number over 12; both 12 or less is ambiguous', () => {
    expect(iso('07/04/2024')).toBe('ambiguous');
    expect(iso('07.04.2024')).toBe('ambiguous');
    expect(iso('07/04/2024', 'dmy')).toBe('2024-04-07T00:00:00.000Z');
    expect(iso('07/04/2024', 'mdy')).toBe('2024-07-04T00:00:00.000Z');
    expect(iso('13/04/2024')).toBe('2024-04-13T00:00:00.000Z');
    expect(iso('04/13/2024')).toBe('2024-04-13T00:00:00.000Z');
    expect(iso('05.05.2024')).toBe('2024-05-05T00:00:00.000Z');
    expect(iso('13/04/2024', 'mdy')).toBe('invalid');
  });
});

describe('checking rows', () => {
  const YOTPO = 'Review Title,Review Content,Review Score,Date,Product ID,Product Name,Display Name,Email,Published\n';
  const JUDGEME = 'title,body,rating,review_date,source,curated,reviewer_name,reviewer_email,product_id,' +
    'product_handle,reply,reply_date,picture_urls,ip_address,location,hidden\n';

  it("reads each platform's published column: Yotpo's Published, Judge.me's curated and hidden", () => {
    const yotpo = read(
      YOTPO + 'A,Shown,4,2024-01-02,P1,Pot,Al,,true\nB,Rejected there,2,2024-01-03,P1,Pot,Bo,,false\n',
    );
    if (!yotpo.ok) throw new Error(yotpo.message);
    expect(yotpo.reviews.map((r) => [r.content, r.published, r.hidden_reason])).toEqual([
      ['Shown', true, null],
      ['Rejected there', false, 'not published on Yotpo (Published: false)'],
    ]);
    const judgeme = read(
      JUDGEME + ',Curated,5,2024-01-02,web,ok,Al,,,mug,,,,,,\n,Hidden,5,2024-01-03,web,ok,Bo,,,mug,,,,,,true\n' +
        ',Spam,1,2024-01-04,web,spam,Cy,,,mug,,,,,,\n',
    );
    if (!judgeme.ok) throw new Error(judgeme.message);
    expect(judgeme.reviews.map((r) => [r.content, r.published, r.hidden_reason])).toEqual([
      ['Curated', true, null],
      ['Hidden', false, 'not published on Judge.me (curated: ok, hidden: true)'],
      ['Spam', false, 'not published on Judge.me (curated: spam)'],
    ]);
    // A product named only by its handle is not named: the import makes it archived.
    expect(judgeme.reviews[0]).toMatchObject({ product_external_id: 'mug', product_named: false });
    expect(yotpo.reviews[0]).toMatchObject({ product_external_id: 'P1', product_named: true });
  });

  it('refuses an ambiguous date with its row unless the date order is chosen, and counts them', () => {
    const file = YOTPO + 'A,First,4,07/04/2024,P1,Pot,Al,,\nB,Second,4,13/04/2024,P1,Pot,Bo,,\n';
    const guessed = read(file);
    if (!guessed.ok) throw new Error(guessed.message);
    expect(guessed.rejected).toEqual([{
      row: 2,
      message: 'Date: "07/04/2024" reads as day/month or month/day; choose the file\'s date order (dmy or mdy)',
    }]);
    expect(guessed.ambiguous_dates).toBe(1);
    expect(guessed.reviews.map((r) => r.created_at)).toEqual(['2024-04-13T00:00:00.000Z']);
    const dmy = readImport(utf8(file), null, { now: NOW, dateOrder: 'dmy' });
    if (!dmy.ok) throw new Error(dmy.message);
    expect(dmy.reviews.map((r) => r.created_at)).toEqual(['2024-04-07T00:00:00.000Z', '2024-04-13T00:00:00.000Z']);
    const mdy = readImport(utf8(file), null, { now: NOW, dateOrder: 'mdy' });
    if (!mdy.ok) throw new Error(mdy.message);
    expect(mdy.reviews.map((r) => r.created_at)).toEqual(['2024-07-04T00:00:00.000Z']);
    expect(mdy.rejected).toEqual([{ row: 3, message: 'Date: not a date ("13/04/2024")' }]);
  });

  it('refuses dates out of range, impossible offsets and ratings that are not plain decimals', () => {
    const r = read(
      JUDGEME +
        ',Reply far ahead,5,2024-01-02,web,ok,Al,,,,Thanks,9999-12-31,,,,\n' +
        ',Too old,5,0100-01-01,web,ok,Bo,,,,,,,,,\n' +
        ',Odd offset,5,2024-01-02T10:00:00+99:99,web,ok,Cy,,,,,,,,,\n' +
        ',Hex rating,0x5,2024-01-02,web,ok,Di,,,,,,,,,\n' +
        ',Exponent,5e0,2024-01-02,web,ok,Ed,,,,,,,,,\n' +
        ',Tomorrow and a bit,5,2026-11-29T13:00:00Z,web,ok,Fa,,,,,,,,,\n' +
        ',Fine,5.0,1995-01-01,web,ok,Gu,,,,Thanks,2026-11-29T11:00:00Z,,,,\n',
    );
    if (!r.ok) throw new Error(r.message);
    expect(r.rejected).toEqual([
      { row: 2, message: 'reply_date: in the future ("9999-12-31")' },
      { row: 3, message: 'review_date: before 1995 ("0100-01-01")' },
      { row: 4, message: 'review_date: not a date ("2024-01-02T10:00:00+99:99")' },
      { row: 5, message: 'rating: must be a whole number from 1 to 5, not "0x5"' },
      { row: 6, message: 'rating: must be a whole number from 1 to 5, not "5e0"' },
      { row: 7, message: 'review_date: in the future ("2026-11-29T13:00:00Z")' },
    ]);
    expect(r.reviews.map((x) => [x.content, x.rating])).toEqual([['Fine', 5]]);
  });

  it('counts a row repeated in the file as a duplicate, not as one more review', () => {
    const r = read(
      YOTPO + 'A,Fine,4,2023-01-01,P9,Pot,Al,,\nA,Fine,4,2023-01-01,P9,Pot,Al,,\nB,Other,4,2023-01-01,P9,Pot,Al,,\n',
    );
    if (!r.ok) throw new Error(r.message);
    expect(r.reviews.map((x) => x.row)).toEqual([2, 4]);
    expect(r.duplicates).toBe(1);
  });

  it('counts every refused row and keeps the first hundred', () => {
    const r = read(YOTPO + 'A,Bad,9,2023-01-01,P9,Pot,Al,,\n'.repeat(200_000));
    if (!r.ok) throw new Error(r.message);
    expect(r.rejected_count).toBe(200_000);
    expect(r.rejected).toHaveLength(100);
    expect(r.rejected[99].row).toBe(101);
  });
});

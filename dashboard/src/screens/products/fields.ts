// A product's fields as the API judges them (routes/products/shape.ts and the table's constraints),
// written once for the product form and the CSV upload's check of each row, so both say what the
// API would say before anything is sent.

import { isWebLink, WEB_LINK_RULE } from '../../../../functions/_shared/core/web-links.ts';

export type ProductKey = 'external_id' | 'name' | 'url' | 'image_url' | 'sku' | 'gtin' | 'mpn' | 'brand' | 'group';

export interface ProductField {
  key: ProductKey;
  label: string;
  /** At most this many characters (as the API counts them, after trimming). */
  max: number;
  kind: 'text' | 'url' | 'gtin';
  required?: true;
  what: string;
  /** Two example values, for the CSV template. */
  example: [string, string];
}

export const PRODUCT_FIELDS: ProductField[] = [
  {
    key: 'external_id',
    label: 'Your product id',
    max: 200,
    kind: 'text',
    required: true,
    what: 'Your own id of the product, unique in your catalog: an upload updates the product with this id.',
    example: ['MUG-350-BLUE', 'MUG-350-RED'],
  },
  {
    key: 'name',
    label: 'Name',
    max: 500,
    kind: 'text',
    required: true,
    what: 'The name shoppers see.',
    example: ['Stoneware mug 350 ml, blue', 'Stoneware mug 350 ml, red'],
  },
  {
    key: 'url',
    label: 'Product page',
    max: 2000,
    kind: 'url',
    what: 'The product’s page in your shop (http or https).',
    example: ['https://shop.example.com/mugs/blue', 'https://shop.example.com/mugs/red'],
  },
  {
    key: 'image_url',
    label: 'Image link',
    max: 2000,
    kind: 'url',
    what: 'A link to the product’s picture (http or https; pages show it over https).',
    example: ['https://shop.example.com/img/mug-blue.jpg', ''],
  },
  {
    key: 'sku',
    label: 'SKU',
    max: 200,
    kind: 'text',
    what: 'Your stock keeping unit.',
    example: ['SW-350-B', 'SW-350-R'],
  },
  {
    key: 'gtin',
    label: 'GTIN',
    max: 14,
    kind: 'gtin',
    what: 'The barcode number: EAN-8, UPC-A (12 digits), EAN-13 or GTIN-14, with its check digit.',
    example: ['4006381333931', ''],
  },
  {
    key: 'mpn',
    label: 'MPN',
    max: 200,
    kind: 'text',
    what: 'The manufacturer’s part number.',
    example: ['', ''],
  },
  { key: 'brand', label: 'Brand', max: 200, kind: 'text', what: 'The brand.', example: ['Acme', 'Acme'] },
  {
    key: 'group',
    label: 'Group',
    max: 200,
    kind: 'text',
    what: 'Variants of one product (sizes, colours) share a group and, on public displays, their reviews.',
    example: ['stoneware-mug-350', 'stoneware-mug-350'],
  },
];

export const FIELD_BY_KEY = Object.fromEntries(PRODUCT_FIELDS.map((f) => [f.key, f])) as Record<
  ProductKey,
  ProductField
>;

export const GTIN_RULE = 'must be 8, 12, 13 or 14 digits with a valid check digit';

/**
 * Whether a GTIN (EAN-8, UPC-A, EAN-13, GTIN-14) has its length and check digit: the digits
 * weighted 1, 3, 1, 3, … from the right add up to a multiple of 10 (plaudit.gtin_is_valid's rule;
 * tests/dashboard/gtin.test.ts holds both to the same answers).
 */
export function gtinIsValid(gtin: string): boolean {
  if (!/^(\d{8}|\d{12,14})$/.test(gtin)) return false;
  let sum = 0;
  for (let i = 0; i < gtin.length; i++) {
    const digit = gtin.charCodeAt(gtin.length - 1 - i) - 48;
    sum += i % 2 === 0 ? digit : digit * 3;
  }
  return sum % 10 === 0;
}

/**
 * What is wrong with a field's value (trimmed, as the API trims it), in the API's words after the
 * field's name; undefined when the API would take it. An empty optional value is no problem.
 */
export function fieldProblem(key: ProductKey, raw: string): string | undefined {
  const f = FIELD_BY_KEY[key];
  const value = raw.trim();
  if (!value) return f.required ? 'is required' : undefined;
  if (f.kind === 'gtin') {
    if (gtinIsValid(value)) return undefined;
    // A spreadsheet that took the barcode for a number writes 4.00638E+12, or drops a leading zero.
    if (/^\d(\.\d+)?e\+\d+$/i.test(value)) {
      return `${GTIN_RULE} (the spreadsheet wrote it as a number: format the column as text)`;
    }
    return GTIN_RULE;
  }
  if (value.length > f.max) return `must be at most ${f.max.toLocaleString('en')} characters`;
  if (f.kind === 'url' && !isWebLink(value)) return WEB_LINK_RULE;
  return undefined;
}

import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from '../../core/errors.ts';
import { refusalInRow, refusalOf } from '../http/db-errors.ts';
import { errorFromDatabase, type FieldDefinition, formHeader } from './review-form.ts';

const fields: FieldDefinition[] = [{ key: 'size', label: 'Size', type: 'select', options: ['S', 'M'], required: true }];

/** A refusal as plaudit.submit_review answers it in its row. */
const answered = (code: string, message: string, constraint: string | null = null) => ({
  error_code: code,
  error_message: message,
  error_constraint: constraint,
  error_table: constraint ? 'reviews' : null,
});

describe('a refusal of the database, on the hosted form and in the API', () => {
  it('names the field of a table constraint once, whether raised or answered in a row', () => {
    const raised = {
      code: '23514',
      message: 'new row violates check constraint',
      constraint_name: 'reviews_content_check',
    };
    const inRow = refusalInRow(answered('23514', 'new row violates check constraint', 'reviews_content_check'));
    expect(refusalOf({ ...raised, table_name: 'reviews' })).toEqual({ status: 422, message: 'content: is invalid' });
    expect(refusalOf(inRow)).toEqual({ status: 422, message: 'content: is invalid' });
    expect(errorFromDatabase(refusalOf(inRow)!.message, fields)).toEqual({ content: 'Is invalid' });
  });

  it('puts each message where the API names its field', () => {
    for (
      const [message, control] of [
        ['custom_fields.size: is required', 'cf_size'],
        ['reviewer_email: must be an e-mail address', 'reviewer_email'],
        ['rating: is invalid', 'rating'],
      ]
    ) {
      // The API's `errors` (core/errors.ts errorBody) name the field so.
      const [named] = fieldErrorsOf(message);
      const placed = errorFromDatabase(message, fields);
      expect(Object.keys(placed)).toEqual([control]);
      expect(placed[control]).toContain(named.message.slice(1));
    }
    expect(errorFromDatabase('custom_fields.size: must be one of S, M', fields)).toEqual({
      cf_size: 'Size: must be one of S, M',
    });
  });

  it('leaves to the form as a whole what names no field of the form', () => {
    for (
      const message of [
        'product_external_id: this review request does not name this product',
        'custom_fields: must be an object keyed by field key',
        'Review form not found',
        'This review was already submitted: the same e-mail address sent the same text to this form',
      ]
    ) {
      expect(errorFromDatabase(message, fields)).toEqual({ _form: message });
    }
  });

  it('answers a row without a refusal as none', () => {
    expect(refusalInRow({ error_code: null, error_message: null })).toBeUndefined();
    expect(refusalOf(refusalInRow(answered('P0002', 'Review form not found')))).toEqual({
      status: 404,
      message: 'Review form not found',
    });
  });
});

describe("the business's logo above a page of review forms", () => {
  it('is shown over https only: an http address is asked for over https, anything else is left out', () => {
    expect(formHeader('Shop', 'http://shop.example/logo.png', 'Review').value).toContain(
      '<img class="logo" src="https://shop.example/logo.png" alt="Shop logo"',
    );
    expect(formHeader('Shop', 'https://shop.example/logo.png', 'Review').value).toContain(
      'src="https://shop.example/logo.png"',
    );
    expect(formHeader('Shop', 'javascript:alert(1)', 'Review').value).not.toContain('<img');
  });
});

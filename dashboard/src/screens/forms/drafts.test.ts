import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api.ts';
import { changeDraft, definitionOf, draftOf, keyOf, moveDraft, newDraft, optionsErrorOf, SHOWN } from './drafts.ts';

describe('keyOf', () => {
  it('makes a key of lower-case letters, digits and _ from a label', () => {
    expect(keyOf('Which product did you buy?')).toBe('which_product_did_you_buy');
    expect(keyOf('  Ärger & Freude ')).toBe('arger_freude');
    expect(keyOf('Café crème')).toBe('cafe_creme');
  });

  it('starts with a letter, and is at most 50 characters without a trailing _', () => {
    expect(keyOf('2nd choice')).toBe('q_2nd_choice');
    expect(keyOf(`${'a'.repeat(49)} b`)).toBe('a'.repeat(49));
    expect(keyOf('x'.repeat(80))).toHaveLength(50);
  });

  it('is empty for a label without letters or digits', () => {
    expect(keyOf('?!')).toBe('');
    expect(keyOf('')).toBe('');
  });
});

describe('drafts', () => {
  it('let a new question’s key follow its label until the key is edited', () => {
    let d = changeDraft(newDraft(), { label: 'Favourite colour' });
    expect(d.key).toBe('favourite_colour');
    d = changeDraft(d, { key: 'colour', keyEdited: true });
    d = changeDraft(d, { label: 'Colour you like' });
    expect(d.key).toBe('colour');
  });

  it('keep the key of a saved question when its label changes', () => {
    const d = draftOf({ key: 'size', label: 'Size', type: 'select', required: true, options: ['S', 'M'] });
    expect(d).toMatchObject({ key: 'size', options: 'S\nM', keyEdited: true, stored: true });
    expect(changeDraft(d, { label: 'Your size' }).key).toBe('size');
  });

  it("keep a scale's labels in order, one per line, and send them as its scale (a rating sends nothing more)", () => {
    const scale = ['Runs small', 'True to size', 'Runs large'];
    const d = draftOf({ key: 'fit', label: 'Fit', type: 'scale', required: false, scale });
    expect(d.options).toBe('Runs small\nTrue to size\nRuns large');
    expect(definitionOf(d)).toEqual({ key: 'fit', label: 'Fit', type: 'scale', required: false, scale });
    expect(definitionOf(draftOf({ key: 'q', label: 'Quality', type: 'rating', required: false }))).toEqual({
      key: 'q',
      label: 'Quality',
      type: 'rating',
      required: false,
    });
    const error = new ApiError(422, 'bad', [
      { field: 'custom_fields.0.scale', code: 'custom', message: 'must not repeat a label' },
    ]);
    expect(optionsErrorOf(error, 'custom_fields.0', 'scale')?.field('custom_fields.0.scale')).toBe(
      'must not repeat a label',
    );
    expect(SHOWN.test('custom_fields.0.scale')).toBe(true);
  });

  it('give each question its own uid', () => {
    expect(newDraft().uid).not.toBe(newDraft().uid);
  });

  it('move a question up or down', () => {
    const [a, b, c] = [newDraft(), newDraft(), newDraft()];
    expect(moveDraft([a, b, c], 1, -1)).toEqual([b, a, c]);
    expect(moveDraft([a, b, c], 1, 1)).toEqual([a, c, b]);
  });

  it("become the API's definitions: trimmed, a list's choices one per line, others without choices", () => {
    const select = changeDraft(newDraft(), { label: ' Size ', type: 'select', options: 'S\n\n M \n' });
    expect(definitionOf(select)).toEqual({
      key: 'size',
      label: 'Size',
      type: 'select',
      required: false,
      options: ['S', 'M'],
    });
    const text = changeDraft(newDraft(), { label: 'Note', options: 'left over' });
    expect(definitionOf(text)).toEqual({ key: 'note', label: 'Note', type: 'text', required: false });
  });
});

describe("the API's messages", () => {
  it('are shown at a control for the names the editor has, in the summary otherwise', () => {
    for (
      const f of ['name', 'verification_mode', 'custom_fields', 'custom_fields.3.key', 'custom_fields.0.options.2']
    ) {
      expect(SHOWN.test(f), f).toBe(true);
    }
    for (const f of ['is_active', 'custom_fields.1', 'custom_fields.1.min']) expect(SHOWN.test(f), f).toBe(false);
  });

  it("put a problem of one choice at the question's list of choices", () => {
    const error = new ApiError(422, 'invalid', [
      { field: 'custom_fields.1.options.2', code: 'too_big', message: 'too long' },
    ]);
    expect(optionsErrorOf(error, 'custom_fields.1')?.field('custom_fields.1.options')).toBe('too long');
    expect(optionsErrorOf(error, 'custom_fields.0')).toBeUndefined();
    expect(optionsErrorOf(undefined, 'custom_fields.1')).toBeUndefined();
  });
});

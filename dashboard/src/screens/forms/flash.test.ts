import { describe, expect, it } from 'vitest';
import { setFlash, takeFlash } from './flash.ts';
import { questions } from './words.ts';

describe('the message for the next screen', () => {
  it('is shown once', () => {
    setFlash('The form is created.');
    expect(takeFlash()).toBe('The form is created.');
    expect(takeFlash()).toBe('');
  });
});

describe('questions', () => {
  it('counts own questions in words', () => {
    expect([0, 1, 2].map(questions)).toEqual(['No own questions', '1 own question', '2 own questions']);
  });
});

// The business's own sections of its review policy page (`review_policy` of the public profile
// settings): a text field, and a preview of them as the page shows them (paragraphs of text, markup
// as typed), under a link to the whole page, whose other sections are written from the settings.
import { ownParagraphs } from '../../../functions/_shared/core/review-policy-text.ts';
import type { ApiError } from '../api.ts';
import { TextAreaField } from './fields.tsx';

export const REVIEW_POLICY_MAX = 10_000;

export function ReviewPolicySetting(
  { value, onValue, error, slug }: { value: string; onValue: (v: string) => void; error?: ApiError; slug: string },
) {
  const paragraphs = ownParagraphs(value);
  return (
    <section class='card' aria-labelledby='policy-heading'>
      <h2 id='policy-heading'>Review policy</h2>
      <p class='muted'>
        Your public page links to your review policy:{' '}
        <a href={`/p/${encodeURIComponent(slug)}/policy`} target='_blank' rel='noopener'>
          see it<span class='visually-hidden'>(opens in a new tab)</span>
        </a>. It says what you verify, what you hide and why, how incentives and imported reviews are labelled, and how
        to report a review or appeal, written from your settings. Add what only you can say below.
      </p>
      <TextAreaField
        label='Your own sections'
        name='review_policy'
        error={error}
        hint='Shown after the generated sections, as plain text: a blank line starts a paragraph. Links and formatting show as typed. Leave empty for none.'
        rows={6}
        maxLength={REVIEW_POLICY_MAX}
        value={value}
        onValue={onValue}
      />
      <div class='policy-preview' aria-labelledby='policy-preview-heading'>
        <h3 id='policy-preview-heading'>Preview</h3>
        {paragraphs.length
          ? paragraphs.map((p, i) => <p key={i}>{p}</p>)
          : <p class='muted'>Nothing of your own: the page shows the generated sections only.</p>}
      </div>
    </section>
  );
}

// The public profile's setting for reviewers' photos and videos: shown with their review at once
// (auto), or held hidden until a member shows them on the review's page (manual).
import type { Schemas } from '../api.ts';
import { ChoiceGroup } from './fields.tsx';

export type MediaModeration = Schemas['PublicProfileSettings']['media_moderation'];

const CHOICES: [MediaModeration, string, string][] = [
  ['auto', 'Show them at once', 'New photos and videos are public with their review; you can hide any of them later.'],
  [
    'manual',
    'Hold them until I show them',
    "New photos and videos arrive hidden; show each one from the review's page.",
  ],
];

export function MediaModerationSetting(
  { value, onValue }: { value: MediaModeration; onValue: (v: MediaModeration) => void },
) {
  return (
    <section class='card' aria-labelledby='media-heading'>
      <h2 id='media-heading'>Reviewers' photos and videos</h2>
      <ChoiceGroup
        legend='New photos and videos'
        name='media_moderation'
        value={value}
        choices={CHOICES}
        onValue={onValue}
      />
    </section>
  );
}

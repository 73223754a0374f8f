import { describe, expect, it } from 'vitest';
import type { Schemas } from '../api.ts';
import { actorLabel, mediaWords, METHOD_LABEL, sourceWords, VERIFICATION_LABEL } from './words.ts';

type Review = Schemas['Review'];

describe('the words of a review', () => {
  it('name every verification status and method the API answers', () => {
    const statuses: Review['verification_status'][] = ['unverified', 'pending', 'verified', 'rejected'];
    const methods: NonNullable<Review['verification_method']>[] = ['email', 'purchase_proof', 'manual', 'invitation'];
    expect(Object.keys(VERIFICATION_LABEL).sort()).toEqual([...statuses].sort());
    expect(Object.keys(METHOD_LABEL).sort()).toEqual([...methods].sort());
  });

  it("say where a review came from, an import by its platform's name", () => {
    expect(sourceWords('form', null)).toBe('Sent through a form or the API');
    expect(sourceWords('invitation', null)).toBe("Written through a review request's page");
    expect(sourceWords('import', 'judgeme')).toBe('Imported from Judge.me');
    expect(sourceWords('import', 'elsewhere')).toBe('Imported from elsewhere');
    expect(sourceWords('import', null)).toBe('Imported from another platform');
  });

  it('count its photos and videos', () => {
    expect(mediaWords([])).toBeNull();
    expect(mediaWords([{ type: 'image' }])).toBe('1 photo');
    expect(mediaWords([{ type: 'image' }, { type: 'video' }, { type: 'image' }])).toBe('2 photos, 1 video');
    expect(mediaWords([{ type: 'video' }, { type: 'video' }])).toBe('2 videos');
  });

  it("name the trail's actors: a member by name, a key by its prefix, the reviewer's way, the database", () => {
    const members = new Map([['m-1', 'Ada']]);
    expect(actorLabel('member:m-1', members)).toBe('Ada');
    expect(actorLabel('member:m-2', members)).toBe('A team member');
    expect(actorLabel('api_key:0123456789abcdef')).toBe('API key 01234567');
    expect(actorLabel('reviewer:email_link')).toBe('The reviewer, through the e-mail link');
    expect(actorLabel('reviewer:something:new')).toBe('The reviewer (something:new)');
    expect(actorLabel('database:postgres')).toBe('Directly in the database (postgres)');
    expect(actorLabel('unknown')).toBe('unknown');
  });
});

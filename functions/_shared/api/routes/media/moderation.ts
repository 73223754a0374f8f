// Hiding and showing a review's photo or video: the organization's moderation of its media.
import { translateDbErrors } from '../../http/db-errors.ts';
import { answerJsonText } from '../../http/json-text.ts';
import { errorResponseSpec, json, jsonBody, OrgItemParams, Uuid } from '../../http/schemas.ts';
import { orgRoute, router } from '../define.ts';
import { ModerationInput } from '../reviews/moderation.ts';
import { loadReview, Review } from '../reviews/shape.ts';

const MediaItemParams = OrgItemParams.extend({
  mediaId: Uuid.openapi({ param: { name: 'mediaId', in: 'path' }, description: 'The photo or video' }),
});

export const mediaModeration = router().openapi(
  orgRoute('write', {
    method: 'patch',
    path: '/organizations/{orgId}/reviews/{id}/media/{mediaId}/moderate',
    operationId: 'reviews.moderateMedia',
    tags: ['Reviews'],
    summary: "Hide or show a review's photo or video",
    description:
      "A hidden item leaves the public routes and pages, and its `url` answers 404 to the public; the review itself stays as it is. Each change is recorded in the review's moderation history (`hide_media`, `unhide_media`, the reason naming the item) and emits `review.moderated` with the item. With the profile's `media_moderation: manual`, new items arrive hidden: `unhide` shows them. Hiding a hidden item, or showing a visible one, answers 409.",
    request: { params: MediaItemParams, body: jsonBody(ModerationInput) },
    responses: {
      200: json(Review, 'The review after the change'),
      404: errorResponseSpec('No such review, or no such item of it, in this organization'),
      409: errorResponseSpec('The item is already in that state'),
      422: errorResponseSpec('A field failed validation'),
    },
  }),
  async (c) => {
    const { id, mediaId } = c.req.valid('param');
    const { action, reason } = c.req.valid('json');
    const db = c.var.db;
    await translateDbErrors(() =>
      db`select plaudit.moderate_review_media(${id}, ${mediaId}, ${action}, ${reason}, ${c.var.caller!.actor})`
    );
    return answerJsonText(c, await loadReview(db, id), 200);
  },
);

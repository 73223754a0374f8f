// Types read off the generated OpenAPI paths, by path and method (never by operationId, which
// may change): a route's query, JSON body and JSON success answer.
import type { paths } from './generated/openapi.ts';

export type { paths };
export type Path = keyof paths;
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Operation<P extends Path, M extends Method> = NonNullable<paths[P][M]>;

/** The query parameters of a route (`{}` when it takes none). */
export type QueryOf<P extends Path, M extends Method = 'get'> = Operation<P, M> extends
  { parameters: { query?: infer Q } } ? [NonNullable<Q>] extends [never] ? Record<never, never> : NonNullable<Q>
  : Record<never, never>;

/** The JSON request body of a route. */
export type BodyOf<P extends Path, M extends Method> = Operation<P, M> extends { requestBody?: infer B }
  ? NonNullable<B> extends { content: { 'application/json': infer J } } ? J : never
  : never;

type Success = 200 | 201 | 202;

/** The JSON answer of a route's success status (200, 201 or 202). */
export type ResponseOf<P extends Path, M extends Method> = Operation<P, M>['responses'] extends infer R ? {
    [S in keyof R & Success]: R[S] extends { content: { 'application/json': infer J } } ? J : never;
  }[keyof R & Success]
  : never;

/** The item type of a paginated list route. */
export type ItemOf<P extends Path, M extends Method = 'get'> = ResponseOf<P, M> extends { data: (infer I)[] } ? I
  : never;

type Org = '/api/v1/organizations/{orgId}';

export type PageMeta = ResponseOf<`${Org}/reviews`, 'get'>['meta'];
export type Review = ResponseOf<`${Org}/reviews/{id}`, 'get'>;
export type ReviewListQuery = QueryOf<`${Org}/reviews`>;
export type ReviewSubmission = BodyOf<'/api/v1/reviews', 'post'>;
/** The submitted review, with the token that adds photos and videos to it. */
export type SubmittedReview = ResponseOf<'/api/v1/reviews', 'post'>;
/** A photo or video of a review. */
export type ReviewMedia = ResponseOf<'/api/v1/reviews/{id}/media', 'post'>;
export type ModerationInput = BodyOf<`${Org}/reviews/{id}/moderate`, 'patch'>;
export type ReplyInput = BodyOf<`${Org}/reviews/{id}/reply`, 'put'>;
export type ModerationEntry = ItemOf<`${Org}/reviews/{id}/moderation-history`>;
export type Statement = ItemOf<`${Org}/reviews/{id}/statements`>;
export type ReviewForm = ResponseOf<`${Org}/review-forms/{id}`, 'get'>;
export type ReviewFormInput = BodyOf<`${Org}/review-forms`, 'post'>;
export type ReviewFormPatch = BodyOf<`${Org}/review-forms/{id}`, 'patch'>;
export type Product = ResponseOf<`${Org}/products/{id}`, 'get'>;
export type ProductInput = BodyOf<`${Org}/products`, 'post'>;
export type ProductPatch = BodyOf<`${Org}/products/{id}`, 'patch'>;
export type ProductSyncResult = ResponseOf<`${Org}/products`, 'put'>;
export type Organization = ResponseOf<Org, 'get'>;
export type OrganizationPatch = BodyOf<Org, 'patch'>;
export type Member = ItemOf<`${Org}/members`>;
export type MemberPatch = BodyOf<`${Org}/members/{id}`, 'patch'>;
export type Invitation = ResponseOf<`${Org}/invitations`, 'post'>;
export type InvitationInput = BodyOf<`${Org}/invitations`, 'post'>;
export type ExportJob = ResponseOf<`${Org}/exports/{id}`, 'get'>;
export type ExportInput = BodyOf<`${Org}/exports`, 'post'>;
export type Webhook = ResponseOf<`${Org}/webhooks/{id}`, 'get'>;
export type NewWebhook = ResponseOf<`${Org}/webhooks`, 'post'>;
export type WebhookInput = BodyOf<`${Org}/webhooks`, 'post'>;
export type WebhookPatch = BodyOf<`${Org}/webhooks/{id}`, 'patch'>;
export type WebhookDelivery = ItemOf<`${Org}/webhooks/{id}/deliveries`>;
export type PublicProfileSettings = ResponseOf<`${Org}/public-profile`, 'get'>;
export type PublicProfileSettingsPatch = BodyOf<`${Org}/public-profile`, 'patch'>;
export type ApiKey = ItemOf<`${Org}/api-keys`>;
export type NewApiKey = ResponseOf<`${Org}/api-keys`, 'post'>;
export type ApiKeyInput = BodyOf<`${Org}/api-keys`, 'post'>;
export type ReviewRequest = ResponseOf<`${Org}/review-requests/{id}`, 'get'>;
export type ReviewRequestInput = BodyOf<`${Org}/review-requests`, 'post'>;
export type ReviewRequestStats = ResponseOf<`${Org}/review-requests/stats`, 'get'>;
export type Connection = ResponseOf<`${Org}/connections/{id}`, 'get'>;
/** A new connection: a `webhook` connection's `signing_secret` is in it, this once. */
export type NewConnection = ResponseOf<`${Org}/connections`, 'post'>;
export type ConnectionInput = BodyOf<`${Org}/connections`, 'post'>;
export type ConnectionPatch = BodyOf<`${Org}/connections/{id}`, 'patch'>;
export type ConnectionEvent = ResponseOf<`${Org}/connections/{id}/test`, 'post'>['events'][number];
export type ShopifyWriteBack = ItemOf<`${Org}/connections/{id}/write-backs`>;
export type Order = ResponseOf<`${Org}/orders/{orderId}`, 'get'>;
export type Automation = ResponseOf<`${Org}/review-requests/automation`, 'get'>;
export type AutomationPatch = BodyOf<`${Org}/review-requests/automation`, 'patch'>;
export type Report = ItemOf<`${Org}/reports`>;
export type Question = ResponseOf<`${Org}/questions/{id}`, 'get'>;
export type QuestionModeration = BodyOf<`${Org}/questions/{id}/moderate`, 'patch'>;
export type PublicQuestion = ItemOf<'/api/v1/public/questions/{slug}'>;
export type QuestionInput = BodyOf<'/api/v1/public/questions/{slug}', 'post'>;
export type AnswerHelpfulCount = ResponseOf<
  '/api/v1/public/questions/{slug}/{questionId}/answers/{answerId}/helpful',
  'post'
>;
export type ReportResolution = BodyOf<`${Org}/reports/{id}`, 'patch'>;
export type Appeal = ItemOf<`${Org}/appeals`>;
export type AppealDecision = BodyOf<`${Org}/appeals/{id}`, 'patch'>;
export type Hold = ItemOf<`${Org}/holds`>;
export type HeldReview = ResponseOf<`${Org}/reviews/{id}/held`, 'get'>;
export type DsaTransparencyReport = ResponseOf<`${Org}/transparency/dsa`, 'get'>;
export type ReportInput = BodyOf<'/api/v1/public/reviews/{slug}/{reviewId}/reports', 'post'>;
export type HelpfulCount = ResponseOf<'/api/v1/public/reviews/{slug}/{reviewId}/helpful', 'post'>;
export type PublicReview = ItemOf<'/api/v1/public/profiles/{slug}/reviews'>;
export type PublicProfile = ResponseOf<'/api/v1/public/profiles/{slug}', 'get'>;
export type PublicEmbed = ResponseOf<'/api/v1/public/embed/{slug}', 'get'>;
export type PublicProduct = ResponseOf<'/api/v1/public/products/{slug}/{externalId}', 'get'>;
export type PublicProductRatings = ResponseOf<'/api/v1/public/products/{slug}/ratings', 'get'>;
export type Transparency = ResponseOf<'/api/v1/public/transparency/{slug}', 'get'>;
/** A summary of published reviews, each sentence with the reviews that support it (docs/summaries.md). */
export type ReviewSummary = ResponseOf<'/api/v1/public/summaries/{slug}', 'get'>;
/** A product's schema.org Product, to put in a page as `<script type="application/ld+json">`. */
export type ProductJsonLd = NonNullable<
  paths['/api/v1/public/products/{slug}/{externalId}/jsonld']['get']
>['responses'][200]['content']['application/ld+json'];

/** The key's organization and the key itself. */
export type Me = ResponseOf<'/api/v1/me', 'get'>;

import { z } from '@hono/zod-openapi';
import type { Tx } from '../../core/db/client.ts';
import { fieldsGiven } from '../http/patch.ts';
import { orgSettingsRoutes } from './org-settings.ts';
import { Layout, Theme } from './public/index.ts';

// The organization's public profile and widget settings: what the public routes (public.ts) and
// the hosted profile pages show, changed by its admins.
const EmbedSettings = z.object({
  layout: Layout,
  theme: Theme,
  max_reviews: z.number().int().min(1).max(100).openapi({ description: 'How many reviews the widget shows.' }),
  min_rating: z.number().int().min(1).max(5).openapi({ description: 'The widget shows reviews rated at least this.' }),
}).openapi('EmbedSettings');

const MediaModeration = z.enum(['auto', 'manual']).openapi({
  description:
    "Reviewers' photos and videos: `auto` shows them with their review; `manual` keeps new ones hidden until a moderator shows them.",
});

const ProfileSettings = z.object({
  enabled: z.boolean().openapi({ description: 'With false, the public profile routes answer 404.' }),
  display_name: z.string().nullable().openapi({
    description: 'Shown instead of the organization name; null shows the name.',
  }),
  description: z.string().nullable(),
  website: z.string().nullable().openapi({
    description: 'Shown instead of the organization website; null shows the website.',
  }),
  logo_url: z.string().nullable(),
  embed: EmbedSettings,
  google_product_feed: z.boolean().openapi({
    description:
      'Publishes the Google Product Ratings feed of the published product reviews at `/api/v1/public/feeds/{slug}/google-product-reviews.xml` (off: that address answers 404).',
  }),
  meta_review_feed: z.boolean().openapi({
    description:
      "Publishes Meta's product review feed (CSV) of the published product reviews at `/api/v1/public/feeds/{slug}/meta-product-reviews.csv` (off: that address answers 404).",
  }),
  media_moderation: MediaModeration,
  review_policy: z.string().nullable().openapi({
    description:
      'Your own sections of the review policy page (`{PUBLIC_URL}/p/{slug}/policy`), shown after the sections generated from your settings; plain text (a blank line starts a paragraph, markup shows as typed); null for none.',
  }),
  ask_buyers: z.boolean().openapi({
    description:
      'Whether a published question about a product is e-mailed to up to 10 customers whose orders held it, whose answers publish marked `verified_buyer` (docs/questions.md). On by default.',
  }),
}).openapi('PublicProfileSettings');

const HttpUrl = z.string().trim().max(2048).url().refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');
const HttpsUrl = z.string().trim().max(2048).url().refine((u) => /^https:\/\//i.test(u), 'must be an https URL');

const ProfileSettingsPatch = z.object({
  enabled: z.boolean().optional(),
  display_name: z.string().trim().min(1).max(200).nullable().optional(),
  description: z.string().trim().max(2000).nullable().optional(),
  website: HttpUrl.nullable().optional(),
  logo_url: HttpsUrl.nullable().optional(),
  embed: z.object({
    layout: Layout.optional(),
    theme: Theme.optional(),
    max_reviews: z.number().int().min(1).max(100).optional(),
    min_rating: z.number().int().min(1).max(5).optional(),
  }).optional(),
  google_product_feed: z.boolean().optional(),
  meta_review_feed: z.boolean().optional(),
  media_moderation: MediaModeration.optional(),
  review_policy: z.string().trim().min(1).max(10_000).nullable().optional(),
  ask_buyers: z.boolean().optional(),
}).openapi('PublicProfileSettingsPatch', {
  example: { enabled: true, display_name: 'Acme Coffee', embed: { layout: 'grid', min_rating: 4 } },
});

function settingsOf(row: Record<string, unknown> | undefined): z.infer<typeof ProfileSettings> {
  return {
    enabled: (row?.enabled as boolean | undefined) ?? true,
    display_name: (row?.display_name as string | null | undefined) ?? null,
    description: (row?.description as string | null | undefined) ?? null,
    website: (row?.website as string | null | undefined) ?? null,
    logo_url: (row?.logo_url as string | null | undefined) ?? null,
    embed: {
      layout: (row?.embed_layout as z.infer<typeof Layout> | undefined) ?? 'list',
      theme: (row?.embed_theme as z.infer<typeof Theme> | undefined) ?? 'light',
      max_reviews: (row?.embed_max_reviews as number | undefined) ?? 10,
      min_rating: (row?.embed_min_rating as number | undefined) ?? 1,
    },
    google_product_feed: (row?.google_product_feed as boolean | undefined) ?? false,
    meta_review_feed: (row?.meta_review_feed as boolean | undefined) ?? false,
    media_moderation: (row?.media_moderation as z.infer<typeof MediaModeration> | undefined) ?? 'auto',
    review_policy: (row?.review_policy as string | null | undefined) ?? null,
    ask_buyers: (row?.ask_buyers as boolean | undefined) ?? true,
  };
}

async function readSettings(db: Tx) {
  const [row] = await db`select * from plaudit.public_profiles`;
  return settingsOf(row);
}

export const publicProfileSettings = orgSettingsRoutes({
  path: '/organizations/{orgId}/public-profile',
  operation: 'publicProfile',
  tag: 'Public profile',
  schema: ProfileSettings,
  patchSchema: ProfileSettingsPatch,
  get: {
    summary: 'Get profile settings',
    description: 'The public profile and widget settings; an organization that never changed them has the defaults.',
  },
  update: {
    summary: 'Update profile settings',
    description:
      "Fields left out stay as they are, inside `embed` too. `display_name` and `website` set to null fall back to the organization's name and website; `review_policy` set to null removes your own sections from the policy page.",
    answer: 'The updated settings',
  },
  table: 'plaudit.public_profiles',
  read: readSettings,
  columns: (patch) => {
    const embed = fieldsGiven(patch.embed ?? {}, ['layout', 'theme', 'max_reviews', 'min_rating']);
    return {
      ...fieldsGiven(patch, [
        'enabled',
        'display_name',
        'description',
        'website',
        'logo_url',
        'google_product_feed',
        'meta_review_feed',
        'media_moderation',
        'review_policy',
        'ask_buyers',
      ]),
      ...Object.fromEntries(Object.entries(embed).map(([key, value]) => [`embed_${key}`, value])),
    };
  },
});

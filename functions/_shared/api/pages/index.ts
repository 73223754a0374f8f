// The hosted pages, outside /api/v1 and without an API key, one family per module. Plain Hono
// routes: they are not operations of the OpenAPI document.
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { appealPages } from './appeal.ts';
import { dashboardPages } from './dashboard.ts';
import { embedScript } from './embed.ts';
import { faviconPage } from './favicon.ts';
import { hostedFormPages } from './hosted-form.ts';
import { invitationPages } from './invitation.ts';
import { machinePages } from './machine-pages.ts';
import { productPages } from './product-pages.ts';
import { profilePages } from './profile.ts';
import { reviewAddressPages } from './review-address.ts';
import { reviewPolicyPages } from './review-policy.ts';
import { questionLinkPages } from './question-links.ts';
import { reviewRequestPages } from './review-request.ts';
import { reviewSignalPages } from './review-signals.ts';
import { sitemapPages } from './sitemap.ts';
import { transparencyPages } from './transparency.ts';
import { verificationPages } from './verification.ts';

// In the order they were always registered; no two families share a path.
const FAMILIES = [
  hostedFormPages, // /forms/:formId, each form's submission_url
  reviewRequestPages, // /r/:token, /t/o/:token.gif, /t/c/:token, /unsubscribe/:token
  verificationPages, // /verify/:token
  questionLinkPages, // /questions/confirm/:token, /answers/:token, POST /p/:slug/products/:externalId/questions
  invitationPages, // /invitations/:token
  machinePages, // /p/:slug.md, /p/:slug/products/:externalId.md, /p/:slug/{transparency,policy}.md, /p/:slug/llms.txt (before /p/:slug)
  appealPages, // /appeals/:token
  profilePages, // /p/:slug
  productPages, // /p/:slug/products, /p/:slug/products/:externalId
  transparencyPages, // /p/:slug/transparency
  reviewPolicyPages, // /p/:slug/policy
  reviewSignalPages, // /p/:slug/reviews/:reviewId/helpful, /p/:slug/reviews/:reviewId/report
  reviewAddressPages, // /p/:slug/reviews/:reviewId
  sitemapPages, // /sitemap.xml, /sitemap-N.xml, /robots.txt
  faviconPage, // /favicon.ico
  embedScript, // /embed/v1/widget.js, /embed/v1/widget.<hash>.js
  dashboardPages, // /app, /app/*, /app/assets/*
];

/** Every hosted page: the forms and the e-mails' links, the public profiles, the widget, the dashboard. */
export function hostedPages() {
  const app = new Hono<AppEnv>();
  for (const family of FAMILIES) app.route('/', family());
  return app;
}

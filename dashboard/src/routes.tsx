// Every screen of the dashboard by its path under /app/o/:orgId. A screen that changes the
// organization's keys, webhooks, team or settings is for owners and admins (`admin`).
import type { FunctionComponent } from 'preact';
import { Inbox } from './screens/inbox.tsx';
import { ReviewPage } from './screens/review.tsx';

export interface Screen {
  /** After /app/o/:orgId. */
  path: string;
  component: FunctionComponent<{ params: Record<string, string> }>;
  /** The page's title (also the document's). */
  title: string;
  adminOnly?: boolean;
}

export const SCREENS: Screen[] = [
  { path: '/reviews', component: Inbox, title: 'Reviews' },
  { path: '/reviews/:id', component: ReviewPage, title: 'Review' },
];

/** The sidebar, in order: label and path (after /app/o/:orgId). */
export const NAV: { label: string; path: string; adminOnly?: boolean }[] = [
  { label: 'Reviews', path: '/reviews' },
];

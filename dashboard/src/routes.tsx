// Every screen of the dashboard by its path under /app/o/:orgId, first match wins (so literal
// paths come before :params). A screen that manages keys, webhooks, the team or the
// organization's settings is for owners and admins (`admin` scope); the API refuses the rest anyway.
import type { FunctionComponent } from 'preact';
import { ApiKeys } from './screens/api-keys.tsx';
import { BulkRequests } from './screens/bulk-requests.tsx';
import { Exports } from './screens/exports.tsx';
import { FormPage, Forms } from './screens/forms.tsx';
import { Inbox } from './screens/inbox.tsx';
import { RequestStats } from './screens/request-stats.tsx';
import { RequestPage, Requests } from './screens/requests.tsx';
import { ReviewPage } from './screens/review.tsx';
import { Settings } from './screens/settings.tsx';
import { Team } from './screens/team.tsx';
import { WebhookPage, Webhooks } from './screens/webhooks.tsx';
import { WidgetSettings } from './screens/widget-settings.tsx';

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
  { path: '/requests', component: Requests, title: 'Review requests' },
  { path: '/requests/bulk', component: BulkRequests, title: 'Send from a CSV file' },
  { path: '/requests/stats', component: RequestStats, title: 'Review request statistics' },
  { path: '/requests/:id', component: RequestPage, title: 'Review request' },
  { path: '/forms', component: Forms, title: 'Review forms' },
  { path: '/forms/:id', component: FormPage, title: 'Review form' },
  { path: '/widget', component: WidgetSettings, title: 'Widget and public page' },
  { path: '/exports', component: Exports, title: 'Exports' },
  { path: '/developers/keys', component: ApiKeys, title: 'API keys', adminOnly: true },
  { path: '/developers/webhooks', component: Webhooks, title: 'Webhooks', adminOnly: true },
  { path: '/developers/webhooks/:id', component: WebhookPage, title: 'Webhook', adminOnly: true },
  { path: '/team', component: Team, title: 'Team' },
  // Everyone's: the account part (sessions, sign-out everywhere); the organization's part is for admins.
  { path: '/settings', component: Settings, title: 'Settings' },
];

/** The sidebar, in order: label and path (after /app/o/:orgId). */
export const NAV: { label: string; path: string; adminOnly?: boolean }[] = [
  { label: 'Reviews', path: '/reviews' },
  { label: 'Review requests', path: '/requests' },
  { label: 'Forms', path: '/forms' },
  { label: 'Widget and public page', path: '/widget' },
  { label: 'Exports', path: '/exports' },
  { label: 'API keys', path: '/developers/keys', adminOnly: true },
  { label: 'Webhooks', path: '/developers/webhooks', adminOnly: true },
  { label: 'Team', path: '/team' },
  { label: 'Settings', path: '/settings' },
];

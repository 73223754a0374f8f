// Every screen of the dashboard by its path under /app/o/:orgId, first match wins (so literal
// paths come before :params). The inbox and a review's page come with the first load; every other
// screen is its own chunk, fetched when it is first opened, so that the first visit stays small.
// A screen that manages keys or webhooks is for owners and admins (`admin` scope); the API
// refuses the rest anyway.
import type { FunctionComponent } from 'preact';
import { Inbox } from './screens/inbox.tsx';
import { ReviewPage } from './screens/review.tsx';

export type ScreenComponent = FunctionComponent<{ params: Record<string, string> }>;

export interface Screen {
  /** After /app/o/:orgId. */
  path: string;
  /** The screen itself, or how to fetch its chunk. */
  component: ScreenComponent | (() => Promise<ScreenComponent>);
  /** The page's title (also the document's). */
  title: string;
  adminOnly?: boolean;
  /** Whether `component` is a loader. */
  lazy?: true;
}

const lazy = (path: string, title: string, load: () => Promise<ScreenComponent>, adminOnly?: true): Screen => ({
  path,
  title,
  component: load,
  lazy: true,
  adminOnly,
});

export const SCREENS: Screen[] = [
  { path: '/reviews', component: Inbox, title: 'Reviews' },
  { path: '/reviews/:id', component: ReviewPage, title: 'Review' },
  lazy('/products', 'Products', () => import('./screens/products/products.tsx').then((m) => m.Products)),
  lazy('/products/new', 'Add product', () => import('./screens/products/new-product.tsx').then((m) => m.NewProduct)),
  lazy(
    '/products/upload',
    'Upload products from a CSV file',
    () => import('./screens/products/upload.tsx').then((m) => m.UploadProducts),
  ),
  lazy('/products/:id', 'Product', () => import('./screens/products/product-page.tsx').then((m) => m.ProductPage)),
  lazy('/reports', 'Reports', () => import('./screens/reports/reports.tsx').then((m) => m.Reports)),
  lazy('/questions', 'Questions', () => import('./screens/questions/questions.tsx').then((m) => m.Questions)),
  lazy('/appeals', 'Appeals', () => import('./screens/appeals/appeals.tsx').then((m) => m.Appeals)),
  lazy('/holds', 'Holds', () => import('./screens/holds/holds.tsx').then((m) => m.Holds)),
  lazy('/holds/:id', 'Hold', () => import('./screens/holds/holds.tsx').then((m) => m.HoldPage)),
  lazy('/requests', 'Review requests', () => import('./screens/requests/requests.tsx').then((m) => m.Requests)),
  lazy(
    '/requests/bulk',
    'Send from a CSV file',
    () => import('./screens/requests/bulk.tsx').then((m) => m.BulkRequests),
  ),
  lazy(
    '/requests/stats',
    'Review request statistics',
    () => import('./screens/requests/stats.tsx').then((m) => m.RequestStats),
  ),
  lazy(
    '/requests/settings',
    'Review request settings',
    () => import('./screens/requests/settings.tsx').then((m) => m.RequestSettings),
  ),
  lazy(
    '/requests/:id',
    'Review request',
    () => import('./screens/requests/request-page.tsx').then((m) => m.RequestPage),
  ),
  lazy(
    '/connections',
    'Shop connections',
    () => import('./screens/connections/connections.tsx').then((m) => m.Connections),
    true,
  ),
  lazy(
    '/connections/:id',
    'Shop connection',
    () => import('./screens/connections/connection-page.tsx').then((m) => m.ConnectionPage),
    true,
  ),
  lazy('/orders', 'Orders', () => import('./screens/connections/orders.tsx').then((m) => m.Orders)),
  lazy('/orders/:orderId', 'Order', () => import('./screens/connections/order-page.tsx').then((m) => m.OrderPage)),
  lazy('/forms', 'Review forms', () => import('./screens/forms/forms.tsx').then((m) => m.Forms)),
  lazy('/forms/:id', 'Review form', () => import('./screens/forms/form-page.tsx').then((m) => m.FormPage)),
  lazy(
    '/widget',
    'Widget and public page',
    () => import('./screens/widget-settings.tsx').then((m) => m.WidgetSettings),
  ),
  lazy('/exports', 'Exports', () => import('./screens/exports.tsx').then((m) => m.Exports)),
  lazy('/imports', 'Import reviews', () => import('./screens/imports.tsx').then((m) => m.Imports)),
  lazy('/developers/keys', 'API keys', () => import('./screens/api-keys.tsx').then((m) => m.ApiKeys), true),
  // Webhooks need the write scope (the contract), so members manage them too.
  lazy('/developers/webhooks', 'Webhooks', () => import('./screens/webhooks/webhooks.tsx').then((m) => m.Webhooks)),
  lazy(
    '/developers/webhooks/:id',
    'Webhook',
    () => import('./screens/webhooks/webhook-page.tsx').then((m) => m.WebhookPage),
  ),
  lazy('/team', 'Team', () => import('./screens/team/team.tsx').then((m) => m.Team)),
  lazy('/privacy', 'Privacy requests', () => import('./screens/privacy.tsx').then((m) => m.Privacy), true),
  // Everyone's: the account (its session, signing out everywhere); the organization's part is for admins.
  lazy('/settings', 'Settings', () => import('./screens/settings.tsx').then((m) => m.Settings)),
];

/** The sidebar, in order: label and path (after /app/o/:orgId). */
export const NAV: { label: string; path: string; adminOnly?: boolean }[] = [
  { label: 'Reviews', path: '/reviews' },
  { label: 'Reports', path: '/reports' },
  { label: 'Questions', path: '/questions' },
  { label: 'Appeals', path: '/appeals' },
  { label: 'Holds', path: '/holds' },
  { label: 'Products', path: '/products' },
  { label: 'Review requests', path: '/requests' },
  { label: 'Shop connections', path: '/connections', adminOnly: true },
  { label: 'Orders', path: '/orders' },
  { label: 'Forms', path: '/forms' },
  { label: 'Widget and public page', path: '/widget' },
  { label: 'Exports', path: '/exports' },
  { label: 'Import reviews', path: '/imports' },
  { label: 'API keys', path: '/developers/keys', adminOnly: true },
  { label: 'Webhooks', path: '/developers/webhooks' },
  { label: 'Team', path: '/team' },
  { label: 'Privacy requests', path: '/privacy', adminOnly: true },
  { label: 'Settings', path: '/settings' },
];

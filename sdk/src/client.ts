// The client: options, the organization it works on, and its resources.
import { ApiPromise } from './api-promise.ts';
import { Http, type HttpOptions, type RequestOptions, type ResponseInfo } from './http.ts';
import type { Core } from './resource.ts';
import { ApiKeys } from './resources/api-keys.ts';
import { AutomationResource } from './resources/automation.ts';
import { Connections } from './resources/connections.ts';
import { Exports } from './resources/exports.ts';
import { OrganizationResource } from './resources/organization.ts';
import { Imports } from './resources/imports.ts';
import { Orders } from './resources/orders.ts';
import { Privacy } from './resources/privacy.ts';
import { Fragments } from './resources/fragments.ts';
import { Public } from './resources/public.ts';
import { PublicProfileResource } from './resources/public-profile.ts';
import { Products } from './resources/products.ts';
import { Appeals } from './resources/appeals.ts';
import { Holds } from './resources/holds.ts';
import { Transparency } from './resources/transparency.ts';
import { Questions } from './resources/questions.ts';
import { Reports } from './resources/reports.ts';
import { ReviewForms } from './resources/review-forms.ts';
import { ReviewRequests } from './resources/review-requests.ts';
import { Reviews } from './resources/reviews.ts';
import { Verification } from './resources/verification.ts';
import { Webhooks } from './resources/webhooks.ts';
import type { Me } from './types.ts';

export interface PlauditOptions extends HttpOptions {
  /** The organization to work on; by default the API key's own, asked once from `GET /api/v1/me`. */
  organizationId?: string;
}

export class Plaudit implements Core {
  readonly http: Http;
  readonly reviews: Reviews;
  readonly reviewForms: ReviewForms;
  readonly products: Products;
  readonly organization: OrganizationResource;
  readonly exports: Exports;
  readonly webhooks: Webhooks;
  readonly publicProfile: PublicProfileResource;
  readonly apiKeys: ApiKeys;
  readonly verification: Verification;
  readonly reviewRequests: ReviewRequests;
  /** Reviews brought from other platforms. */
  readonly imports: Imports;
  /** Erasure and access for a reviewer's address (admin keys). */
  readonly privacy: Privacy;
  readonly reports: Reports;
  readonly questions: Questions;
  readonly appeals: Appeals;
  readonly holds: Holds;
  readonly transparency: Transparency;
  /** Public data by slug; needs no key. */
  readonly public: Public;
  /** Shop connections: Shopify, WooCommerce, Stripe or any shop by signed webhooks (admin keys). */
  readonly connections: Connections;
  /** Orders the connections reported, with their timeline and review request. */
  readonly orders: Orders;
  /** When orders make review requests (admin keys). */
  readonly automation: AutomationResource;
  /** The widget's first view as HTML for a shop's server to include; needs no key. */
  readonly fragments: Fragments;
  #organizationId: Promise<string> | undefined;

  constructor(options: PlauditOptions = {}) {
    this.http = new Http(options);
    if (options.organizationId) this.#organizationId = Promise.resolve(options.organizationId);
    this.reviews = new Reviews(this);
    this.reviewForms = new ReviewForms(this);
    this.products = new Products(this);
    this.organization = new OrganizationResource(this);
    this.exports = new Exports(this);
    this.webhooks = new Webhooks(this);
    this.publicProfile = new PublicProfileResource(this);
    this.apiKeys = new ApiKeys(this);
    this.verification = new Verification(this);
    this.reviewRequests = new ReviewRequests(this);
    this.privacy = new Privacy(this);
    this.imports = new Imports(this);
    this.reports = new Reports(this);
    this.questions = new Questions(this);
    this.appeals = new Appeals(this);
    this.holds = new Holds(this);
    this.transparency = new Transparency(this);
    this.public = new Public(this);
    this.connections = new Connections(this);
    this.orders = new Orders(this);
    this.automation = new AutomationResource(this);
    this.fragments = new Fragments(this);
  }

  /**
   * Status, request id and rate-limit headers (`X-RateLimit-*`, parsed) of the call that finished
   * last, whichever it was.
   * @deprecated With calls in flight together it may be another call's answer: read each result's
   * own, `(await call.withResponse()).response` or `result.lastResponse`.
   */
  get lastResponse(): ResponseInfo | null {
    return this.http.lastResponse;
  }

  /** The API key's organization and the key itself. */
  me(opts?: RequestOptions): ApiPromise<Me> {
    return new ApiPromise(this.http.send({ method: 'GET', path: '/api/v1/me' }, opts));
  }

  organizationId(opts?: RequestOptions): Promise<string> {
    if (!this.#organizationId) {
      const asked = this.me(opts).then((me) => me.organization_id);
      // A failure is not kept: the next call asks again.
      asked.catch(() => this.#organizationId === asked && (this.#organizationId = undefined));
      this.#organizationId = asked;
    }
    return this.#organizationId;
  }
}

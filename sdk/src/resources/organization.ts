import type { ApiPromise } from '../api-promise.ts';
import type { RequestOptions } from '../http.ts';
import type { PageRequest } from '../pagination.ts';
import { Resource } from '../resource.ts';
import type {
  Invitation,
  InvitationInput,
  Member,
  MemberPatch,
  Organization,
  OrganizationPatch,
  QueryOf,
} from '../types.ts';

const ORG = '/api/v1/organizations/{orgId}';
const MEMBERS = '/api/v1/organizations/{orgId}/members';
const MEMBER = '/api/v1/organizations/{orgId}/members/{id}';
const INVITATIONS = '/api/v1/organizations/{orgId}/invitations';

/** The organization of the client. */
export class OrganizationResource extends Resource {
  get(opts?: RequestOptions): ApiPromise<Organization> {
    return this.call('get', ORG, {}, {}, opts);
  }

  update(body: OrganizationPatch, opts?: RequestOptions): ApiPromise<Organization> {
    return this.call('patch', ORG, {}, { body }, opts);
  }

  members(query?: QueryOf<typeof MEMBERS>, opts?: RequestOptions): PageRequest<Member> {
    return this.paged(MEMBERS, {}, query, opts);
  }

  /** Changes a member's role; 409 when it would leave the organization without an owner. */
  updateMember(id: string, body: MemberPatch, opts?: RequestOptions): ApiPromise<Member> {
    return this.call('patch', MEMBER, { id }, { body }, opts);
  }

  /** Removes a member: their sessions no longer reach the organization; 409 for the last owner. */
  removeMember(id: string, opts?: RequestOptions): ApiPromise<void> {
    return this.call('delete', MEMBER, { id }, {}, opts) as ApiPromise<never>;
  }

  /** E-mails an invitation (valid 7 days); 409 for a member or an address already invited. */
  invite(body: InvitationInput, opts?: RequestOptions): ApiPromise<Invitation> {
    return this.call('post', INVITATIONS, {}, { body }, opts);
  }

  invitations(query?: QueryOf<typeof INVITATIONS>, opts?: RequestOptions): PageRequest<Invitation> {
    return this.paged(INVITATIONS, {}, query, opts);
  }

  withdrawInvitation(id: string, opts?: RequestOptions): ApiPromise<void> {
    return this.call('delete', `${INVITATIONS}/{id}`, { id }, {}, opts) as ApiPromise<never>;
  }
}

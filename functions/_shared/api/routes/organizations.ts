import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors.ts';
import { fieldsGiven } from '../http/patch.ts';
import { translateDbErrors } from '../http/db-errors.ts';
import type { Caller, CredentialReadArgs, Role } from '../http/env.ts';
import type { Sql, Tx } from '../../core/db/client.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import { errorResponseSpec, iso, json, jsonBody, OrgItemParams, OrgParams, Timestamp } from '../http/schemas.ts';
import { type CredentialReadRow, orgRoute, router } from './define.ts';

const Organization = z.object({
  id: z.string().uuid(),
  name: z.string(),
  slug: z.string(),
  website: z.string().nullable(),
  created_at: Timestamp,
}).openapi('Organization');

const WebUrl = z.string().max(2048).url().refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

const OrganizationPatch = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  website: WebUrl.nullable().optional(),
}).openapi('OrganizationPatch', { example: { name: 'Acme Coffee', website: 'https://acme.example' } });

const Member = z.object({
  id: z.string().uuid(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(['owner', 'admin', 'member']),
  created_at: Timestamp,
}).openapi('Member');

const MemberPatch = z.object({
  role: z.enum(['owner', 'admin', 'member']),
}).openapi('MemberPatch', { example: { role: 'admin' } });

type MemberRow = Omit<z.infer<typeof Member>, 'created_at'> & { created_at: Date };
const toMember = (m: MemberRow) => ({ ...m, created_at: iso(m.created_at)! });

async function loadMember(db: Tx, id: string): Promise<MemberRow> {
  const [row] = await db<MemberRow[]>`select id, email, name, role, created_at from plaudit.members where id = ${id}`;
  if (!row) throw new ApiError(404, 'Member not found');
  return row;
}

/**
 * Owners are made and unmade by owners: a signed-in admin may manage admins and members only.
 * (An admin-scoped API key, which the organization's owners hand out, may do both.)
 */
function guardOwnership(caller: Caller, current: Role, next: Role | null) {
  if (caller.role === null || caller.role === 'owner') return;
  if (current === 'owner' || next === 'owner') {
    throw new ApiError(403, 'Only an owner can make, change or remove an owner');
  }
}

const InvitationInput = z.object({
  email: z.string().trim().max(320).email(),
  role: z.enum(['admin', 'member']),
}).openapi('InvitationInput', { example: { email: 'sam@acme.example', role: 'member' } });

const Invitation = z.object({
  id: z.string().uuid(),
  email: z.string(),
  role: z.enum(['admin', 'member']),
  status: z.enum(['pending', 'accepted', 'expired', 'revoked']),
  expires_at: Timestamp,
  created_at: Timestamp,
}).openapi('Invitation');

type OrgRow = { id: string; name: string; slug: string; website: string | null; created_at: Date };
const toOrganization = (r: OrgRow) => ({ ...r, created_at: iso(r.created_at)! });

type InvitationRow = {
  id: string;
  email: string;
  role: 'admin' | 'member';
  expires_at: Date;
  created_at: Date;
  accepted_at?: Date | null;
  revoked_at?: Date | null;
};
function toInvitation(r: InvitationRow) {
  const status = r.accepted_at
    ? 'accepted'
    : r.revoked_at
    ? 'revoked'
    : r.expires_at.getTime() <= Date.now()
    ? 'expired'
    : 'pending';
  return {
    id: r.id,
    email: r.email,
    role: r.role,
    status: status as 'pending' | 'accepted' | 'expired' | 'revoked',
    expires_at: iso(r.expires_at)!,
    created_at: iso(r.created_at)!,
  };
}

/** GET /organizations/{orgId}'s one statement: plaudit.api_organization writes the body. */
const readOrganization = (sql: Sql, key: CredentialReadArgs) =>
  sql<CredentialReadRow<z.infer<typeof Organization>>[]>`
    select * from plaudit.api_organization(${key.hash}, ${key.orgId}, ${key.rateLimit})`;

export const organizations = router()
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}',
      operationId: 'organization.get',
      tags: ['Organizations'],
      summary: 'Get organization details',
      request: { params: OrgParams },
      responses: { 200: json(Organization, 'The organization') },
    }, { oneStatementRead: { statement: readOrganization } }),
    (c) => c.var.readInOneStatement!(),
  )
  .openapi(
    orgRoute('admin', {
      method: 'patch',
      path: '/organizations/{orgId}',
      operationId: 'organization.update',
      tags: ['Organizations'],
      summary: 'Update organization settings',
      description: 'Changes `name` and `website`; fields left out stay as they are.',
      request: { params: OrgParams, body: jsonBody(OrganizationPatch) },
      responses: {
        200: json(Organization, 'The updated organization'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const patch = c.req.valid('json');
      const changes = fieldsGiven(patch, ['name', 'website']);
      const db = c.var.db;
      const [row] = Object.keys(changes).length
        ? await db<OrgRow[]>`
            update plaudit.organizations set ${db(changes)} where id = ${orgId}
            returning id, name, slug, website, created_at`
        : await db<OrgRow[]>`
            select id, name, slug, website, created_at from plaudit.organizations where id = ${orgId}`;
      return c.json(toOrganization(row), 200);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/members',
      operationId: 'members.list',
      tags: ['Members'],
      summary: 'List team members',
      request: { params: OrgParams, query: PaginationQuery },
      responses: { 200: json(Paginated(Member), 'A page of members, oldest first') },
    }),
    async (c) => {
      const page = c.req.valid('query');
      const db = c.var.db;
      const [rows, [{ total }]] = await Promise.all([
        db<MemberRow[]>`
          select id, email, name, role, created_at from plaudit.members
          order by created_at, id limit ${page.limit} offset ${offset(page)}`,
        db<{ total: number }[]>`select count(*)::integer as total from plaudit.members`,
      ]);
      return c.json(paginate(rows.map(toMember), total, page), 200);
    },
  )
  .openapi(
    orgRoute('admin', {
      method: 'patch',
      path: '/organizations/{orgId}/members/{id}',
      operationId: 'members.update',
      tags: ['Members'],
      summary: "Change a member's role",
      description:
        'An organization keeps at least one owner: demoting the last one answers 409. A signed-in admin may not make or unmake owners; an owner (or an admin key) may.',
      request: { params: OrgItemParams, body: jsonBody(MemberPatch) },
      responses: {
        200: json(Member, 'The member with the new role'),
        404: errorResponseSpec('No such member'),
        409: errorResponseSpec('The last owner cannot be demoted'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { role } = c.req.valid('json');
      const member = await loadMember(c.var.db, id);
      guardOwnership(c.var.caller!, member.role, role);
      const [row] = await translateDbErrors(() =>
        c.var.db<MemberRow[]>`
          update plaudit.members set role = ${role} where id = ${id}
          returning id, email, name, role, created_at`
      );
      return c.json(toMember(row), 200);
    },
  )
  .openapi(
    orgRoute('admin', {
      method: 'delete',
      path: '/organizations/{orgId}/members/{id}',
      operationId: 'members.remove',
      tags: ['Members'],
      summary: 'Remove a member',
      description:
        'Their sessions no longer reach this organization. The last owner cannot be removed (409); a signed-in admin may not remove an owner.',
      request: { params: OrgItemParams },
      responses: {
        204: { description: 'Removed' },
        404: errorResponseSpec('No such member'),
        409: errorResponseSpec('The last owner cannot be removed'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const member = await loadMember(c.var.db, id);
      guardOwnership(c.var.caller!, member.role, null);
      await translateDbErrors(() => c.var.db`delete from plaudit.members where id = ${id}`);
      return c.body(null, 204);
    },
  )
  .openapi(
    orgRoute('read', {
      method: 'get',
      path: '/organizations/{orgId}/invitations',
      operationId: 'invitations.list',
      tags: ['Members'],
      summary: 'List invitations',
      request: { params: OrgParams, query: PaginationQuery },
      responses: { 200: json(Paginated(Invitation), 'A page of invitations, newest first') },
    }),
    async (c) => {
      const page = c.req.valid('query');
      const db = c.var.db;
      const [rows, [{ total }]] = await Promise.all([
        db<InvitationRow[]>`
          select id, email, role, expires_at, created_at, accepted_at, revoked_at
          from plaudit.invitations
          order by created_at desc, id limit ${page.limit} offset ${offset(page)}`,
        db<{ total: number }[]>`select count(*)::integer as total from plaudit.invitations`,
      ]);
      return c.json(paginate(rows.map(toInvitation), total, page), 200);
    },
  )
  .openapi(
    orgRoute('admin', {
      method: 'post',
      path: '/organizations/{orgId}/invitations',
      operationId: 'invitations.create',
      tags: ['Members'],
      summary: 'Invite a team member',
      description:
        'Creates an invitation that expires after 7 days and e-mails it: the message links to the accept page, which makes the invitee a member. An address that is already a member, or already has an open invitation, gets 409.',
      request: { params: OrgParams, body: jsonBody(InvitationInput) },
      responses: {
        201: json(Invitation, 'The invitation'),
        409: errorResponseSpec('Already a member, or already invited'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const { email, role } = c.req.valid('json');
      try {
        const [row] = await c.var.db<(InvitationRow & { token: string })[]>`
          select id, email, role, expires_at, created_at, token
          from plaudit.create_invitation(${orgId}, ${email}, ${role}, ${c.var.caller!.keyId})`;
        // The invitation e-mail carries the one-time token to the accept page (/invitations/:token).
        await c.var.db`select plaudit.queue_invitation_email(${row.id}, ${row.token}, ${c.var.config.publicUrl})`;
        return c.json(toInvitation(row), 201);
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw new ApiError(409, (err as Error).message);
        throw err;
      }
    },
  )
  .openapi(
    orgRoute('admin', {
      method: 'delete',
      path: '/organizations/{orgId}/invitations/{id}',
      operationId: 'invitations.withdraw',
      tags: ['Members'],
      summary: 'Withdraw an invitation',
      description:
        'Its link stops working at once: the accept page answers that the invitation was withdrawn. A withdrawal is permanent; invite the address again to send a new link. An invitation already accepted or withdrawn answers 409.',
      request: { params: OrgItemParams },
      responses: {
        204: { description: 'Withdrawn' },
        404: errorResponseSpec('No invitation with this id'),
        409: errorResponseSpec('Already accepted or withdrawn'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const db = c.var.db;
      const [row] = await db<{ withdrawn: boolean; accepted_at: Date | null }[]>`
        with withdrawn as (
          update plaudit.invitations set revoked_at = now()
          where id = ${id} and accepted_at is null and revoked_at is null
          returning id)
        select exists (select from withdrawn) as withdrawn, i.accepted_at
        from plaudit.invitations i where i.id = ${id}`;
      if (!row) throw new ApiError(404, 'Invitation not found');
      if (!row.withdrawn) {
        throw new ApiError(
          409,
          row.accepted_at ? 'This invitation was accepted already' : 'This invitation was withdrawn already',
        );
      }
      return c.body(null, 204);
    },
  );

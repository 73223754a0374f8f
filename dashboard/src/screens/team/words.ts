// The team's roles and invitations in the words of a shop owner.
import type { Schemas } from '../../api.ts';

type Invitation = Schemas['Invitation'];
export type Role = Schemas['Member']['role'];

export const ROLE_LABEL: Record<Role, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
export const A_ROLE: Record<Role, string> = { owner: 'an owner', admin: 'an admin', member: 'a member' };

export const ROLE_DOES: Record<Role, string> = {
  owner: 'Everything an admin can do, and making or removing owners. An organization always keeps at least one owner.',
  admin: 'Manages API keys, webhooks, the team and the settings, and everything a member does.',
  member: 'Works with reviews: approves, hides and replies to them, sends review requests and manages forms.',
};

export const INVITATION_STATUS: Record<Invitation['status'], [string, string]> = {
  pending: ['Pending', 'warn'],
  accepted: ['Accepted', 'good'],
  expired: ['Expired', 'plain'],
  revoked: ['Withdrawn', 'bad'],
};

/** The API's messages sometimes start in lower case ("this address is already a member"). */
export const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

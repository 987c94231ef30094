import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeEachDialect,
  startTestServer,
  withClockAhead,
  type TestServer,
  type TestUser,
} from '../test/harness.js';
import { INVITATION_DAYS } from '../../shared/contract/identity.js';
import { newInviteLink, newOrg } from '../test/factories.js';

function paths(body: { error: { issues?: Array<{ path: string }> } }): string[] {
  return (body.error.issues ?? []).map((i) => i.path);
}

function uniqueEmail(prefix = 'inv'): string {
  return `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.com`;
}

describeEachDialect('invites', (dialect) => {
  let server: TestServer;
  let creator: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    [creator, outsider] = await Promise.all([server.member('create'), server.signup('outsider')]);
  });
  afterAll(() => server.close());

  /** The caller's organization permissions, which reveal their role. */
  async function orgPermissions(orgId: string, token: string) {
    const res = await server.request('GET', `/v1/orgs/${orgId}`, { token });
    expect(res.status).toBe(200);
    return res.body.permissions as { admin: boolean; createContent: boolean };
  }

  /** The newest invitation mailed to `email` (kept in the outbox: this server has no SMTP): its id and secret. */
  async function invitationLink(email: string) {
    const mail = await server.heldMail(email, 'invitation');
    const match = /\/invitations\/([^#\s]+)#(\S+)/.exec(mail.text);
    expect(match, mail.text).toBeTruthy();
    return { id: match![1]!, secret: match![2]!, mail };
  }

  describe('link invites', () => {
    it('POST creates a link (201 + Location); GET lists and reads it', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const res = await server.request('POST', `/v1/orgs/${orgId}/link-invites`, { body: { role: 'edit' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ object: 'invite', role: 'edit' });
      expect(res.body.id.length).toBeGreaterThanOrEqual(20);
      expect(res.headers.get('location')).toMatch(new RegExp(`/v1/orgs/${orgId}/link-invites/${res.body.id}$`));

      const list = await server.request('GET', `/v1/orgs/${orgId}/link-invites`);
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(1);
      expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([res.body.id]);

      const one = await server.request('GET', `/v1/orgs/${orgId}/link-invites/${res.body.id}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ object: 'invite', id: res.body.id, role: 'edit' });
    });

    it('accepts a guest link (role null) and refuses an unknown role (400)', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const guest = await server.request('POST', `/v1/orgs/${orgId}/link-invites`, { body: { role: null } });
      expect(guest.status).toBe(201);
      expect(guest.body.role).toBeNull();
      const bad = await server.request('POST', `/v1/orgs/${orgId}/link-invites`, { body: { role: 'owner' } });
      expect(bad.status).toBe(400);
      expect(paths(bad.body)).toContain('role');
      expect((await server.request('POST', `/v1/orgs/${orgId}/link-invites`, { body: {} })).status).toBe(400);
    });

    it('GET lists paginate with a total count', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const ids = [
        await newInviteLink(server, orgId),
        await newInviteLink(server, orgId),
        await newInviteLink(server, orgId),
      ].map((l) => l.id);
      const first = await server.request('GET', `/v1/orgs/${orgId}/link-invites?limit=2`);
      expect(first.body.count).toBe(3);
      expect(first.body.items).toHaveLength(2);
      const second = await server.request(
        'GET',
        `/v1/orgs/${orgId}/link-invites?limit=2&page=${encodeURIComponent(first.body.next.page)}`,
      );
      expect(second.body.items).toHaveLength(1);
      expect(second.body.next).toBeUndefined();
      expect([...first.body.items, ...second.body.items].map((i: { id: string }) => i.id).sort()).toEqual(ids.sort());
    });

    it('PATCH changes the role of the link', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const link = await newInviteLink(server, orgId, 'read');
      const res = await server.request('PATCH', `/v1/orgs/${orgId}/link-invites/${link.id}`, {
        body: { role: 'review' },
      });
      expect(res.status).toBe(200);
      expect(res.body.role).toBe('review');
      expect((await server.request('GET', `/v1/orgs/${orgId}/link-invites/${link.id}`)).body.role).toBe('review');
      const bad = await server.request('PATCH', `/v1/orgs/${orgId}/link-invites/${link.id}`, {
        body: { role: 'boss' },
      });
      expect(bad.status).toBe(400);
    });

    it('DELETE answers 205 when deleted and 204 when absent; the link then no longer works', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const link = await newInviteLink(server, orgId);
      const del = await server.request('DELETE', `/v1/orgs/${orgId}/link-invites/${link.id}`);
      expect(del.status).toBe(205);
      expect(del.body).toBeUndefined();
      const again = await server.request('DELETE', `/v1/orgs/${orgId}/link-invites/${link.id}`);
      expect(again.status).toBe(204);
      expect(again.body).toBeUndefined();
      expect((await server.request('GET', `/v1/orgs/${orgId}/link-invites/${link.id}`)).status).toBe(404);
      const user = await server.signup('late');
      const join = await server.request('POST', `/v1/orgs/${orgId}/invites/${link.id}`, { token: user.token });
      expect(join.status).toBe(404);
    });

    it('GET one and PATCH answer 404 for an unknown link, and for a link of another organization', async () => {
      const a = (await newOrg(server, 'Invite org')).id;
      const b = (await newOrg(server, 'Invite org')).id;
      const link = await newInviteLink(server, a);
      expect((await server.request('GET', `/v1/orgs/${a}/link-invites/nope`)).status).toBe(404);
      expect((await server.request('GET', `/v1/orgs/${b}/link-invites/${link.id}`)).status).toBe(404);
      expect(
        (await server.request('PATCH', `/v1/orgs/${b}/link-invites/${link.id}`, { body: { role: 'admin' } })).status,
      ).toBe(404);
      // Deleting through the other organization does not delete it.
      expect((await server.request('DELETE', `/v1/orgs/${b}/link-invites/${link.id}`)).status).toBe(204);
      expect((await server.request('GET', `/v1/orgs/${a}/link-invites/${link.id}`)).status).toBe(200);
    });

    it('are for admins only: 403 for a member with the create role', async () => {
      const link = await newInviteLink(server, server.orgId);
      const t = { token: creator.token };
      expect((await server.request('GET', `/v1/orgs/${server.orgId}/link-invites`, t)).status).toBe(403);
      expect(
        (await server.request('POST', `/v1/orgs/${server.orgId}/link-invites`, { ...t, body: { role: 'admin' } }))
          .status,
      ).toBe(403);
      expect((await server.request('GET', `/v1/orgs/${server.orgId}/link-invites/${link.id}`, t)).status).toBe(403);
      expect(
        (
          await server.request('PATCH', `/v1/orgs/${server.orgId}/link-invites/${link.id}`, {
            ...t,
            body: { role: 'admin' },
          })
        ).status,
      ).toBe(403);
      expect((await server.request('DELETE', `/v1/orgs/${server.orgId}/link-invites/${link.id}`, t)).status).toBe(403);
      expect((await server.request('GET', `/v1/orgs/${server.orgId}/link-invites/${link.id}`)).body.role).toBe('read');
    });

    it('answer 404 to an outsider', async () => {
      const link = await newInviteLink(server, server.orgId);
      const t = { token: outsider.token };
      expect((await server.request('GET', `/v1/orgs/${server.orgId}/link-invites`, t)).status).toBe(404);
      expect(
        (await server.request('POST', `/v1/orgs/${server.orgId}/link-invites`, { ...t, body: { role: 'read' } }))
          .status,
      ).toBe(404);
      expect((await server.request('GET', `/v1/orgs/${server.orgId}/link-invites/${link.id}`, t)).status).toBe(404);
      expect(
        (
          await server.request('PATCH', `/v1/orgs/${server.orgId}/link-invites/${link.id}`, {
            ...t,
            body: { role: 'admin' },
          })
        ).status,
      ).toBe(404);
      expect((await server.request('DELETE', `/v1/orgs/${server.orgId}/link-invites/${link.id}`, t)).status).toBe(404);
    });

    it('answer 401 without a token', async () => {
      const link = await newInviteLink(server, server.orgId);
      const base = `/v1/orgs/${server.orgId}`;
      const t = { token: null };
      expect((await server.request('GET', `${base}/link-invites`, t)).status).toBe(401);
      expect((await server.request('POST', `${base}/link-invites`, { ...t, body: { role: 'read' } })).status).toBe(401);
      expect((await server.request('GET', `${base}/link-invites/${link.id}`, t)).status).toBe(401);
      expect(
        (await server.request('PATCH', `${base}/link-invites/${link.id}`, { ...t, body: { role: 'read' } })).status,
      ).toBe(401);
      expect((await server.request('DELETE', `${base}/link-invites/${link.id}`, t)).status).toBe(401);
      expect((await server.request('POST', `${base}/invites/${link.id}`, t)).status).toBe(401);
      expect(
        (await server.request('POST', `${base}/invites`, { ...t, body: { emails: ['a@example.com'] } })).status,
      ).toBe(401);
    });

    it('cannot be created while invite links are turned off; existing links stop working', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const link = await newInviteLink(server, orgId);
      expect((await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { inviteLinks: false } })).status).toBe(200);
      const create = await server.request('POST', `/v1/orgs/${orgId}/link-invites`, { body: { role: 'read' } });
      expect(create.status).toBe(403);
      const user = await server.signup('blocked');
      expect((await server.request('POST', `/v1/orgs/${orgId}/invites/${link.id}`, { token: user.token })).status).toBe(
        404,
      );
      expect((await server.request('GET', `/v1/orgs/${orgId}`, { token: user.token })).status).toBe(404);
    });
  });

  describe('POST /v1/orgs/{id}/invites/{inviteId} (join)', () => {
    it('joins the organization with the role of the invite', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const link = await newInviteLink(server, orgId, 'create');
      const user = await server.signup('joiner');
      expect((await server.request('GET', `/v1/orgs/${orgId}`, { token: user.token })).status).toBe(404);
      const res = await server.request('POST', `/v1/orgs/${orgId}/invites/${link.id}`, { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      const perms = await orgPermissions(orgId, user.token);
      expect(perms).toMatchObject({ admin: false, createContent: true });
      const orgs = await server.request('GET', '/v1/orgs', { token: user.token });
      expect(orgs.body.items.map((o: { id: string }) => o.id)).toContain(orgId);
      // The link stays usable by others.
      const second = await server.signup('joiner');
      expect(
        (await server.request('POST', `/v1/orgs/${orgId}/invites/${link.id}`, { token: second.token })).status,
      ).toBe(200);
    });

    it('joins as admin with an admin link', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const link = await newInviteLink(server, orgId, 'admin');
      const user = await server.signup('newadmin');
      expect((await server.request('POST', `/v1/orgs/${orgId}/invites/${link.id}`, { token: user.token })).status).toBe(
        200,
      );
      expect((await orgPermissions(orgId, user.token)).admin).toBe(true);
    });

    it('raises a member to the role of the invite but never lowers it', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const readLink = await newInviteLink(server, orgId, 'read');
      const createLink = await newInviteLink(server, orgId, 'create');
      const user = await server.signup('climber');
      await server.request('POST', `/v1/orgs/${orgId}/invites/${readLink.id}`, { token: user.token });
      expect((await orgPermissions(orgId, user.token)).createContent).toBe(false);
      await server.request('POST', `/v1/orgs/${orgId}/invites/${createLink.id}`, { token: user.token });
      expect((await orgPermissions(orgId, user.token)).createContent).toBe(true);
      const again = await server.request('POST', `/v1/orgs/${orgId}/invites/${readLink.id}`, { token: user.token });
      expect(again.status).toBe(200);
      expect((await orgPermissions(orgId, user.token)).createContent).toBe(true);
    });

    it('answers 404 for an unknown invite, an unknown organization, or an invite of another organization', async () => {
      const a = (await newOrg(server, 'Invite org')).id;
      const b = (await newOrg(server, 'Invite org')).id;
      const link = await newInviteLink(server, a);
      const user = await server.signup('lost');
      const t = { token: user.token };
      expect((await server.request('POST', `/v1/orgs/${a}/invites/not-an-invite`, t)).status).toBe(404);
      expect((await server.request('POST', `/v1/orgs/no-such-org/invites/${link.id}`, t)).status).toBe(404);
      expect((await server.request('POST', `/v1/orgs/${b}/invites/${link.id}`, t)).status).toBe(404);
      expect((await server.request('GET', `/v1/orgs/${b}`, t)).status).toBe(404);
    });
  });

  describe('POST /v1/orgs/{id}/invites (by e-mail)', () => {
    it('invites an existing account: it joins with the given role only once its owner accepts', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const user = await server.signup('existing');
      const res = await server.request('POST', `/v1/orgs/${orgId}/invites`, {
        body: { emails: [user.email], role: 'create' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ users: [], invited: 1, unknownEmails: [] });
      // Not a member yet: the organization is unknown to them and they are not among its members.
      expect((await server.request('GET', `/v1/orgs/${orgId}`, { token: user.token })).status).toBe(404);
      expect((await server.request('GET', `/v1/orgs/${orgId}/members/${user.id}`)).status).toBe(404);
      const pending = await server.request('GET', '/v1/user/invitations', { token: user.token });
      expect(pending.body.items).toHaveLength(1);
      expect(pending.body.items[0]).toMatchObject({ role: 'create', organization: { id: orgId } });
      const accepted = await server.request('POST', `/v1/user/invitations/${pending.body.items[0].id}/accept`, {
        token: user.token,
      });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toEqual({ organization: orgId });
      expect(await orgPermissions(orgId, user.token)).toMatchObject({ admin: false, createContent: true });
      expect((await server.request('GET', '/v1/user/invitations', { token: user.token })).body.items).toEqual([]);
    });

    it('mails an address without an account a link from which it signs up, joins and is verified', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const email = uniqueEmail('future');
      const res = await server.request('POST', `/v1/orgs/${orgId}/invites`, {
        body: { emails: [{ email, role: 'admin' }] },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ users: [], invited: 1, unknownEmails: [] });
      const { id, secret, mail } = await invitationLink(email);
      expect(mail.subject).toBe('Owner invited you to Invite org');

      // Anyone holding the link sees what it invites to, and that the address has no account yet.
      const check = await server.request('POST', `/v1/invitations/${id}/check`, {
        token: null,
        body: { token: secret },
      });
      expect(check.status).toBe(200);
      expect(check.body).toMatchObject({ email, role: 'admin', organization: { id: orgId }, hasAccount: false });
      const wrong = await server.request('POST', `/v1/invitations/${id}/check`, {
        token: null,
        body: { token: `${secret}x` },
      });
      expect(wrong.status).toBe(404);

      // Sign-up from the link: for that address only.
      const other = await server.request('POST', '/v1/auth/signup', {
        token: null,
        body: {
          email: uniqueEmail('other'),
          password: 'a-good-password',
          displayName: 'O',
          invitation: { id, token: secret },
        },
      });
      expect(other.status).toBe(400);
      expect(other.body.error.message).toMatch(/^invitation: /);
      const signup = await server.request('POST', '/v1/auth/signup', {
        token: null,
        body: { email, password: 'a-good-password', displayName: 'Future', invitation: { id, token: secret } },
      });
      expect(signup.status).toBe(201);
      expect(await orgPermissions(orgId, signup.body.token)).toMatchObject({ admin: true });
      const me = await server.request('GET', '/v1/user', { token: signup.body.token });
      expect(me.body.emailVerified).toBe(true);
      // Used: the link no longer works.
      expect(
        (await server.request('POST', `/v1/invitations/${id}/check`, { token: null, body: { token: secret } })).status,
      ).toBe(404);
    });

    it('gives nothing to an unverified account that registered the invited address first', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const email = uniqueEmail('ceo');
      // A squatter signs up with someone else's address (and cannot follow its verification link).
      const taken = await server.request('POST', '/v1/auth/signup', {
        token: null,
        body: { email, password: 'squatters-password', displayName: 'Squatter' },
      });
      expect(taken.status).toBe(201);
      const invite = await server.request('POST', `/v1/orgs/${orgId}/invites`, {
        body: { emails: [email], role: 'admin' },
      });
      expect(invite.body.invited).toBe(1);
      const { id } = await invitationLink(email);
      const mine = await server.request('GET', '/v1/user/invitations', { token: taken.body.token });
      expect(mine.body).toMatchObject({ items: [], count: 0 });
      for (const action of ['accept', 'decline']) {
        const res = await server.request('POST', `/v1/user/invitations/${id}/${action}`, { token: taken.body.token });
        expect(res.status, action).toBe(404);
        const guessed = await server.request('POST', `/v1/invitations/${id}/${action}`, {
          token: taken.body.token,
          body: { token: 'dsi_guess' },
        });
        expect(guessed.status, action).toBe(404);
      }
      expect((await server.request('GET', `/v1/orgs/${orgId}`, { token: taken.body.token })).status).toBe(404);
      // The real owner of the mailbox accepts with the link, signed in to the account (after taking it back by a
      // password reset, say): that also verifies the address.
      const { secret } = await invitationLink(email);
      const accepted = await server.request('POST', `/v1/invitations/${id}/accept`, {
        token: taken.body.token,
        body: { token: secret },
      });
      expect(accepted.status).toBe(200);
      expect((await server.request('GET', '/v1/user', { token: taken.body.token })).body.emailVerified).toBe(true);
    });

    it('expires, and is resent with a new link (admins only, not twice in ten minutes), or revoked', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const signedUp = await server.signup('late');
      // A lasting token: the sign-in's would expire with the clock moved two weeks ahead.
      const lasting = await server.request('POST', '/v1/user/tokens', {
        token: signedUp.token,
        body: { label: 'CI', password: 'a-good-password' },
      });
      const user = { ...signedUp, token: lasting.body.token as string };
      await server.request('POST', `/v1/orgs/${orgId}/invites`, { body: { emails: [user.email], role: 'edit' } });
      const first = await invitationLink(user.email);
      const expired = await withClockAhead((INVITATION_DAYS + 1) * 24 * 3600 * 1000, async () => {
        const listed = await server.request('GET', `/v1/orgs/${orgId}/invitations`);
        expect(listed.body.items).toEqual([expect.objectContaining({ email: user.email, expired: true, sends: 1 })]);
        expect((await server.request('GET', '/v1/user/invitations', { token: user.token })).body.items).toEqual([]);
        return server.request('POST', `/v1/invitations/${first.id}/accept`, {
          token: user.token,
          body: { token: first.secret },
        });
      });
      expect(expired.status).toBe(404);

      const member = await server.member('create', orgId);
      const refused = await server.request('POST', `/v1/orgs/${orgId}/invitations/${first.id}/resend`, {
        token: member.token,
      });
      expect(refused.status).toBe(403);
      const resent = await server.request('POST', `/v1/orgs/${orgId}/invitations/${first.id}/resend`);
      expect(resent.status).toBe(200);
      expect(resent.body).toMatchObject({ sends: 2, expired: false });
      const again = await server.request('POST', `/v1/orgs/${orgId}/invitations/${first.id}/resend`);
      expect(again.status).toBe(429);
      const second = await invitationLink(user.email);
      expect(second.secret).not.toBe(first.secret);
      const old = await server.request('POST', `/v1/invitations/${first.id}/check`, {
        token: null,
        body: { token: first.secret },
      });
      expect(old.status, 'the old link stopped working').toBe(404);
      expect((await server.request('GET', '/v1/user/invitations', { token: user.token })).body.count).toBe(1);

      const revoked = await server.request('DELETE', `/v1/orgs/${orgId}/invitations/${first.id}`);
      expect(revoked.status).toBe(205);
      const after = await server.request('POST', `/v1/invitations/${first.id}/check`, {
        token: null,
        body: { token: second.secret },
      });
      expect(after.status).toBe(404);
    });

    it('gives invited accounts the organization’s default role when no role is named', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { defaultRole: 'comment' } });
      const user = await server.signup('defaulted');
      const res = await server.request('POST', `/v1/orgs/${orgId}/invites`, { body: { emails: [user.email] } });
      expect(res.body).toMatchObject({ users: [], invited: 1, unknownEmails: [] });
      const pending = await server.request('GET', '/v1/user/invitations', { token: user.token });
      await server.request('POST', `/v1/user/invitations/${pending.body.items[0].id}/accept`, { token: user.token });
      const member = await server.request('GET', `/v1/orgs/${orgId}/members/${user.id}`);
      expect(member.body.role).toBe('comment');
    });

    it('invites neither a member already in nor an account already invited, and changes no role', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const user = await server.signup('twice');
      await server.request('POST', `/v1/orgs/${orgId}/invites`, { body: { emails: [user.email], role: 'create' } });
      const again = await server.request('POST', `/v1/orgs/${orgId}/invites`, {
        body: { emails: [user.email], role: 'read' },
      });
      expect(again.status).toBe(200);
      expect(again.body.invited).toBe(0);
      const pending = await server.request('GET', '/v1/user/invitations', { token: user.token });
      expect(pending.body.items.map((i: { role: string }) => i.role)).toEqual(['create']);
      await server.request('POST', `/v1/user/invitations/${pending.body.items[0].id}/accept`, { token: user.token });
      const member = await server.request('POST', `/v1/orgs/${orgId}/invites`, {
        body: { emails: [user.email], role: 'read' },
      });
      expect(member.body.invited).toBe(0);
      expect((await orgPermissions(orgId, user.token)).createContent).toBe(true);
    });

    it('accepts 100 e-mails and refuses 101 or none (400 naming emails)', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const emails = Array.from({ length: 101 }, (_, i) => `bulk${i}-${orgId.slice(-6)}@example.com`);
      const ok = await server.request('POST', `/v1/orgs/${orgId}/invites`, { body: { emails: emails.slice(0, 100) } });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ invited: 100, unknownEmails: [] });
      const tooMany = await server.request('POST', `/v1/orgs/${orgId}/invites`, { body: { emails } });
      expect(tooMany.status).toBe(400);
      expect(paths(tooMany.body)).toContain('emails');
      const none = await server.request('POST', `/v1/orgs/${orgId}/invites`, { body: { emails: [] } });
      expect(none.status).toBe(400);
      expect(paths(none.body)).toContain('emails');
      const bad = await server.request('POST', `/v1/orgs/${orgId}/invites`, { body: { emails: ['not-an-email'] } });
      expect(bad.status).toBe(400);
    });

    it('is for admins only (403 for the create role) and answers 404 to an outsider', async () => {
      const email = uniqueEmail('denied');
      const forbidden = await server.request('POST', `/v1/orgs/${server.orgId}/invites`, {
        token: creator.token,
        body: { emails: [email], role: 'admin' },
      });
      expect(forbidden.status).toBe(403);
      const hidden = await server.request('POST', `/v1/orgs/${server.orgId}/invites`, {
        token: outsider.token,
        body: { emails: [email], role: 'admin' },
      });
      expect(hidden.status).toBe(404);
      // Neither stored an invite: the address signs up into no organization.
      const signup = await server.request('POST', '/v1/auth/signup', {
        token: null,
        body: { email, password: 'a-good-password', displayName: 'Denied' },
      });
      expect(signup.status).toBe(201);
      expect((await server.request('GET', '/v1/orgs', { token: signup.body.token })).body.count).toBe(0);
    });
  });

  describe('GET /v1/orgs/{id}/invites/{inviteId} (what a link offers)', () => {
    it('tells the holder, signed in or not, the organization and the role', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const link = await newInviteLink(server, orgId, 'comment');
      const anonymous = await server.request('GET', `/v1/orgs/${orgId}/invites/${link.id}`, { token: null });
      expect(anonymous.status).toBe(200);
      expect(anonymous.body).toEqual({ organization: { id: orgId, title: 'Invite org' }, role: 'comment' });
      const signedIn = await server.request('GET', `/v1/orgs/${orgId}/invites/${link.id}`, { token: outsider.token });
      expect(signedIn.body).toEqual({ organization: { id: orgId, title: 'Invite org' }, role: 'comment' });
      // A member sees their own role beside the link's.
      const mine = await server.request('GET', `/v1/orgs/${orgId}/invites/${link.id}`);
      expect(mine.body.membership).toEqual({ role: 'admin' });
    });

    it('answers 404 for a wrong link, a link of another organization, and links turned off', async () => {
      const orgId = (await newOrg(server, 'Invite org')).id;
      const otherOrg = (await newOrg(server, 'Invite org')).id;
      const link = await newInviteLink(server, orgId);
      for (const path of [
        `/v1/orgs/${orgId}/invites/not-a-link`,
        `/v1/orgs/${otherOrg}/invites/${link.id}`,
        `/v1/orgs/nope/invites/${link.id}`,
      ]) {
        const res = await server.request('GET', path, { token: null });
        expect(res.status).toBe(404);
        expect(res.body.error.message).toBe('Invite not found');
      }
      await server.request('PATCH', `/v1/orgs/${orgId}`, { body: { inviteLinks: false } });
      expect((await server.request('GET', `/v1/orgs/${orgId}/invites/${link.id}`, { token: null })).status).toBe(404);
    });
  });
});

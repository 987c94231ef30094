import { useState } from 'react';
import type { RefObject } from 'react';
import type { RoleOrGuest } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogFooter, DialogForm } from '../../../components/ui/dialog';
import { SelectField, TextareaField } from '../../../components/ui/field';
import { CheckIcon } from '../../../components/ui/icons';
import { showServerError, useZodForm } from '../../../lib/form';
import { ROLE_SELECT_OPTIONS } from '../../../lib/roles';
import { inviteByEmailFormSchema, useInviteByEmail } from '../api/invite-by-email';
import { inviteOutcome } from '../utils/invite';
import type { InviteOutcome } from '../utils/invite';
import '../members.css';

interface Props {
  organizationId: string;
  /** The role picked at first: the organization's default role. */
  defaultRole: RoleOrGuest;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/**
 * "Invite by e-mail": addresses of people who have an account here, and the role they get once they accept.
 * Then what happened: invitations sent, addresses left as they were, and addresses without an account (an invite
 * link is the way for them).
 */
export function InviteByEmailDialog({ organizationId, defaultRole, ...props }: Props) {
  const [outcome, setOutcome] = useState<InviteOutcome | null>(null);
  const onOpenChange = (open: boolean) => {
    if (!open) setOutcome(null);
    props.onOpenChange(open);
  };
  return (
    <Dialog
      {...props}
      onOpenChange={onOpenChange}
      title="Invite by e-mail"
      description={
        outcome
          ? undefined
          : 'Each address gets an e-mail with a link to join (or to create an account first); people with an account here also see the invitation in their account menu.'
      }
    >
      {outcome ? (
        <InviteResult outcome={outcome} onMore={() => setOutcome(null)} onDone={() => onOpenChange(false)} />
      ) : (
        <InviteForm organizationId={organizationId} defaultRole={defaultRole} onSent={setOutcome} />
      )}
    </Dialog>
  );
}

function InviteForm({
  organizationId,
  defaultRole,
  onSent,
}: {
  organizationId: string;
  defaultRole: RoleOrGuest;
  onSent: (outcome: InviteOutcome) => void;
}) {
  const form = useZodForm(inviteByEmailFormSchema, {
    defaultValues: { emails: '', role: defaultRole },
    mode: 'onTouched',
  });
  const invite = useInviteByEmail(organizationId);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await invite.mutateAsync(values);
      onSent(inviteOutcome(values.emails, result));
    } catch (error) {
      showServerError(form, error, ['emails', 'role']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Send invitations">
      <TextareaField
        control={form.control}
        name="emails"
        label="E-mail addresses"
        hint="Separate them with commas, spaces or new lines."
        rows={4}
        autoComplete="off"
        spellCheck={false}
      />
      <SelectField control={form.control} name="role" label="Role once they join" options={ROLE_SELECT_OPTIONS} />
    </DialogForm>
  );
}

const people = (n: number) => (n === 1 ? '1 person' : `${n} people`);

function InviteResult({ outcome, onMore, onDone }: { outcome: InviteOutcome; onMore: () => void; onDone: () => void }) {
  const { invited, unchanged } = outcome;
  return (
    <>
      <div className="dialog-body invite-result" role="status">
        {invited > 0 ? (
          <p className="invite-result-line">
            <CheckIcon /> <strong>{people(invited)} invited.</strong> Each gets an e-mail with a link (it works for two
            weeks); they join once they accept, and are listed under “Invited” until then.
          </p>
        ) : (
          <p className="invite-result-line">Nobody new was invited.</p>
        )}
        {unchanged > 0 && (
          <p className="field-hint">
            {unchanged === 1 ? '1 address belongs' : `${unchanged} addresses belong`} to a member, or to someone invited
            already: left as {unchanged === 1 ? 'it was' : 'they were'}.
          </p>
        )}
      </div>
      <DialogFooter>
        <Button onClick={onMore}>Invite more</Button>
        {/* The form that had focus is gone: focus goes to the obvious next step. */}
        <Button variant="primary" onClick={onDone} autoFocus>
          Done
        </Button>
      </DialogFooter>
    </>
  );
}

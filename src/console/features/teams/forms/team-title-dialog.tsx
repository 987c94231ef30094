import type { RefObject } from 'react';
import { TEAM_TITLE_MAX } from '../../../../shared/contract';
import type { Team } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useCreateTeam } from '../api/create-team';
import { createTeamBodySchema } from '../../../../shared/contract';
import { useRenameTeam } from '../api/rename-team';
import { updateTeamBodySchema } from '../../../../shared/contract';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/** A new team: its title (members are added on its page). */
export function CreateTeamDialog({
  organizationId,
  onCreated,
  ...props
}: DialogProps & { organizationId: string; onCreated: (team: Team) => void }) {
  return (
    <Dialog {...props} title="New team">
      <CreateTeamForm organizationId={organizationId} onCreated={onCreated} />
    </Dialog>
  );
}

function CreateTeamForm({ organizationId, onCreated }: { organizationId: string; onCreated: (team: Team) => void }) {
  const form = useZodForm(createTeamBodySchema, { defaultValues: { title: '' } });
  const create = useCreateTeam(organizationId);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const team = await create.mutateAsync(values);
      toast.show(`Team “${team.title}” created`);
      onCreated(team);
    } catch (error) {
      showServerError(form, error, ['title']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Create team">
      <TextField control={form.control} name="title" label="Title" max={TEAM_TITLE_MAX} autoComplete="off" required />
    </DialogForm>
  );
}

export function RenameTeamDialog({
  organizationId,
  team,
  ...props
}: DialogProps & { organizationId: string; team: Team }) {
  return (
    <Dialog {...props} title="Rename team">
      <RenameTeamForm organizationId={organizationId} team={team} onDone={() => props.onOpenChange(false)} />
    </Dialog>
  );
}

function RenameTeamForm({ organizationId, team, onDone }: { organizationId: string; team: Team; onDone: () => void }) {
  const form = useZodForm(updateTeamBodySchema, { defaultValues: { title: team.title } });
  const rename = useRenameTeam(organizationId, team);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async ({ title }) => {
    if (title === team.title) return onDone();
    try {
      await rename.mutateAsync(title);
      toast.show(`Team renamed to “${title}”`);
      onDone();
    } catch (error) {
      showServerError(form, error, ['title']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Rename">
      <TextField control={form.control} name="title" label="Title" max={TEAM_TITLE_MAX} autoComplete="off" required />
    </DialogForm>
  );
}

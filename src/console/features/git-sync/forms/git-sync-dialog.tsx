import { useState, type RefObject } from 'react';
import { z } from 'zod';
import {
  GIT_BRANCH_MAX,
  GIT_ROOT_MAX,
  GIT_TOKEN_MAX,
  URL_MAX,
  gitSyncSettingsBodySchema,
  type GitSyncSettings,
} from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { CheckboxField, SelectField, TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { showServerError, useZodForm } from '../../../lib/form';
import { useSaveGitSync, useTestGitSync } from '../api/git-sync';

const POLL_OPTIONS = [
  { value: '0', label: 'Never (a webhook tells)' },
  { value: '5', label: 'Every 5 minutes' },
  { value: '15', label: 'Every 15 minutes' },
  { value: '60', label: 'Every hour' },
  { value: '1440', label: 'Once a day' },
];

const DIRECTION_OPTIONS = [
  {
    value: 'import',
    label: 'From the repository to the space',
    hint: 'Commits pushed to the branch come into the space; merges in the space stay here.',
  },
  {
    value: 'two-way',
    label: 'Both ways',
    hint: 'Commits come into the space, and each merged change request is pushed as a commit.',
  },
];

/** The contract's settings; the token typed here (empty keeps the stored one) and the interval as a choice. */
const formSchema = gitSyncSettingsBodySchema.extend({
  token: z.string().trim().max(GIT_TOKEN_MAX),
  removeToken: z.boolean(),
  pollMinutes: z.enum(['0', '5', '15', '60', '1440']),
  authorName: z.string().trim().max(255),
});

const FIELDS = ['url', 'branch', 'root', 'direction', 'token', 'authorName', 'authorEmail', 'pollMinutes'] as const;

interface Props {
  spaceId: string;
  /** Absent: connecting the space. */
  settings?: GitSyncSettings | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

export function GitSyncDialog({ spaceId, settings, ...props }: Props) {
  return (
    <Dialog
      {...props}
      title={settings ? 'Git Sync settings' : 'Connect a Git repository'}
      description="The space mirrors a folder of the repository, in GitBook's format (SUMMARY.md, README.md, .gitbook.yaml)."
    >
      <GitSyncForm spaceId={spaceId} settings={settings} onSaved={() => props.onOpenChange(false)} />
    </Dialog>
  );
}

function GitSyncForm({
  spaceId,
  settings,
  onSaved,
}: {
  spaceId: string;
  settings?: GitSyncSettings | null;
  onSaved: () => void;
}) {
  const form = useZodForm(formSchema, {
    mode: 'onTouched',
    defaultValues: {
      url: settings?.url ?? '',
      branch: settings?.branch ?? 'main',
      root: settings?.root ?? '',
      direction: settings?.direction ?? 'import',
      token: '',
      removeToken: false,
      pollMinutes: String(settings?.pollMinutes ?? 0) as '0',
      authorName: settings?.authorName ?? '',
      authorEmail: settings?.authorEmail ?? '',
    },
  });
  const save = useSaveGitSync(spaceId);
  const test = useTestGitSync(spaceId);
  const toast = useToast();
  const [tested, setTested] = useState<{ ok: boolean; message: string }>();
  const onSubmit = form.handleSubmit(async ({ token, removeToken, pollMinutes, ...values }) => {
    try {
      await save.mutateAsync({
        ...values,
        pollMinutes: Number(pollMinutes),
        ...(token ? { token } : removeToken ? { token: null } : {}),
      });
      toast.show(settings ? 'Git Sync settings saved' : 'Connected: sync now to bring the repository in');
      onSaved();
    } catch (error) {
      showServerError(form, error, FIELDS);
    }
  });
  const testConnection = async () => {
    const ok = await form.trigger(['url', 'branch']);
    if (!ok) return;
    const { url, branch, token } = form.getValues();
    setTested(undefined);
    try {
      setTested(await test.mutateAsync({ url, branch, ...(token ? { token } : {}) }));
    } catch (error) {
      setTested({ ok: false, message: errorMessage(error) });
    }
  };
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit={settings ? 'Save settings' : 'Connect'}>
      <TextField
        control={form.control}
        name="url"
        label="Repository URL"
        type="url"
        max={URL_MAX}
        placeholder="https://github.com/acme/docs.git"
        autoComplete="off"
        required
      />
      <div className="form-grid">
        <TextField
          control={form.control}
          name="branch"
          label="Branch"
          max={GIT_BRANCH_MAX}
          autoComplete="off"
          required
        />
        <TextField
          control={form.control}
          name="root"
          label="Folder"
          hint="Empty: the whole repository."
          placeholder="docs"
          max={GIT_ROOT_MAX}
          autoComplete="off"
        />
      </div>
      <TextField
        control={form.control}
        name="token"
        label="Access token"
        type="password"
        autoComplete="new-password"
        hint={
          settings?.hasToken
            ? 'A token is stored (it is never shown). Type a new one to replace it.'
            : 'A personal or project access token that may read (and, both ways, push to) the repository. None for a public repository read only.'
        }
        max={GIT_TOKEN_MAX}
      />
      {settings?.hasToken && (
        <CheckboxField control={form.control} name="removeToken" label="Remove the stored token" />
      )}
      <div className="git-sync-test">
        <Button type="button" size="sm" onClick={() => void testConnection()} loading={test.isPending}>
          Test the connection
        </Button>
        <p role="status" className={tested ? (tested.ok ? 'git-sync-ok' : 'field-error') : 'field-hint'}>
          {tested?.message ?? 'Checks the URL, the token and the branch; nothing is saved.'}
        </p>
      </div>
      <SelectField control={form.control} name="direction" label="Direction" options={DIRECTION_OPTIONS} />
      <SelectField
        control={form.control}
        name="pollMinutes"
        label="Look for new commits"
        options={POLL_OPTIONS}
        hint="Without a webhook, the branch is looked at this often."
      />
      <div className="form-grid">
        <TextField
          control={form.control}
          name="authorName"
          label="Committer name"
          placeholder="GitBook"
          autoComplete="off"
          max={255}
        />
        <TextField
          control={form.control}
          name="authorEmail"
          label="Committer e-mail"
          type="email"
          autoComplete="off"
          hint="Commits are authored by who merged; this is their committer."
        />
      </div>
    </DialogForm>
  );
}

import type { RefObject } from 'react';
import { SAML_CERTIFICATE_MAX, SAML_LABEL_MAX, SAML_URL_MAX } from '../../../../shared/contract';
import type { SamlProvider } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { SelectField, TextareaField, TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { ROLE_SELECT_OPTIONS } from '../../../lib/roles';
import { useCreateSamlProvider } from '../api/create-saml-provider';
import { createSamlProviderBodySchema } from '../../../../shared/contract';
import { useTeamChoices } from '../api/get-team-choices';
import { useUpdateSamlProvider } from '../api/update-saml-provider';
import { pemCertificateProblem } from '../utils/pem';

/**
 * The contract's provider, with the certificate's PEM shape checked while typing (the server then parses it and
 * answers beside the field when it does not parse).
 */
const samlProviderFormSchema = createSamlProviderBodySchema.extend({
  certificate: createSamlProviderBodySchema.shape.certificate.superRefine((value, ctx) => {
    const problem = pemCertificateProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
});

const FIELDS = ['label', 'entityID', 'ssoURL', 'certificate', 'defaultRole', 'defaultTeam'] as const;

interface Props {
  organizationId: string;
  /** Absent: a new provider. */
  provider?: SamlProvider;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
  onSaved: (provider: SamlProvider) => void;
}

export function SamlProviderDialog({ organizationId, provider, onSaved, ...props }: Props) {
  return (
    <Dialog
      {...props}
      title={provider ? `Edit ${provider.label}` : 'New SAML provider'}
      description="From your identity provider's SAML application: its entity id (issuer), sign-in URL and signing certificate."
    >
      <SamlProviderForm organizationId={organizationId} provider={provider} onSaved={onSaved} />
    </Dialog>
  );
}

function SamlProviderForm({
  organizationId,
  provider,
  onSaved,
}: {
  organizationId: string;
  provider?: SamlProvider;
  onSaved: (provider: SamlProvider) => void;
}) {
  const form = useZodForm(samlProviderFormSchema, {
    mode: 'onTouched',
    defaultValues: {
      label: provider?.label ?? '',
      entityID: provider?.entityID ?? '',
      ssoURL: provider?.ssoURL ?? '',
      certificate: provider?.certificate ?? '',
      defaultRole: provider ? provider.defaultRole : 'read',
      defaultTeam: provider?.defaultTeam?.id ?? null,
    },
  });
  const create = useCreateSamlProvider(organizationId);
  const update = useUpdateSamlProvider(organizationId, provider?.id ?? '');
  const teams = useTeamChoices(organizationId);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const body = { ...values, defaultTeam: values.defaultTeam ?? null };
      const saved = provider ? await update.mutateAsync(body) : await create.mutateAsync(body);
      toast.show(
        provider ? `“${saved.label}” saved` : `“${saved.label}” added: copy its endpoints into your identity provider`,
      );
      onSaved(saved);
    } catch (error) {
      showServerError(form, error, FIELDS);
    }
  });
  const teamOptions = [
    { value: null, label: 'No team' },
    ...(teams.data ?? []).map((team) => ({ value: team.id, label: team.title })),
  ];
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit={provider ? 'Save provider' : 'Add provider'}>
      <TextField
        control={form.control}
        name="label"
        label="Label"
        hint="Shown on the sign-in button."
        max={SAML_LABEL_MAX}
        autoComplete="off"
        required
      />
      <TextField
        control={form.control}
        name="entityID"
        label="Identity provider entity id"
        hint="The Issuer of its responses."
        autoComplete="off"
        required
      />
      <TextField
        control={form.control}
        name="ssoURL"
        label="Sign-in URL (SSO URL)"
        type="url"
        max={SAML_URL_MAX}
        autoComplete="off"
        placeholder="https://idp.example.com/sso/saml"
        required
      />
      <TextareaField
        control={form.control}
        name="certificate"
        label="Signing certificate (PEM)"
        rows={6}
        className="input textarea input-mono"
        max={SAML_CERTIFICATE_MAX}
        placeholder={'-----BEGIN CERTIFICATE-----\nMIIC…\n-----END CERTIFICATE-----'}
        spellCheck={false}
        required
      />
      <div className="form-grid">
        <SelectField
          control={form.control}
          name="defaultRole"
          label="Role of people who join"
          options={ROLE_SELECT_OPTIONS}
        />
        <SelectField
          control={form.control}
          name="defaultTeam"
          label="Team they join"
          options={teamOptions}
          disabled={teams.isPending}
          hint={teams.isError ? 'The teams could not be loaded.' : undefined}
        />
      </div>
    </DialogForm>
  );
}

import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useController, useFormState, useWatch } from 'react-hook-form';
import type { Control } from 'react-hook-form';
import { z } from 'zod';
import {
  ORG_LOGO_MAX,
  ORG_TITLE_MAX,
  orgTitleSchema,
  roleOrGuestSchema,
  updateOrganizationBodySchema,
} from '../../../../shared/contract';
import type { Organization, UpdateOrganizationBody } from '../../../../shared/contract';
import { FormActions } from '../../../components/ui/form-actions';
import { SelectField, TextField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { Switch } from '../../../components/ui/switch';
import { useToast } from '../../../components/ui/toast';
import { changedFields, showServerError, useZodForm } from '../../../lib/form';
import { ROLE_SELECT_OPTIONS } from '../../../lib/roles';
import { useUpdateOrganization } from '../api/update-organization';
import '../organizations.css';

/** The General tab's fields: the contract's rules; an empty logo field removes the logo (`null`). */
export const organizationSettingsSchema = z.object({
  title: orgTitleSchema,
  logo: z
    .string()
    .trim()
    .transform((value) => (value === '' ? null : value))
    .pipe(updateOrganizationBodySchema.shape.logo.unwrap()),
  defaultRole: roleOrGuestSchema,
  inviteLinks: z.boolean(),
});

type Values = z.input<typeof organizationSettingsSchema>;

function valuesOf(organization: Organization): Values {
  return {
    title: organization.title,
    logo: organization.urls.logo ?? '',
    defaultRole: organization.defaultRole ?? null,
    inviteLinks: organization.inviteLinks,
  };
}

/**
 * Name, logo, default role and invite links of an organization, saved together (only what changed is sent).
 * Admins change them; everyone else sees them read-only. E-mail domains have their own tab, linked from here.
 */
export function OrganizationSettingsForm({ organization }: { organization: Organization }) {
  const id = useId();
  const form = useZodForm(organizationSettingsSchema, { defaultValues: valuesOf(organization) });
  const update = useUpdateOrganization(organization.id);
  const toast = useToast();
  const readOnly = !organization.permissions.admin;
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    const body: UpdateOrganizationBody | null = changedFields(form, values);
    if (!body) return;
    try {
      const updated = await update.mutateAsync(body);
      form.reset(valuesOf(updated));
      toast.show('Organization settings saved');
    } catch (error) {
      showServerError(form, error, ['title', 'logo', 'defaultRole', 'inviteLinks']);
    }
  });

  return (
    <form className="form org-settings" onSubmit={onSubmit} noValidate aria-label="Organization settings">
      {readOnly && (
        <p className="notice notice-info">Only administrators of {organization.title} can change these settings.</p>
      )}
      <FormError message={errors.root?.server?.message} />
      <fieldset className="fieldset" disabled={readOnly}>
        <TextField
          control={form.control}
          name="title"
          label="Name"
          max={ORG_TITLE_MAX}
          autoComplete="organization"
          required
        />
        <LogoField control={form.control} />
        <SelectField
          control={form.control}
          name="defaultRole"
          label="Default role"
          options={ROLE_SELECT_OPTIONS.map((option) => ({
            ...option,
            hint: `${option.hint} Offered first when inviting by e-mail, and given when an invitation names no role.`,
          }))}
        />
        <InviteLinksSwitch control={form.control} describedBy={`${id}-invite-links`} />
        <p id={`${id}-invite-links`} className="field-hint">
          When off, no invite link of {organization.title} lets anyone join, and admins cannot make new ones. The links
          are kept, and work again once invite links are back on.
        </p>
      </fieldset>
      <div className="field">
        <p className="field-label" id={`${id}-domains`}>
          E-mail domains
        </p>
        {organization.emailDomains.length > 0 ? (
          <ul className="org-domains" aria-labelledby={`${id}-domains`}>
            {organization.emailDomains.map((domain) => (
              <li key={domain} className="badge">
                {domain}
              </li>
            ))}
          </ul>
        ) : (
          <p className="field-hint">None.</p>
        )}
        {!readOnly && (
          <p className="field-hint">
            <Link to="/o/$organizationId/settings/domains" params={{ organizationId: organization.id }}>
              Add, verify or remove e-mail domains
            </Link>{' '}
            on their own tab: a domain counts only once verified.
          </p>
        )}
      </div>
      {!readOnly && <FormActions form={form} />}
    </form>
  );
}

/** The logo's address, with the image beside it once the address is valid (nothing when it fails to load). */
function LogoField({ control }: { control: Control<Values, unknown, z.output<typeof organizationSettingsSchema>> }) {
  const url = useWatch({ control, name: 'logo' }).trim();
  const { errors } = useFormState({ control, name: 'logo' });
  const [broken, setBroken] = useState<string | null>(null);
  const showPreview = url !== '' && !errors.logo && broken !== url && /^https?:\/\//i.test(url);
  return (
    <div className="org-logo-field">
      <TextField
        control={control}
        name="logo"
        label="Logo"
        type="url"
        inputMode="url"
        placeholder="https://example.com/logo.png"
        hint="The https:// address of an image, shown beside the name in the sidebar. Leave it empty for no logo."
        max={ORG_LOGO_MAX}
        autoComplete="off"
        spellCheck={false}
      />
      {showPreview && <img className="org-logo-preview" src={url} alt="Logo preview" onError={() => setBroken(url)} />}
    </div>
  );
}

function InviteLinksSwitch({
  control,
  describedBy,
}: {
  control: Control<Values, unknown, z.output<typeof organizationSettingsSchema>>;
  describedBy: string;
}) {
  const id = useId();
  const {
    field: { ref: switchRef, ...field },
  } = useController({ control, name: 'inviteLinks' });
  return (
    <div className="switch-row org-switch-row">
      <span className="field-label">
        <span id={`${id}-label`}>Invite links</span>{' '}
        <span className={field.value ? 'badge badge-public' : 'badge'}>{field.value ? 'On' : 'Off'}</span>
      </span>
      <Switch
        ref={switchRef}
        checked={field.value}
        onCheckedChange={field.onChange}
        disabled={field.disabled}
        aria-labelledby={`${id}-label`}
        aria-describedby={describedBy}
      />
    </div>
  );
}

import { useEffect } from 'react';
import { useWatch } from 'react-hook-form';
import {
  SITE_BASENAME_MAX,
  SITE_PROXY_MAX,
  SITE_TITLE_MAX,
  idSchema,
  siteProxySchema,
} from '../../../../shared/contract';
import type { Site, SiteSpace, SiteStructure, UpdateSiteBody } from '../../../../shared/contract';
import { FormActions } from '../../../components/ui/form-actions';
import { CheckboxField, SelectField, TextField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { changedFields, showServerError, useZodForm } from '../../../lib/form';
import { emptyAsUndefined } from '../../../lib/form-schemas';
import { useUpdateSite } from '../api/update-site';
import { updateSiteBodySchema } from '../../../../shared/contract';
import { siteVisibilityOptions, SPACE_UNTITLED } from '../utils/labels';
import type { SiteRef } from '../utils/paths';
import { allSections } from '../utils/structure';

const siteSettingsFormSchema = updateSiteBodySchema.extend({
  basename: emptyAsUndefined(updateSiteBodySchema.shape.basename.unwrap().unwrap()),
  proxy: emptyAsUndefined(siteProxySchema),
  defaultSiteSection: emptyAsUndefined(idSchema),
  defaultSiteSpace: emptyAsUndefined(idSchema),
});

function defaults(structure: SiteStructure) {
  const sections = allSections(structure);
  const section = sections.find((s) => s.default);
  const siteSpaces = structure.type === 'siteSpaces' ? structure.structure : (section?.siteSpaces ?? []);
  return { section, siteSpaces, sections };
}

function valuesOf(site: Site, structure: SiteStructure) {
  const { section, siteSpaces } = defaults(structure);
  return {
    title: site.title,
    visibility: site.visibility,
    basename: site.basename ?? '',
    proxy: site.proxy?.origin ?? '',
    adaptiveContent: { enabled: site.adaptiveContent.enabled },
    defaultSiteSection: section?.id ?? '',
    defaultSiteSpace: siteSpaces.find((s) => s.default)?.id ?? '',
  };
}

const NO_SITE_SPACES: SiteSpace[] = [];

/** Title, visibility, basename, proxy, adaptive content and the defaults of a site; only what changed is sent. */
export function SiteSettingsForm({
  siteRef,
  site,
  structure,
}: {
  siteRef: SiteRef;
  site: Site;
  structure: SiteStructure;
}) {
  const form = useZodForm(siteSettingsFormSchema, { defaultValues: valuesOf(site, structure) });
  const update = useUpdateSite(siteRef);
  const toast = useToast();
  const readOnly = !site.permissions.admin;
  const { errors } = form.formState;
  const { sections } = defaults(structure);
  const chosenSection = useWatch({ control: form.control, name: 'defaultSiteSection' });
  const section = sections.find((s) => s.id === chosenSection);
  const siteSpaces = structure.type === 'siteSpaces' ? structure.structure : (section?.siteSpaces ?? NO_SITE_SPACES);

  // Another default section: its own default space is the one to show, unless another is chosen.
  useEffect(() => {
    const current = form.getValues('defaultSiteSpace');
    if (!siteSpaces.some((s) => s.id === current)) {
      form.setValue('defaultSiteSpace', siteSpaces.find((s) => s.default)?.id ?? siteSpaces[0]?.id ?? '');
    }
  }, [siteSpaces, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    const { defaultSiteSection, defaultSiteSpace, ...changed } =
      changedFields(form, values, ['basename', 'proxy']) ?? {};
    const body: UpdateSiteBody = changed;
    // The default site space belongs to the default section: a new section sends the space chosen in it too.
    if (defaultSiteSection) body.defaultSiteSection = defaultSiteSection;
    if ((defaultSiteSpace || defaultSiteSection) && values.defaultSiteSpace) {
      body.defaultSiteSpace = values.defaultSiteSpace;
    }
    if (Object.keys(body).length === 0) return form.reset(form.getValues());
    try {
      const updated = await update.mutateAsync(body);
      // What was sent is now the truth; the defaults come back with the structure, which is refetched.
      form.reset({ ...form.getValues(), title: updated.title, basename: updated.basename ?? '' });
      toast.show('Site settings saved');
    } catch (error) {
      showServerError(form, error, Object.keys(valuesOf(site, structure)));
    }
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Site settings">
      {readOnly && <p className="notice notice-info">You can see this site’s settings but not change them.</p>}
      <FormError message={errors.root?.server?.message} />
      <fieldset className="fieldset" disabled={readOnly}>
        <TextField control={form.control} name="title" label="Title" max={SITE_TITLE_MAX} autoComplete="off" required />
        <SelectField control={form.control} name="visibility" label="Visibility" options={siteVisibilityOptions} />
        <div className="form-grid">
          <TextField
            control={form.control}
            name="basename"
            label="Basename"
            hint="A short name of the site; leave it empty to remove it."
            max={SITE_BASENAME_MAX}
            autoComplete="off"
            spellCheck={false}
          />
          <TextField
            control={form.control}
            name="proxy"
            label="Proxy"
            hint="Host and path where your reverse proxy serves the site, e.g. example.com/docs. Empty for none."
            max={SITE_PROXY_MAX}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <CheckboxField
          control={form.control}
          name="adaptiveContent.enabled"
          label="Adaptive content"
          hint="Show or hide sections and spaces by the visitor’s claims (their conditions). Always on with visitor authentication."
        />
        <div className="form-grid">
          {sections.length > 0 && (
            <SelectField
              control={form.control}
              name="defaultSiteSection"
              label="Default section"
              hint="The section the site opens on."
              options={sections.map((s) => ({ value: s.id, label: s.title }))}
            />
          )}
          {siteSpaces.length > 0 && (
            <SelectField
              control={form.control}
              name="defaultSiteSpace"
              label={sections.length > 0 ? 'Default space of that section' : 'Default space'}
              hint="The space shown first."
              options={siteSpaces.map((s) => ({ value: s.id, label: s.space.title || SPACE_UNTITLED }))}
            />
          )}
        </div>
      </fieldset>
      {!readOnly && <FormActions form={form} />}
    </form>
  );
}

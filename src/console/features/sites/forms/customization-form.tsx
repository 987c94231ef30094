import { useEffect, useState } from 'react';
import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import {
  customizationSchema,
  CUSTOMIZATION_ANNOUNCEMENT_MAX,
  CUSTOMIZATION_COPYRIGHT_MAX,
  CUSTOMIZATION_LINK_TITLE_MAX,
  CUSTOMIZATION_LINKS_MAX,
  CUSTOMIZATION_TITLE_MAX,
  CUSTOMIZATION_URL_MAX,
  DEFAULT_FONTS,
  EMOJI_MAX,
  themedUrlSchema,
} from '../../../../shared/contract';
import type { Customization } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { CheckboxField, SelectField, TextField } from '../../../components/ui/field';
import { FormError } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { showServerError, useZodForm } from '../../../lib/form';
import { emptyAsUndefined } from '../../../lib/form-schemas';
import { previewCustomization, useUpdateCustomization } from '../api/update-customization';
import type { SiteRef } from '../utils/paths';
import '../sites.css';

const styling = customizationSchema.shape.styling.shape;
const announcement = customizationSchema.shape.announcement.unwrap().shape;
const linkTitle = z.string().trim().min(1, 'Give it a title').max(CUSTOMIZATION_LINK_TITLE_MAX);
const linkUrl = z.url({ protocol: /^https?$/, message: 'An http(s) address' }).max(CUSTOMIZATION_URL_MAX);

/** Header links and footer groups the form can edit: plain links to addresses (others are set through the API). */
function editableLinks(c: Customization): boolean {
  const plain = (to: { kind: string } | null) => to?.kind === 'url';
  return (
    c.header.links.every((l) => plain(l.to) && l.links.length === 0 && !l.condition) &&
    c.footer.groups.every((g) => g.links.every((l) => plain(l.to)))
  );
}
const urlOf = (to: { kind: string; url?: string } | null) => (to?.kind === 'url' ? (to.url ?? '') : '');

/** A colour as the colour picker holds it: #rrggbb. */
const pickerColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'A colour such as #3a5bd9');

/** The settings this form edits, flattened for its fields; the rest of the customization is kept as it is. */
const customizationFormSchema = z
  .object({
    title: emptyAsUndefined(customizationSchema.shape.title.unwrap()),
    theme: styling.theme,
    primaryLight: pickerColor,
    primaryDark: pickerColor,
    corners: styling.corners,
    links: styling.links,
    font: z.enum([...DEFAULT_FONTS, 'custom']),
    sidebarList: styling.sidebar.shape.list,
    logoLight: emptyAsUndefined(themedUrlSchema.shape.light),
    logoDark: emptyAsUndefined(themedUrlSchema.shape.dark),
    faviconEmoji: emptyAsUndefined(z.string().max(EMOJI_MAX)),
    announcementEnabled: z.boolean(),
    announcementMessage: z.string().max(CUSTOMIZATION_ANNOUNCEMENT_MAX),
    announcementStyle: announcement.style,
    copyright: emptyAsUndefined(z.string().max(CUSTOMIZATION_COPYRIGHT_MAX)),
    toggeable: z.boolean(),
    defaultMode: customizationSchema.shape.themes.shape.default,
    pagination: z.boolean(),
    trademark: z.boolean(),
    markdown: z.boolean(),
    socialPreview: emptyAsUndefined(themedUrlSchema.shape.light),
    privacyPolicy: emptyAsUndefined(themedUrlSchema.shape.light),
    headerLinks: z
      .array(
        z.object({
          title: linkTitle,
          url: linkUrl,
          style: z.enum(['link', 'button-primary', 'button-secondary']),
        }),
      )
      .max(CUSTOMIZATION_LINKS_MAX),
    footerGroups: z
      .array(
        z.object({
          title: linkTitle,
          links: z.array(z.object({ title: linkTitle, url: linkUrl })).max(CUSTOMIZATION_LINKS_MAX),
        }),
      )
      .max(CUSTOMIZATION_LINKS_MAX),
  })
  .superRefine((v, ctx) => {
    if (Boolean(v.logoLight) !== Boolean(v.logoDark)) {
      // Said on the field being filled in, where the form shows it while typing.
      ctx.addIssue({
        code: 'custom',
        path: [v.logoLight ? 'logoLight' : 'logoDark'],
        message: `Give the logo for ${v.logoLight ? 'dark' : 'light'} mode too (the same address twice is fine)`,
      });
    }
    if (v.announcementEnabled && v.announcementMessage.trim().length < 2) {
      ctx.addIssue({
        code: 'custom',
        path: ['announcementMessage'],
        message: 'Write the announcement (2 characters or more)',
      });
    }
  });
type FormInput = z.input<typeof customizationFormSchema>;
type FormValues = z.output<typeof customizationFormSchema>;

const six = (color: string) => (color.length === 4 ? `#${[...color.slice(1)].map((c) => c + c).join('')}` : color);

function valuesOf(c: Customization): FormInput {
  const favicon = 'emoji' in c.favicon ? c.favicon.emoji : '';
  return {
    title: c.title ?? '',
    theme: c.styling.theme,
    primaryLight: six(c.styling.primaryColor.light),
    primaryDark: six(c.styling.primaryColor.dark),
    corners: c.styling.corners,
    links: c.styling.links,
    font: typeof c.styling.font === 'string' ? c.styling.font : 'custom',
    sidebarList: c.styling.sidebar.list,
    logoLight: c.header.logo?.light ?? '',
    logoDark: c.header.logo?.dark ?? '',
    faviconEmoji: favicon ?? '',
    announcementEnabled: c.announcement?.enabled ?? false,
    announcementMessage: c.announcement?.message ?? '',
    announcementStyle: c.announcement?.style ?? 'info',
    copyright: c.footer.copyright ?? '',
    toggeable: c.themes.toggeable,
    defaultMode: c.themes.default,
    pagination: c.pagination.enabled,
    trademark: c.trademark.enabled,
    markdown: c.pageActions.markdown,
    socialPreview: c.socialPreview.url ?? '',
    privacyPolicy: c.privacyPolicy.url ?? '',
    headerLinks: editableLinks(c)
      ? c.header.links.map((l) => ({ title: l.title, url: urlOf(l.to), style: l.style ?? 'link' }))
      : [],
    footerGroups: editableLinks(c)
      ? c.footer.groups.map((g) => ({
          title: g.title,
          links: g.links.map((l) => ({ title: l.title, url: urlOf(l.to) })),
        }))
      : [],
  };
}

/** `base` with what the form edits replaced by `v`. */
function settingsOf(base: Customization, v: FormValues): Customization {
  const { title: _title, announcement: _announcement, ...rest } = base;
  const { logo: _logo, ...header } = base.header;
  const { copyright: _copyright, ...footer } = base.footer;
  const message = v.announcementMessage.trim();
  return {
    ...rest,
    ...(v.title ? { title: v.title } : {}),
    styling: {
      ...base.styling,
      theme: v.theme,
      primaryColor: { light: v.primaryLight, dark: v.primaryDark },
      corners: v.corners,
      links: v.links,
      font: v.font === 'custom' ? base.styling.font : v.font,
      sidebar: { ...base.styling.sidebar, list: v.sidebarList },
    },
    favicon: v.faviconEmoji ? { emoji: v.faviconEmoji } : 'icon' in base.favicon ? base.favicon : {},
    header: {
      ...header,
      ...(v.logoLight && v.logoDark ? { logo: { light: v.logoLight, dark: v.logoDark } } : {}),
      ...(editableLinks(base)
        ? {
            links: v.headerLinks.map((l) => ({
              title: l.title,
              style: l.style,
              to: { kind: 'url' as const, url: l.url },
              links: [],
            })),
          }
        : {}),
    },
    footer: {
      ...footer,
      ...(v.copyright ? { copyright: v.copyright } : {}),
      ...(editableLinks(base)
        ? {
            groups: v.footerGroups.map((g) => ({
              title: g.title,
              links: g.links.map((l) => ({ title: l.title, to: { kind: 'url' as const, url: l.url } })),
            })),
          }
        : {}),
    },
    ...(message.length >= 2
      ? {
          announcement: {
            ...(base.announcement ?? {}),
            enabled: v.announcementEnabled,
            message,
            style: v.announcementStyle,
          },
        }
      : {}),
    themes: { default: v.defaultMode, toggeable: v.toggeable },
    pagination: { enabled: v.pagination },
    trademark: { enabled: v.trademark },
    pageActions: { ...base.pageActions, markdown: v.markdown },
    socialPreview: v.socialPreview ? { url: v.socialPreview } : {},
    privacyPolicy: v.privacyPolicy ? { url: v.privacyPolicy } : {},
  };
}

const options = <T extends string>(values: readonly T[], labels: Partial<Record<T, string>> = {}) =>
  values.map((value) => ({ value, label: labels[value] ?? value }));

/**
 * The site's look: brand colour, theme, corners, fonts, logo, announcement, footer and page features, with a live
 * preview of its first page as it would look (refreshed while typing, nothing saved until Save).
 */
export function CustomizationForm({
  siteRef,
  customization,
  canEdit,
}: {
  siteRef: SiteRef;
  customization: Customization;
  canEdit: boolean;
}) {
  const form = useZodForm(customizationFormSchema, { defaultValues: valuesOf(customization) });
  const update = useUpdateCustomization(siteRef);
  const toast = useToast();
  const { isDirty, isSubmitting, errors } = form.formState;
  // The form's values as text: the preview is asked again only when they change (useWatch gives a new object at
  // every render).
  const watched = JSON.stringify(useWatch({ control: form.control }));
  const [preview, setPreview] = useState<{ html?: string; error?: string; loading: boolean }>({ loading: true });

  // The preview follows the form, 400 ms after the last change, when what is typed is valid. It depends on values,
  // not on object identities: a parent's re-render (a new params object, a refetched customization that is the same)
  // must not abort a preview on its way and start it again, or a slow server never shows one.
  const { organizationId, siteId } = siteRef;
  const saved = JSON.stringify(customization);
  useEffect(() => {
    const parsed = customizationFormSchema.safeParse(JSON.parse(watched));
    if (!parsed.success) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setPreview((p) => ({ ...p, loading: true }));
      const base = JSON.parse(saved) as Customization;
      previewCustomization({ organizationId, siteId }, settingsOf(base, parsed.data), controller.signal).then(
        (html) => setPreview({ html, loading: false }),
        (error: unknown) => {
          if (!controller.signal.aborted) setPreview({ error: errorMessage(error), loading: false });
        },
      );
    }, 400);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [watched, organizationId, siteId, saved]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(settingsOf(customization, values));
      form.reset(valuesOf(saved));
      toast.show('Customization saved: the published site shows it now');
    } catch (error) {
      showServerError(form, error, Object.keys(valuesOf(customization)));
    }
  });

  return (
    <div className="customization">
      <form className="form" onSubmit={onSubmit} noValidate aria-label="Customization">
        {!canEdit && <p className="notice notice-info">You can see how this site looks but not change it.</p>}
        <FormError message={errors.root?.server?.message} />
        <fieldset className="fieldset" disabled={!canEdit}>
          <legend className="legend">Brand</legend>
          <TextField
            control={form.control}
            name="title"
            label="Title on the site"
            hint="Leave empty to show the site’s name."
            max={CUSTOMIZATION_TITLE_MAX}
            autoComplete="off"
          />
          <div className="form-grid">
            <TextField control={form.control} name="primaryLight" label="Brand colour, light mode" type="color" />
            <TextField control={form.control} name="primaryDark" label="Brand colour, dark mode" type="color" />
          </div>
          <div className="form-grid">
            <TextField
              control={form.control}
              name="logoLight"
              label="Logo, light mode"
              hint="An https address of an image; it replaces the title in the header."
              type="url"
              autoComplete="off"
            />
            <TextField control={form.control} name="logoDark" label="Logo, dark mode" type="url" autoComplete="off" />
          </div>
          <TextField control={form.control} name="faviconEmoji" label="Icon (an emoji)" hint="Shown in browser tabs." />
        </fieldset>
        <fieldset className="fieldset" disabled={!canEdit}>
          <legend className="legend">Style</legend>
          <div className="form-grid">
            <SelectField
              control={form.control}
              name="theme"
              label="Theme"
              options={options(['clean', 'muted', 'bold', 'gradient'] as const, {
                clean: 'Clean',
                muted: 'Muted',
                bold: 'Bold header',
                gradient: 'Gradient header',
              })}
            />
            <SelectField
              control={form.control}
              name="corners"
              label="Corners"
              options={options(['straight', 'rounded', 'circular'] as const, {
                straight: 'Straight',
                rounded: 'Rounded',
                circular: 'Circular',
              })}
            />
            <SelectField
              control={form.control}
              name="links"
              label="Links in pages"
              options={options(['default', 'accent'] as const, {
                default: 'Coloured',
                accent: 'Coloured and underlined',
              })}
            />
            <SelectField
              control={form.control}
              name="sidebarList"
              label="Current page in the navigation"
              options={options(['pill', 'line', 'default'] as const, {
                pill: 'Highlighted',
                line: 'Line beside it',
                default: 'Bold text',
              })}
            />
            <SelectField
              control={form.control}
              name="font"
              label="Font"
              hint="Used where the reader’s device has it; otherwise the system font."
              options={[
                ...options(DEFAULT_FONTS),
                ...(typeof customization.styling.font === 'string' ? [] : [{ value: 'custom', label: 'Custom font' }]),
              ]}
            />
          </div>
        </fieldset>
        <fieldset className="fieldset" disabled={!canEdit}>
          <legend className="legend">Light and dark</legend>
          <CheckboxField
            control={form.control}
            name="toggeable"
            label="Readers choose light or dark"
            hint="A theme button in the header; until they choose, the site follows their system setting."
          />
          <SelectField
            control={form.control}
            name="defaultMode"
            label="Mode when readers cannot choose"
            options={options(['light', 'dark'] as const, { light: 'Light', dark: 'Dark' })}
          />
        </fieldset>
        <fieldset className="fieldset" disabled={!canEdit}>
          <legend className="legend">Announcement</legend>
          <CheckboxField
            control={form.control}
            name="announcementEnabled"
            label="Show an announcement above the header"
          />
          <div className="form-grid">
            <TextField
              control={form.control}
              name="announcementMessage"
              label="Message"
              max={CUSTOMIZATION_ANNOUNCEMENT_MAX}
              autoComplete="off"
            />
            <SelectField
              control={form.control}
              name="announcementStyle"
              label="Kind"
              options={options(['info', 'success', 'warning', 'danger'] as const, {
                info: 'Information',
                success: 'Good news',
                warning: 'Warning',
                danger: 'Important',
              })}
            />
          </div>
        </fieldset>
        <LinksFields form={form} editable={editableLinks(customization)} disabled={!canEdit} />
        <fieldset className="fieldset" disabled={!canEdit}>
          <legend className="legend">Pages and footer</legend>
          <CheckboxField control={form.control} name="pagination" label="Previous and next links under each page" />
          <CheckboxField control={form.control} name="markdown" label="“View as Markdown” link on each page" />
          <CheckboxField control={form.control} name="trademark" label="“Published with Docspace” in the footer" />
          <TextField
            control={form.control}
            name="copyright"
            label="Copyright line"
            max={CUSTOMIZATION_COPYRIGHT_MAX}
            autoComplete="off"
          />
          <div className="form-grid">
            <TextField control={form.control} name="privacyPolicy" label="Privacy policy address" type="url" />
            <TextField
              control={form.control}
              name="socialPreview"
              label="Social preview image"
              hint="Shown when a page is shared."
              type="url"
            />
          </div>
        </fieldset>
        {canEdit && (
          <div className="form-actions">
            <Button type="button" variant="secondary" disabled={!isDirty} onClick={() => form.reset()}>
              Discard changes
            </Button>
            <Button type="submit" disabled={!isDirty || isSubmitting}>
              {isSubmitting ? 'Saving…' : 'Save'}
            </Button>
          </div>
        )}
      </form>
      <section className="customization-preview" aria-labelledby="preview-title">
        <h2 id="preview-title" className="card-title">
          Preview {preview.loading && <span className="muted">(updating…)</span>}
        </h2>
        {preview.error ? (
          <p className="notice notice-info">{preview.error}</p>
        ) : (
          <iframe
            title="Preview of the site’s first page"
            className="preview-frame"
            // An origin of its own: nothing in it can reach the console. The page has no script (the server leaves
            // them out of previews); allowing scripts only keeps browsers and test tools from reporting blocked ones.
            sandbox="allow-scripts"
            srcDoc={preview.html ?? ''}
          />
        )}
      </section>
    </div>
  );
}

type Form = UseFormReturn<FormInput, unknown, FormValues>;

/** Links in the header (links or buttons) and groups of links in the footer: add, edit, remove. */
function LinksFields({ form, editable, disabled }: { form: Form; editable: boolean; disabled: boolean }) {
  const header = useFieldArray({ control: form.control, name: 'headerLinks' });
  const groups = useFieldArray({ control: form.control, name: 'footerGroups' });
  if (!editable) {
    return (
      <fieldset className="fieldset">
        <legend className="legend">Header and footer links</legend>
        <p className="notice notice-info">
          This site’s header or footer links point at pages, files or spaces, or have menus or conditions: they are kept
          as they are, and changed through the API.
        </p>
      </fieldset>
    );
  }
  return (
    <fieldset className="fieldset" disabled={disabled}>
      <legend className="legend">Header and footer links</legend>
      <ul className="link-rows" aria-label="Header links">
        {header.fields.map((field, i) => (
          <li key={field.id} className="link-row">
            <TextField control={form.control} name={`headerLinks.${i}.title`} label={`Header link ${i + 1}`} />
            <TextField control={form.control} name={`headerLinks.${i}.url`} label="Address" type="url" />
            <SelectField
              control={form.control}
              name={`headerLinks.${i}.style`}
              label="Shown as"
              options={options(['link', 'button-primary', 'button-secondary'] as const, {
                link: 'Link',
                'button-primary': 'Button',
                'button-secondary': 'Outlined button',
              })}
            />
            <Button
              size="sm"
              variant="ghost"
              onClick={() => header.remove(i)}
              aria-label={`Remove header link ${i + 1}`}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      {header.fields.length < CUSTOMIZATION_LINKS_MAX && (
        <Button size="sm" onClick={() => header.append({ title: '', url: 'https://', style: 'link' })}>
          Add a header link
        </Button>
      )}
      <ul className="link-rows" aria-label="Footer groups">
        {groups.fields.map((field, i) => (
          <FooterGroup key={field.id} form={form} index={i} onRemove={() => groups.remove(i)} />
        ))}
      </ul>
      {groups.fields.length < CUSTOMIZATION_LINKS_MAX && (
        <Button size="sm" onClick={() => groups.append({ title: '', links: [{ title: '', url: 'https://' }] })}>
          Add a footer group
        </Button>
      )}
    </fieldset>
  );
}

function FooterGroup({ form, index, onRemove }: { form: Form; index: number; onRemove: () => void }) {
  const links = useFieldArray({ control: form.control, name: `footerGroups.${index}.links` });
  return (
    <li className="link-group">
      <div className="link-row">
        <TextField control={form.control} name={`footerGroups.${index}.title`} label={`Footer group ${index + 1}`} />
        <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove footer group ${index + 1}`}>
          Remove group
        </Button>
      </div>
      <ul className="link-rows" aria-label={`Links of footer group ${index + 1}`}>
        {links.fields.map((field, j) => (
          <li key={field.id} className="link-row">
            <TextField
              control={form.control}
              name={`footerGroups.${index}.links.${j}.title`}
              label={`Link ${j + 1} of group ${index + 1}`}
            />
            <TextField
              control={form.control}
              name={`footerGroups.${index}.links.${j}.url`}
              label="Address"
              type="url"
            />
            <Button
              size="sm"
              variant="ghost"
              onClick={() => links.remove(j)}
              aria-label={`Remove link ${j + 1} of group ${index + 1}`}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      {links.fields.length < CUSTOMIZATION_LINKS_MAX && (
        <Button size="sm" onClick={() => links.append({ title: '', url: 'https://' })}>
          Add a link to group {index + 1}
        </Button>
      )}
    </li>
  );
}

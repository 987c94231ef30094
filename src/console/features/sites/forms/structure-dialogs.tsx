import type { RefObject } from 'react';
import { useWatch, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import {
  CONDITION_MAX,
  ICON_MAX,
  SECTION_DESCRIPTION_MAX,
  SECTION_GROUP_TITLE_MAX,
  SECTION_TITLE_MAX,
  SITE_PATH_MAX,
  addSectionToGroupBodySchema,
  conditionSchema,
  iconSchema,
  idSchema,
  sectionDescriptionSchema,
  sectionTitleSchema,
} from '../../../../shared/contract';
import type {
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteStructure,
  Space,
  UpdateSectionBody,
  UpdateSiteSpaceBody,
} from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { CheckboxGroupField, SelectField, TextareaField, TextField } from '../../../components/ui/field';
import type { SelectOption } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { changedFields, showServerError, useZodForm } from '../../../lib/form';
import { emptyAsUndefined } from '../../../lib/form-schemas';
import { useAddSectionToGroup } from '../api/add-section-to-group';
import { useSite } from '../api/get-site';
import { useCreateSection } from '../api/create-section';
import { createSectionBodySchema } from '../../../../shared/contract';
import { useCreateSectionGroup } from '../api/create-section-group';
import { createSectionGroupBodySchema } from '../../../../shared/contract';
import { useCreateSiteSpace } from '../api/create-site-space';
import { createSiteSpaceBodySchema } from '../../../../shared/contract';
import { useTemplateConditionsIfAny } from '../api/get-template-conditions';
import { useUpdateSection } from '../api/update-section';
import { updateSectionBodySchema } from '../../../../shared/contract';
import { useUpdateSectionGroup } from '../api/update-section-group';
import { updateSectionGroupBodySchema } from '../../../../shared/contract';
import { useUpdateSiteSpace } from '../api/update-site-space';
import { updateSiteSpaceBodySchema } from '../../../../shared/contract';
import { CONDITION_HINT, SPACE_UNTITLED } from '../utils/labels';
import type { SiteRef } from '../utils/paths';
import { allSections } from '../utils/structure';
import '../sites.css';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

const spaceLabel = (space: Space) => `${space.emoji ? `${space.emoji} ` : ''}${space.title || SPACE_UNTITLED}`;
const spaceOptions = (spaces: Space[]): SelectOption[] => [
  { value: '', label: 'Choose a space…', disabled: true },
  ...spaces.map((space) => ({ value: space.id, label: spaceLabel(space) })),
];

// Adding

const addSectionFormSchema = createSectionBodySchema.extend({
  title: emptyAsUndefined(sectionTitleSchema),
  icon: iconSchema,
});

/** A new section showing a space, at the end of the site. */
export function AddSectionDialog({
  site,
  spaces,
  structure,
  ...props
}: DialogProps & { site: SiteRef; spaces: Space[]; structure: SiteStructure }) {
  return (
    <Dialog
      {...props}
      title="Add section"
      description={
        structure.type === 'siteSpaces' && structure.structure.length > 0
          ? 'The spaces the site shows now become its first section; this one comes after it, as a tab of its own.'
          : 'A section is a tab of the site; it shows a space (and may show more, as versions).'
      }
    >
      <AddSectionForm site={site} spaces={spaces} onDone={() => props.onOpenChange(false)} />
    </Dialog>
  );
}

/**
 * Said under the space picker when the space chosen is private and the site is published for anyone to read:
 * adding it makes its pages public at once.
 */
function PrivateSpaceNotice<T extends FieldValues>({
  site,
  spaces,
  control,
  name,
}: {
  site: SiteRef;
  spaces: Space[];
  control: Control<T, unknown, FieldValues>;
  name: FieldPath<T>;
}) {
  const current = useSite(site);
  const chosenId = useWatch({ control, name });
  const chosen = spaces.find((space) => space.id === chosenId);
  if (!chosen || chosen.visibility !== 'private' || !current.published) return null;
  if (current.visibility !== 'public' && current.visibility !== 'unlisted') return null;
  return (
    <p className="notice notice-warning" role="note">
      “{chosen.title || SPACE_UNTITLED}” is private in the organization, but this site is published for anyone to read:
      once added, its pages are public.
    </p>
  );
}

function AddSectionForm({ site, spaces, onDone }: { site: SiteRef; spaces: Space[]; onDone: () => void }) {
  const form = useZodForm(addSectionFormSchema, { defaultValues: { spaceId: '', title: '', icon: '' } });
  const create = useCreateSection(site);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async ({ spaceId, title, icon }) => {
    try {
      const section = await create.mutateAsync({ spaceId, ...(title ? { title } : {}), ...(icon ? { icon } : {}) });
      toast.show(`Section “${section.title}” added`);
      onDone();
    } catch (error) {
      showServerError(form, error, ['spaceId', 'title', 'icon']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Add section">
      <SelectField control={form.control} name="spaceId" label="Space" options={spaceOptions(spaces)} />
      <PrivateSpaceNotice site={site} spaces={spaces} control={form.control} name="spaceId" />
      <TextField
        control={form.control}
        name="title"
        label="Title"
        hint="Leave it empty to use the space’s title."
        max={SECTION_TITLE_MAX}
        autoComplete="off"
      />
      <TextField control={form.control} name="icon" label="Icon" hint="An emoji or an icon name." max={ICON_MAX} />
    </DialogForm>
  );
}

/** A space added to a section (or to a site without sections). */
export function AddSiteSpaceDialog({
  site,
  spaces,
  structure,
  sectionId,
  ...props
}: DialogProps & { site: SiteRef; spaces: Space[]; structure: SiteStructure; sectionId?: string }) {
  return (
    <Dialog
      {...props}
      title="Add space"
      description="Several spaces in one place are versions (or languages) readers switch between."
    >
      <AddSiteSpaceForm
        site={site}
        spaces={spaces}
        structure={structure}
        sectionId={sectionId}
        onDone={() => props.onOpenChange(false)}
      />
    </Dialog>
  );
}

function AddSiteSpaceForm({
  site,
  spaces,
  structure,
  sectionId,
  onDone,
}: {
  site: SiteRef;
  spaces: Space[];
  structure: SiteStructure;
  sectionId?: string;
  onDone: () => void;
}) {
  const sections = allSections(structure);
  const defaultSection = sectionId ?? sections.find((s) => s.default)?.id ?? sections[0]?.id;
  const form = useZodForm(createSiteSpaceBodySchema, {
    defaultValues: { spaceId: '', sectionId: defaultSection },
  });
  const create = useCreateSiteSpace(site);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async (body) => {
    try {
      const siteSpace = await create.mutateAsync(body);
      toast.show(`“${siteSpace.title || siteSpace.space.title || SPACE_UNTITLED}” added to the site`);
      onDone();
    } catch (error) {
      showServerError(form, error, ['spaceId', 'sectionId']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Add space">
      <SelectField control={form.control} name="spaceId" label="Space" options={spaceOptions(spaces)} />
      <PrivateSpaceNotice site={site} spaces={spaces} control={form.control} name="spaceId" />
      {sections.length > 0 && (
        <SelectField
          control={form.control}
          name="sectionId"
          label="Section"
          options={sections.map((section) => ({ value: section.id, label: section.title }))}
        />
      )}
    </DialogForm>
  );
}

const groupFormSchema = createSectionGroupBodySchema.extend({ icon: iconSchema });

/** A group of sections (a heading over their tabs). */
export function NewGroupDialog({
  site,
  structure,
  sectionIds,
  ...props
}: DialogProps & { site: SiteRef; structure: SiteStructure; sectionIds?: string[] }) {
  return (
    <Dialog {...props} title="New section group" description="A group shows its sections together, under its title.">
      <NewGroupForm
        site={site}
        structure={structure}
        sectionIds={sectionIds}
        onDone={() => props.onOpenChange(false)}
      />
    </Dialog>
  );
}

function NewGroupForm({
  site,
  structure,
  sectionIds = [],
  onDone,
}: {
  site: SiteRef;
  structure: SiteStructure;
  sectionIds?: string[];
  onDone: () => void;
}) {
  const form = useZodForm(groupFormSchema, { defaultValues: { title: '', icon: '', sections: sectionIds } });
  const create = useCreateSectionGroup(site);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async ({ icon, ...body }) => {
    try {
      const group = await create.mutateAsync({ ...body, ...(icon ? { icon } : {}) });
      toast.show(`Group “${group.title}” created`);
      onDone();
    } catch (error) {
      showServerError(form, error, ['title', 'icon', 'sections']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Create group">
      <TextField
        control={form.control}
        name="title"
        label="Title"
        max={SECTION_GROUP_TITLE_MAX}
        autoComplete="off"
        required
      />
      <TextField control={form.control} name="icon" label="Icon" hint="An emoji or an icon name." max={ICON_MAX} />
      <CheckboxGroupField
        control={form.control}
        name="sections"
        label="Sections in the group"
        hint="Sections already in another group move to this one."
        empty="The site has no sections yet."
        options={allSections(structure).map((section) => ({ value: section.id, label: section.title }))}
      />
    </DialogForm>
  );
}

// Editing

/** The condition of a section or site space, with the site's template conditions one click away. */
function ConditionField<T extends FieldValues, O extends FieldValues>({
  site,
  control,
  name,
  onPick,
}: {
  site: SiteRef;
  control: Control<T, unknown, O>;
  name: FieldPath<T>;
  /** Puts a template condition in the field. */
  onPick: (condition: string) => void;
}) {
  const templates = useTemplateConditionsIfAny(site);
  return (
    <div className="condition-field">
      <TextareaField
        control={control}
        name={name}
        label="Condition"
        hint={`${CONDITION_HINT} Leave it empty to show it to everyone.`}
        max={CONDITION_MAX}
        rows={2}
        spellCheck={false}
        className="input textarea input-mono"
      />
      {templates.length > 0 && (
        <div className="template-conditions">
          <p className="field-hint">From the adaptive schema:</p>
          <ul aria-label="Template conditions">
            {templates.map((template) => (
              <li key={template.condition}>
                <Button
                  size="sm"
                  variant="ghost"
                  title={template.description}
                  aria-label={`Use condition ${template.condition}: ${template.description}`}
                  onClick={() => onPick(template.condition)}
                >
                  <code>{template.condition}</code>
                </Button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

const pick = { shouldDirty: true, shouldValidate: true } as const;

const editSectionFormSchema = updateSectionBodySchema.extend({
  condition: emptyAsUndefined(conditionSchema),
  icon: iconSchema,
  description: sectionDescriptionSchema,
});

/** Title, path, icon, description and condition of a section. */
export function EditSectionDialog({ site, section, ...props }: DialogProps & { site: SiteRef; section: SiteSection }) {
  return (
    <Dialog {...props} title={`Edit section “${section.title}”`}>
      <EditSectionForm site={site} section={section} onDone={() => props.onOpenChange(false)} />
    </Dialog>
  );
}

function EditSectionForm({ site, section, onDone }: { site: SiteRef; section: SiteSection; onDone: () => void }) {
  const form = useZodForm(editSectionFormSchema, {
    defaultValues: {
      title: section.title,
      path: section.path,
      icon: section.icon ?? '',
      description: section.description ?? '',
      condition: section.condition ?? '',
    },
  });
  const update = useUpdateSection(site);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async (values) => {
    const body: UpdateSectionBody | null = changedFields(form, values, ['icon', 'description', 'condition']);
    if (!body) return onDone();
    try {
      await update.mutateAsync({ sectionId: section.id, body });
      toast.show(`Section “${values.title ?? section.title}” saved`);
      onDone();
    } catch (error) {
      showServerError(form, error, ['title', 'path', 'icon', 'description', 'condition']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Save section">
      <TextField control={form.control} name="title" label="Title" max={SECTION_TITLE_MAX} autoComplete="off" />
      <TextField
        control={form.control}
        name="path"
        label="Path"
        hint="Its part of the published address; unique among the site’s sections."
        max={SITE_PATH_MAX}
        autoComplete="off"
        spellCheck={false}
      />
      <TextField control={form.control} name="icon" label="Icon" hint="An emoji or an icon name." max={ICON_MAX} />
      <TextareaField
        control={form.control}
        name="description"
        label="Description"
        max={SECTION_DESCRIPTION_MAX}
        rows={2}
      />
      <ConditionField
        site={site}
        control={form.control}
        name="condition"
        onPick={(condition) => form.setValue('condition', condition, pick)}
      />
    </DialogForm>
  );
}

const editSiteSpaceFormSchema = updateSiteSpaceBodySchema.extend({ condition: emptyAsUndefined(conditionSchema) });

/** Path, condition and space of a site space. */
export function EditSiteSpaceDialog({
  site,
  siteSpace,
  spaces,
  ...props
}: DialogProps & { site: SiteRef; siteSpace: SiteSpace; spaces: Space[] }) {
  return (
    <Dialog {...props} title={`Edit “${siteSpace.space.title || SPACE_UNTITLED}” on the site`}>
      <EditSiteSpaceForm site={site} siteSpace={siteSpace} spaces={spaces} onDone={() => props.onOpenChange(false)} />
    </Dialog>
  );
}

function EditSiteSpaceForm({
  site,
  siteSpace,
  spaces,
  onDone,
}: {
  site: SiteRef;
  siteSpace: SiteSpace;
  spaces: Space[];
  onDone: () => void;
}) {
  const form = useZodForm(editSiteSpaceFormSchema, {
    defaultValues: { path: siteSpace.path, condition: siteSpace.condition ?? '', spaceId: siteSpace.space.id },
  });
  const update = useUpdateSiteSpace(site);
  const toast = useToast();
  const choices = spaces.some((space) => space.id === siteSpace.space.id) ? spaces : [siteSpace.space, ...spaces];
  const onSubmit = form.handleSubmit(async (values) => {
    const body: UpdateSiteSpaceBody | null = changedFields(form, values, ['condition']);
    if (!body) return onDone();
    try {
      await update.mutateAsync({ siteSpaceId: siteSpace.id, body });
      toast.show('Saved');
      onDone();
    } catch (error) {
      showServerError(form, error, ['path', 'condition', 'spaceId']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Save">
      <SelectField
        control={form.control}
        name="spaceId"
        label="Space"
        hint="The space shown here; its pages are what readers read."
        options={choices.map((space) => ({ value: space.id, label: spaceLabel(space) }))}
      />
      <TextField
        control={form.control}
        name="path"
        label="Path"
        hint="Its part of the published address; unique beside it."
        max={SITE_PATH_MAX}
        autoComplete="off"
        spellCheck={false}
      />
      <ConditionField
        site={site}
        control={form.control}
        name="condition"
        onPick={(condition) => form.setValue('condition', condition, pick)}
      />
    </DialogForm>
  );
}

const renameGroupFormSchema = updateSectionGroupBodySchema.extend({ icon: iconSchema });

export function RenameGroupDialog({ site, group, ...props }: DialogProps & { site: SiteRef; group: SiteSectionGroup }) {
  return (
    <Dialog {...props} title="Rename section group">
      <RenameGroupForm site={site} group={group} onDone={() => props.onOpenChange(false)} />
    </Dialog>
  );
}

function RenameGroupForm({ site, group, onDone }: { site: SiteRef; group: SiteSectionGroup; onDone: () => void }) {
  const form = useZodForm(renameGroupFormSchema, { defaultValues: { title: group.title, icon: group.icon ?? '' } });
  const update = useUpdateSectionGroup(site);
  const toast = useToast();
  const onSubmit = form.handleSubmit(async (values) => {
    const body = changedFields(form, values, ['icon']);
    if (!body) return onDone();
    try {
      await update.mutateAsync({ groupId: group.id, body });
      toast.show(`Group renamed to “${values.title ?? group.title}”`);
      onDone();
    } catch (error) {
      showServerError(form, error, ['title', 'icon']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Rename">
      <TextField
        control={form.control}
        name="title"
        label="Title"
        max={SECTION_GROUP_TITLE_MAX}
        autoComplete="off"
        required
      />
      <TextField control={form.control} name="icon" label="Icon" hint="An emoji or an icon name." max={ICON_MAX} />
    </DialogForm>
  );
}

const toGroupFormSchema = addSectionToGroupBodySchema.extend({ groupId: idSchema });

/** A section joins a group (at its end), chosen by the section or by the group. */
export function AddToGroupDialog({
  site,
  structure,
  section,
  group,
  ...props
}: DialogProps & { site: SiteRef; structure: SiteStructure; section?: SiteSection; group?: SiteSectionGroup }) {
  return (
    <Dialog
      {...props}
      title={section ? `Move “${section.title}” to a group` : `Add a section to “${group?.title ?? ''}”`}
    >
      <AddToGroupForm
        site={site}
        structure={structure}
        section={section}
        group={group}
        onDone={() => props.onOpenChange(false)}
      />
    </Dialog>
  );
}

function AddToGroupForm({
  site,
  structure,
  section,
  group,
  onDone,
}: {
  site: SiteRef;
  structure: SiteStructure;
  section?: SiteSection;
  group?: SiteSectionGroup;
  onDone: () => void;
}) {
  const form = useZodForm(toGroupFormSchema, {
    defaultValues: { sectionId: section?.id ?? '', groupId: group?.id ?? '' },
  });
  const add = useAddSectionToGroup(site);
  const toast = useToast();
  const groups =
    structure.type === 'sections' ? structure.structure.filter((i) => i.object === 'site-section-group') : [];
  const sections = allSections(structure).filter((s) => !group || s.sectionGroup !== group.id);
  const onSubmit = form.handleSubmit(async ({ groupId, sectionId }) => {
    try {
      const updated = await add.mutateAsync({ groupId, sectionId });
      toast.show(`Moved to the group “${updated.title}”`);
      onDone();
    } catch (error) {
      showServerError(form, error, ['groupId', 'sectionId']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit={section ? 'Move to group' : 'Add to group'}>
      {section ? (
        <SelectField
          control={form.control}
          name="groupId"
          label="Group"
          options={[
            { value: '', label: 'Choose a group…', disabled: true },
            ...groups.filter((g) => g.id !== section.sectionGroup).map((g) => ({ value: g.id, label: g.title })),
          ]}
        />
      ) : (
        <SelectField
          control={form.control}
          name="sectionId"
          label="Section"
          options={[
            { value: '', label: 'Choose a section…', disabled: true },
            ...sections.map((s) => ({ value: s.id, label: s.title })),
          ]}
        />
      )}
    </DialogForm>
  );
}

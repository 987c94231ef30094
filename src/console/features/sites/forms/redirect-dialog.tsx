import { useQuery } from '@tanstack/react-query';
import type { RefObject } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { SITE_REDIRECT_SOURCE_MAX, siteRedirectSourceSchema } from '../../../../shared/contract';
import type { SiteRedirectDestination } from '../../../../shared/contract';
import { Dialog, DialogForm } from '../../../components/ui/dialog';
import { SelectField, TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { spacePagesQueryOptions } from '../../../lib/space-pages';
import { useCreateSiteRedirect } from '../api/site-redirects';
import { flatPages, type RedirectPlace } from '../utils/redirects';
import type { SiteRef } from '../utils/paths';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/** The form's values: a source path, a place of the site, and a page of it (`''`: the place itself). */
const redirectFormSchema = z.object({
  source: siteRedirectSourceSchema,
  place: z.string().min(1, 'Choose where it leads'),
  pageId: z.string(),
});

export function CreateRedirectDialog({
  site,
  places,
  ...props
}: DialogProps & { site: SiteRef; places: RedirectPlace[] }) {
  return (
    <Dialog
      {...props}
      title="New redirect"
      description="Readers who open the old address land where you choose, on this site."
    >
      <CreateRedirectForm site={site} places={places} onDone={() => props.onOpenChange(false)} />
    </Dialog>
  );
}

function CreateRedirectForm({ site, places, onDone }: { site: SiteRef; places: RedirectPlace[]; onDone: () => void }) {
  const form = useZodForm(redirectFormSchema, {
    defaultValues: { source: '/', place: places.find((p) => p.kind === 'site-space')?.id ?? '', pageId: '' },
  });
  const create = useCreateSiteRedirect(site);
  const toast = useToast();
  const placeId = useWatch({ control: form.control, name: 'place' });
  const place = places.find((p) => p.id === placeId);
  const pages = useQuery({ ...spacePagesQueryOptions(place?.siteSpace?.space.id ?? ''), enabled: !!place?.siteSpace });
  const pageOptions = [
    {
      value: '',
      label: place?.kind === 'site-section' ? 'The section itself' : 'The first page (the site space itself)',
    },
    ...flatPages(pages.data ?? []).map(({ page, depth }) => ({
      value: page.id,
      label: `${'  '.repeat(depth)}${depth ? '└ ' : ''}${page.title}`,
    })),
  ];
  const onSubmit = form.handleSubmit(async ({ source, place: id, pageId }) => {
    const chosen = places.find((p) => p.id === id)!;
    const destination: SiteRedirectDestination =
      chosen.kind === 'site-section'
        ? { kind: 'site-section', siteSectionId: chosen.id }
        : pageId
          ? { kind: 'site-page', siteSpaceId: chosen.id, pageId }
          : { kind: 'site-space', siteSpaceId: chosen.id };
    try {
      await create.mutateAsync({ source, destination });
      const page = pageId ? pageOptions.find((o) => o.value === pageId)?.label.replace(/^[\s└]+/, '') : undefined;
      toast.show(`${source} now leads to ${chosen.label}${page ? ` › ${page}` : ''}`);
      onDone();
    } catch (error) {
      showServerError(form, error, ['source']);
    }
  });
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Add redirect">
      <TextField
        control={form.control}
        name="source"
        label="Old address"
        hint="The path after the site’s address, e.g. /guides/old-page"
        max={SITE_REDIRECT_SOURCE_MAX}
        autoComplete="off"
        spellCheck={false}
      />
      <SelectField
        control={form.control}
        name="place"
        label="Leads to"
        options={places.map((p) => ({ value: p.id, label: p.label }))}
      />
      {place?.siteSpace && (
        <SelectField
          control={form.control}
          name="pageId"
          label="Page"
          hint={pages.isPending ? 'Reading the pages…' : undefined}
          options={pageOptions}
        />
      )}
    </DialogForm>
  );
}

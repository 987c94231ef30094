import { useId, useState } from 'react';
import { useController, useWatch, type Control } from 'react-hook-form';
import type { z } from 'zod';
import { IMPORT_LIMITS, type ImportResult, type ImportRun } from '../../../../shared/contract';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogFooter, DialogForm } from '../../../components/ui/dialog';
import { FieldFrame, fieldDescribedBy, SelectField, TextField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { showServerError, useZodForm } from '../../../lib/form';
import { useImportRun } from '../api/get-import-run';
import { useImportContent, type ImportTarget } from '../api/import-content';
import { importFormSchema } from './import-form';
import { formatSize, SOURCE_OPTIONS, sourceOfFile, STAGE_LABELS, UPLOAD_CONTENT_TYPES } from '../utils/sources';
import '../imports.css';

const FROM_OPTIONS = [
  { value: 'file', label: 'A file on this computer' },
  { value: 'url', label: 'A URL' },
];

type ImportForm = z.input<typeof importFormSchema>;

interface Props extends ImportTarget {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What the import goes into, for the dialog's description. */
  into: string;
  /** Told once the import is done (the dialog closes itself). */
  onImported?: (result: ImportResult) => void;
}

/** "Import" and its dialog. */
export function ImportButton(props: Omit<Props, 'open' | 'onOpenChange'>) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)}>
        Import
      </Button>
      <ImportDialog {...props} open={open} onOpenChange={setOpen} />
    </>
  );
}

/**
 * Imports pages into a space or a change request: a zip of markdown files, one markdown, HTML or Word file, or a
 * website. The file is uploaded as is and goes through the server's one import pipeline; a progress bar follows the
 * run until its new revision is written.
 */
export function ImportDialog({ open, onOpenChange, into, onImported, ...target }: Props) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Import pages"
      description={`Into ${into}. An import adds pages; it never changes or removes the pages already there.`}
    >
      {open && <ImportFormBody target={target} onImported={onImported} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function ImportFormBody({
  target,
  onImported,
  onDone,
}: {
  target: ImportTarget;
  onImported?: (result: ImportResult) => void;
  onDone: () => void;
}) {
  const form = useZodForm(importFormSchema, {
    defaultValues: { from: 'file', source: 'zip', url: '', file: null },
  });
  const from = useWatch({ control: form.control, name: 'from' });
  const importContent = useImportContent(target);
  const [importId, setImportId] = useState<string>();
  const run = useImportRun(target.spaceId, importId);
  const toast = useToast();
  // An import that left something out says what, and stays open until read.
  const [partial, setPartial] = useState<ImportResult>();

  const onSubmit = form.handleSubmit(async (value) => {
    const id = crypto.randomUUID();
    setImportId(id);
    try {
      const result = await importContent.mutateAsync(
        value.from === 'file' && value.file
          ? {
              importId: id,
              source: value.source,
              file: value.file,
              contentType: value.source === 'website' ? 'application/octet-stream' : UPLOAD_CONTENT_TYPES[value.source],
            }
          : { importId: id, source: value.source, url: value.url.trim() },
      );
      toast.show(`Imported ${result.importedResources} of ${result.totalResources} pages and files`);
      onImported?.(result);
      if (result.skipped?.length) setPartial(result);
      else onDone();
    } catch (error) {
      setImportId(undefined);
      showServerError(form, error, ['url', 'source']);
    }
  });

  const sourceOptions = SOURCE_OPTIONS.map((option) => ({
    ...option,
    disabled: from === 'file' && option.value === 'website',
  }));
  const busy = form.formState.isSubmitting;
  if (partial) return <ImportSkippedList result={partial} onDone={onDone} />;
  return (
    <DialogForm form={form} onSubmit={onSubmit} submit="Import" cancel={busy ? 'Close' : 'Cancel'}>
      <SelectField control={form.control} name="from" label="Import from" options={FROM_OPTIONS} disabled={busy} />
      {from === 'file' ? (
        <FileField
          control={form.control}
          disabled={busy}
          onPicked={(source) => source && form.setValue('source', source, { shouldValidate: true })}
        />
      ) : (
        <TextField control={form.control} name="url" label="URL" placeholder="https://" autoComplete="off" />
      )}
      <SelectField control={form.control} name="source" label="Content" options={sourceOptions} disabled={busy} />
      {busy && <ImportProgress run={run.data ?? null} />}
    </DialogForm>
  );
}

/** The file to upload; picking one sets the source its name says. */
function FileField({
  control,
  disabled,
  onPicked,
}: {
  control: Control<ImportForm>;
  disabled: boolean;
  onPicked: (source: ReturnType<typeof sourceOfFile>) => void;
}) {
  const id = useId();
  const {
    field: { ref: inputRef, ...field },
    fieldState,
  } = useController({ control, name: 'file' });
  const error = fieldState.error?.message;
  const file = field.value as File | null;
  const hint = file
    ? `${file.name}, ${formatSize(file.size)}`
    : `A .zip of at most ${formatSize(IMPORT_LIMITS.uploadBytes)}, or a .md, .html or .docx file of at most ${formatSize(IMPORT_LIMITS.downloadBytes)}.`;
  return (
    <FieldFrame id={id} label="File" hint={hint} error={error}>
      <input
        id={id}
        className="input"
        type="file"
        name={field.name}
        ref={inputRef}
        disabled={disabled}
        accept=".zip,.md,.markdown,.mdx,.html,.htm,.docx,application/zip,text/markdown,text/html"
        onChange={(event) => {
          const picked = event.target.files?.[0] ?? null;
          field.onChange(picked);
          if (picked) onPicked(sourceOfFile(picked));
        }}
        onBlur={field.onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, { hint, error })}
      />
    </FieldFrame>
  );
}

/** What a completed import left out, file by file, and why. */
function ImportSkippedList({ result, onDone }: { result: ImportResult; onDone: () => void }) {
  const skipped = result.skipped ?? [];
  return (
    <div className="import-skipped">
      <p role="status">
        Imported {result.importedResources} of {result.totalResources} pages and files. Not imported in full (
        {skipped.length}):
      </p>
      <ul className="import-skipped-list">
        {skipped.map((s) => (
          <li key={s.path}>
            <code>{s.path}</code>: {s.reason}
          </li>
        ))}
      </ul>
      <DialogFooter>
        <Button variant="primary" onClick={onDone} autoFocus>
          Done
        </Button>
      </DialogFooter>
    </div>
  );
}

/** How far the running import got: a progress bar over pages and files once their number is known. */
function ImportProgress({ run }: { run: ImportRun | null }) {
  const stage = run ? STAGE_LABELS[run.stage] : 'Starting';
  const known = run !== null && run.totalResources > 0;
  const label = known ? `${stage}: ${run.importedResources} of ${run.totalResources} pages and files` : `${stage}…`;
  return (
    <div className="import-progress">
      <progress
        className="import-progress-bar"
        aria-label="Import progress"
        {...(known ? { value: run.importedResources, max: run.totalResources } : {})}
      />
      <p className="import-progress-label" role="status" aria-live="polite">
        {label}
      </p>
    </div>
  );
}

import { z } from 'zod';
import { IMPORT_LIMITS, importBodySchema, importSourceSchema } from '../../../../shared/contract';
import { formatSize } from '../utils/sources';

/** The dialog's fields: where the content comes from, and the file or the URL. */
export const importFormSchema = z
  .object({
    from: z.enum(['file', 'url']),
    source: importSourceSchema,
    url: z.string(),
    file: z.instanceof(File).nullable(),
  })
  .superRefine((value, ctx) => {
    if (value.from === 'url') {
      const url = importBodySchema.shape.url.safeParse(value.url.trim());
      if (!url.success) ctx.addIssue({ code: 'custom', path: ['url'], message: 'Enter an http(s) URL' });
      return;
    }
    if (value.source === 'website') {
      ctx.addIssue({ code: 'custom', path: ['source'], message: 'A website is imported from its URL' });
    }
    if (!value.file) ctx.addIssue({ code: 'custom', path: ['file'], message: 'Choose a file to import' });
    else {
      // An archive is saved to disk by the server as it arrives; a document is read whole.
      const max = /\.zip$/i.test(value.file.name) ? IMPORT_LIMITS.uploadBytes : IMPORT_LIMITS.downloadBytes;
      if (value.file.size > max) {
        ctx.addIssue({
          code: 'custom',
          path: ['file'],
          message: `The file is ${formatSize(value.file.size)}; at most ${formatSize(max)} can be imported`,
        });
      }
    }
  });

import { describe, expect, it } from 'vitest';
import { IMPORT_LIMITS } from '../../../../shared/contract';
import { importFormSchema } from '../forms/import-form';
import { formatSize, sourceOfFile } from './sources';

const file = (name: string, size = 10, type = '') => new File([new Uint8Array(size)], name, { type });

describe('the import dialog', () => {
  it('tells the source from the file picked', () => {
    expect(sourceOfFile(file('export.ZIP'))).toBe('zip');
    expect(sourceOfFile(file('guide.md'))).toBe('markdown');
    expect(sourceOfFile(file('page.htm'))).toBe('html');
    expect(sourceOfFile(file('spec.docx'))).toBe('docx');
    expect(sourceOfFile(file('notes', 10, 'text/markdown'))).toBe('markdown');
    expect(sourceOfFile(file('photo.png'))).toBeUndefined();
  });

  it('asks for a file, a URL, and a website from its URL only, naming the field', () => {
    const issues = (value: unknown) =>
      importFormSchema.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(issues({ from: 'file', source: 'zip', url: '', file: null })).toEqual(['file: Choose a file to import']);
    expect(issues({ from: 'file', source: 'zip', url: '', file: file('a.zip') })).toEqual([]);
    expect(issues({ from: 'file', source: 'website', url: '', file: file('a.zip') })).toEqual([
      'source: A website is imported from its URL',
    ]);
    expect(issues({ from: 'url', source: 'website', url: 'ftp://example.com', file: null })).toEqual([
      'url: Enter an http(s) URL',
    ]);
    expect(issues({ from: 'url', source: 'website', url: ' https://example.com/docs ', file: null })).toEqual([]);
    const big = file('big.docx', IMPORT_LIMITS.downloadBytes + 1);
    expect(issues({ from: 'file', source: 'docx', url: '', file: big })[0]).toMatch(/^file: The file is 50\.0 MB/);
    // An archive may be far larger: the server saves it to disk as it arrives.
    expect(
      issues({ from: 'file', source: 'zip', url: '', file: file('big.zip', IMPORT_LIMITS.downloadBytes + 1) }),
    ).toEqual([]);
    // Its size said, not its bytes allocated.
    const huge = Object.defineProperty(file('huge.zip'), 'size', { value: IMPORT_LIMITS.uploadBytes + 1 });
    expect(issues({ from: 'file', source: 'zip', url: '', file: huge })[0]).toMatch(/at most 1024\.0 MB/);
  });

  it('writes sizes as people read them', () => {
    expect(formatSize(512)).toBe('512 bytes');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(50 * 1024 * 1024)).toBe('50.0 MB');
  });
});

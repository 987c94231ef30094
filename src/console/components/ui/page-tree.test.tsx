import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RevisionPage } from '../../../shared/contract';
import { HiddenPageMark, PageTree } from './page-tree';

const page = (fields: Partial<RevisionPage> & Pick<RevisionPage, 'id' | 'title' | 'type'>) =>
  ({ kind: fields.type === 'document' ? 'sheet' : fields.type, pages: [], ...fields }) as unknown as RevisionPage;

describe('the page tree', () => {
  it('opens a link page naming a section of a page of the space at that page, and other links in a new tab', () => {
    const html = renderToStaticMarkup(
      <PageTree
        label="Pages"
        pages={[
          page({ id: 'p1', title: 'Inline', type: 'document' }),
          page({ id: 'l1', title: 'Buttons', type: 'link', href: '/pages/p1#buttons' }),
          page({ id: 'l2', title: 'Elsewhere', type: 'link', href: 'https://example.com' }),
        ]}
        renderLink={(p, className) => (
          <a className={className} href={`/console/pages/${p.id}`}>
            {p.title}
          </a>
        )}
      />,
    );
    expect(html).toContain('<a class="page-tree-link" href="/console/pages/p1">Buttons</a>');
    expect(html).toMatch(/<a class="page-tree-link" href="https:\/\/example.com" target="_blank"[^>]*>.*Elsewhere/);
  });

  it('marks a page hidden in the site’s navigation, in words for screen readers', () => {
    const hidden = renderToStaticMarkup(
      <HiddenPageMark page={page({ id: 'p', title: 'T', type: 'document', hidden: true })} />,
    );
    expect(hidden).toContain('(hidden in the site’s navigation)');
    expect(renderToStaticMarkup(<HiddenPageMark page={page({ id: 'p', title: 'T', type: 'document' })} />)).toBe('');
  });
});

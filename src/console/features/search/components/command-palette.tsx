import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchSpaceResult, TextRange } from '../../../../shared/contract';
import { SEARCH_QUERY_MAX } from '../../../../shared/contract/constants';
import { Dialog } from '../../../components/ui/dialog';
import { SearchIcon } from '../../../components/ui/icons';
import { errorMessage } from '../../../lib/api-client';
import { organizationSearchQueryOptions } from '../api/search-organization';
import { consolePath } from '../utils/console-path';
import { Highlight } from './highlight';
import '../search.css';

/** One line of the results: a page, or a section (heading) of a page. */
interface Option {
  key: string;
  kind: 'page' | 'section';
  space: string;
  title: string;
  /** Where it is: the page's path, or the section's page. */
  context: string;
  excerpt?: string;
  url: string;
  /** What matched, as the server marks it. */
  highlights: { title: TextRange[]; excerpt: TextRange[] };
}

function optionsOf(results: SearchSpaceResult[]): Option[] {
  const options: Option[] = [];
  for (const space of results) {
    for (const page of space.pages) {
      options.push({
        key: `${space.id}/${page.id}`,
        kind: 'page',
        space: space.title,
        title: page.title,
        context: page.path,
        url: page.urls.app,
        highlights: { title: page.highlights.title, excerpt: [] },
      });
      for (const section of page.sections ?? []) {
        options.push({
          key: `${space.id}/${page.id}/${section.id}`,
          kind: 'section',
          space: space.title,
          title: section.title || page.title,
          context: page.title,
          excerpt: section.body,
          url: section.urls.app,
          // A section without a heading of its own shows the page's title, whose matches the page carries.
          highlights: {
            title: section.title ? section.highlights.title : page.highlights.title,
            excerpt: section.highlights.body,
          },
        });
      }
    }
  }
  return options;
}

const DEBOUNCE_MS = 150;

/**
 * Search every page of the organization the signed-in person may read, as they type: Ctrl+K (⌘K on a Mac) opens
 * it from anywhere in the organization, arrows move through the results, Enter opens one, Escape closes.
 */
export function CommandPalette({
  organizationId,
  open,
  onOpenChange,
}: {
  organizationId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Search pages">
      {/* Mounted only while open: every opening starts with an empty box. */}
      {open && <PaletteBody organizationId={organizationId} onClose={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function PaletteBody({ organizationId, onClose }: { organizationId: string; onClose: () => void }) {
  const router = useRouter();
  const listId = useId();
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  // The highlighted result, for the results it was chosen in: new results start at the first.
  const [selection, setSelection] = useState<{ of: Option[] | null; index: number }>({ of: null, index: 0 });
  const listRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const search = useQuery(organizationSearchQueryOptions(organizationId, query));
  const options = useMemo(() => (query && search.data ? optionsOf(search.data.items) : []), [query, search.data]);

  const active = selection.of === options ? selection.index : 0;
  const setActive = (index: number) => setSelection({ of: options, index });
  useEffect(() => {
    listRef.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const open = (option: Option | undefined) => {
    if (!option) return;
    onClose();
    router.history.push(consolePath(option.url));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((active + step + options.length) % options.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      open(options[active]);
    }
  };

  const optionId = (i: number) => `${listId}-option-${i}`;
  let status: string;
  if (!query) status = 'Type a word or a "phrase in quotes" to search the pages of every space you can read.';
  else if (search.isError) status = errorMessage(search.error);
  else if (search.isPending) status = 'Searching…';
  else if (options.length === 0) status = `No page matches “${query}”.`;
  else status = `${options.length} result${options.length === 1 ? '' : 's'}. Use the arrow keys and Enter to open one.`;

  return (
    <div className="palette">
      <div className="palette-input">
        <SearchIcon />
        <input
          type="search"
          role="combobox"
          aria-label="Search pages"
          aria-expanded={options.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={options.length > 0 ? optionId(active) : undefined}
          placeholder="Search pages…"
          value={text}
          maxLength={SEARCH_QUERY_MAX}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <p className={search.isError ? 'palette-status error' : 'palette-status'} role="status" aria-live="polite">
        {status}
      </p>
      <ul className="palette-results" id={listId} role="listbox" aria-label="Results" ref={listRef}>
        {options.map((option, i) => (
          <li
            key={option.key}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className={`palette-option palette-${option.kind}`}
            onMouseMove={() => setActive(i)}
            onClick={() => open(option)}
          >
            <span className="palette-title">
              <Highlight text={option.title} ranges={option.highlights.title} />
            </span>
            <span className="palette-context">
              {option.space} · {option.context}
            </span>
            {option.excerpt && (
              <span className="palette-excerpt">
                <Highlight text={option.excerpt} ranges={option.highlights.excerpt} />
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { SEARCH_QUERY_MAX, type SearchPageResult } from '../../../../shared/contract';
import { SearchIcon } from '../../../components/ui/icons';
import { errorMessage } from '../../../lib/api-client';
import { spaceSearchQueryOptions } from '../api/search-space';
import { consolePath } from '../utils/console-path';
import { Highlight } from './highlight';
import '../search.css';

const DEBOUNCE_MS = 200;

/**
 * A search box over one space's pages, above `children` (the page tree): while something is typed, the matching
 * pages and sections take the tree's place; Escape or clearing the box brings it back. Results are links, so they
 * open with a click, Enter, or in a new tab.
 */
export function SpaceSearch({
  spaceId,
  spaceTitle,
  children,
}: {
  spaceId: string;
  spaceTitle: string;
  children: ReactNode;
}) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const resultsId = useId();
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const searching = text.trim() !== '';

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && text) {
      event.preventDefault();
      setText('');
    }
  };

  return (
    <div className="space-search">
      <div className="space-search-input">
        <SearchIcon />
        <input
          type="search"
          className="input"
          aria-label={`Search ${spaceTitle}`}
          aria-controls={searching ? resultsId : undefined}
          placeholder="Search this space…"
          value={text}
          maxLength={SEARCH_QUERY_MAX}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      {searching ? <SpaceResults id={resultsId} spaceId={spaceId} query={query} /> : children}
    </div>
  );
}

function SpaceResults({ id, spaceId, query }: { id: string; spaceId: string; query: string }) {
  const search = useQuery(spaceSearchQueryOptions(spaceId, query));
  const pages = query && search.data ? search.data.items : [];
  let status: string;
  if (!query || search.isPending) status = 'Searching…';
  else if (search.isError) status = errorMessage(search.error);
  else if (pages.length === 0) status = `No page matches “${query}”.`;
  else status = `${pages.length}${search.data?.next ? '+' : ''} page${pages.length === 1 ? '' : 's'} match.`;
  return (
    <div id={id} className="space-search-results">
      <p className={search.isError ? 'space-search-status error' : 'space-search-status'} role="status">
        {status}
      </p>
      {pages.length > 0 && (
        <ul aria-label="Search results">
          {pages.map((page) => (
            <PageResult key={page.id} page={page} />
          ))}
        </ul>
      )}
    </div>
  );
}

function PageResult({ page }: { page: SearchPageResult }) {
  return (
    <li className="space-search-page">
      <ResultLink url={page.urls.app} className="space-search-title">
        <Highlight text={page.title || 'Untitled'} ranges={page.highlights.title} />
      </ResultLink>
      {page.sections.length > 0 && (
        <ul>
          {page.sections.slice(0, 3).map((section) => (
            <li key={section.id}>
              <ResultLink url={section.urls.app} className="space-search-section">
                {section.title !== page.title && (
                  <span className="space-search-heading">
                    <Highlight text={section.title} ranges={section.highlights.title} />
                  </span>
                )}
                <span className="space-search-excerpt">
                  <Highlight text={section.body} ranges={section.highlights.body} />
                </span>
              </ResultLink>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** A link to a result in the console, followed without reloading it. */
function ResultLink({ url, className, children }: { url: string; className: string; children: ReactNode }) {
  const router = useRouter();
  const path = consolePath(url);
  return (
    <a
      href={path}
      className={className}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        router.history.push(path);
      }}
    >
      {children}
    </a>
  );
}

import { createContext, memo, useCallback, useContext, useMemo } from 'react';
import type { ComponentProps, ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import type { installedIntegrationListSchema } from '../../../shared/contract';
import ReactMarkdown, { defaultUrlTransform } from 'react-markdown';
import type { Components, Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import type rehypeRaw from 'rehype-raw';
import rehypeSanitize from 'rehype-sanitize';
import type { Element, ElementContent, Root } from 'hast';
import { HeadingIds, nameHeadingsIn } from '../../../shared/heading-ids';
import { bodySchema } from '../../../shared/body-schema';
import type { rehypeMath } from '../../../shared/math';
import { MATH_SYNTAX } from '../../../shared/math-syntax';
import {
  codeblockBlocks,
  remarkGitbookBlocks,
  spaceGitbookTags,
  unfurlBlocks,
  unfurls,
  type CodeblockBlock,
  type UnfurlBlock,
} from '../../../shared/gitbook-blocks';
import { extractOperationBlocks } from '../../../shared/openapi-blocks';
import { OperationBlockPlaceholder, OperationBlockView } from '../openapi/operation-block';
import { rehypeChangeMarks } from './markdown-changes';
import { fileTarget, MarkdownFilesContext, spaceOfFiles } from './markdown-files';
import { WithIncludes } from './markdown-includes';
import { includedNames } from '../../../shared/gitbook-blocks';
import { GitbookTabs } from './gitbook-tabs';
import { IntegrationBlock } from '../integrations/integration-block';
import { mentionTarget } from '../../lib/mentions';

/**
 * Page markdown rendered as React elements, never as HTML strings. HTML written in the markdown is parsed
 * (rehype-raw, see `rawHtml`) and cleaned with the published page's schema (rehype-sanitize, shared/body-schema.ts):
 * the same subset shows here as on the site (anchors, `<kbd>`, `<details>`, images…), and no script, style or
 * event handler survives. `defaultUrlTransform` drops `javascript:` and other unsafe link and image targets.
 * Headings get the ids the published page gives them, so `#anchor` links work here too.
 */
const REMARK_PLUGINS: Options['remarkPlugins'] = [remarkGfm, [remarkMath, MATH_SYNTAX], remarkGitbookBlocks];

/** Gives headings the published page's ids, counted across the parts of one body (see `segments`). */
function rehypeHeadingIds(options: { ids: HeadingIds }) {
  return (tree: Root) => {
    nameHeadingsIn(tree, options.ids);
  };
}

type HeadingProps = ComponentProps<'h1'> & { node?: unknown };
type HeadingTag = 'h2' | 'h3' | 'h4' | 'h5' | 'h6';

const heading = (Tag: HeadingTag) =>
  function Heading({ node: _node, ...props }: HeadingProps) {
    return <Tag {...props} />;
  };

/** Headings of the body start one or two levels below h1, so that the page's own title keeps its rank. */
function headings(offset: 1 | 2): Components {
  const tags: HeadingTag[] = offset === 1 ? ['h2', 'h3', 'h4', 'h5', 'h6', 'h6'] : ['h3', 'h4', 'h5', 'h6', 'h6', 'h6'];
  const [h1, h2, h3, h4, h5, h6] = tags.map(heading);
  return { h1, h2, h3, h4, h5, h6 };
}

const MarkdownLink: Components['a'] = function MarkdownLink({ node: _node, href, children, ...props }) {
  const external = href !== undefined && /^[a-z][a-z0-9+.-]*:/i.test(href);
  return (
    <a href={href} {...props} {...(external ? { target: '_blank', rel: 'noopener noreferrer nofollow' } : {})}>
      {children}
    </a>
  );
};

/**
 * In comments, a link to `/users/<id>` or `/teams/<id>` is a mention (lib/mentions.ts), not a place of the console:
 * it shows as a chip with the name it was written with, `@` first.
 */
const MentionOrLink: Components['a'] = function MentionOrLink(props) {
  const target = mentionTarget(props.href);
  if (!target) return <MarkdownLink {...props} />;
  const first = Array.isArray(props.children) ? props.children[0] : props.children;
  return (
    <span className={`mention mention-${target.kind}`}>
      {typeof first === 'string' && first.startsWith('@') ? '' : '@'}
      {props.children}
      {target.kind === 'team' && <span className="visually-hidden"> (team)</span>}
    </span>
  );
};

/**
 * An integration's block (shared/gitbook-blocks.ts), rendered by its integration in the space of the page shown
 * (the one whose files MarkdownFilesContext names); elsewhere (a comment, a diff without a revision) its label.
 */
function MarkdownIntegrationBlock({ children, ...props }: ComponentProps<'div'> & Record<string, unknown>) {
  const filesUrl = useContext(MarkdownFilesContext);
  const spaceId = spaceOfFiles(filesUrl);
  const name = typeof props['data-integration-block'] === 'string' ? props['data-integration-block'] : '';
  const [integration = '', block = ''] = name.split('/');
  let blockProps: unknown;
  try {
    blockProps = JSON.parse(String(props['data-integration-props'] ?? '{}'));
  } catch {
    blockProps = {};
  }
  if (!spaceId || !integration || !block || typeof blockProps !== 'object' || blockProps === null) {
    return <div className="gb-integration">{children}</div>;
  }
  return (
    <IntegrationBlock
      integration={integration}
      block={block}
      props={blockProps as Record<string, unknown>}
      spaceId={spaceId}
    />
  );
}

/**
 * What the space's integrations show as their blocks beyond their tags: fences of some languages, embeds of links
 * they unfurl; and the space.
 */
const CodeblocksContext = createContext<
  { spaceId: string; blocks: Map<string, CodeblockBlock>; unfurls: UnfurlBlock[] } | undefined
>(undefined);

/** Reads what the space's integrations claim (`GET /v1/spaces/{id}/integrations`) for the body inside. */
function WithCodeblocks({ spaceId, children }: { spaceId: string; children: ReactNode }) {
  const installed = useQuery({
    queryKey: ['space-integrations', spaceId],
    queryFn: ({ signal }) =>
      api.get<typeof installedIntegrationListSchema>(`/spaces/${spaceId}/integrations`, { signal }),
    staleTime: 60_000,
  });
  const value = useMemo(() => {
    const items = installed.data?.items ?? [];
    return { spaceId, blocks: codeblockBlocks(items), unfurls: unfurlBlocks(items) };
  }, [spaceId, installed.data]);
  return (
    <CodeblocksContext.Provider value={value.blocks.size || value.unfurls.length ? value : undefined}>
      {children}
    </CodeblocksContext.Provider>
  );
}

/** An embed (`{% embed url %}`): the block an installed integration makes of its link, when one does. */
function MarkdownEmbed({ node, className, children, ...props }: ComponentProps<'div'> & { node?: Element }) {
  const codeblocks = useContext(CodeblocksContext);
  let href: string | undefined;
  const find = (e: Element | ElementContent) => {
    if (href || e.type !== 'element') return;
    if (e.tagName === 'a' && typeof e.properties.href === 'string') href = e.properties.href;
    else e.children.forEach(find);
  };
  if (node) find(node);
  const embed = (
    <div className={className} {...props}>
      {children}
    </div>
  );
  const found = href && codeblocks?.unfurls.find((b) => b.patterns.some((p) => unfurls(p, href!)));
  if (!codeblocks || !found || !href) return embed;
  return (
    <IntegrationBlock
      integration={found.integration}
      block={found.block}
      props={{}}
      spaceId={codeblocks.spaceId}
      unfurl={href}
      fallback={embed}
    />
  );
}

const BASE_COMPONENTS: Components = {
  // GitBook's tabs are a tablist (gitbook-tabs.tsx); every other block is the element it is.
  div: function MarkdownDiv({ node, className, children, ...props }) {
    if (className === 'gb-tabs') return <GitbookTabs {...(node ? { node } : {})}>{children}</GitbookTabs>;
    if (className === 'gb-integration')
      return <MarkdownIntegrationBlock {...props}>{children}</MarkdownIntegrationBlock>;
    if (className === 'gb-embed')
      return (
        <MarkdownEmbed className={className} {...props} {...(node ? { node } : {})}>
          {children}
        </MarkdownEmbed>
      );
    return (
      <div className={className} {...props}>
        {children}
      </div>
    );
  },
  a: MarkdownLink,
  // An unsafe image target becomes "": say what the image was instead of loading the page again.
  img: function MarkdownImage({ node: _node, src, alt, ...props }) {
    if (!src) return <span className="markdown-missing-image">{alt ? `[${alt}]` : '[image]'}</span>;
    return <img src={src} alt={alt ?? ''} loading="lazy" {...props} />;
  },
  // A `<picture>`'s sources (its dark variant): their addresses go through the same filter as images'.
  source: function MarkdownSource({ node: _node, srcSet, ...props }) {
    const filesUrl = useContext(MarkdownFilesContext);
    const safe = srcSet
      ?.split(',')
      .map((candidate) => {
        const [url = '', ...rest] = candidate.trim().split(/\s+/);
        const target = fileTarget(url, filesUrl) ?? defaultUrlTransform(url);
        return target ? [target, ...rest].join(' ') : '';
      })
      .filter(Boolean)
      .join(', ');
    return <source {...props} {...(safe ? { srcSet: safe } : {})} />;
  },
  // Wide tables and long code lines scroll inside their block, which takes the focus so that keyboards scroll it.
  table: function MarkdownTable({ node: _node, ...props }) {
    return (
      <div className="markdown-table" tabIndex={0} role="region" aria-label="Table">
        <table {...props} />
      </div>
    );
  },
  pre: function MarkdownCode({ node, ...props }) {
    // Fenced code of a language an integration of the space claims is its block (Mermaid's ```mermaid).
    const codeblocks = useContext(CodeblocksContext);
    const code = node?.children[0];
    if (codeblocks && code?.type === 'element' && code.tagName === 'code') {
      const language = (Array.isArray(code.properties.className) ? code.properties.className : [])
        .map(String)
        .find((c) => c.startsWith('language-'))
        ?.slice('language-'.length);
      const found = language ? codeblocks.blocks.get(language.toLowerCase()) : undefined;
      if (found) {
        const text = code.children.map((c) => (c.type === 'text' ? c.value : '')).join('');
        return (
          <IntegrationBlock
            integration={found.integration}
            block={found.block}
            props={{ [found.body]: text.replace(/\n$/, '') }}
            spaceId={codeblocks.spaceId}
          />
        );
      }
    }
    return <pre tabIndex={0} {...props} />;
  },
  // Task list items (`- [x] …`): read-only checkboxes, named by their state (the item's text follows them).
  input: function MarkdownInput({ node: _node, ...props }) {
    if (props.type !== 'checkbox') return <input {...props} />;
    return <input {...props} aria-label={props.checked ? 'Done' : 'To do'} />;
  },
};

const COMPONENTS = {
  1: { ...BASE_COMPONENTS, ...headings(1) },
  2: { ...BASE_COMPONENTS, ...headings(2) },
};

/** The same, where links to people and teams are mentions (comments). */
const MENTION_COMPONENTS = {
  1: { ...COMPONENTS[1], a: MentionOrLink },
  2: { ...COMPONENTS[2], a: MentionOrLink },
};

export interface MarkdownProps {
  children: string;
  /**
   * Parses the HTML written in the markdown (rehype-raw; markdown-renderer-html.tsx passes it for bodies that
   * have some, so that its parser, about 50 kB, loads only for those). Without it there is none to show.
   */
  rawHtml?: typeof rehypeRaw;
  /** Shows `$$` math as MathML (KaTeX; markdown-renderer-math.tsx passes it for bodies that have some). */
  math?: typeof rehypeMath;
  className?: string;
  /** How many levels below h1 the body's first heading level goes: 2 under a page title that is an h2. */
  headingOffset?: 1 | 2;
  /** The organization of the page, whose specs its `{% openapi-operation %}` blocks show (else they are named). */
  organizationId?: string;
  /** Marks the words this text does not share with `changedAgainst` (see markdown-changes.ts): `ins` or `del`. */
  changeTag?: 'ins' | 'del';
  changedAgainst?: string;
  /** Shows links to `/users/<id>` and `/teams/<id>` as mentions (comments), not as links. */
  mentions?: boolean;
}

const BLOCK_MARK = '\u0000openapi-block:';

/** The markdown cut at its OpenAPI blocks: text parts and blocks, in order. */
function segments(markdown: string) {
  const { markdown: marked, blocks } = extractOperationBlocks(markdown, (i) => `${BLOCK_MARK}${i}`);
  if (!blocks.length) return [{ text: markdown }];
  const out: Array<{ text: string } | { block: (typeof blocks)[number] }> = [];
  let text: string[] = [];
  for (const line of marked.split('\n')) {
    if (line.startsWith(BLOCK_MARK)) {
      out.push({ text: text.join('\n') }, { block: blocks[Number(line.slice(BLOCK_MARK.length))]! });
      text = [];
    } else text.push(line);
  }
  out.push({ text: text.join('\n') });
  return out;
}

/** Loaded on demand (see markdown.tsx): the parser and its GFM extensions are most of its weight. */
const MarkdownRenderer = memo(function MarkdownRenderer({
  children,
  className,
  headingOffset = 1,
  organizationId,
  changeTag,
  changedAgainst,
  rawHtml,
  math,
  mentions,
  includesExpanded,
}: MarkdownProps & { includesExpanded?: boolean }) {
  // Files of the space (`/files/<id>`) load from the revision given by the context; other URLs pass the safe filter.
  const filesUrl = useContext(MarkdownFilesContext);
  const urlTransform = useCallback((url: string) => fileTarget(url, filesUrl) ?? defaultUrlTransform(url), [filesUrl]);
  // A body that includes reusable content shows it in place, read from its revision (markdown-includes.ts).
  if (filesUrl && includedNames(children).length && !includesExpanded) {
    return (
      <WithIncludes filesUrl={filesUrl} markdown={children}>
        {(text) => (
          <MarkdownRenderer
            {...{ className, headingOffset, organizationId, changeTag, changedAgainst, rawHtml, math, mentions }}
            includesExpanded
          >
            {text}
          </MarkdownRenderer>
        )}
      </WithIncludes>
    );
  }
  const text = children;
  // One count of heading ids for the whole body, made anew at each render (the parts render in order).
  const ids = new HeadingIds();
  const rehypePlugins: Options['rehypePlugins'] = [
    ...(rawHtml ? [rawHtml] : []),
    [rehypeSanitize, bodySchema],
    [rehypeHeadingIds, { ids }],
    ...(math ? [math] : []),
    ...(changeTag && changedAgainst !== undefined
      ? [
          [rehypeChangeMarks, { against: changedAgainst, tag: changeTag }] satisfies NonNullable<
            Options['rehypePlugins']
          >[number],
        ]
      : []),
  ];
  const spaceId = spaceOfFiles(filesUrl);
  const body = (
    <div className={['markdown', className].filter(Boolean).join(' ')}>
      {segments(text).map((part, i) =>
        'block' in part ? (
          organizationId ? (
            <OperationBlockView key={i} organizationId={organizationId} block={part.block} />
          ) : (
            <OperationBlockPlaceholder key={i} block={part.block} />
          )
        ) : (
          part.text.trim() !== '' && (
            <ReactMarkdown
              key={i}
              remarkPlugins={REMARK_PLUGINS}
              components={(mentions ? MENTION_COMPONENTS : COMPONENTS)[headingOffset]}
              urlTransform={urlTransform}
              rehypePlugins={rehypePlugins}
            >
              {spaceGitbookTags(part.text)}
            </ReactMarkdown>
          )
        ),
      )}
    </div>
  );
  return spaceId && (/^ {0,3}(`{3,}|~{3,})/m.test(text) || text.includes('{% embed')) ? (
    <WithCodeblocks spaceId={spaceId}>{body}</WithCodeblocks>
  ) : (
    body
  );
});

export default MarkdownRenderer;

import { Children, isValidElement, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Element, ElementContent } from 'hast';

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map(textOf).join('') : '';
}

const classesOf = (e: Element) => (Array.isArray(e.properties.className) ? e.properties.className.map(String) : []);

/**
 * GitBook's tabs (shared/gitbook-blocks.ts: `div.gb-tabs` of `div.gb-tab`s, each led by its `p.gb-tab-title`) as a
 * tablist, as the published site's script makes them: one panel shown, arrows and Home/End move between tabs.
 */
export function GitbookTabs({ node, children }: { node?: Element; children?: ReactNode }) {
  const id = useId();
  const [at, setAt] = useState(0);
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const panels = Children.toArray(children).filter(isValidElement);
  const titles = (node?.children ?? [])
    .filter((c): c is Element => c.type === 'element' && classesOf(c).includes('gb-tab'))
    .map((tab, i) => {
      const title = tab.children.find(
        (c): c is Element => c.type === 'element' && classesOf(c).includes('gb-tab-title'),
      );
      return title ? textOf(title) : `Tab ${i + 1}`;
    });
  const select = (i: number) => {
    setAt(i);
    buttons.current[i]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const count = titles.length;
    const to = { ArrowRight: (at + 1) % count, ArrowLeft: (at - 1 + count) % count, Home: 0, End: count - 1 }[
      event.key
    ];
    if (to === undefined) return;
    event.preventDefault();
    select(to);
  };
  return (
    <div className="gb-tabs gb-live">
      <div role="tablist" className="gb-tablist" onKeyDown={onKeyDown}>
        {titles.map((title, i) => (
          <button
            key={i}
            ref={(b) => {
              buttons.current[i] = b;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${i}`}
            aria-controls={`${id}-panel-${i}`}
            aria-selected={i === at}
            tabIndex={i === at ? 0 : -1}
            onClick={() => setAt(i)}
          >
            {title}
          </button>
        ))}
      </div>
      {panels.map((panel, i) => (
        <div
          key={i}
          role="tabpanel"
          id={`${id}-panel-${i}`}
          aria-labelledby={`${id}-tab-${i}`}
          hidden={i !== at}
          tabIndex={0}
        >
          {panel}
        </div>
      ))}
    </div>
  );
}

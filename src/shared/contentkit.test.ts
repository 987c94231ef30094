import { describe, expect, it } from 'vitest';
import { toHtml } from 'hast-util-to-html';
import { contentKitToHast, type ContentKitOutput } from './contentkit.js';

const html = (output: ContentKitOutput, options?: Parameters<typeof contentKitToHast>[1]) => {
  const tree = contentKitToHast(output, options);
  return tree ? toHtml(tree) : '';
};

describe('ContentKit as hast', () => {
  it('shows every element GitBook’s integrations use, its texts escaped and bindings read from the state', () => {
    const out = html({
      element: {
        type: 'block',
        children: [
          { type: 'hstack', align: 'center', children: [{ type: 'box', grow: 1, children: ['<b>raw</b>'] }] },
          { type: 'divider' },
          {
            type: 'text',
            style: 'bold',
            children: ['Bold ', { type: 'link', target: { url: 'https://x.test/a' }, children: ['link'] }],
          },
          { type: 'image', source: { url: 'https://x.test/i.png' }, aspectRatio: 2 },
          { type: 'markdown', content: { $state: 'md' } },
          { type: 'codeblock', content: 'let a = 1;', syntax: 'js' },
          {
            type: 'card',
            title: 'Card',
            hint: 'hint',
            onPress: { action: 'open' },
            buttons: [
              {
                type: 'button',
                label: 'Go',
                style: 'danger',
                onPress: { action: 'go' },
                confirm: { title: 'Sure?', text: 'x', confirm: 'Yes' },
              },
            ],
            children: [{ type: 'hint', children: [{ type: 'text', children: ['note'] }] }],
          },
          {
            type: 'input',
            label: 'Name',
            hint: 'yours',
            element: { type: 'textinput', state: 'name', placeholder: 'Ann' },
          },
          {
            type: 'select',
            state: 'pick',
            options: [
              { id: 'a', label: 'A' },
              { id: 'b', label: 'B' },
            ],
          },
          { type: 'switch', state: 'on' },
          { type: 'checkbox', state: 'many', value: 'x' },
          { type: 'radio', state: 'one', value: 'y' },
          {
            type: 'webframe',
            source: { url: 'https://frame.test/' },
            aspectRatio: 1,
            data: { content: { $state: 'md' }, fixed: 'v' },
          },
          { type: 'unknown-future-element', children: ['dropped'] },
        ],
      },
      state: { md: '**strong**', name: 'Bob', pick: 'b', on: true, many: ['x'], one: 'z' },
    });
    expect(out).toContain(
      '<div class="ck-hstack ck-align-center"><div class="ck-box ck-grow">&#x3C;b>raw&#x3C;/b></div></div>',
    );
    expect(out).toContain('<hr class="ck-divider">');
    expect(out).toContain(
      '<strong class="ck-text">Bold <a href="https://x.test/a" rel="noopener nofollow" target="_blank" class="ck-link">link</a></strong>',
    );
    expect(out).toContain(
      '<img src="https://x.test/i.png" alt="" loading="lazy" class="ck-image" width="1000" height="500">',
    );
    expect(out).toContain('<div class="ck-markdown"><p><strong>strong</strong></p></div>');
    expect(out).toContain('<code class="language-js">let a = 1;</code>');
    expect(out).toContain(
      'class="ck-card ck-pressable" role="button" tabindex="0" data-ck-action="{&#x22;action&#x22;:&#x22;open&#x22;}"',
    );
    expect(out).toContain('data-ck-confirm="{&#x22;title&#x22;:&#x22;Sure?&#x22;');
    expect(out).toContain(
      '<input class="ck-textinput" data-ck-state="name" placeholder="Ann" type="text" value="Bob">',
    );
    expect(out).toContain('<option value="b" selected>B</option>');
    expect(out).toMatch(/<input type="checkbox" class="ck-switch" role="switch" data-ck-state="on" checked>/);
    expect(out).toMatch(/class="ck-checkbox" value="x" data-ck-state="many" checked/);
    expect(out).toMatch(/class="ck-radio" value="y" data-ck-state="one" name="one">/);
    expect(out).toContain(
      'data-ck-webframe="{&#x22;content&#x22;:&#x22;**strong**&#x22;,&#x22;fixed&#x22;:&#x22;v&#x22;}"',
    );
    expect(out).not.toContain('dropped');
  });

  it('lets no script in: unsafe addresses dropped, markdown without HTML, and stops at its limits', () => {
    const out = html({
      element: {
        type: 'block',
        children: [
          { type: 'link', target: { url: 'javascript:alert(1)' }, children: ['click'] },
          { type: 'image', source: { url: 'data:text/html,<script>' }, aspectRatio: 1 },
          { type: 'webframe', source: { url: 'javascript:alert(1)' } },
          { type: 'markdown', content: '<script>alert(1)</script> <img src=x onerror=alert(1)> [a](javascript:b)' },
        ],
      },
    });
    expect(out).not.toMatch(/javascript:|<script|onerror|data:text/);
    expect(out).toContain('click');
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100; i++) deep = { type: 'vstack', children: [deep] };
    expect(html({ element: { type: 'block', children: [deep] } })).not.toContain('bottom');
    const wide = Array.from({ length: 10_000 }, (_, i) => ({ type: 'text', children: [`t${i}`] }));
    const shown = html({ element: { type: 'block', children: wide } });
    expect(shown).toContain('t100');
    expect(shown).not.toContain('t9999');
    expect(contentKitToHast({ type: 'complete' })).toBeUndefined();
  });

  it('shows an editable code block as a text area where the block may be changed', () => {
    const code = {
      type: 'codeblock',
      state: 'content',
      content: { $state: 'content' },
      syntax: 'mermaid',
      onContentChange: { action: 'save' },
    };
    const output = { element: { type: 'block', children: [code] }, state: { content: 'graph TD' } };
    expect(html(output)).toContain(
      '<pre class="ck-code" tabindex="0"><code class="language-mermaid">graph TD</code></pre>',
    );
    expect(html(output, { editable: true })).toMatch(
      /<textarea class="ck-code-input"[^>]*data-ck-state="content"[^>]*>graph TD<\/textarea>/,
    );
  });
});

import type { Element, Root } from 'hast';
import { createHighlighterCoreSync, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import bash from 'shiki/langs/bash.mjs';
import c from 'shiki/langs/c.mjs';
import cpp from 'shiki/langs/cpp.mjs';
import csharp from 'shiki/langs/csharp.mjs';
import css from 'shiki/langs/css.mjs';
import diff from 'shiki/langs/diff.mjs';
import dockerfile from 'shiki/langs/dockerfile.mjs';
import go from 'shiki/langs/go.mjs';
import graphql from 'shiki/langs/graphql.mjs';
import html from 'shiki/langs/html.mjs';
import java from 'shiki/langs/java.mjs';
import javascript from 'shiki/langs/javascript.mjs';
import json from 'shiki/langs/json.mjs';
import jsx from 'shiki/langs/jsx.mjs';
import kotlin from 'shiki/langs/kotlin.mjs';
import markdown from 'shiki/langs/markdown.mjs';
import php from 'shiki/langs/php.mjs';
import python from 'shiki/langs/python.mjs';
import ruby from 'shiki/langs/ruby.mjs';
import rust from 'shiki/langs/rust.mjs';
import sql from 'shiki/langs/sql.mjs';
import swift from 'shiki/langs/swift.mjs';
import toml from 'shiki/langs/toml.mjs';
import tsx from 'shiki/langs/tsx.mjs';
import typescript from 'shiki/langs/typescript.mjs';
import xml from 'shiki/langs/xml.mjs';
import yaml from 'shiki/langs/yaml.mjs';
import githubDark from 'shiki/themes/github-dark-default.mjs';
import githubLight from 'shiki/themes/github-light-default.mjs';
import { el, text, textOf } from './hast.js';

/**
 * Code blocks of published pages highlighted on the server with Shiki (TextMate grammars, the JavaScript regex
 * engine: no WebAssembly, created synchronously), in light and dark at once: each token carries its light colour
 * and `--shiki-dark`, and the theme's CSS picks one. Common languages are loaded; others stay plain text.
 */
const LANGS = [
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  graphql,
  html,
  java,
  javascript,
  json,
  jsx,
  kotlin,
  markdown,
  php,
  python,
  ruby,
  rust,
  sql,
  swift,
  toml,
  tsx,
  typescript,
  xml,
  yaml,
];

/** Beyond these, code is shown plain: highlighting costs time in proportion to the text. */
export const HIGHLIGHT_BLOCK_MAX = 20_000;
export const HIGHLIGHT_PAGE_MAX = 100_000;

let highlighter: HighlighterCore | undefined;
function shiki(): HighlighterCore {
  highlighter ??= createHighlighterCoreSync({
    themes: [githubLight, githubDark],
    langs: LANGS,
    engine: createJavaScriptRegexEngine(),
  });
  return highlighter;
}

/** The language of a sanitized `<code class="language-x">`, as Shiki knows it (aliases such as `sh`, `ts`). */
function languageOf(code: Element, known: HighlighterCore): string | undefined {
  const classes = Array.isArray(code.properties.className) ? code.properties.className : [];
  const name = classes.map(String).find((c) => c.startsWith('language-'));
  if (!name) return undefined;
  const lang = name.slice('language-'.length).toLowerCase();
  return known.getLoadedLanguages().includes(lang) ? lang : undefined;
}

/**
 * Replaces each `<pre><code class="language-x">` of a sanitized page body by its highlighted version, wrapped
 * with a label naming the language. The code's text is what is highlighted: nothing of the page's markup gets
 * through. Blocks in an unknown language, or past the size limits, are left as they are.
 */
export function highlightCode(clean: Root): void {
  let budget = HIGHLIGHT_PAGE_MAX;
  const visit = (parent: Root | Element) => {
    parent.children.forEach((child, i) => {
      if (child.type !== 'element') return;
      const code = child.tagName === 'pre' ? child.children.find((c) => c.type === 'element') : undefined;
      if (code?.type !== 'element' || code.tagName !== 'code') return visit(child);
      const known = shiki();
      const lang = languageOf(code, known);
      const source = textOf(code).replace(/\n$/, '');
      if (!lang || source.length > HIGHLIGHT_BLOCK_MAX || source.length > budget) return;
      budget -= source.length;
      const out = known.codeToHast(source, {
        lang,
        themes: { light: 'github-light-default', dark: 'github-dark-default' },
        defaultColor: 'light',
      });
      const pre = out.children.find((c): c is Element => c.type === 'element' && c.tagName === 'pre');
      if (!pre) return;
      // Shiki writes it as `tabindex`, which hast-util-to-html wrote beside our `tabIndex`: twice in the HTML.
      delete pre.properties.tabindex;
      pre.properties.tabIndex = 0;
      parent.children[i] = el('div', { className: ['code-block'] }, [
        el('span', { className: ['code-lang'] }, [text(lang)]),
        pre,
      ]);
    });
  };
  visit(clean);
}

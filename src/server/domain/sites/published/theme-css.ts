import { CONTENTKIT_CSS } from '../../../../shared/contentkit-css.js';

/**
 * The published sites' stylesheet, served as a static asset (assets.ts) cached for a year under its hash. Light and
 * dark follow the visitor's system setting unless they chose one with the theme toggle (`data-theme` on <html>).
 */

/** Dark colours, scoped to `scope` (the root element when dark applies). */
const dark = (scope: string) =>
  `${scope}{color-scheme:dark;--bg:#0f1218;--bg-2:#171b23;--text:#e6e9ef;--text-2:#b7bfcc;--text-3:#9aa3b2;--border:#2a303b;--accent:#8ea6ff;--accent-soft:#1d2540;--mark:#5c4a00;--code-bg:#1a1f29}` +
  `${scope} .shiki span{color:var(--shiki-dark)!important}` +
  `${scope}{--c-note:#8ea6ff;--c-tip:#4cc38a;--c-important:#b794f6;--c-warning:#e3b341;--c-caution:#ff7b72}` +
  `${scope} .only-light{display:none}${scope} .only-dark{display:revert}`;

export const THEME_CSS = `
:root{color-scheme:light dark;--bg:#fff;--bg-2:#f6f7f9;--text:#1d2330;--text-2:#4a5366;--text-3:#5f6878;
--border:#e3e6eb;--accent:#3a5bd9;--accent-soft:#eef1fd;--mark:#fff1a8;--code-bg:#f3f4f7;--radius:8px;
--sans:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;--header-h:60px}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.65 var(--sans);overflow-wrap:break-word}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
a:focus-visible,summary:focus-visible,label:focus-visible,input:focus-visible,button:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.skip-link{position:absolute;left:-9999px;top:8px;z-index:20;background:var(--bg);padding:8px 12px;border-radius:var(--radius)}
.skip-link:focus{left:8px}
.site-header{position:sticky;top:0;z-index:10;background:var(--bg);border-bottom:1px solid var(--border)}
.header-inner{display:flex;align-items:center;gap:20px;max-width:1440px;margin:0 auto;padding:0 24px;min-height:var(--header-h)}
.site-title{font-weight:700;font-size:17px;color:var(--text)}.site-title:hover{text-decoration:none}
nav.sections ul{display:flex;gap:4px;list-style:none;margin:0;padding:0;flex-wrap:wrap}
nav.sections a{display:block;padding:6px 10px;border-radius:var(--radius);color:var(--text-2)}
nav.sections a:hover{background:var(--bg-2);text-decoration:none}
nav.sections a[aria-current=page]{color:var(--accent);background:var(--accent-soft);font-weight:600}
form.search{margin-left:auto;display:flex;gap:6px}
form.search input{width:220px;max-width:40vw;padding:7px 10px;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg-2);color:var(--text);font:inherit;font-size:14px}
form.search button{padding:7px 12px;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--text);font:inherit;font-size:14px;cursor:pointer}
.menu-toggle{position:absolute;opacity:0;pointer-events:none}
.menu-button{display:none;padding:6px 10px;border:1px solid var(--border);border-radius:var(--radius);cursor:pointer;font-size:14px;color:var(--text)}
.menu-toggle:focus-visible~.site-header .menu-button{outline:2px solid var(--accent);outline-offset:2px}
.layout{display:grid;grid-template-columns:280px minmax(0,1fr) 220px;gap:40px;max-width:1440px;margin:0 auto;padding:0 24px}
.layout.no-toc{grid-template-columns:280px minmax(0,1fr)}
.layout.no-nav{grid-template-columns:minmax(0,1fr) 220px}.layout.no-nav.no-toc{grid-template-columns:minmax(0,1fr)}.layout.no-nav>.sidebar{display:none}
.layout.wide article{max-width:none}
.page-cover{margin:24px 0 8px}.page-cover img{display:block;width:100%;height:200px;object-fit:cover;border-radius:var(--radius)}.page-cover.cover-full img{height:320px}
.sidebar{position:sticky;top:var(--header-h);align-self:start;max-height:calc(100vh - var(--header-h));overflow-y:auto;padding:24px 8px 24px 0;font-size:15px}
.sidebar ul{list-style:none;margin:0;padding:0}.sidebar li ul{padding-left:14px;border-left:1px solid var(--border);margin-left:10px}
.sidebar a{display:block;padding:5px 10px;border-radius:6px;color:var(--text-2)}
.sidebar a:hover{background:var(--bg-2);text-decoration:none}
.sidebar a[aria-current=page]{color:var(--accent);background:var(--accent-soft);font-weight:600}
.sidebar .group-title{display:block;margin:18px 0 4px;padding:0 10px;font-size:12px;font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:var(--text-3)}
nav.variants ul{display:flex;flex-wrap:wrap;gap:4px;margin-bottom:16px}nav.variants a{border:1px solid var(--border);padding:3px 10px;font-size:14px}
main{min-width:0;padding:32px 0 64px}
article{max-width:760px}
.breadcrumbs ol{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0 0 8px;padding:0;font-size:14px;color:var(--text-3)}
.breadcrumbs li+li::before{content:"/";margin-right:6px;color:var(--border)}
.breadcrumbs a{color:var(--text-3)}
article h1{font-size:34px;line-height:1.2;margin:0 0 12px;letter-spacing:-.01em}
article h2{font-size:24px;line-height:1.3;margin:40px 0 12px;padding-top:8px}
article h3{font-size:19px;margin:28px 0 8px}article h4{font-size:16px;margin:24px 0 8px}
article h5,article h6{font-size:16px;margin:20px 0 8px}article h6{color:var(--text-2)}
article h2,article h3,article h4,article h5,article h6{scroll-margin-top:calc(var(--header-h) + 16px)}
.description{font-size:18px;color:var(--text-2);margin:0 0 24px}
article p,article ul,article ol{margin:0 0 16px}article li{margin:4px 0}
article :is(p,li,td,th,blockquote) a:not(.anchor){text-decoration:underline;text-underline-offset:2px}
article li>input[type=checkbox]{margin-right:6px}
article img{max-width:100%;height:auto;border-radius:var(--radius)}
article blockquote{margin:0 0 16px;padding:8px 16px;border-left:4px solid var(--border);color:var(--text-2);background:var(--bg-2);border-radius:0 var(--radius) var(--radius) 0}
article code{font:0.9em var(--mono);background:var(--code-bg);padding:2px 5px;border-radius:4px}
article pre{margin:0 0 16px;padding:14px 16px;overflow-x:auto;background:var(--code-bg);border:1px solid var(--border);border-radius:var(--radius);font-size:14px;line-height:1.55}
article pre code{background:none;padding:0}
.code-block{position:relative}.code-lang{position:absolute;top:4px;right:10px;font:12px var(--mono);color:var(--text-3)}
article pre.shiki{background-color:var(--code-bg)!important;padding-top:22px}
article table{display:block;max-width:100%;overflow-x:auto;border-collapse:collapse;margin:0 0 16px;font-size:15px}
article th,article td{border:1px solid var(--border);padding:6px 12px;text-align:left;vertical-align:top}
article th{background:var(--bg-2);font-weight:600}
article blockquote>:last-child,article li>:last-child{margin-bottom:0}
article li:has(>input[type=checkbox]){list-style:none;margin-left:-1.2em}
article hr{border:0;border-top:1px solid var(--border);margin:32px 0}
mark{background:var(--mark);color:inherit;border-radius:2px}
.anchor{margin-left:8px;color:var(--text-3);font-weight:400;opacity:0;text-decoration:none}
h2:hover>.anchor,h3:hover>.anchor,h4:hover>.anchor,h5:hover>.anchor,h6:hover>.anchor,.anchor:focus-visible{opacity:1}
.api-operation{margin:0 0 24px;padding:16px;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg)}
.api-operation p{margin:0 0 8px}.api-head{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin-bottom:8px;font-size:15px}
.api-method{display:inline-block;padding:2px 8px;border-radius:4px;font:700 12px var(--mono);color:#fff;background:#4a5366}
.api-get{background:#1f7a4d}.api-post{background:#2f55c8}.api-put,.api-patch{background:#8a5a00}.api-delete{background:#b42318}
.api-path{font-size:15px;word-break:break-all}.api-summary{font-weight:600}.api-description{color:var(--text-2)}
.api-meta{font-size:14px;color:var(--text-3)}.api-part{margin-top:14px}
.api-part-title{font-size:13px;font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:var(--text-3)}
.api-schema{list-style:none;margin:0;padding:0}.api-schema .api-schema{padding-left:14px;border-left:1px solid var(--border);margin-left:4px}
.api-schema li{padding:6px 0;border-top:1px solid var(--border)}.api-schema li:first-child{border-top:0}
.api-schema summary,.api-response summary{cursor:pointer}
.api-type,.api-format{margin-left:8px;font:13px var(--mono);color:var(--text-3)}
.api-required{margin-left:8px;font-size:12px;font-weight:600;color:var(--c-caution)}
.api-deprecated{margin-left:8px;font-size:12px;color:var(--text-3);text-decoration:line-through}
.api-status{font:700 13px var(--mono)}.api-status-2{color:var(--c-tip)}.api-status-4,.api-status-5{color:var(--c-caution)}
.api-response{margin:6px 0}.api-missing{color:var(--text-2);background:var(--bg-2)}
.callout{margin:0 0 16px;padding:12px 16px;border:1px solid var(--border);border-left:4px solid var(--c);border-radius:var(--radius);background:var(--bg-2)}
.callout>:last-child{margin-bottom:0}.callout-title{margin:0 0 4px;font-weight:700;color:var(--c)}
:root{--c-note:#3a5bd9;--c-tip:#1b7f4a;--c-important:#7c3aed;--c-warning:#9a6700;--c-caution:#c62828}
.gb-tabs{margin:0 0 16px;border:1px solid var(--border);border-radius:var(--radius)}
.gb-tab{padding:12px 16px}.gb-tab+.gb-tab{border-top:1px solid var(--border)}.gb-tab>:last-child{margin-bottom:0}
.gb-tab-title{margin:0 0 8px;font-weight:700}
.gb-tablist{display:flex;flex-wrap:wrap;gap:2px;padding:0 8px;border-bottom:1px solid var(--border);overflow-x:auto}
.gb-tablist button{padding:8px 12px;border:0;border-bottom:2px solid transparent;background:none;color:var(--text-2);font:inherit;font-size:14px;cursor:pointer}
.gb-tablist button[aria-selected=true]{border-bottom-color:var(--accent);color:var(--text);font-weight:600}
.gb-tabs.gb-live .gb-tab+.gb-tab{border-top:0}.gb-tabs.gb-live .gb-tab-title{display:none}
.gb-code{margin:0 0 16px}.gb-code figcaption{padding:6px 12px;border:1px solid var(--border);border-bottom:0;border-radius:var(--radius) var(--radius) 0 0;background:var(--bg-2);font:13px var(--mono);color:var(--text-2)}
.gb-code figcaption+*,.gb-code figcaption+* pre{border-top-left-radius:0;border-top-right-radius:0}
.gb-code-wrap pre{white-space:pre-wrap}
.gb-stepper{list-style:none;padding:0;margin:0 0 16px;counter-reset:gb-step}
.gb-step{position:relative;padding:0 0 8px 44px;counter-increment:gb-step;border-left:2px solid var(--border);margin-left:14px}
.gb-step::before{content:counter(gb-step);position:absolute;left:-15px;top:0;width:28px;height:28px;border-radius:50%;background:var(--accent);color:var(--bg);font-weight:700;text-align:center;line-height:28px}
.gb-step:last-child{border-left-color:transparent}.gb-step>:first-child{margin-top:0}
.gb-columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:16px;margin:0 0 16px}.gb-column>:last-child{margin-bottom:0}
.math-block{margin:0 0 16px;overflow-x:auto;padding:4px 0}
.math-block math{font-size:1.15em}
.gb-content-ref,.gb-embed,.gb-file{margin:0 0 16px;padding:12px 16px;border:1px solid var(--border);border-radius:var(--radius)}
.gb-content-ref>:last-child,.gb-embed>:last-child,.gb-file>:last-child{margin-bottom:0}
.gb-content-ref a,.gb-embed-link a,.gb-file-link a{font-weight:600}
.gb-embed-link,.gb-file-link{margin:0 0 4px}.gb-embed-url{margin:0;font-size:13px;color:var(--text-2);overflow-wrap:anywhere}
.gb-unknown{margin:0 0 16px;padding:12px 16px;border:1px dashed var(--border);border-radius:var(--radius)}
.gb-unknown-label{margin:0 0 4px;font:13px var(--mono);color:var(--text-2);overflow-wrap:anywhere}.gb-unknown>:last-child{margin-bottom:0}
.callout-note{--c:var(--c-note)}.callout-tip{--c:var(--c-tip)}.callout-important{--c:var(--c-important)}.callout-warning{--c:var(--c-warning)}.callout-caution{--c:var(--c-caution)}
.only-dark{display:none}
.header-logo{display:block;height:28px;width:auto;border-radius:0}
.site-title{display:flex;align-items:center;gap:10px}
.header-nav ul{display:flex;align-items:center;gap:4px;list-style:none;margin:0;padding:0}
.header-nav a,.header-nav summary,.header-nav span{display:block;padding:6px 10px;border-radius:var(--radius);color:var(--text-2);font-size:15px}
.header-nav summary{cursor:pointer;list-style:none}.header-nav summary::-webkit-details-marker{display:none}
.header-nav details{position:relative}
.header-nav details>ul{position:absolute;top:calc(100% + 4px);right:0;z-index:30;min-width:180px;display:block;padding:6px;background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 8px 24px rgba(0,0,0,.15)}
.header-nav .button-primary{background:var(--accent);color:var(--bg);font-weight:600}
.header-nav .button-secondary{border:1px solid var(--border);color:var(--text)}
.announcement{background:var(--accent-soft);border-bottom:1px solid var(--border);font-size:15px}
.announcement p{max-width:1440px;margin:0 auto;padding:8px 24px}
.announcement-warning{background:color-mix(in srgb,var(--c-warning) 14%,var(--bg))}
.announcement-danger{background:color-mix(in srgb,var(--c-caution) 14%,var(--bg))}
.announcement-success{background:color-mix(in srgb,var(--c-tip) 14%,var(--bg))}
.footer-inner{max-width:1440px;margin:0 auto;padding:20px 24px}
.footer-inner>p{margin:0}
.footer-logo-img{height:28px;width:auto;margin-bottom:12px}
.footer-groups{display:flex;flex-wrap:wrap;gap:24px 48px;margin-bottom:16px}
.footer-groups h2{margin:0 0 6px;font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--text-3)}
.footer-groups ul{list-style:none;margin:0;padding:0}.footer-groups li{margin:4px 0}
.toc{position:sticky;top:var(--header-h);align-self:start;padding:32px 0;font-size:14px}
.toc h2{margin:0 0 8px;font-size:12px;font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:var(--text-3)}
.toc ul{list-style:none;margin:0;padding:0;border-left:1px solid var(--border)}
.toc a{display:block;padding:3px 0 3px 12px;color:var(--text-2)}.toc .level-4 a{padding-left:24px}
.pagination{display:grid;grid-template-columns:1fr 1fr;gap:16px;max-width:760px;margin-top:48px}
.pagination a{display:block;padding:12px 16px;border:1px solid var(--border);border-radius:var(--radius);color:var(--text)}
.pagination a:hover{border-color:var(--accent);text-decoration:none}
.pagination .next{grid-column:2;text-align:right}
.pagination small{display:block;color:var(--text-3);font-size:13px}
.site-footer{border-top:1px solid var(--border);color:var(--text-3);font-size:14px}
.site-footer>p{max-width:1440px;margin:0 auto;padding:20px 24px}
.message{max-width:640px;margin:0 auto;padding:80px 24px;text-align:center}
.message h1{font-size:32px;margin:0 0 12px}.message p{color:var(--text-2)}
.message .button{display:inline-block;margin-top:16px;padding:8px 16px;border-radius:var(--radius);background:var(--accent);color:var(--bg);font-weight:600}
.search-results{max-width:800px;margin:0 auto;padding:32px 24px 64px}
.layout>.search-results{margin:0;padding:32px 0 64px}
.results{padding-left:20px}.results>li{margin-bottom:20px}.results .result{font-weight:600;font-size:17px}
.results .space{color:var(--text-3)}.results ul{list-style:none;padding-left:12px}.results p{margin:2px 0;color:var(--text-2)}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.theme-toggle{padding:6px 10px;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--text-2);font:inherit;font-size:14px;cursor:pointer;white-space:nowrap}
.theme-toggle[hidden]{display:inline-block;visibility:hidden}
.code-block.has-actions .code-lang{top:8px;right:auto;left:12px}
article pre,article pre.shiki{padding-top:36px}
.last-updated{margin:32px 0 0;font-size:14px;color:var(--text-3)}
.page-actions{margin:-12px 0 20px;font-size:14px}
.code-actions{position:absolute;top:6px;right:8px;display:flex;gap:4px}
.code-action{padding:2px 8px;border:1px solid var(--border);border-radius:6px;background:var(--bg);color:var(--text-2);font:12px var(--sans);cursor:pointer}
.code-action[aria-pressed=true]{color:var(--accent);border-color:var(--accent)}
article pre.wrap{white-space:pre-wrap;overflow-wrap:anywhere}
form.search{position:relative}
.suggestions{position:absolute;top:calc(100% + 6px);right:0;z-index:30;width:min(420px,92vw);max-height:60vh;overflow-y:auto;margin:0;padding:6px;list-style:none;background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 8px 24px rgba(0,0,0,.15)}
.suggestions[hidden]{display:none}
.suggestions li{display:block;padding:8px 10px;border-radius:6px;cursor:pointer}
.suggestions li[aria-selected=true],.suggestions li:hover{background:var(--accent-soft)}
.suggestion-title{display:block;font-weight:600;color:var(--text)}
.suggestion-excerpt{display:block;font-size:13px;color:var(--text-2);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.suggestion-none{color:var(--text-2);cursor:default}
.sidebar details>summary{list-style:none;cursor:pointer}
nav.pages li.more>a{color:var(--text-3);font-size:13px}
nav.pages li.more>a[aria-busy=true]{opacity:.6}
.page-list{text-align:left}.page-list nav.pages ul{list-style:none;padding-left:16px}.page-list nav.pages>ul{padding-left:0}
.sidebar details>summary::-webkit-details-marker{display:none}
.sidebar .folder{position:relative}
.sidebar .folder>a{padding-right:34px}
.sidebar .folder>details>summary{position:absolute;top:2px;right:2px;width:28px;height:28px;border-radius:6px;display:flex;align-items:center;justify-content:center;color:var(--text-3)}
.sidebar .folder>details>summary:hover{background:var(--bg-2)}
.sidebar .folder>details>summary::before,.sidebar details.group>summary::after{content:"";width:7px;height:7px;border-right:1.5px solid currentColor;border-bottom:1.5px solid currentColor;transform:rotate(-45deg);transition:transform .15s}
.sidebar details[open]>summary::before,.sidebar details.group[open]>summary::after{transform:rotate(45deg)}
.sidebar details.group>summary{display:flex;align-items:center;justify-content:space-between}
.sidebar details.group>summary::after{margin-right:8px}
nav.sections details{position:relative}
nav.sections summary{display:block;padding:6px 10px;border-radius:var(--radius);color:var(--text-2);cursor:pointer;list-style:none}
nav.sections summary::-webkit-details-marker{display:none}
nav.sections summary::after{content:"";display:inline-block;width:6px;height:6px;margin-left:8px;border-right:1.5px solid currentColor;border-bottom:1.5px solid currentColor;transform:translateY(-3px) rotate(45deg)}
nav.sections summary:hover{background:var(--bg-2)}
nav.sections .group.current>details>summary{color:var(--accent);font-weight:600}
nav.sections details>ul{position:absolute;top:calc(100% + 4px);left:0;z-index:30;min-width:200px;display:block;padding:6px;background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 8px 24px rgba(0,0,0,.15)}
@media (max-width:1199px){.layout{grid-template-columns:260px minmax(0,1fr)}.layout.no-nav{grid-template-columns:minmax(0,1fr)}.toc{display:none}}
@media (max-width:799px){
.header-inner{flex-wrap:wrap;gap:8px 12px;padding:8px 16px}
.menu-button{display:inline-block}
form.search{order:2;flex:1;min-width:96px;margin:0}form.search input{flex:1;width:auto;min-width:0;max-width:none}form.search button{display:none}
.site-title{min-width:0;max-width:40vw;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
.header-nav{order:5;width:100%;overflow-x:auto}
nav.sections{order:4;width:100%;overflow-x:auto}nav.sections ul{flex-wrap:nowrap}
.layout,.layout.no-toc{display:block;padding:0 16px}
.sidebar{display:none;position:static;max-height:none;padding:8px 0 16px;border-bottom:1px solid var(--border)}
.menu-toggle:checked~.layout .sidebar{display:block}
main{padding-top:20px}article h1{font-size:28px}
.pagination{grid-template-columns:1fr}.pagination .next{grid-column:1}
nav.sections details>ul{position:static;box-shadow:none;min-width:0;display:flex}
.theme-toggle{order:3;margin-left:0;font-size:0;padding:6px 9px}.theme-toggle::before{content:"\\25D0";font-size:16px;line-height:1}
}
:root[data-theme=light]{color-scheme:light}
@media (prefers-color-scheme:dark){${dark(':root:not([data-theme=light])')}}
${dark(':root[data-theme=dark]')}
.page-feedback{margin:32px 0 0;padding:16px;border:1px solid var(--border);border-radius:var(--radius);display:flex;flex-direction:column;gap:10px}
.page-feedback-title{margin:0;font-weight:600}.page-feedback-comment{display:flex;flex-direction:column;gap:4px;font-size:14px;color:var(--text-2)}
.page-feedback-comment textarea{font:inherit;font-size:14px;padding:6px 10px;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--text);resize:vertical}
.page-feedback-choices{display:flex;gap:8px;flex-wrap:wrap}.feedback-choice{font:inherit;font-size:14px;padding:6px 14px;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg-2);color:var(--text);cursor:pointer}
.feedback-choice:hover{border-color:var(--accent)}
${CONTENTKIT_CSS}`;

/**
 * How ContentKit looks (shared/contentkit.ts): one stylesheet for the published site (appended to its theme) and
 * the console (adopted by components/integrations/integration-block.tsx), in the colours of whichever shows it
 * (`--border`, `--text-2`, `--accent`… both define; the others fall back).
 */
export const CONTENTKIT_CSS = `
.gb-integration{margin:0 0 16px;min-width:0;max-width:100%;overflow-wrap:anywhere}
.gb-integration:not(.gb-integration-rendered){padding:12px 16px;border:1px dashed var(--border);border-radius:var(--radius)}
.gb-integration-label{margin:0 0 4px;font:13px var(--mono);color:var(--text-2);overflow-wrap:anywhere}
.gb-integration-failed,.gb-integration-loading{margin:0 0 8px;color:var(--text-2);font-size:14px}
.ck-block,.ck-configuration,.ck-modal{display:flex;flex-direction:column;gap:12px}
.ck-vstack{display:flex;flex-direction:column;gap:8px}
.ck-hstack{display:flex;flex-direction:row;flex-wrap:wrap;gap:8px}
.ck-hstack.ck-align-center{align-items:center}.ck-hstack.ck-align-end{align-items:flex-end}
.ck-vstack.ck-align-center{align-items:center}.ck-vstack.ck-align-end{align-items:flex-end}
.ck-box{min-width:0}.ck-grow{flex:1 1 0}
.ck-divider{border:0;border-top:1px solid var(--border);margin:4px 0;width:100%}
.ck-title{margin:0;font-weight:600}
.ck-hint,.ck-card-hint,.ck-input-hint{margin:0;color:var(--text-2);font-size:14px}
.ck-card{border:1px solid var(--border);border-radius:var(--radius);padding:12px 16px;display:flex;flex-direction:column;gap:8px;min-width:0}
.ck-card.ck-pressable{cursor:pointer}.ck-card.ck-pressable:hover{border-color:var(--accent)}
.ck-card-header{display:flex;gap:8px;justify-content:space-between;align-items:flex-start}.ck-card-header>div{min-width:0}
.ck-buttons{display:flex;gap:6px;flex-wrap:wrap}
.ck-button{font:inherit;font-size:14px;line-height:1.2;padding:6px 12px;border-radius:var(--radius);border:1px solid var(--border);background:var(--bg-2,var(--surface-2));color:var(--text);cursor:pointer}
.ck-button:hover:not(:disabled){border-color:var(--accent)}
.ck-button-primary{background:var(--accent);border-color:var(--accent);color:#fff}
.ck-button-danger{background:var(--danger,#b42318);border-color:var(--danger,#b42318);color:#fff}
.ck-button:disabled{opacity:.55;cursor:not-allowed}
.ck-image{max-width:100%;height:auto;border-radius:var(--radius)}
.ck-markdown>:first-child{margin-top:0}.ck-markdown>:last-child{margin-bottom:0}
.ck-codeblock{display:flex;flex-direction:column;gap:8px;min-width:0}
.ck-code{margin:0;padding:12px 16px;background:var(--code-bg,var(--surface-2));color:var(--code-text,var(--text));border-radius:var(--radius);overflow:auto;font:13px/1.6 var(--mono)}
.ck-code-input{width:100%;font:13px/1.6 var(--mono);padding:12px 16px;border:1px solid var(--border);border-radius:var(--radius);background:var(--code-bg,var(--surface-2));color:var(--code-text,var(--text));caret-color:currentColor;resize:vertical}
.ck-webframe{display:flex;flex-direction:column;gap:8px}
.ck-webframe iframe{display:block;width:100%;height:auto;border:1px solid var(--border);border-radius:var(--radius);background:transparent}
.ck-input{display:flex;flex-direction:column;gap:4px}
.ck-input-toggle{display:grid;grid-template-columns:1fr auto;align-items:center;column-gap:12px}.ck-input-toggle>.ck-input-hint{grid-column:1/-1}
input.ck-switch{appearance:none;-webkit-appearance:none;position:relative;width:36px;height:20px;margin:0;border-radius:10px;background:var(--border);cursor:pointer;flex:none;transition:background .15s}
input.ck-switch::before{content:"";position:absolute;top:2px;left:2px;width:16px;height:16px;border-radius:50%;background:#fff;box-shadow:0 1px 2px rgba(0,0,0,.3);transition:transform .15s}
input.ck-switch:checked{background:var(--accent)}input.ck-switch:checked::before{transform:translateX(16px)}
input.ck-switch:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.ck-input-label{font-weight:600;font-size:14px}
.ck-textinput,.ck-select{font:inherit;font-size:14px;padding:6px 10px;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg,#fff);color:var(--text);max-width:100%}
.ck-step{display:flex;flex-direction:column;gap:8px}
.gb-integration-in-modal .ck-modal>.ck-title:first-child{display:none}
dialog.gb-integration-modal{width:min(640px,calc(100vw - 32px));margin:auto;padding:16px 20px 20px;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg,#fff);color:var(--text)}
dialog.gb-integration-modal::backdrop{background:rgba(0,0,0,.45)}
.gb-integration-close{float:right;margin:0 0 8px 8px;font:inherit;font-size:14px;padding:4px 10px;border:1px solid var(--border);border-radius:var(--radius);background:none;color:var(--text);cursor:pointer}
`;

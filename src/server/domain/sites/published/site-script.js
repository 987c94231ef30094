// The published sites' one script (served as a static asset by routes/published-sites.ts, cached for a year under
// its hash). Every page works without it: it only adds what needs a script: the theme toggle, copy and wrap
// buttons on code, copying a heading's link, search results as you type, and links to renamed sections. Plain DOM,
// no framework.
(() => {
  'use strict';
  const root = document.documentElement;
  const THEME_KEY = 'ds-theme';

  /** A polite live region: what the buttons did, for screen readers. */
  const live = document.createElement('div');
  live.className = 'sr-only';
  live.setAttribute('aria-live', 'polite');
  document.body.append(live);
  const announce = (message) => {
    live.textContent = '';
    setTimeout(() => (live.textContent = message), 50);
  };

  const button = (label, name, className) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = className;
    b.textContent = label;
    b.setAttribute('aria-label', name);
    return b;
  };

  // A link to a section whose heading was renamed since (`#instaling` for `#installing-the-cli`, or an id another
  // tool gave): the section whose id is closest (edit distance at most half the name's) is scrolled to, and the
  // address names it, as the links report suggests it.
  const distance = (a, b) => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) {
        next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      }
      row = next;
    }
    return row[b.length];
  };
  const findSection = () => {
    let wanted = location.hash.slice(1);
    try {
      wanted = decodeURIComponent(wanted);
    } catch {
      // kept as written
    }
    if (!wanted || wanted.length > 200 || document.getElementById(wanted)) return;
    // As on GitHub, a link written with capitals (`#pino-stdSerializers`) finds the id in lower case.
    const lower = document.getElementById(wanted.toLowerCase());
    if (lower) {
      history.replaceState(null, '', `#${lower.id}`);
      lower.scrollIntoView();
      return;
    }
    let best;
    document.querySelectorAll('article :is(h1, h2, h3, h4, h5, h6)[id]').forEach((heading) => {
      const d = distance(wanted.toLowerCase(), heading.id.toLowerCase());
      if (!best || d < best.d) best = { heading, d };
    });
    if (!best || best.d > Math.ceil(wanted.length / 2)) return;
    history.replaceState(null, '', `#${best.heading.id}`);
    best.heading.scrollIntoView();
  };
  findSection();
  addEventListener('hashchange', findSection);

  // GitBook tabs: a tablist over the panels, arrows and Home/End moving between tabs (without the script, every
  // panel shows under its title).
  document.querySelectorAll('.gb-tabs').forEach((tabs, n) => {
    const panels = [...tabs.children].filter((c) => c.classList.contains('gb-tab'));
    if (!panels.length) return;
    const list = document.createElement('div');
    list.className = 'gb-tablist';
    list.setAttribute('role', 'tablist');
    const tabButtons = panels.map((panel, i) => {
      const title = panel.querySelector(':scope > .gb-tab-title');
      const b = document.createElement('button');
      b.type = 'button';
      b.id = `gb-tab-${n}-${i}`;
      panel.id = `gb-panel-${n}-${i}`;
      b.setAttribute('role', 'tab');
      b.setAttribute('aria-controls', panel.id);
      b.textContent = title ? title.textContent : `Tab ${i + 1}`;
      panel.setAttribute('role', 'tabpanel');
      panel.setAttribute('aria-labelledby', b.id);
      panel.tabIndex = 0;
      list.append(b);
      return b;
    });
    const select = (at, focus) => {
      tabButtons.forEach((b, i) => {
        b.setAttribute('aria-selected', String(i === at));
        b.tabIndex = i === at ? 0 : -1;
        panels[i].hidden = i !== at;
      });
      if (focus) tabButtons[at].focus();
    };
    list.addEventListener('click', (e) => {
      const at = tabButtons.indexOf(e.target.closest('button'));
      if (at >= 0) select(at, false);
    });
    list.addEventListener('keydown', (e) => {
      const at = tabButtons.indexOf(document.activeElement);
      const count = tabButtons.length;
      const keys = { ArrowRight: (at + 1) % count, ArrowLeft: (at - 1 + count) % count, Home: 0, End: count - 1 };
      if (at < 0 || !(e.key in keys)) return;
      e.preventDefault();
      select(keys[e.key], true);
    });
    tabs.prepend(list);
    tabs.classList.add('gb-live');
    select(0, false);
  });

  // Theme: system (the default), light or dark, remembered in this browser. The head's inline script applies the
  // remembered one before the page paints.
  const toggle = document.querySelector('.theme-toggle');
  if (toggle) {
    const MODES = ['system', 'light', 'dark'];
    const NAMES = { system: 'System', light: 'Light', dark: 'Dark' };
    const apply = (mode) => {
      if (mode === 'system') delete root.dataset.theme;
      else root.dataset.theme = mode;
      toggle.dataset.mode = mode;
      toggle.textContent = `Theme: ${NAMES[mode]}`;
      toggle.setAttribute('aria-label', `Theme: ${NAMES[mode]} (change)`);
    };
    let stored = null;
    try {
      stored = localStorage.getItem(THEME_KEY);
    } catch {
      // Storage refused (privacy settings): the toggle still works for this page.
    }
    apply(MODES.includes(stored) ? stored : 'system');
    toggle.hidden = false;
    toggle.addEventListener('click', () => {
      const next = MODES[(MODES.indexOf(toggle.dataset.mode) + 1) % MODES.length];
      try {
        if (next === 'system') localStorage.removeItem(THEME_KEY);
        else localStorage.setItem(THEME_KEY, next);
      } catch {
        // As above.
      }
      apply(next);
      announce(`${NAMES[next]} theme`);
    });
  }

  const copyText = async (value) => {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(value);
  };

  // Code blocks: copy, and wrap long lines.
  for (const pre of document.querySelectorAll('article pre')) {
    let block = pre.parentElement;
    if (!block || !block.classList.contains('code-block')) {
      block = document.createElement('div');
      block.className = 'code-block';
      pre.before(block);
      block.append(pre);
    }
    const actions = document.createElement('div');
    actions.className = 'code-actions';
    const wrap = button('Wrap', 'Wrap lines', 'code-action');
    wrap.setAttribute('aria-pressed', 'false');
    wrap.addEventListener('click', () => {
      const on = pre.classList.toggle('wrap');
      wrap.setAttribute('aria-pressed', String(on));
    });
    const copy = button('Copy', 'Copy code', 'code-action');
    // The accessible name always starts with the visible text.
    const label = (visible, name) => {
      copy.textContent = visible;
      copy.setAttribute('aria-label', name);
    };
    let reset;
    copy.addEventListener('click', async () => {
      clearTimeout(reset);
      try {
        await copyText(pre.innerText.replace(/\n$/, ''));
        label('Copied', 'Copied code');
        announce('Code copied');
      } catch {
        label('Copy failed', 'Copy failed: select the code and copy it yourself');
        announce('Could not copy: select the code and copy it yourself');
      }
      reset = setTimeout(() => label('Copy', 'Copy code'), 2000);
    });
    actions.append(wrap, copy);
    block.classList.add('has-actions');
    block.prepend(actions);
  }

  // A heading's # link: following it also copies the section's address.
  document.addEventListener('click', (event) => {
    const anchor = event.target instanceof Element ? event.target.closest('a.anchor') : null;
    if (!anchor) return;
    const url = new URL(anchor.getAttribute('href'), location.href).href;
    copyText(url).then(
      () => announce('Link to the section copied'),
      () => {},
    );
  });

  // The navigation of a large space holds the way to the current page; the other pages are behind links to their
  // list (`…/~pages`), loaded in place when a folded folder opens or such a link is followed. Without the script,
  // the link opens the list as a page.
  const loadPages = async (link) => {
    const item = link.closest('li.more');
    if (!item || item.dataset.loading) return;
    item.dataset.loading = 'true';
    link.setAttribute('aria-busy', 'true');
    const hadFocus = document.activeElement === link;
    try {
      const res = await fetch(link.href, { headers: { accept: 'text/html' } });
      if (!res.ok) throw new Error(`status ${res.status}`);
      const list = new DOMParser().parseFromString(await res.text(), 'text/html').querySelector('nav.pages > ul');
      if (!list) throw new Error('no list');
      const items = [...list.children].map((li) => document.importNode(li, true));
      item.replaceWith(...items);
      announce(`${items.filter((li) => !li.classList.contains('more')).length} more pages shown`);
      if (hadFocus) items[0]?.querySelector('a, summary')?.focus();
    } catch {
      // Offline or refused: the link still opens the list.
      delete item.dataset.loading;
      link.removeAttribute('aria-busy');
    }
  };
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('nav.pages a[data-pages]') : null;
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    loadPages(link);
  });
  // `toggle` does not bubble: listened to on the way down.
  document.addEventListener(
    'toggle',
    (event) => {
      const details = event.target;
      if (!(details instanceof HTMLDetailsElement) || !details.open || !details.closest('nav.pages')) return;
      const link = details.querySelector(':scope > ul > li.more:first-child > a[data-pages]');
      if (link) loadPages(link);
    },
    true,
  );

  // Section groups in the header open as menus: one at a time, closed by Escape or a click elsewhere.
  const menus = [...document.querySelectorAll('nav.sections details')];
  const closeMenus = (except) => menus.forEach((m) => m !== except && m.removeAttribute('open'));
  for (const menu of menus) menu.addEventListener('toggle', () => menu.open && closeMenus(menu));
  document.addEventListener('click', (event) => {
    if (!(event.target instanceof Element) || !event.target.closest('nav.sections details')) closeMenus();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const open = menus.find((m) => m.open);
    if (!open) return;
    open.removeAttribute('open');
    open.querySelector('summary')?.focus();
  });

  // Search as you type: the header's search box lists matching pages while one types; Enter on none submits the
  // form (the full results page), as it does without the script.
  const form = document.querySelector('form.search');
  const input = form && form.querySelector('input[name=q]');
  if (form && input) {
    const list = document.createElement('ul');
    list.id = 'search-suggestions';
    list.className = 'suggestions';
    list.setAttribute('role', 'listbox');
    list.setAttribute('aria-label', 'Matching pages');
    list.hidden = true;
    form.append(list);
    const status = document.createElement('p');
    status.className = 'sr-only';
    status.setAttribute('role', 'status');
    form.append(status);
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', list.id);
    input.setAttribute('aria-expanded', 'false');
    input.setAttribute('autocomplete', 'off');

    let options = [];
    let active = -1;
    let timer;
    let pending;
    const close = () => {
      list.hidden = true;
      list.replaceChildren();
      options = [];
      active = -1;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
    };
    const activate = (index) => {
      options.forEach((o, i) => o.setAttribute('aria-selected', String(i === index)));
      active = index;
      if (index < 0) input.removeAttribute('aria-activedescendant');
      else {
        input.setAttribute('aria-activedescendant', options[index].id);
        options[index].scrollIntoView({ block: 'nearest' });
      }
    };
    /** `value` with the ranges the server marked wrapped in <mark> (text nodes only: never markup). */
    const marked = (value, ranges) => {
      const out = document.createDocumentFragment();
      let at = 0;
      for (const { start, end } of ranges || []) {
        if (start < at || end <= start) continue;
        out.append(value.slice(at, start));
        const mark = document.createElement('mark');
        mark.textContent = value.slice(start, end);
        out.append(mark);
        at = end;
      }
      out.append(value.slice(at));
      return out;
    };
    const show = (items) => {
      list.replaceChildren();
      options = [];
      active = -1;
      for (const space of items) {
        for (const page of space.pages) {
          const li = document.createElement('li');
          li.id = `suggestion-${options.length}`;
          li.setAttribute('role', 'option');
          li.setAttribute('aria-selected', 'false');
          li.dataset.href = page.urls.app;
          const title = document.createElement('span');
          title.className = 'suggestion-title';
          title.append(marked(page.title, page.highlights.title));
          li.append(title);
          const section = page.sections.find((s) => s.body);
          if (section) {
            const excerpt = document.createElement('span');
            excerpt.className = 'suggestion-excerpt';
            excerpt.append(marked(section.body, section.highlights.body));
            li.append(excerpt);
          }
          li.addEventListener('mousedown', (event) => event.preventDefault());
          li.addEventListener('click', () => location.assign(li.dataset.href));
          list.append(li);
          options.push(li);
        }
      }
      if (options.length === 0) {
        const none = document.createElement('li');
        none.className = 'suggestion-none';
        none.setAttribute('role', 'option');
        none.setAttribute('aria-disabled', 'true');
        none.setAttribute('aria-selected', 'false');
        none.id = 'suggestion-none';
        none.textContent = 'No page matches';
        list.append(none);
      }
      status.textContent = options.length ? `${options.length} pages match` : 'No page matches';
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
    };
    const run = async () => {
      const q = input.value.trim();
      pending?.abort();
      if (q.length < 2) return close();
      pending = new AbortController();
      const params = new URLSearchParams({ q, format: 'json', limit: '8' });
      const scope = form.querySelector('input[name=in]');
      if (scope) params.set('in', scope.value);
      try {
        const res = await fetch(`${form.action}?${params}`, {
          signal: pending.signal,
          headers: { accept: 'application/json' },
        });
        if (!res.ok) return close();
        const body = await res.json();
        if (input.value.trim() === q) show(body.items);
      } catch {
        // Aborted by a newer query, or offline: the form still submits.
      }
    };
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(run, 150);
    });
    input.addEventListener('keydown', (event) => {
      if (list.hidden) return;
      if (event.key === 'ArrowDown' && options.length) {
        event.preventDefault();
        activate((active + 1) % options.length);
      } else if (event.key === 'ArrowUp' && options.length) {
        event.preventDefault();
        activate(active <= 0 ? options.length - 1 : active - 1);
      } else if (event.key === 'Enter' && active >= 0) {
        event.preventDefault();
        location.assign(options[active].dataset.href);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        close();
      }
    });
    input.addEventListener('blur', () => setTimeout(close, 150));
  }

  // Integration blocks' webframes (shared/contentkit.ts): each is sent its data (`{state}`) once it says it is ready,
  // and takes the height it asks for; messages count from these frames only (blocks rendered again bring new ones).
  const parse = (text, fallback) => {
    try {
      return text ? JSON.parse(text) : fallback;
    } catch {
      return fallback;
    }
  };
  if (document.querySelector('.gb-integration-rendered')) {
    window.addEventListener('message', (event) => {
      const frame = [...document.querySelectorAll('iframe[data-ck-webframe]')].find(
        (f) => f.contentWindow === event.source,
      );
      if (!frame) return;
      const message = typeof event.data === 'string' ? parse(event.data, undefined) : event.data;
      if (!message || typeof message !== 'object') return;
      const setHeight = (height) => {
        frame.style.aspectRatio = 'auto';
        frame.style.height = `${Math.min(4000, Math.max(32, height))}px`;
      };
      if (message.context === 'iframe.resize' && Number(message.height) > 0) return setHeight(Number(message.height));
      const action = message.action;
      if (!action || typeof action.action !== 'string') return;
      if (action.action === '@webframe.ready') {
        const state = parse(frame.dataset.ckWebframe, {});
        if (Object.keys(state).length) frame.contentWindow.postMessage({ state }, '*');
      } else if (action.action === '@webframe.resize' && action.size) {
        const height = Number(action.size.height ?? action.size.maxHeight);
        const ratio = Number(action.size.aspectRatio);
        if (height > 0) setHeight(height);
        else if (ratio > 0) frame.style.aspectRatio = String(ratio);
      }
    });

    // A reader's action in a block (a button, a changed value) goes to its integration, with the state its inputs
    // hold; the block is shown again as the integration renders it then.
    /** The state a block's inputs hold, over the state it was rendered with. */
    const stateOf = (block) => {
      const state = parse(block.dataset.ckRootState, {});
      for (const input of block.querySelectorAll('[data-ck-state]')) {
        const key = input.dataset.ckState;
        if (input.type === 'checkbox' && input.getAttribute('role') === 'switch') state[key] = input.checked;
        else if (input.type === 'checkbox') {
          const list = Array.isArray(state[key]) ? state[key].filter((v) => String(v) !== input.value) : [];
          state[key] = input.checked ? [...list, input.value] : list;
        } else if (input.type === 'radio') {
          if (input.checked) state[key] = input.value;
        } else if (input.multiple) state[key] = [...input.selectedOptions].map((o) => o.value);
        else state[key] = input.value;
      }
      return state;
    };
    /** `value` with its state bindings (`{$state: key}`) read from `state`, at any depth. */
    const resolve = (value, state) => {
      if (Array.isArray(value)) return value.map((v) => resolve(v, state));
      if (!value || typeof value !== 'object') return value;
      if (typeof value.$state === 'string') return state[value.$state];
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, state)]));
    };
    /** The block rendered by its integration with `body` (its props, state, action), or undefined when it failed. */
    const renderAgain = async (body) => {
      const res = await fetch(location.pathname + location.search, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(String(res.status));
      return res.json();
    };
    /**
     * Shows `done` (an answer of renderAgain) in `block` (a modal's: in its body, under its close button), which keeps
     * its state and props for the next action.
     */
    const show = (block, done) => {
      const html = document.createElement('template');
      html.innerHTML = done.html;
      (block.tagName === 'DIALOG' ? block.lastElementChild : block).replaceChildren(html.content);
      block.dataset.ckRootState = JSON.stringify(done.state || {});
      block.dataset.ckProps = JSON.stringify(done.props || {});
    };
    /**
     * A component its block opens in a modal (`@ui.modal.open`): a <dialog> in the block, a block of its own for the
     * actions inside; `@ui.modal.close` closes it and sends the block what was chosen.
     */
    const openModal = async (block, action) => {
      const [integration] = (block.dataset.ckBlock || '').split('/');
      const done = await renderAgain({
        integration,
        block: String(action.componentId),
        props: action.props && typeof action.props === 'object' ? action.props : {},
      });
      const dialog = document.createElement('dialog');
      dialog.className = 'gb-integration gb-integration-rendered gb-integration-modal';
      dialog.dataset.ckBlock = `${integration}/${action.componentId}`;
      const close = button('Close', 'Close', 'gb-integration-close');
      close.addEventListener('click', () => dialog.close());
      dialog.addEventListener('close', () => dialog.remove());
      dialog.append(close, document.createElement('div'));
      show(dialog, done);
      block.append(dialog);
      dialog.showModal();
    };
    const act = async (block, raw) => {
      const state = stateOf(block);
      const action = resolve(raw, state);
      if (!action || typeof action.action !== 'string') return;
      if (action.action === '@ui.url.open') {
        if (/^https?:\/\//i.test(String(action.url))) window.open(action.url, '_blank', 'noopener,noreferrer');
        return;
      }
      if (action.action === '@ui.modal.close' && block.tagName === 'DIALOG') {
        const owner = block.parentElement && block.parentElement.closest('.gb-integration-rendered');
        block.close();
        if (owner) act(owner, { action: '@ui.modal.close', returnValue: action.returnValue });
        return;
      }
      const [integration, name] = (block.dataset.ckBlock || '').split('/');
      block.setAttribute('aria-busy', 'true');
      try {
        if (action.action === '@ui.modal.open' && typeof action.componentId === 'string') {
          await openModal(block, action);
          return;
        }
        const done = await renderAgain({
          integration,
          block: name,
          props: parse(block.dataset.ckProps, {}),
          state,
          action,
        });
        show(block, done);
        announce('Updated');
      } catch {
        announce('This block could not be updated. Try again.');
      } finally {
        block.removeAttribute('aria-busy');
      }
    };
    const press = (target) => {
      const block = target.closest('.gb-integration-rendered');
      if (!block || target.disabled) return;
      const confirm = parse(target.dataset.ckConfirm, undefined);
      if (confirm && !window.confirm([confirm.title, confirm.text].filter(Boolean).join('\n\n') || 'Are you sure?'))
        return;
      act(block, parse(target.dataset.ckAction, undefined));
    };
    document.addEventListener('click', (event) => {
      const target = event.target instanceof Element ? event.target.closest('[data-ck-action]') : null;
      if (target) press(target);
    });
    document.addEventListener('keydown', (event) => {
      const target = event.target;
      if (
        (event.key === 'Enter' || event.key === ' ') &&
        target instanceof HTMLElement &&
        target.matches('[role=button][data-ck-action]')
      ) {
        event.preventDefault();
        press(target);
      }
    });
    document.addEventListener('change', (event) => {
      const target = event.target instanceof Element ? event.target.closest('[data-ck-change]') : null;
      const block = target && target.closest('.gb-integration-rendered');
      if (block) act(block, parse(target.dataset.ckChange, undefined));
    });
  }

  // "Was this page helpful?": sent in place (the form works without this too), then thanked.
  const feedback = document.querySelector('form.page-feedback');
  if (feedback) {
    const thank = () => {
      const thanks = document.createElement('p');
      thanks.className = 'page-feedback-title';
      thanks.setAttribute('role', 'status');
      thanks.textContent = 'Thank you for your feedback.';
      feedback.replaceChildren(thanks);
    };
    if (location.hash === '#page-feedback-sent') thank();
    feedback.addEventListener('submit', async (event) => {
      event.preventDefault();
      const rating = event.submitter && event.submitter.value;
      if (!rating) return;
      const comment = feedback.querySelector('textarea').value.trim();
      try {
        const res = await fetch(feedback.action, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(comment ? { rating, comment } : { rating }),
        });
        if (!res.ok) throw new Error(String(res.status));
        thank();
      } catch {
        announce('Your feedback could not be sent. Try again.');
      }
    });
  }
})();

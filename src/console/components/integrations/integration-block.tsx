import { useEffect, useRef, useState } from 'react';
import type { ComponentProps, FocusEvent, FormEvent, KeyboardEvent, MouseEvent, ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { api, errorMessage } from '../../lib/api-client';
import { bound, contentKitToHast, safeUrl, type ContentKitOutput } from '../../../shared/contentkit';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Dialog } from '../ui/dialog';
import { CONTENTKIT_CSS } from '../../../shared/contentkit-css';

/**
 * An integration's block (`{% @name/block … %}`) in a page the console shows: rendered by its integration
 * (`POST /v1/integrations/{name}/render`, in the context of the space's document, read-only) and shown with the
 * one ContentKit renderer (shared/contentkit.ts), so that it looks as on the published site. What the reader does
 * goes back to the script: a button's action, a value changed (with the state the inputs hold), and the block is
 * rendered again with the answer; a webframe is sent its data once it says it is ready, and takes the height it
 * asks for. A block that cannot render says so, with its name, and can be tried again.
 */

// ContentKit's look, the published site's (shared/contentkit-css.ts), taken once.
if (typeof document !== 'undefined' && 'adoptedStyleSheets' in document) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CONTENTKIT_CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

type State = Record<string, unknown>;
interface Action {
  action: string;
  [key: string]: unknown;
}
interface RenderInput {
  props: State;
  state?: State;
  action?: Action;
  /** Asked again afresh (after a component finished): not sent, only a new key for the answer. */
  round?: number;
}

const isRecord = (value: unknown): value is State =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An action with its state bindings (`{$state: 'key'}`) resolved, at any depth. */
function resolveAction(action: unknown, state: State): unknown {
  if (Array.isArray(action)) return action.map((a) => resolveAction(a, state));
  if (!isRecord(action)) return action;
  if (typeof action.$state === 'string') return bound(action, state);
  return Object.fromEntries(Object.entries(action).map(([k, v]) => [k, resolveAction(v, state)]));
}

function parseJson(text: string | undefined): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

export function IntegrationBlock({
  integration,
  block,
  props,
  spaceId,
  context,
  onComplete,
  editable = false,
  onPropsChange,
  unfurl,
  onModalClose,
  onTitle,
  fallback,
}: {
  integration: string;
  block: string;
  props: State;
  /** The space of the page the block is in (its context: the space's document). */
  spaceId?: string;
  /** Another context to render in (a configuration: `configuration_account` with its organization). */
  context?: Record<string, unknown>;
  /** The component finished (`complete`: a configuration saved). */
  onComplete?: (returnValue: unknown) => void;
  /** In the editor: the script may offer its editing controls, and change the block's props. */
  editable?: boolean;
  /** The block's props changed by the script (`@editor.node.updateProps`), for the editor to keep. */
  onPropsChange?: (props: State) => void;
  /** A link the block was just made from (pasted): rendered first with `@link.unfurl`, its props then kept. */
  unfurl?: string | undefined;
  /** Shown in a modal its block opened: `@ui.modal.close` closes it and goes back to that block. */
  onModalClose?: (returnValue: unknown) => void;
  /** Shown in a modal: told the modal's title (the dialog shows it). */
  onTitle?: (title: string) => void;
  /** Shown instead when the block cannot be rendered (an embed its integration could not unfurl: the embed). */
  fallback?: ReactNode;
}) {
  const [input, setInput] = useState<RenderInput>(() =>
    unfurl ? { props, action: { action: '@link.unfurl', url: unfurl } } : { props },
  );
  const render = useQuery({
    queryKey: ['integration-render', integration, block, spaceId, context, editable, input],
    queryFn: ({ signal }) =>
      api.post(
        `/integrations/${encodeURIComponent(integration)}/render`,
        {
          componentId: block,
          props: input.props,
          ...(input.state ? { state: input.state } : {}),
          ...(input.action ? { action: input.action } : {}),
          context: context ?? { type: 'document', spaceId, editable },
        },
        { signal },
      ) as Promise<ContentKitOutput>,
    retry: false,
    // A configuration screen shows what is saved now each time it opens; a block may be kept a minute.
    staleTime: context ? 0 : 60_000,
    ...(context ? { gcTime: 0 } : {}),
    placeholderData: (previous) => previous,
  });
  // The last answer shown: kept on screen, with why, when an action of the reader's is refused.
  const [shown, setShown] = useState<ContentKitOutput | undefined>(render.data);
  if (render.data && render.data !== shown) setShown(render.data);
  const output = render.data ?? (render.isError && input.action ? shown : undefined);
  const refused = render.isError && output !== undefined;
  // What the reader changed in the inputs since the last answer.
  const [edits, setEdits] = useState<{ for?: ContentKitOutput; values: State }>({ values: {} });
  const values = edits.for === output ? edits.values : {};
  const state: State = { ...(isRecord(output?.state) ? output.state : {}), ...values };
  // A component that finished (a configuration saved) says so once.
  const completed = useRef<ContentKitOutput | undefined>(undefined);
  useEffect(() => {
    if (output?.type !== 'complete' || completed.current === output) return;
    completed.current = output;
    onComplete?.(output.returnValue);
    // Then shown afresh (a configuration screen with what was saved).
    setInput((before) => ({ props, round: (before.round ?? 0) + 1 }));
  }, [output, onComplete, props]);
  // A block made from a link keeps the props its integration read off it (the link, as the script keeps it).
  const unfurled = useRef(false);
  useEffect(() => {
    if (!unfurl || unfurled.current || !output || !isRecord(output.props) || !Object.keys(output.props).length) return;
    unfurled.current = true;
    onPropsChange?.(output.props);
  }, [unfurl, output, onPropsChange]);
  // A component of the integration its block opened in a modal (`@ui.modal.open`), and the modal's title.
  const [modal, setModal] = useState<{ componentId: string; props: State }>();
  const [modalTitle, setModalTitle] = useState<string>();
  const element = output?.element;
  const title = isRecord(element) && element.type === 'modal' && typeof element.title === 'string' ? element.title : '';
  useEffect(() => {
    if (title) onTitle?.(title);
  }, [title, onTitle]);
  const [confirming, setConfirming] = useState<{ action: Action; text: string; title: string; label: string }>();

  const label = `${integration} · ${block}`;
  if (render.isPending) {
    return (
      <div className="gb-integration" aria-busy="true">
        <p className="gb-integration-label">{label}</p>
        <p className="gb-integration-loading">Loading…</p>
      </div>
    );
  }
  if (!output) {
    if (fallback !== undefined) return <>{fallback}</>;
    return (
      <div className="gb-integration" role="note">
        <p className="gb-integration-label">{label}</p>
        <p className="gb-integration-failed">
          This block could not be shown: {render.error ? errorMessage(render.error) : 'no answer.'}
        </p>
        <Button variant="secondary" size="sm" onClick={() => void render.refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  const run = (raw: unknown, now: State = state) => {
    const action = resolveAction(raw, now);
    if (!isRecord(action) || typeof action.action !== 'string') return;
    if (action.action === '@ui.url.open') {
      const url = safeUrl(action.url);
      if (url) window.open(url, '_blank', 'noopener,noreferrer');
      return;
    }
    if (action.action === '@ui.modal.open' && typeof action.componentId === 'string') {
      setModal({ componentId: action.componentId, props: isRecord(action.props) ? action.props : {} });
      return;
    }
    if (action.action === '@ui.modal.close' && onModalClose) {
      onModalClose(action.returnValue);
      return;
    }
    // The script keeps what the writer changed as the block's props (a diagram's source): the editor saves them.
    if (action.action === '@editor.node.updateProps' && editable && isRecord(action.props)) {
      onPropsChange?.(action.props);
    }
    setInput({
      props: isRecord(output.props) ? output.props : input.props,
      state: now,
      action: action as Action,
    });
  };
  const press = (target: HTMLElement) => {
    const action = parseJson(target.dataset.ckAction);
    const confirm = parseJson(target.dataset.ckConfirm);
    if (isRecord(action) && typeof action.action === 'string' && isRecord(confirm)) {
      setConfirming({
        action: action as Action,
        title: typeof confirm.title === 'string' ? confirm.title : 'Are you sure?',
        text: typeof confirm.text === 'string' ? confirm.text : '',
        label: typeof confirm.confirm === 'string' ? confirm.confirm : 'Confirm',
      });
    } else run(action);
  };
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const target = (event.target as HTMLElement).closest<HTMLElement>('[data-ck-action]');
    if (target && event.currentTarget.contains(target) && !(target as HTMLButtonElement).disabled) press(target);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (
      (event.key === 'Enter' || event.key === ' ') &&
      target.getAttribute('role') === 'button' &&
      target.dataset.ckAction
    ) {
      event.preventDefault();
      press(target);
    }
  };
  /** What an input now holds, under the state key it writes (undefined: it writes none). */
  const valueOf = (target: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement) => {
    const key = target.dataset.ckState;
    if (!key) return undefined;
    let value: unknown = target.value;
    if (target instanceof HTMLInputElement && target.type === 'checkbox') {
      if (target.getAttribute('role') === 'switch') value = target.checked;
      else {
        const current = Array.isArray(state[key]) ? (state[key] as unknown[]).map(String) : [];
        value = target.checked ? [...new Set([...current, target.value])] : current.filter((v) => v !== target.value);
      }
    } else if (target instanceof HTMLSelectElement && target.multiple) {
      value = [...target.selectedOptions].map((o) => o.value);
    }
    return { key, value };
  };
  const typed = (target: EventTarget) =>
    target instanceof HTMLTextAreaElement ||
    (target instanceof HTMLInputElement && !['checkbox', 'radio'].includes(target.type));
  /** Records a value as it changes; a choice (a select, a box) sends its change action at once. */
  const onInput = (event: FormEvent<HTMLDivElement>) => {
    const target = event.target as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    const changed = valueOf(target);
    if (!changed) return;
    const next = { ...values, [changed.key]: changed.value };
    setEdits({ for: output, values: next });
    const change = parseJson(target.dataset.ckChange);
    if (change && event.type === 'change' && !typed(target)) run(change, { ...state, [changed.key]: changed.value });
  };
  /** A text's change action is sent when the reader leaves it, not at each key. */
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    const target = event.target as HTMLInputElement | HTMLTextAreaElement;
    const change = typed(target) ? parseJson(target.dataset.ckChange) : undefined;
    const changed = change ? valueOf(target) : undefined;
    const before = isRecord(output.state) ? output.state[changed?.key ?? ''] : undefined;
    if (change && changed && changed.value !== before) run(change, { ...state, [changed.key]: changed.value });
  };

  const tree = contentKitToHast(output, { state, editable });
  return (
    <div
      className={`gb-integration gb-integration-rendered${onModalClose ? ' gb-integration-in-modal' : ''}`}
      data-integration={integration}
      aria-busy={render.isFetching}
      onClick={onClick}
      onKeyDown={onKeyDown}
      onInput={onInput}
      onChange={onInput}
      onBlur={onBlur}
    >
      {refused && (
        <p className="gb-integration-failed" role="alert">
          That did not go through: {errorMessage(render.error)}
        </p>
      )}
      {tree &&
        toJsxRuntime(tree, {
          Fragment,
          jsx,
          jsxs,
          components: {
            iframe: WebFrame,
            input: UncontrolledInput,
            textarea: UncontrolledTextArea,
            select: UncontrolledSelect,
          },
        })}
      {modal && (
        <Dialog open onOpenChange={(open) => !open && setModal(undefined)} title={modalTitle ?? integration}>
          <IntegrationBlock
            integration={integration}
            block={modal.componentId}
            props={modal.props}
            {...(spaceId !== undefined ? { spaceId } : {})}
            {...(context ? { context } : {})}
            editable={editable}
            onTitle={setModalTitle}
            onModalClose={(returnValue) => {
              setModal(undefined);
              setModalTitle(undefined);
              run({ action: '@ui.modal.close', returnValue });
            }}
          />
        </Dialog>
      )}
      {confirming && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setConfirming(undefined)}
          title={confirming.title}
          confirmLabel={confirming.label}
          variant="primary"
          action={async () => {
            run(confirming.action);
            setConfirming(undefined);
          }}
        >
          {confirming.text && <p>{confirming.text}</p>}
        </ConfirmDialog>
      )}
    </div>
  );
}

/** Inputs hold what the reader types (the block reads it off them): their first value is the answer's. */
function UncontrolledInput({ value, checked, ...props }: ComponentProps<'input'>) {
  return <input {...props} defaultValue={value} defaultChecked={checked} />;
}
function UncontrolledTextArea({ value, children, ...props }: ComponentProps<'textarea'>) {
  return <textarea {...props} defaultValue={value ?? (typeof children === 'string' ? children : undefined)} />;
}
function UncontrolledSelect({ value, children, ...props }: ComponentProps<'select'>) {
  return (
    <select {...props} defaultValue={value}>
      {children}
    </select>
  );
}

/** Height a webframe may ask for, in pixels. */
const FRAME_HEIGHT_MIN = 32;
const FRAME_HEIGHT_MAX = 4000;

/**
 * A webframe: sent its data (`{state}`, `data-ck-webframe`) once it posts `@webframe.ready` and whenever the data
 * changes after; `@webframe.resize` sets its height (or aspect ratio). Messages are taken from this frame only.
 */
function WebFrame({
  'data-ck-webframe': data,
  style,
  ...props
}: ComponentProps<'iframe'> & { 'data-ck-webframe'?: string }) {
  const ref = useRef<HTMLIFrameElement>(null);
  const ready = useRef(false);
  const [size, setSize] = useState<{ height?: number; aspectRatio?: number }>({});
  useEffect(() => {
    const send = () => {
      const state = parseJson(data);
      if (isRecord(state) && Object.keys(state).length) ref.current?.contentWindow?.postMessage({ state }, '*');
    };
    if (ready.current) send();
    const listen = (event: MessageEvent) => {
      if (!ref.current || event.source !== ref.current.contentWindow) return;
      const message = typeof event.data === 'string' ? parseJson(event.data) : (event.data as unknown);
      if (!isRecord(message)) return;
      if (message.context === 'iframe.resize' && Number(message.height) > 0) {
        setSize({ height: Number(message.height) });
        return;
      }
      const action = message.action;
      if (!isRecord(action)) return;
      if (action.action === '@webframe.ready') {
        ready.current = true;
        send();
      } else if (action.action === '@webframe.resize' && isRecord(action.size)) {
        const height = Number(action.size.height ?? action.size.maxHeight);
        const ratio = Number(action.size.aspectRatio);
        if (height > 0) setSize({ height: Math.min(FRAME_HEIGHT_MAX, Math.max(FRAME_HEIGHT_MIN, height)) });
        else if (ratio > 0) setSize({ aspectRatio: ratio });
      }
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [data]);
  return (
    <iframe
      ref={ref}
      {...props}
      style={{
        ...(typeof style === 'object' ? style : {}),
        ...(size.height ? { height: size.height, aspectRatio: 'auto' } : {}),
        ...(size.aspectRatio ? { aspectRatio: String(size.aspectRatio) } : {}),
      }}
    />
  );
}

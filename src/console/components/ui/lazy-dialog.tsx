import { createElement, lazy, Suspense, useState } from 'react';
import type { ComponentType } from 'react';

/**
 * A dialog whose code (the dialog, its form and validation) is downloaded the first time it opens, not with the
 * screen that offers it: most visits never open it. Once opened it stays mounted, so it closes as any dialog does
 * and gives focus back.
 *
 *   const MoveDialog = lazyDialog(() => import('../forms/move-dialog').then((m) => m.MoveDialog));
 */
export function lazyDialog<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: P) {
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    return opened && <Suspense fallback={null}>{createElement(Loaded, props)}</Suspense>;
  };
}

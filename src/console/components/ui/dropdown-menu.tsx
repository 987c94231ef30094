import type * as Radix from '@radix-ui/react-dropdown-menu';
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ComponentProps, RefObject } from 'react';
import type * as RadixMenus from './dropdown-menu-radix';

/**
 * A menu of actions, opened by a button; arrow keys move, Enter chooses, Escape closes.
 *
 * Radix's menus (and the positioning code under them) are downloaded when a menu is first about to be used, not with
 * every screen that shows a menu button. Until then a menu is its button alone: the same button, named and announced
 * as a menu button, which starts the download when pointed at or focused. Pressed (pointer down, Enter, Space or
 * ArrowDown), it waits for Radix, which takes its place, gets the focus if the button had it, and receives the same
 * event again, so the menu opens exactly as Radix opens it (on the first item from the keyboard). Menus rendered
 * once Radix is here are Radix's from the start.
 */
type Parts = typeof RadixMenus;

let parts: Parts | undefined;
let loading: Promise<Parts> | undefined;

function loadParts(): Promise<Parts> {
  loading ??= import('./dropdown-menu-radix').then(
    (module) => (parts = module),
    (error: unknown) => {
      loading = undefined; // tried again on the next press
      throw error;
    },
  );
  return loading;
}

/** A press on the button before Radix was here: whether the button had the focus, and the event to give Radix's. */
interface Press {
  focused: boolean;
  event: () => Event;
}

interface MenuState {
  parts: Parts | undefined;
  /** The button on screen, placeholder or Radix's. */
  buttonRef: RefObject<HTMLButtonElement | null>;
  press: (press: Press) => void;
}

const MenuContext = createContext<MenuState | null>(null);

function useMenu(): MenuState {
  const menu = use(MenuContext);
  if (!menu) throw new Error('Menu parts belong inside a DropdownMenu');
  return menu;
}

/** Radix's parts, for those only rendered inside an open menu (which Radix renders). */
function useOpenMenu(): Parts {
  const { parts } = useMenu();
  if (!parts) throw new Error('Menu items belong inside a DropdownMenuContent');
  return parts;
}

export function DropdownMenu(props: Omit<ComponentProps<typeof Radix.Root>, 'open' | 'defaultOpen'>) {
  const [loaded, setLoaded] = useState(parts);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const pressed = useRef<Press | null>(null);
  const press = useCallback((next: Press) => {
    pressed.current = next;
    void loadParts().then(setLoaded);
  }, []);
  // Runs after Radix's own effects (its children's), so it listens for the keyboard as it would have.
  useEffect(() => {
    const pending = pressed.current;
    if (!loaded || !pending) return;
    pressed.current = null;
    if (pending.focused) buttonRef.current?.focus();
    buttonRef.current?.dispatchEvent(pending.event());
  }, [loaded]);
  const menu = useMemo(() => ({ parts: loaded, buttonRef, press }), [loaded, press]);
  return <MenuContext value={menu}>{loaded ? <loaded.DropdownMenu {...props} /> : props.children}</MenuContext>;
}

const OPENING_KEYS = ['Enter', ' ', 'ArrowDown'];

export function DropdownMenuTrigger({ ref, ...props }: Omit<ComponentProps<typeof Radix.Trigger>, 'asChild'>) {
  const { parts, buttonRef, press } = useMenu();
  const refs = useCallback(
    (node: HTMLButtonElement | null) => {
      buttonRef.current = node;
      if (typeof ref === 'function') ref(node);
      else if (ref) ref.current = node;
    },
    [buttonRef, ref],
  );
  if (parts) return <parts.DropdownMenuTrigger {...props} ref={refs} />;
  const preload = () => void loadParts();
  // What Radix's trigger renders while closed; the presses it opens on are kept for it (and reach `props` then).
  return (
    <button
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      data-disabled={props.disabled ? '' : undefined}
      {...props}
      ref={refs}
      onPointerEnter={(event) => {
        preload();
        props.onPointerEnter?.(event);
      }}
      onFocus={(event) => {
        preload();
        props.onFocus?.(event);
      }}
      onPointerDown={(event) => {
        if (event.button !== 0 || event.ctrlKey) return props.onPointerDown?.(event);
        event.preventDefault(); // as Radix does: the menu, not its button, takes the focus
        const { pointerType } = event;
        press({
          focused: document.activeElement === event.currentTarget,
          event: () => new PointerEvent('pointerdown', { bubbles: true, cancelable: true, button: 0, pointerType }),
        });
      }}
      onKeyDown={(event) => {
        if (!OPENING_KEYS.includes(event.key)) return props.onKeyDown?.(event);
        event.preventDefault();
        const { key } = event;
        press({ focused: true, event: () => new KeyboardEvent('keydown', { bubbles: true, cancelable: true, key }) });
      }}
    />
  );
}

/** Nothing until Radix is here: a menu is closed until then. */
export function DropdownMenuContent(props: ComponentProps<Parts['DropdownMenuContent']>) {
  const { parts } = useMenu();
  return parts && <parts.DropdownMenuContent {...props} />;
}

export function DropdownMenuItem(props: ComponentProps<Parts['DropdownMenuItem']>) {
  const { DropdownMenuItem: Item } = useOpenMenu();
  return <Item {...props} />;
}

export function DropdownMenuLabel(props: ComponentProps<Parts['DropdownMenuLabel']>) {
  const { DropdownMenuLabel: Label } = useOpenMenu();
  return <Label {...props} />;
}

/** Items that belong together (e.g. the actions on one invitation), named by `aria-label`. */
export function DropdownMenuGroup(props: ComponentProps<Parts['DropdownMenuGroup']>) {
  const { DropdownMenuGroup: Group } = useOpenMenu();
  return <Group {...props} />;
}

export function DropdownMenuSeparator() {
  const { DropdownMenuSeparator: Separator } = useOpenMenu();
  return <Separator />;
}

export function DropdownMenuRadioGroup(props: ComponentProps<Parts['DropdownMenuRadioGroup']>) {
  const { DropdownMenuRadioGroup: RadioGroup } = useOpenMenu();
  return <RadioGroup {...props} />;
}

export function DropdownMenuRadioItem(props: ComponentProps<Parts['DropdownMenuRadioItem']>) {
  const { DropdownMenuRadioItem: RadioItem } = useOpenMenu();
  return <RadioItem {...props} />;
}

/** An item that is on or off (`menuitemcheckbox`), e.g. a reaction the user gave or not. */
export function DropdownMenuCheckboxItem(props: ComponentProps<Parts['DropdownMenuCheckboxItem']>) {
  const { DropdownMenuCheckboxItem: CheckboxItem } = useOpenMenu();
  return <CheckboxItem {...props} />;
}

/**
 * Dialogs opened from menu items. A closing menu gives focus back to its button, which would pull it out of the
 * dialog that just opened; this keeps focus in the dialog, and returns it to the menu button when the dialog closes.
 */
export function useMenuDialogs<T extends string>() {
  const [open, setOpen] = useState<T | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const opening = useRef(false);
  return {
    trigger,
    openDialog: (name: T) => {
      opening.current = true;
      setOpen(name);
    },
    /** For `DropdownMenuContent`. */
    onCloseAutoFocus: (event: Event) => {
      if (opening.current) {
        opening.current = false;
        event.preventDefault();
      }
    },
    /** For the dialog called `name`. */
    dialog: (name: T) => ({
      open: open === name,
      onOpenChange: (value: boolean) => {
        if (!value) setOpen(null);
      },
      returnFocusRef: trigger,
    }),
  };
}

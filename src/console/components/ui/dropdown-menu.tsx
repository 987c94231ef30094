import * as Menu from '@radix-ui/react-dropdown-menu';
import { useRef, useState } from 'react';
import type { ComponentProps, ReactNode } from 'react';

/** A menu of actions, opened by a button; arrow keys move, Enter chooses, Escape closes. */
export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;

export function DropdownMenuContent({ children, align = 'end', ...props }: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content className="menu" align={align} sideOffset={4} collisionPadding={8} {...props}>
        {children}
      </Menu.Content>
    </Menu.Portal>
  );
}

export function DropdownMenuItem({
  children,
  icon,
  danger,
  className,
  ...props
}: ComponentProps<typeof Menu.Item> & { icon?: ReactNode; danger?: boolean }) {
  return (
    <Menu.Item className={['menu-item', danger ? 'menu-item-danger' : '', className ?? ''].join(' ')} {...props}>
      {icon && <span className="menu-item-icon">{icon}</span>}
      <span className="menu-item-label">{children}</span>
    </Menu.Item>
  );
}

export function DropdownMenuLabel({ children }: { children: ReactNode }) {
  return <Menu.Label className="menu-label">{children}</Menu.Label>;
}

/** Items that belong together (e.g. the actions on one invitation), named by `aria-label`. */
export const DropdownMenuGroup = Menu.Group;

export function DropdownMenuSeparator() {
  return <Menu.Separator className="menu-separator" />;
}

export const DropdownMenuRadioGroup = Menu.RadioGroup;

export function DropdownMenuRadioItem({ children, ...props }: ComponentProps<typeof Menu.RadioItem>) {
  return (
    <Menu.RadioItem className="menu-item menu-item-radio" {...props}>
      <span className="menu-item-indicator">
        <Menu.ItemIndicator>●</Menu.ItemIndicator>
      </span>
      <span className="menu-item-label">{children}</span>
    </Menu.RadioItem>
  );
}

/** An item that is on or off (`menuitemcheckbox`), e.g. a reaction the user gave or not. */
export function DropdownMenuCheckboxItem({ children, ...props }: ComponentProps<typeof Menu.CheckboxItem>) {
  return (
    <Menu.CheckboxItem className="menu-item menu-item-radio" {...props}>
      <span className="menu-item-indicator">
        <Menu.ItemIndicator>✓</Menu.ItemIndicator>
      </span>
      <span className="menu-item-label">{children}</span>
    </Menu.CheckboxItem>
  );
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

import * as Menu from '@radix-ui/react-dropdown-menu';
import type { ComponentProps, ReactNode } from 'react';

/**
 * Radix's menus, styled. Downloaded when a menu is first about to open (dropdown-menu.tsx), not with the screens that
 * show menu buttons: import from dropdown-menu.tsx, never from here.
 */
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

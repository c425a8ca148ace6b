import { Button, Tooltip, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithoutRef, MouseEvent, ReactElement, ReactNode } from 'react';
import { useCan } from '../../lib/use-can.ts';
import type { Permission } from '../../lib/permission.ts';

/** The data attribute naming the action a control's request needs; the browser tests look for it. */
const REQUIRES_ACTION_ATTRIBUTE = 'data-requires-action';

/**
 * Props that gate any clickable element on a permission: the `data-requires-action` tag always, and when refused
 * `aria-disabled`, Mantine's `data-disabled` look and a click that does nothing. The element stays focusable (unlike
 * `disabled`), so keyboard and pointer users can both reach the tooltip that says why.
 */
export function gateProps<T extends HTMLElement>(permission: Permission, onClick?: (event: MouseEvent<T>) => void) {
  return {
    [REQUIRES_ACTION_ATTRIBUTE]: permission.action,
    ...(permission.allowed
      ? { onClick }
      : {
          'aria-disabled': true,
          'data-disabled': true,
          onClick: (event: MouseEvent<T>) => event.preventDefault(),
        }),
  };
}

/** Wraps a gated control in a tooltip naming the missing action; an allowed control is returned as it is. */
export function PermissionTooltip({ permission, children }: { permission: Permission; children: ReactElement }) {
  if (permission.allowed) return children;
  return (
    <Tooltip label={permission.reason} multiline maw={320} withArrow events={{ hover: true, focus: true, touch: true }}>
      {children}
    </Tooltip>
  );
}

type PermittedButtonProps = ButtonProps &
  Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps> & {
    /** The action(s) the button's request needs (`<area>:<Verb>`); all must be in the signed-in user's profile. */
    action: string | readonly string[];
    /** Mantine's polymorphic root, e.g. a router `Link` for a button that navigates. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Mantine types the root's props as any
    renderRoot?: (props: any) => ReactNode;
  };

/**
 * A Mantine `Button` offered only as far as the user's roles allow: when the profile lacks `action` it is shown
 * disabled with a tooltip naming the missing action, instead of being offered and then refused with a 403.
 * Hide the button instead (`useCan(action).allowed && …`) when a disabled one would only be noise.
 *
 * @example
 * <PermittedButton action="devices:Deactivate" color="red" onClick={open}>Deactivate</PermittedButton>
 */
export function PermittedButton({ action, onClick, ...props }: PermittedButtonProps) {
  const permission = useCan(action);
  return (
    <PermissionTooltip permission={permission}>
      <Button {...props} {...gateProps(permission, onClick)} />
    </PermissionTooltip>
  );
}

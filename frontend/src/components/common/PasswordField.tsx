// Password input with an accessible show/hide toggle; label doubles as placeholder.
import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { type MouseEvent, type Ref, useState } from 'react';

/**
 * Mantine's toggle keeps the focus where it is (its mousedown is prevented), so a click on its own
 * field's eye leaves the caret in that field. A click on ANOTHER field's eye must still leave the
 * field being typed in, as any other click does: else its on-blur check never runs (typing the
 * confirmation, then clicking the form beside the New Password eye showed no "do not match").
 */
export function leaveOtherField(event: MouseEvent<HTMLElement>): void {
  const active = document.activeElement;
  const own = event.currentTarget.closest('.mantine-PasswordInput-root');
  if (active instanceof HTMLElement && !own?.contains(active)) active.blur();
}

/** React 19 passes `ref` as a prop (react-hook-form's register gives one), so no forwardRef. */
export function PasswordField(props: PasswordInputProps & { label: string; ref?: Ref<HTMLInputElement> }) {
  const [visible, setVisible] = useState(false);
  return (
    <PasswordInput
      placeholder={props.label}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleButtonProps={{ 'aria-label': visible ? 'Hide password' : 'Show password', onMouseDown: leaveOtherField }}
      {...props}
    />
  );
}

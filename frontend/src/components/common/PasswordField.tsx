// Password input with an accessible show/hide toggle; label doubles as placeholder.
import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { type Ref, useState } from 'react';

/** React 19 passes `ref` as a prop (react-hook-form's register gives one), so no forwardRef. */
export function PasswordField(props: PasswordInputProps & { label: string; ref?: Ref<HTMLInputElement> }) {
  const [visible, setVisible] = useState(false);
  return (
    <PasswordInput
      placeholder={props.label}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleButtonProps={{ 'aria-label': visible ? 'Hide password' : 'Show password' }}
      {...props}
    />
  );
}

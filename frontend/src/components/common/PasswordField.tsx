// Password input with an accessible show/hide toggle; label doubles as placeholder.
import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { forwardRef, useState } from 'react';

export const PasswordField = forwardRef<HTMLInputElement, PasswordInputProps & { label: string }>(function PasswordField(props, ref) {
  const [visible, setVisible] = useState(false);
  return (
    <PasswordInput
      ref={ref}
      placeholder={props.label}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleButtonProps={{ 'aria-label': visible ? 'Hide password' : 'Show password' }}
      {...props}
    />
  );
});

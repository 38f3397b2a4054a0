// Text input whose label doubles as its placeholder, like PasswordField.
import { TextInput, type TextInputProps } from '@mantine/core';
import { forwardRef } from 'react';

export const TextField = forwardRef<HTMLInputElement, TextInputProps & { label: string }>(function TextField(props, ref) {
  return <TextInput ref={ref} placeholder={props.label} {...props} />;
});

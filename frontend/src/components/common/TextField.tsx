// Text input whose label doubles as its placeholder, like PasswordField.
import { TextInput, type TextInputProps } from '@mantine/core';
import type { Ref } from 'react';

/** React 19 passes `ref` as a prop (react-hook-form's register gives one), so no forwardRef. */
export function TextField(props: TextInputProps & { label: string; ref?: Ref<HTMLInputElement> }) {
  return <TextInput placeholder={props.label} {...props} />;
}

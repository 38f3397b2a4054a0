// A form's submit button that submits on the first click. Forms validate on blur (spec §5): a
// mouse press on the button blurs the field, its error line disappears, the form gets shorter and
// the button moves out from under the pointer before the release, so the click never happened.
// Keeping focus in the field on press means nothing moves; the submit validates every field anyway.
import { Button, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';

type Props = ButtonProps & Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps | 'type'>;

export function SubmitButton({ onMouseDown, ...props }: Props) {
  return (
    <Button
      type="submit"
      onMouseDown={(e) => {
        e.preventDefault();
        onMouseDown?.(e);
      }}
      {...props}
    />
  );
}

// The spreadsheet picker of the upload dialogs: required, .csv / .xlsx / .xls only.
import { UPLOAD_EXTENSIONS } from '@app/domain/jobs';
import { FileInput } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { VALIDATION } from '../../lib/messages';
import { ACCEPT, hasUploadExtension } from '../../lib/uploads';

export function FileField<T extends FieldValues>({ control, name }: { control: Control<T>; name: Path<T> }) {
  return (
    <Controller
      control={control}
      name={name}
      rules={{
        required: VALIDATION.fileRequired,
        validate: (file: File | null) => !file || hasUploadExtension(file.name) || VALIDATION.fileType,
      }}
      render={({ field, fieldState }) => (
        <FileInput
          label="File"
          placeholder={`Choose a ${UPLOAD_EXTENSIONS.join(', ')} file`}
          accept={ACCEPT}
          withAsterisk
          clearable
          leftSection={<IconFileSpreadsheet size={16} />}
          value={field.value ?? null}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

// The one button that downloads a CSV file: it saves what `fetchCsv` answers under the server's name
// (Content-Disposition), else `fallbackName`. A table's download failing is only logged
// (docs/requirements.md, Tables); `toastOnError` shows a toast instead (a job's rejected cells).
import { Button, type ButtonProps } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { filenameFromDisposition, saveFile } from '../../lib/download';

export interface CsvFileButtonProps {
  fetchCsv: () => Promise<{ blob: Blob; disposition: string | null }>;
  fallbackName: () => string;
  label?: string;
  /** The button's look; a plain default button unless set. */
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  color?: ButtonProps['color'];
  px?: ButtonProps['px'];
  iconSize?: number;
  title?: string;
  toastOnError?: boolean;
}

export function CsvFileButton({
  fetchCsv,
  fallbackName,
  label = 'Download CSV',
  variant = 'default',
  size,
  color,
  px,
  iconSize = 16,
  title,
  toastOnError = false,
}: CsvFileButtonProps) {
  const download = useMutation({
    mutationFn: async () => {
      const { blob, disposition } = await fetchCsv();
      saveFile(blob, filenameFromDisposition(disposition) ?? fallbackName());
    },
    ...(toastOnError ? {} : { meta: { toastOnError: false }, onError: (err: unknown) => console.error('CSV download failed:', err) }),
  });
  return (
    <Button
      variant={variant}
      size={size}
      color={color}
      px={px}
      title={title}
      leftSection={<IconDownload size={iconSize} />}
      loading={download.isPending}
      onClick={() => download.mutate()}
    >
      {label}
    </Button>
  );
}

// Spreadsheet types the upload dialogs accept (spec §5, §9).
import { UPLOAD_EXTENSIONS } from '@app/domain/jobs';

export const ACCEPT = UPLOAD_EXTENSIONS.join(',');

export function hasUploadExtension(name: string): boolean {
  const lower = name.toLowerCase();
  return UPLOAD_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

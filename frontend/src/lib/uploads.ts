// Spreadsheet types the upload dialogs accept (docs/requirements.md, Create Job dialog).
import { UPLOAD_EXTENSIONS } from '@app/domain/jobs';

export const ACCEPT = UPLOAD_EXTENSIONS.join(',');

export function hasUploadExtension(name: string): boolean {
  const lower = name.toLowerCase();
  return UPLOAD_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

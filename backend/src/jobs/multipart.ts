// Reads one uploaded file and the text fields of a multipart request, bounded in size.
import type { FastifyRequest } from 'fastify';
import { HttpError, validationError } from '../lib/http-errors.ts';
import { unstorableTextIssues } from '../lib/text-guard.ts';

export interface UploadedForm {
  file: { filename: string; data: Buffer };
  fields: Record<string, string>;
}

export async function readUploadForm(req: FastifyRequest, maxBytes: number): Promise<UploadedForm> {
  if (!req.isMultipart()) throw new HttpError(415, 'Send the file as multipart/form-data');
  let file: UploadedForm['file'] | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          await part.toBuffer();
          continue;
        }
        file = { filename: part.filename || 'upload', data: await part.toBuffer() };
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new HttpError(413, `The file is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB upload limit.`);
    }
    if (code === 'FST_FILES_LIMIT') throw new HttpError(413, 'Upload one file at a time.');
    if (err instanceof HttpError) throw err;
    // A missing or broken boundary, a truncated body: busboy's and Fastify's parse errors alike.
    throw new HttpError(400, 'The upload could not be read. Please try again.');
  }
  const issues = [...unstorableTextIssues('body', fields), ...(file ? unstorableTextIssues('body', { filename: file.filename }) : [])];
  if (issues.length) throw validationError(issues);
  if (!file || file.data.length === 0) throw validationError(['body', 'file'], file ? 'The file is empty.' : 'File is required.');
  return { file, fields };
}

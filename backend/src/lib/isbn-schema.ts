// One ISBN as the API takes it (a book's page, a scan): any form the upload's normaliser accepts,
// read to its ISBN-13; anything else is a 422 naming the field with the normaliser's reason.
import { readOneIsbn } from '@app/domain/book';
import { z } from 'zod';

export const IsbnText = z
  .string()
  .max(100, 'Not an ISBN')
  .transform((text, ctx) => {
    const read = readOneIsbn(text);
    if ('isbn' in read) return read.isbn;
    ctx.addIssue({ code: 'custom', message: read.reason });
    return z.NEVER;
  });

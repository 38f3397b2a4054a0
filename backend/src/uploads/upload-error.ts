// The one error parseUpload throws: an HTTP status and a sentence the uploader can act on.

export type UploadErrorStatus = 413 | 422;

export class UploadError extends Error {
  override readonly name = 'UploadError';
  readonly status: UploadErrorStatus;

  // No parameter property: the parsing thread runs from the sources with Node's type stripping.
  constructor(status: UploadErrorStatus, message: string) {
    super(message);
    this.status = status;
  }
}

/** 413: the file is over one of the configured limits. */
export const tooLarge = (message: string) => new UploadError(413, message);
/** 422: the file cannot be used as it is. */
export const unusable = (message: string) => new UploadError(422, message);

/** "12345" → "12,345", so limits read naturally in messages. */
export const formatCount = (n: number) => n.toLocaleString('en-US');

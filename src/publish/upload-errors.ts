import { TesseraError } from '../errors/errors';

/**
 * The refusals of an upload as such, before its content is read: what the front answers (the body
 * is not a package, too large, cut short) and what the publish thread answers when unpacking.
 */
export const notValid = (message: string, problems: string[]): TesseraError => new TesseraError('PACKAGE_NOT_VALID', message, { details: { problems } });

/** A request without a packed component in a form this route reads. */
export function noPackageError(): TesseraError {
  return notValid('The request does not carry a package.', [
    'send the gzip tarball of the _package folder as the body (Content-Type: application/gzip), or as the one file of a multipart/form-data upload',
  ]);
}

/** A multipart upload its parser could not read (cut short, no boundary). */
export function malformedUploadError(reason: string): TesseraError {
  return notValid('The multipart upload is malformed.', [
    `${reason}: send the gzip tarball of the _package folder as the one file of a well-formed multipart/form-data upload, or as the body (Content-Type: application/gzip)`,
  ]);
}

export const packageTooLarge = (limit: number): TesseraError => new TesseraError('PAYLOAD_TOO_LARGE', `The package is over the publish limit of ${limit} bytes.`);

export const unpackedTooLarge = (limit: number): TesseraError =>
  new TesseraError('PAYLOAD_TOO_LARGE', `The unpacked package is over the publish limit of ${limit} bytes.`);

/** The client went away mid-upload: nobody reads this answer, but the publish ends with a coded reason, not a fault. */
export const uploadStopped = (): TesseraError =>
  notValid('The upload stopped before the whole package arrived.', ['the connection closed before the end of the upload: send the whole package again']);

/** The client went away while its publish waited for a thread: it never runs, and nothing is stored. */
export const leftWhileWaiting = (): TesseraError =>
  notValid('The connection closed while the publish waited for a publish thread; nothing was stored.', ['send the package again']);

/** A stored token revoked (on this replica or, read from storage, on another). */
export const revokedTokenError = (): TesseraError => new TesseraError('UNAUTHORIZED', 'This publish token was revoked; ask the registry administrator for a new one.');

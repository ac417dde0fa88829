import { TesseraError } from '../errors/errors';

/** What the AWS SDK's errors carry that tells a missing object from a failing store. */
interface SdkError {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

const httpStatusOf = (error: unknown): number | undefined => (error as SdkError)?.$metadata?.httpStatusCode;

/** The store answered that the object (or the whole bucket) is not there. */
export function isMissingObject(error: unknown): boolean {
  const name = (error as SdkError)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || (httpStatusOf(error) === 404 && name !== 'NoSuchBucket');
}

/** A conditional write (`If-None-Match: *`) found the object already there. */
export function isPreconditionFailed(error: unknown): boolean {
  const status = httpStatusOf(error);
  // 409 ConditionalRequestConflict: AWS S3's answer when another conditional write of the key is in flight.
  return status === 412 || (status === 409 && (error as SdkError).name === 'ConditionalRequestConflict');
}

/**
 * A failure of the store itself (stopped, slow, answering 5xx, refusing access) as the one coded
 * error users see: the request fails at once with 503 instead of hanging, and nothing half-done shows.
 */
export function storageUnavailable(error: unknown, timeoutMs: number): TesseraError {
  if (error instanceof TesseraError) return error;
  const status = httpStatusOf(error);
  const name = (error as SdkError)?.name;
  let sentence: string;
  if (name === 'StorageDeadline' || name === 'AbortError' || name === 'TimeoutError') {
    sentence = `The component storage did not answer within ${timeoutMs} ms; retry later.`;
  } else if (status !== undefined) {
    sentence = `The component storage answered with an error (HTTP ${status}); retry later.`;
  } else {
    sentence = 'The component storage could not be reached; retry later.';
  }
  return new TesseraError('STORAGE_UNAVAILABLE', sentence, { cause: error });
}

/** The store answered, but what it holds for a published version is not what was published. */
export const storageCorrupt = (name: string, version: string, what: string, problem: string): TesseraError =>
  new TesseraError('STORAGE_CORRUPT', `The stored ${what} of ${name}@${version} is damaged: ${problem}.`);

/**
 * Runs `operation` with an abort signal that fires after `ms`, and rejects by then whatever the
 * operation does with the signal: a storage call never holds a request longer than its deadline.
 */
export async function withDeadline<T>(ms: number, operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = Object.assign(new Error(`Storage deadline of ${ms} ms passed.`), { name: 'StorageDeadline' });
      controller.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([operation(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reading values that crossed from an isolate (a nested render's call) or came with a request. */

/** A request's headers as HTTP gives them: lowercase names, a repeated header's values in an array. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

export const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The headers a parent passes to its child: string values only, whatever crossed (the prelude refuses others). */
export const stringHeaders = (value: unknown): Record<string, string> =>
  isPlainObject(value) ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {};

/** One header's value, the first of a repeated one. */
export const stringHeader = (value: unknown): string | undefined => (typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined);

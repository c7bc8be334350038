/**
 * Error codes of the judgment path. Every failure carries `retryable` (only TIMEOUT is retryable by default).
 * Messages never contain upstream bodies or credentials.
 */
export type JevErrorCode =
  | 'CONFIG_ERROR'
  | 'INVALID_INPUT'
  | 'INPUT_TOO_LARGE'
  | 'INVALID_RESPONSE'
  | 'TIMEOUT'
  | 'CANCELLED'
  | 'API_ERROR';

/** Wire shape of an error: `{"error": {code, message, retryable}}`. */
export interface JevErrorDetails {
  code: JevErrorCode;
  message: string;
  retryable: boolean;
}

const DEFAULT_RETRYABLE: Record<JevErrorCode, boolean> = {
  CONFIG_ERROR: false,
  INVALID_INPUT: false,
  INPUT_TOO_LARGE: false,
  INVALID_RESPONSE: false,
  TIMEOUT: true,
  CANCELLED: false,
  API_ERROR: false,
};

/** A classified failure of a tool call. Never converted into an approval. */
export class JevError extends Error {
  readonly code: JevErrorCode;
  readonly retryable: boolean;
  /** HTTP status of the final upstream attempt, when there was one. */
  readonly status?: number;

  constructor(code: JevErrorCode, message: string, options: { retryable?: boolean; status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'JevError';
    this.code = code;
    this.retryable = options.retryable ?? DEFAULT_RETRYABLE[code];
    this.status = options.status;
  }

  toJSON(): JevErrorDetails {
    return { code: this.code, message: this.message, retryable: this.retryable };
  }
}

/** `text` as a JSON string literal, cut to 80 characters: how messages name a question, option or key. */
export const quoted = (text: string): string => JSON.stringify(text.length > 80 ? text.slice(0, 80) + '…' : text);

/**
 * The same failure (code, retryable, status, cause) with its message prefixed by the question it belongs
 * to: `Question "<id>": <message>`. For providers that answer question by question.
 */
export function aboutQuestion(id: string, err: JevError): JevError {
  return new JevError(err.code, `Question ${quoted(id)}: ${err.message}`, { retryable: err.retryable, status: err.status, cause: err.cause });
}

/** Convenience constructors. */
export const invalidInput = (message: string) => new JevError('INVALID_INPUT', message);
export const inputTooLarge = (message: string) => new JevError('INPUT_TOO_LARGE', message);
export const invalidResponse = (message: string) => new JevError('INVALID_RESPONSE', message);
export const configError = (message: string) => new JevError('CONFIG_ERROR', message);
/** The call's AbortSignal fired (the caller or the host stopped it); not retryable. */
export const cancelled = (message = 'The request was cancelled.') => new JevError('CANCELLED', message);

/**
 * Maps any thrown value to a JevError. Unknown errors become API_ERROR with a generic message so that
 * no foreign text (which may hold upstream content) is echoed.
 */
export function toJevError(err: unknown): JevError {
  if (err instanceof JevError) return err;
  if (err instanceof SyntaxError) return invalidResponse('The provider response was not valid JSON.');
  if (isAbortError(err)) return cancelled();
  return new JevError('API_ERROR', 'Unexpected failure while judging.', { cause: err });
}

/** True for DOMException/Error named AbortError (fetch, AbortSignal). */
export function isAbortError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}

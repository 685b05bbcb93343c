// Error envelope: DomainError -> its status and {success:false, error}; anything else is a logged 500.
import { DomainError } from '../domain/errors.js';

/** An HTTP-level failure raised outside the domain (validation, parsing, unknown route). */
export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'HttpError';
  }
}

/** The wire answer of an error. */
export interface ErrorResponse { status: number; body: { success: false; error: string; [k: string]: unknown } }

/** Maps any thrown value to the envelope; `onBug` sees the 500s (they are always bugs). */
export function toErrorResponse(err: unknown, onBug?: (err: unknown) => void): ErrorResponse {
  if (err instanceof DomainError) return { status: err.status, body: { success: false, error: err.message, ...err.details } };
  if (err instanceof HttpError) return { status: err.status, body: { success: false, error: err.message } };
  onBug?.(err);
  return { status: 500, body: { success: false, error: 'Internal Server Error' } };
}

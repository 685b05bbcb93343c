// CompsimError: what the client's convenience calls throw for an answer outside 2xx (status, the server's message, details).

/** The parts of an error answer the client reads. */
interface ErrorAnswer { response: Response; error?: unknown; request: string }

/**
 * A non-2xx answer to one of the client's convenience calls. `message` is the server's own text
 * (the `error` of its `{ success: false, error }` envelope) whenever it sent one.
 */
export class CompsimError extends Error {
  override readonly name = 'CompsimError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** The envelope's `details` when it has them (a refused trade names the rule, the inputs and the limit), else undefined. */
  readonly details: unknown;
  /** The error body as answered: the envelope, or the text of a body that is not JSON. */
  readonly body: unknown;
  /** The request as `METHOD /path`. */
  readonly request: string;
  /** The raw response (headers such as `Retry-After`). */
  readonly response: Response;

  constructor(answer: ErrorAnswer) {
    const { response, error } = answer;
    const envelope = typeof error === 'object' && error !== null ? (error as { error?: unknown; details?: unknown }) : undefined;
    const text = typeof envelope?.error === 'string' ? envelope.error : `${response.status} ${response.statusText || 'error'}${typeof error === 'string' && error !== '' ? `: ${error.slice(0, 200)}` : ''}`;
    super(text);
    this.status = response.status;
    this.details = envelope?.details;
    this.body = error;
    this.request = answer.request;
    this.response = response;
  }
}

/** The body of a 2xx answer; a {@link CompsimError} for any other status. */
export async function okBody<D>(request: string, call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (response.ok) return data as D;
  throw new CompsimError({ response, error, request });
}

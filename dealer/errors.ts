/** A refusal the client can act on: HTTP status, a stable code, and the request field at fault. */
export class DealerError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly field: string | undefined;
  /** Seconds, sent as `Retry-After` (429s): when trying again can succeed. */
  readonly retryAfter: number | undefined;
  constructor(statusCode: number, code: string, message: string, field?: string, retryAfter?: number) {
    super(message);
    this.name = 'DealerError';
    this.statusCode = statusCode;
    this.code = code;
    this.field = field;
    this.retryAfter = retryAfter;
  }
}

/** The one error body shape of the API. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  field?: string;
}

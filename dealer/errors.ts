/** A refusal the client can act on: HTTP status, a stable code, and the request field at fault. */
export class DealerError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly field: string | undefined;
  constructor(statusCode: number, code: string, message: string, field?: string) {
    super(message);
    this.name = 'DealerError';
    this.statusCode = statusCode;
    this.code = code;
    this.field = field;
  }
}

/** The one error body shape of the API. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  field?: string;
}

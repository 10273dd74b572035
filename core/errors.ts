/** Bad input at a boundary of the protocol core. `field` names the offending input, dotted. */
export class InputError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = 'InputError';
    this.field = field;
  }
}

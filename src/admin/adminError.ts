/** A mistake in the command line or its data: printed on stderr without a stack trace. */
export class AdminError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

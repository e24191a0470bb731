/** A wrong command line or configuration: printed without a stack trace, exit 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** A wrong command line or configuration: printed without a stack trace, exit 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** The target cannot be reached or cleanly refuses the credentials: exit 3. */
export class UnreachableError extends Error {
  readonly exitCode = 3;
}

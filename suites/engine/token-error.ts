import type { Exchange } from './http-client.ts';

/** The token endpoint answered, but not with a usable token. */
export class TokenError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly exchange: Exchange | undefined,
  ) {
    super(message);
    this.name = 'TokenError';
  }
}

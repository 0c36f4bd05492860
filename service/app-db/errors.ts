/** A refusal with a message fit for the user, and the HTTP status it maps to (the admin CLI exits 1 on any). */
export class AppDataError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 403 | 404 | 409 = 400,
  ) {
    super(message);
    this.name = 'AppDataError';
  }
}

/** The app database's server cannot be reached (down, restarting, the connection lost): the same call may work later. */
export class AppDbUnreachableError extends Error {
  constructor(cause: unknown) {
    super(`The app database is unreachable (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    this.name = 'AppDbUnreachableError';
  }
}

/** Socket errors, and the server's connection-exception (08…) and shutdown (57P01–57P03) SQLSTATEs. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);
/** What node-postgres says when a connection ends or cannot be made in time. */
const CONNECTION_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** Whether a database client's error means the server could not be reached, rather than that a statement failed. */
export function isConnectionError(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || SHUTDOWN_STATES.has(code) || /^08/.test(code)))
      return true;
    if (CONNECTION_MESSAGE.test(e.message)) return true;
  }
  return false;
}

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

/** An email as the service writes it, whoever sends it (the mailer) and whoever composes it (approvals, accounts). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Names the .eml file in the outbox. */
  fileStem: string;
}

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

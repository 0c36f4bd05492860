/**
 * Outgoing mail: SMTP when SMTP_HOST is set, otherwise .eml files under DATA_DIR/outbox so nothing is lost
 * (send them later, or read them in any mail client).
 */
import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { MailMessage } from '../mail-message.ts';

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  isSecure: boolean;
  user?: string;
  pass?: string;
}

export interface MailSettings {
  from: string;
  smtp?: SmtpSettings;
  outboxDir: string;
  /** The dashboard's address as clients reach it, without a trailing slash. */
  publicUrl: string;
}

export function readMailSettings(env: NodeJS.ProcessEnv, dataDir: string, port: number): MailSettings {
  const smtpPort = Number(env.SMTP_PORT ?? 587);
  if (!Number.isInteger(smtpPort) || smtpPort <= 0 || smtpPort > 65535)
    throw new Error(`SMTP_PORT must be a port number, got ${env.SMTP_PORT}`);
  const host = env.SMTP_HOST?.trim();
  return {
    from: env.SMTP_FROM?.trim() || 'Technical Health Check <no-reply@localhost>',
    smtp: host
      ? {
          host,
          port: smtpPort,
          isSecure: env.SMTP_SECURE === '1' || smtpPort === 465,
          user: env.SMTP_USER || undefined,
          pass: env.SMTP_PASS || undefined,
        }
      : undefined,
    outboxDir: path.join(dataDir, 'outbox'),
    publicUrl: (env.PUBLIC_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, ''),
  };
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createMailer(settings: MailSettings): Mailer {
  if (settings.smtp) {
    const { host, port, isSecure, user, pass } = settings.smtp;
    const transport = nodemailer.createTransport({
      host,
      port,
      secure: isSecure,
      auth: user ? { user, pass } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return {
      async send({ to, subject, text, html }) {
        await transport.sendMail({ from: settings.from, to, subject, text, html });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send({ to, subject, text, html, fileStem }) {
      const info = await transport.sendMail({ from: settings.from, to, subject, text, html });
      if (!Buffer.isBuffer(info.message)) throw new Error('The outbox transport did not buffer the message');
      fs.mkdirSync(settings.outboxDir, { recursive: true });
      const file = path.join(settings.outboxDir, `${fileStem.replace(/[^A-Za-z0-9._-]+/g, '_')}.eml`);
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, info.message);
      fs.renameSync(tmp, file);
    },
    close: () => transport.close(),
  };
}

import { mkdir, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import nodemailer from "nodemailer";
import type { AppConfig } from "../config/config.ts";

/** One e-mail, as the outbox hands it to the mailer. */
export interface MailMessage {
  /** The outbox row's id: the Message-ID and the .eml file name derive from it, so a retry is the same message. */
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** When it was written (the Date header). */
  date: Date;
  /** Where replies go (Reply-To), when not to `from`. */
  replyTo?: string | null;
}

/** The project's one mailer (docs/product.md §14.6): SMTP when SMTP_URL is set, otherwise .eml files. */
export interface Mailer {
  readonly kind: "smtp" | "folder";
  /** Where mails go, for start-up lines and the health page: never the SMTP password. */
  readonly destination: string;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

const SMTP_TIMEOUT_MS = 10_000;

function mailOptions(message: MailMessage) {
  return {
    from: message.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    date: message.date,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    messageId: `<${message.id}@hki-global-admin>`,
  };
}

/** Delivers over SMTP with nodemailer (SMTP_URL: smtp://user:password@host:port, or smtps:// for TLS from the start). */
export class SmtpMailer implements Mailer {
  readonly kind = "smtp";
  readonly destination: string;
  private readonly transport: ReturnType<typeof nodemailer.createTransport>;

  /** `connections`: keep that many SMTP connections open and reuse them (bulk sending); otherwise one per mail. */
  constructor(smtpUrl: string, options: { connections?: number } = {}) {
    const url = new URL(smtpUrl);
    this.destination = `${url.protocol}//${url.host}`;
    // One options object with the URL in it: nodemailer reads a second argument as defaults of
    // every message, not as transport options (the timeouts given there were never applied).
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
      ...(options.connections ? { pool: true, maxConnections: options.connections, maxMessages: Infinity } : {}),
    } as Parameters<typeof nodemailer.createTransport>[0]);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail(mailOptions(message));
  }

  close(): void {
    this.transport.close();
  }
}

/**
 * Writes each mail as an .eml file (open it with any mail program) into a folder: the default
 * when no SMTP server is configured, so a new install shows what it would send. The file is written
 * under a temporary name and renamed, and its name comes from the message, so a retry replaces it.
 */
export class FolderMailer implements Mailer {
  readonly kind = "folder";
  readonly destination: string;
  private readonly composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });

  constructor(folder: string) {
    this.destination = resolve(folder);
  }

  /** The file a message is written to. */
  fileFor(message: Pick<MailMessage, "id" | "date">): string {
    const stamp = message.date.toISOString().replace(/[:.]/g, "-");
    return join(this.destination, `${stamp}-${message.id}.eml`);
  }

  async send(message: MailMessage): Promise<void> {
    const info = (await this.composer.sendMail(mailOptions(message))) as { message: Buffer };
    await mkdir(this.destination, { recursive: true });
    const file = this.fileFor(message);
    const partial = `${file}.partial`;
    await writeFile(partial, info.message);
    await rename(partial, file);
  }

  close(): void {
    this.composer.close();
  }
}

export function createMailer(config: Pick<AppConfig, "smtpUrl" | "mailDir">, options: { connections?: number } = {}): Mailer {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, options) : new FolderMailer(config.mailDir);
}

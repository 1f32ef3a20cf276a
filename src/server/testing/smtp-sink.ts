import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** What the sink answers one recipient: accept (null), or refuse with an SMTP code and text. */
export type SinkAnswer = { code: number; message: string } | null;

export interface SmtpSink {
  port: number;
  url: string;
  /** Every message accepted, in order: its Message-ID and recipients (and the parsed mail when `parse`). */
  received: Array<{ messageId: string; to: string[]; mail?: ParsedMail }>;
  /** Accepted messages per Message-ID (a repeat shows as a count above 1). */
  countsByMessageId(): Map<string, number>;
  /** Decides each recipient's answer (RCPT TO); default: accept everyone. */
  answer: (address: string) => SinkAnswer;
  /** Called after each accepted message (tests act mid-send). */
  onAccepted: (message: { messageId: string; to: string[] }) => void | Promise<void>;
  close(): Promise<void>;
}

const MESSAGE_ID = /^message-id:\s*(<[^>\r\n]+>)/im;

/**
 * A real SMTP server on 127.0.0.1 (smtp-server) for tests, the fault suite and the benchmark: it
 * keeps what it accepts (the Message-ID read from the headers; with `parse`, the whole mail through
 * mailparser) and can refuse chosen recipients with any code (4xx temporary, 5xx permanent).
 */
export function startSmtpSink(options: { parse?: boolean; port?: number } = {}): Promise<SmtpSink> {
  const sink: Omit<SmtpSink, "port" | "url" | "close"> = {
    received: [],
    countsByMessageId() {
      const counts = new Map<string, number>();
      for (const m of sink.received) counts.set(m.messageId, (counts.get(m.messageId) ?? 0) + 1);
      return counts;
    },
    answer: () => null,
    onAccepted: () => undefined,
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // Bulk senders keep connections open and send many messages over each.
    maxClients: 1000,
    onRcptTo(address, _session, callback) {
      const refusal = sink.answer(address.address);
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        const head = raw.subarray(0, Math.min(raw.length, 8192)).toString("utf8");
        const messageId = MESSAGE_ID.exec(head)?.[1] ?? "";
        const to = session.envelope.rcptTo.map((r) => r.address);
        const finish = (mail?: ParsedMail) => {
          const entry = { messageId, to, ...(mail ? { mail } : {}) };
          sink.received.push(entry);
          Promise.resolve(sink.onAccepted({ messageId, to }))
            .catch(() => undefined)
            .finally(() => callback());
        };
        if (options.parse) simpleParser(raw).then(finish, (err: Error) => callback(err));
        else finish();
      });
    },
  });
  // A client that dies mid-conversation (a server killed by the fault rounds) resets its connection: not the sink's failure.
  server.on("error", () => undefined);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      const address = server.server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve(Object.assign(sink, { port, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) }) as SmtpSink);
    });
  });
}

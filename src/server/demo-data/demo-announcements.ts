import { renderAnnouncement } from "../features/communications/announcement-render.ts";
import type { Executor } from "../platform/db/executor.ts";
import type { Insertable } from "kysely";
import type { AnnouncementsTable, Vendor } from "../platform/db/schema.ts";

const DAY_MS = 86_400_000;
/** What the demo's one refused mail got back from the mail server. */
export const DEMO_REFUSED_MAIL = "550 5.1.1 <mailbox@unknown> Recipient address rejected: user unknown";

interface DemoAnnouncement {
  id: string;
  title: string;
  message: string;
  audience: "all" | "active";
  dashboard: boolean;
  daysAgo: number;
  showUntilDays?: number;
  /** The one recipient whose mail was refused for good. */
  failOne?: boolean;
}

const DEMO_ANNOUNCEMENTS: readonly DemoAnnouncement[] = [
  {
    id: "0190d000-0000-7000-8000-00000000ac01",
    title: "Welcome to the winter season",
    message: "Hello from the HKI Global team!\n\nThe **winter collection** page opens next week: send us your best pieces.\nQuestions? See [the artist guide](https://hki.global/artists/guide).",
    audience: "active",
    dashboard: false,
    daysAgo: 12,
  },
  {
    id: "0190d000-0000-7000-8000-00000000ac02",
    title: "New payout schedule",
    message: "From next month payouts run on the **1st and the 15th**.\n\nMake sure your payout account is connected: https://hki.global/artists/payouts",
    audience: "all",
    dashboard: false,
    daysAgo: 4,
    failOne: true,
  },
  {
    id: "0190d000-0000-7000-8000-00000000ac03",
    title: "Holiday shipping deadlines",
    message: "Orders placed after **December 18** may arrive after the holidays.\n\nPlease say so on your product pages.",
    audience: "active",
    dashboard: true,
    daysAgo: 1,
    showUntilDays: 21,
  },
];

/**
 * The demo's announcements (docs/product.md §17): one sent to the active artists, one to all with
 * a recipient whose mail was refused (ready for "Retry Failed"), and one shown on the dashboard now
 * as well as mailed. Written as the sender leaves them: each recipient sent (or failed) and the
 * announcement's counts to match.
 */
export async function seedDemoAnnouncements(trx: Executor, options: { vendors: Vendor[]; now: Date; adminEmail: string; supportEmail: string }): Promise<number> {
  const t = options.now.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  for (const a of DEMO_ANNOUNCEMENTS) {
    const audience = options.vendors.filter((v) => v.is_internal === 0 && (a.audience === "all" || v.is_active === 1)).sort((x, y) => (x.id < y.id ? -1 : 1));
    const at = t - a.daysAgo * DAY_MS;
    const sentAt = iso(at + 60_000);
    const failedId = a.failOne ? audience.find((v) => v.is_active === 0)?.id : undefined;
    const { html, text } = renderAnnouncement({ title: a.title, message: a.message, replyTo: options.supportEmail });
    const row: Insertable<AnnouncementsTable> = {
      id: a.id,
      title: a.title,
      message: a.message,
      html_body: html,
      text_body: text,
      audience: a.audience,
      include_internal: 0,
      vendor_ids: null,
      send_email: 1,
      show_on_dashboard: a.dashboard ? 1 : 0,
      show_until: a.showUntilDays ? iso(t + a.showUntilDays * DAY_MS) : null,
      taken_down_at: null,
      status: "sent",
      queue_cursor: audience.at(-1)?.id ?? null,
      recipients: audience.length,
      pending_count: 0,
      sent_count: audience.length - (failedId ? 1 : 0),
      failed_count: failedId ? 1 : 0,
      canceled_count: 0,
      created_by: options.adminEmail,
      created_at: iso(at),
      updated_at: sentAt,
      finished_at: sentAt,
    };
    await trx.insertInto("announcements").values(row).execute();
    const recipients = audience.map((v) => ({
      announcement_id: a.id,
      vendor_id: v.id,
      vendor_name: v.name,
      email: v.email,
      status: v.id === failedId ? ("failed" as const) : ("sent" as const),
      attempts: 1,
      next_attempt_at: iso(at),
      last_error: v.id === failedId ? DEMO_REFUSED_MAIL : null,
      sent_at: v.id === failedId ? null : sentAt,
    }));
    for (let i = 0; i < recipients.length; i += 200)
      await trx
        .insertInto("announcement_recipients")
        .values(recipients.slice(i, i + 200))
        .execute();
  }
  return DEMO_ANNOUNCEMENTS.length;
}

import { z } from "zod";
import { LISTING_REVIEW_MODES, MAX_REASON_TEMPLATES, reasonTemplatesOf, SETTING_KEY_LIST, type SettingKeyName } from "../../../contract/settings.ts";
import { MAX_DECISION_REASON_LENGTH } from "../../../contract/common.ts";
import { HttpError } from "../../platform/http/http-error.ts";
import { type SettingKey, isSettingKey } from "../../domain/settings/settings-catalog.ts";

// The catalog (server) and the contract (shared with the web) must name the same eight keys.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const keysAgree: Same<SettingKey, SettingKeyName> = true;
void keysAgree;

/** Longest announcement accepted: a banner line, not an article. */
export const MAX_ANNOUNCEMENT_LENGTH = 500;
/** Money settings are dollars below a million with at most two decimals. */
const MONEY = /^\d{1,6}(\.\d{1,2})?$/;

const emailSchema = z.email();

type Rule = (value: string) => string | null;

/** Reason templates: one per line, at most MAX_REASON_TEMPLATES, each a reason a decision accepts. */
function reasonTemplatesRule(value: string): string | null {
  const templates = reasonTemplatesOf(value);
  if (templates.length > MAX_REASON_TEMPLATES) return `must hold at most ${MAX_REASON_TEMPLATES} templates (one per line)`;
  const long = templates.findIndex((t) => t.length > MAX_DECISION_REASON_LENGTH);
  if (long >= 0) return `template ${long + 1} must be at most ${MAX_DECISION_REASON_LENGTH} characters`;
  if (value.includes("\u0000")) return "must not contain NUL characters";
  return null;
}

/**
 * One rule per key (issue 6). A rule returns the message of what is wrong, or null. Values are
 * checked after trimming surrounding spaces, and the trimmed form is what gets stored.
 */
const RULES: Record<SettingKey, Rule> = {
  monthly_subscription_fee: (v) => (MONEY.test(v) ? null : "must be a non-negative amount in dollars with at most 2 decimals"),
  shipping_handling_fee: (v) => (MONEY.test(v) ? null : "must be a non-negative amount in dollars with at most 2 decimals"),
  minimum_payout_amount: (v) => (MONEY.test(v) ? null : "must be a non-negative amount in dollars with at most 2 decimals"),
  platform_fee_percentage: (v) => (/^\d{1,3}(\.\d)?$/.test(v) && Number(v) <= 100 ? null : "must be a percentage between 0 and 100 with at most 1 decimal"),
  max_products_per_vendor: (v) => (/^[1-9]\d{0,5}$/.test(v) ? null : "must be a positive whole number (at most 999999)"),
  dispute_fee_paid_by: (v) => (v === "platform" || v === "artist" ? null : "must be 'platform' or 'artist'"),
  maintenance_mode: (v) => (v === "true" || v === "false" ? null : "must be 'true' or 'false'"),
  require_two_step_sign_in: (v) => (v === "true" || v === "false" ? null : "must be 'true' or 'false'"),
  support_email: (v) => (v.length <= 254 && emailSchema.safeParse(v).success ? null : "must be a valid e-mail address"),
  invite_code_prefix: (v) => (/^[A-Z][A-Z0-9]{1,9}$/.test(v) ? null : "must be 2 to 10 upper-case letters or digits, starting with a letter"),
  announcement_message: (v) => (v.length <= MAX_ANNOUNCEMENT_LENGTH ? null : `must be at most ${MAX_ANNOUNCEMENT_LENGTH} characters`),
  artist_approval: (v) => (v === "true" || v === "false" ? null : "must be 'true' or 'false'"),
  artist_reason_templates: reasonTemplatesRule,
  listing_reason_templates: reasonTemplatesRule,
  listing_review: (v) => ((LISTING_REVIEW_MODES as readonly string[]).includes(v) ? null : `must be one of ${LISTING_REVIEW_MODES.join(", ")}`),
  listing_review_first_count: (v) => (/^[1-9]\d{0,2}$/.test(v) ? null : "must be a whole number from 1 to 999"),
};

/** Checks one value; returns the normalised value to store or the reason it is refused. */
export function checkSettingValue(key: SettingKey, raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const value = raw.trim();
  const problem = RULES[key](value);
  return problem === null ? { ok: true, value } : { ok: false, message: problem };
}

/**
 * Validates a whole PUT body before anything is written: the first unknown key or bad value is a
 * 400 naming the key, so a request is applied entirely or not at all.
 */
export function validateSettingChanges(changes: Record<string, string>): Map<SettingKey, string> {
  const valid = new Map<SettingKey, string>();
  const fields: Record<string, string> = {};
  for (const [key, raw] of Object.entries(changes)) {
    if (!isSettingKey(key)) {
      fields[key] = `unknown setting (known: ${SETTING_KEY_LIST.join(", ")})`;
      continue;
    }
    const checked = checkSettingValue(key, raw);
    if (checked.ok) valid.set(key, checked.value);
    else fields[key] = checked.message;
  }
  // Every bad key is named in `fields` (the screen marks each); the message names the first.
  const [first] = Object.entries(fields);
  if (first) throw new HttpError(400, "invalid_setting", `${first[0]}: ${first[1]}`, {}, fields);
  return valid;
}

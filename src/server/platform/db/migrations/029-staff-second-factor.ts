import type { Kysely } from "kysely";

/**
 * What a session knows of its second factor (docs/product.md "Two-step sign-in", "Step-up"):
 * - `sessions.second_factor_at`: when this session last passed a second-factor check (the code of
 *   its sign-in's second step, an enrolment's first code, or a step-up check); a dangerous action
 *   needs one in the last 10 minutes;
 * - `sessions.enrolment_due`: 1 when the session was opened while 'Require two-step sign-in for all
 *   staff' was on and its user had no second factor: the panel's staff routes refuse it until the
 *   user enrols (which clears it on every session of theirs).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("second_factor_at", "text").execute();
  await db.schema
    .alterTable("sessions")
    .addColumn("enrolment_due", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

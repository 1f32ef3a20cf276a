import type { Executor } from "../db/executor.ts";
import { countUserPasskeys } from "./passkeys.queries.ts";
import { hasConfirmedTwoStep, twoStepRequired } from "./two-step.queries.ts";

/** The second factors a built-in account has (docs/product.md "Two-step sign-in"). */
export interface SecondFactors {
  /** An authenticator app, enrolment confirmed. */
  totp: boolean;
  /** Registered passkeys. */
  passkeys: number;
}

export type SecondFactorKind = "totp" | "passkey";

export async function secondFactorsOf(db: Executor, userId: string): Promise<SecondFactors> {
  const [totp, passkeys] = await Promise.all([hasConfirmedTwoStep(db, userId), countUserPasskeys(db, userId)]);
  return { totp, passkeys };
}

/** What the second step of a password sign-in may be answered with, in the order the screen offers them. */
export function secondStepKinds(factors: SecondFactors): SecondFactorKind[] {
  return [...(factors.passkeys > 0 ? (["passkey"] as const) : []), ...(factors.totp ? (["totp"] as const) : [])];
}

/** A password alone does not sign this account in: it has an authenticator app or a passkey. */
export async function hasSecondFactor(db: Executor, userId: string): Promise<boolean> {
  return secondStepKinds(await secondFactorsOf(db, userId)).length > 0;
}

/** Whether a session opened now for `userId` must enrol first: two-step sign-in is required and the user has no second factor. */
export async function enrolmentDueFor(db: Executor, userId: string): Promise<boolean> {
  return (await twoStepRequired(db)) && !(await hasSecondFactor(db, userId));
}

/**
 * The rule "the last factor cannot be removed while two-step sign-in is required": whether the
 * user may remove one factor of `kind` (one passkey, or the authenticator app) given what they
 * have and whether two-step sign-in is required of them ('Require two-step sign-in for all staff').
 * Removing is always allowed when it is not required, or when another factor stays.
 *
 * Called before a passkey is removed (features/auth/passkeys.service.ts, which is given whether
 * two-step sign-in is required); turning the authenticator app off and the require setting call it
 * the same way.
 */
export function canRemoveLastFactor(factors: SecondFactors, kind: SecondFactorKind, twoStepRequired: boolean): boolean {
  if (!twoStepRequired) return true;
  const left = kind === "passkey" ? { ...factors, passkeys: Math.max(0, factors.passkeys - 1) } : { ...factors, totp: false };
  return left.totp || left.passkeys > 0;
}

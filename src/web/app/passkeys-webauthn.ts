import type { PasskeyAuthenticationResponse, PasskeyCreationOptions, PasskeyRegistrationResponse, PasskeyRequestOptions } from "@contract/auth";
import { apiErrorMessage, errorStatus } from "@web/lib/api-client";

/**
 * The browser's side of passkeys (WebAuthn, through @simplewebauthn/browser, loaded only when a
 * passkey is used): the prompt to create or use one, the answer cut to what the API accepts (its
 * bodies refuse unknown keys), and what went wrong in words.
 */

/** The browser cannot use passkeys at all (no WebAuthn, or a page that is not a secure context). */
export class PasskeysNotSupported extends Error {}

const loadBrowserLibrary = () => import("@simplewebauthn/browser");

async function library() {
  const webauthn = await loadBrowserLibrary();
  if (!webauthn.browserSupportsWebAuthn()) throw new PasskeysNotSupported("passkeys are not supported here");
  return webauthn;
}

/** Only the extension output the API reads. */
function extensionResults(results: { credProps?: { rk?: boolean } } | undefined): PasskeyRegistrationResponse["clientExtensionResults"] {
  return results?.credProps?.rk !== undefined ? { credProps: { rk: results.credProps.rk } } : {};
}

/** navigator.credentials.create with the server's options: the new passkey's registration answer. */
export async function createPasskey(options: PasskeyCreationOptions): Promise<PasskeyRegistrationResponse> {
  const { startRegistration } = await library();
  const answer = await startRegistration({ optionsJSON: options as Parameters<typeof startRegistration>[0]["optionsJSON"] });
  return {
    id: answer.id,
    rawId: answer.rawId,
    type: "public-key",
    response: {
      clientDataJSON: answer.response.clientDataJSON,
      attestationObject: answer.response.attestationObject,
      ...(answer.response.transports ? { transports: answer.response.transports } : {}),
    },
    ...(answer.authenticatorAttachment ? { authenticatorAttachment: answer.authenticatorAttachment } : {}),
    clientExtensionResults: extensionResults(answer.clientExtensionResults as { credProps?: { rk?: boolean } }),
  };
}

/** navigator.credentials.get with the server's options: an assertion of the passkey the person chose. */
export async function getPasskeyAssertion(options: PasskeyRequestOptions): Promise<PasskeyAuthenticationResponse> {
  const { startAuthentication } = await library();
  const answer = await startAuthentication({ optionsJSON: options as Parameters<typeof startAuthentication>[0]["optionsJSON"] });
  return {
    id: answer.id,
    rawId: answer.rawId,
    type: "public-key",
    response: {
      clientDataJSON: answer.response.clientDataJSON,
      authenticatorData: answer.response.authenticatorData,
      signature: answer.response.signature,
      ...(answer.response.userHandle ? { userHandle: answer.response.userHandle } : {}),
    },
    ...(answer.authenticatorAttachment ? { authenticatorAttachment: answer.authenticatorAttachment } : {}),
    clientExtensionResults: {},
  };
}

/** The browser's own refusal (not the API's): cancelled, not supported, already there. */
function browserProblem(error: unknown): string | null {
  if (error instanceof PasskeysNotSupported) return "This browser cannot use passkeys. Use another browser, or your e-mail and password.";
  if (!(error instanceof Error) || errorStatus(error) !== undefined) return null;
  const code = (error as Error & { code?: string }).code;
  const cause = (error as Error & { cause?: unknown }).cause;
  const name = cause instanceof Error ? cause.name : error.name;
  if (code === "ERROR_CEREMONY_ABORTED" || name === "NotAllowedError" || name === "AbortError")
    return "The passkey prompt was cancelled or timed out. Nothing was changed: try again when you are ready.";
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return "This device or key holds a passkey for your account already.";
  if (code === "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT" || code === "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT")
    return "This device or key cannot hold a passkey that signs in on its own (it needs a PIN or biometric). Try another one.";
  if (code === "ERROR_INVALID_DOMAIN" || code === "ERROR_INVALID_RP_ID") return "Passkeys do not work at this address. Open the panel at its usual address (https).";
  return `The passkey could not be used: ${error.message}`;
}

/** What went wrong adding a passkey, in words. */
export function addPasskeyProblem(error: unknown): string {
  return browserProblem(error) ?? apiErrorMessage(error);
}

/** What went wrong signing in with a passkey, in words. */
export function passkeySignInProblem(error: unknown): string {
  const fromBrowser = browserProblem(error);
  if (fromBrowser) return fromBrowser;
  const status = errorStatus(error);
  if (status === 401) return "That passkey could not sign you in. Use a passkey you added to this panel, or your e-mail and password.";
  if (status === 429) return "Too many sign-in attempts. Please wait a few minutes and try again.";
  if (status === 400) return "Sign in with your e-mail and password.";
  return "Sign-in failed. Please try again.";
}

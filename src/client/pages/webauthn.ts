import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  AuthenticationResponseJSON,
} from '@simplewebauthn/browser';
import { ApiError } from '../app/api';

/**
 * The browser's side of a security key (WebAuthn), through @simplewebauthn/browser, loaded
 * only when a member uses a key. Errors come out as ApiError-like objects with a translation
 * key, so errorText shows them in the member's language.
 */
async function lib() {
  return import('@simplewebauthn/browser');
}

/** An error to show: the key of what went wrong in the browser (cancelled, unsupported, already registered). */
function browserError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { name?: string; code?: string } | null;
  const key =
    e?.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || e?.name === 'InvalidStateError'
      ? 'error:two-factor-authn-key-exists'
      : e?.name === 'NotAllowedError' || e?.name === 'AbortError' || e?.code === 'ERROR_CEREMONY_ABORTED'
        ? 'error:two-factor-authn-cancelled'
        : 'error:two-factor-authn-failed';
  return new ApiError(`[[${key}]]`, 0, undefined, key);
}

async function supported(): Promise<typeof import('@simplewebauthn/browser')> {
  const w = await lib();
  if (!w.browserSupportsWebAuthn()) throw new ApiError('[[error:two-factor-authn-unsupported]]', 0, undefined, 'error:two-factor-authn-unsupported');
  return w;
}

/** Asks the browser to make a new credential for these options (adding a key). */
export async function createCredential(optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON> {
  const w = await supported();
  try {
    return await w.startRegistration({ optionsJSON });
  } catch (err) {
    throw browserError(err);
  }
}

/** Asks the browser to prove one of the allowed credentials (login, re-authentication). */
export async function getAssertion(optionsJSON: PublicKeyCredentialRequestOptionsJSON): Promise<AuthenticationResponseJSON> {
  const w = await supported();
  try {
    return await w.startAuthentication({ optionsJSON });
  } catch (err) {
    throw browserError(err);
  }
}

// What keeps this device's player: the devices signed in, a recovery code, one-time links and
// passkeys (the server's /api/players/me/identity and its sign-ins). Loaded when a player page
// or a sign-in needs it.

import { request, storedPlayer, storePlayer } from './request.js';

const token = () => storedPlayer()?.token;

/** base64url (the server's way of writing bytes in JSON) to bytes, and back. */
export function fromB64(text) {
  const plain = text.replace(/-/g, '+').replace(/_/g, '/');
  const padded = plain + '='.repeat((4 - (plain.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)).buffer;
}

function toB64(buffer) {
  if (!buffer) return undefined;
  let text = '';
  for (const b of new Uint8Array(buffer)) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Whether this browser can make and use passkeys at all. */
export function passkeysHere() {
  return typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;
}

/** A sign-in's answer ({id, token, name}) kept as this device's player. */
function keep(made) {
  storePlayer({ id: made.id, token: made.token, name: made.name });
  if (made.name) localStorage.setItem('tracklayer:name', made.name);
  return made;
}

/** What the browser said, in the player's words, when a passkey was not made or not given. */
function passkeyWords(e) {
  if (e && e.name === 'NotAllowedError') return 'No passkey was given: the request was closed or timed out.';
  if (e && e.name === 'InvalidStateError') return 'This device already holds a passkey of yours.';
  if (e && e.name === 'SecurityError') return 'Passkeys need the site at its own secure address (https).';
  return e && e.message ? e.message : String(e);
}

/** What the browser said when a passkey was not made or not given, in the player's words. */
export class PasskeyError extends Error {
  get whole() { return true; }
}

export const identity = {
  show() {
    return request('GET', '/api/players/me/identity', { token: token() });
  },
  signOut(device) {
    return request('DELETE', `/api/players/me/devices/${encodeURIComponent(device)}`, { token: token() });
  },
  /** A new recovery code ({code, created}), shown this once. */
  recoveryCode() {
    return request('POST', '/api/players/me/recovery', { token: token() });
  },
  /** A one-time link ({url, expires, qr}) that signs another device in. */
  link() {
    return request('POST', '/api/players/me/link', { token: token() });
  },
  async recover(code) {
    return keep(await request('POST', '/api/players/recover', { body: { code } }));
  },
  async followLink(code) {
    return keep(await request('POST', '/api/players/link', { body: { code } }));
  },
  removePasskey(id) {
    return request('DELETE', `/api/players/me/passkeys/${encodeURIComponent(id)}`, { token: token() });
  },
  /** Makes a passkey on this device for the player, named `name` (or after the device). */
  async addPasskey(name) {
    const started = await request('POST', '/api/players/me/passkeys', { token: token() });
    const o = started.options.publicKey;
    const publicKey = {
      ...o,
      challenge: fromB64(o.challenge),
      user: { ...o.user, id: fromB64(o.user.id) },
      excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
    };
    let made;
    try {
      made = await navigator.credentials.create({ publicKey });
    } catch (e) {
      throw new PasskeyError(passkeyWords(e));
    }
    const credential = {
      id: made.id,
      rawId: toB64(made.rawId),
      type: made.type,
      response: {
        attestationObject: toB64(made.response.attestationObject),
        clientDataJSON: toB64(made.response.clientDataJSON),
        transports: made.response.getTransports ? made.response.getTransports() : undefined,
      },
      extensions: made.getClientExtensionResults(),
    };
    return request('POST', '/api/players/me/passkeys/finish', {
      token: token(),
      body: { ceremony: started.ceremony, credential, name: name || undefined },
    });
  },
  /** Signs this device in with a passkey the player picks; keeps and returns the identity. */
  async signInWithPasskey() {
    const started = await request('POST', '/api/players/passkey', {});
    const o = started.options.publicKey;
    const publicKey = {
      ...o,
      challenge: fromB64(o.challenge),
      allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
    };
    let got;
    try {
      got = await navigator.credentials.get({ publicKey });
    } catch (e) {
      throw new PasskeyError(passkeyWords(e));
    }
    const credential = {
      id: got.id,
      rawId: toB64(got.rawId),
      type: got.type,
      response: {
        authenticatorData: toB64(got.response.authenticatorData),
        clientDataJSON: toB64(got.response.clientDataJSON),
        signature: toB64(got.response.signature),
        userHandle: toB64(got.response.userHandle),
      },
      extensions: got.getClientExtensionResults(),
    };
    return keep(await request('POST', '/api/players/passkey/finish', {
      body: { ceremony: started.ceremony, credential },
    }));
  },
};

/**
 * A software WebAuthn authenticator for integration tests: ES256 keys from node:crypto,
 * `none` attestation (CBOR), authenticator data and client data built by hand, answers in
 * the webauthn-json shape the SDK posts (`RegistrationResponseJSON` /
 * `AuthenticationResponseJSON`). Each answer can be bent (origin, RP id, counter, a broken
 * signature) to test what the server refuses.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

function cborHead(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** A tiny CBOR encoder: unsigned/negative integers, text, bytes, arrays and maps. */
export function cbor(value: unknown): Buffer {
  if (typeof value === 'number' && Number.isInteger(value)) {
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array)
    return Buffer.concat([cborHead(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([cborHead(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value] : Object.entries(value as object);
  return Buffer.concat([
    cborHead(5, entries.length),
    ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)]),
  ]);
}

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

interface Options {
  publicKey: {
    challenge: string;
    rp?: { id?: string };
    rpId?: string;
    user?: { id: string };
    allowCredentials?: { id: string }[];
    excludeCredentials?: { id: string }[];
  };
}

export interface Bend {
  origin?: string;
  rpId?: string;
  /** Use this credential (create: register an existing id again). */
  credential?: SoftCredential;
  /** Sign-count to report (default: one more than the last). */
  counter?: number;
  /** Sign something else than what is sent. */
  badSignature?: boolean;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];
  constructor(
    readonly origin: string,
    readonly transports: string[] = ['internal', 'hybrid'],
  ) {}

  private clientData(type: string, challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** `navigator.credentials.create(options)`: a new ES256 credential, `none` attestation. */
  create(options: Options, bend: Bend = {}) {
    const pk = options.publicKey;
    const rpId = bend.rpId ?? pk.rp?.id ?? new URL(this.origin).hostname;
    let credential = bend.credential;
    if (!credential) {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      credential = {
        id: randomBytes(32),
        privateKey,
        rpId,
        userHandle: pk.user?.id ?? '',
        counter: 0,
      };
      this.credentials.push(credential);
    }
    const jwk = credential.privateKey.export({ format: 'jwk' });
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([0x45]), // UP, UV, AT
      Buffer.alloc(4), // sign count 0
      Buffer.alloc(16), // AAGUID (none)
      idLength,
      credential.id,
      cose,
    ]);
    const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData });
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(
          this.clientData('webauthn.create', pk.challenge, bend.origin ?? this.origin),
        ),
        attestationObject: b64url(attestationObject),
        transports: this.transports,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** `navigator.credentials.get(options)`: an assertion of an allowed (or the newest) credential. */
  get(options: Options, bend: Bend = {}) {
    const pk = options.publicKey;
    const allowed = pk.allowCredentials?.map((c) => c.id) ?? [];
    const credential =
      bend.credential ??
      (allowed.length > 0
        ? this.credentials.find((c) => allowed.includes(b64url(c.id)))
        : this.credentials.at(-1));
    if (!credential) throw new Error('no credential for these options');
    credential.counter = bend.counter ?? credential.counter + 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(credential.counter);
    const rpId = bend.rpId ?? pk.rpId ?? credential.rpId;
    const authData = Buffer.concat([sha256(rpId), Buffer.from([0x05]), count]); // UP, UV
    const clientDataJSON = this.clientData(
      'webauthn.get',
      pk.challenge,
      bend.origin ?? this.origin,
    );
    const signed = Buffer.concat([authData, sha256(clientDataJSON)]);
    if (bend.badSignature) signed[0]! ^= 0xff;
    const signature = sign('sha256', signed, credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(credential.userHandle ? { userHandle: credential.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A software passkey authenticator for API tests: what a browser and a platform
 * authenticator together hand back from `navigator.credentials.create()` and
 * `.get()`, built byte for byte (WebAuthn §6.1 authenticator data, §6.5 attestation
 * objects, §5.8.1 client data). It holds one ES256 credential. Each ceremony can
 * be bent (origin, RP ID, counter, flags, challenge, type) so tests can show the
 * server refuses what a real browser would never send, or an attacker would.
 */

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** Authenticator data flags (WebAuthn §6.1). */
const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

export interface Flags {
  /** User present: a touch. */
  up: boolean;
  /** User verified: a PIN or biometric. */
  uv: boolean;
  /** Backup eligible: a synced (multi-device) passkey. */
  be: boolean;
  /** Backed up right now. */
  bs: boolean;
}

export interface CeremonyOverrides {
  /** The origin the browser would put in clientDataJSON; defaults to the authenticator's. */
  origin?: string;
  /** The RP ID hashed into the authenticator data; defaults to the options' RP ID. */
  rpId?: string;
  /** The signature counter to report; defaults to the next one (or 0 for a counterless authenticator). */
  counter?: number;
  flags?: Partial<Flags>;
  /** Another challenge than the options' (a stale or forged one). */
  challenge?: string;
  /** clientDataJSON `type`; defaults to the ceremony's. */
  type?: string;
  /** Leave `userHandle` out of an assertion, or send another. */
  userHandle?: string | null;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The last counter reported. */
  counter = 0;
  /** Set by `register`: the user handle the options named, returned with each assertion. */
  userHandle: string | null = null;
  private rpId: string | null = null;

  /**
   * @param origin Where the ceremonies run, as the browser reports it.
   * @param options.counting False for an authenticator without a signature counter (reports 0 every time, as synced passkeys do).
   * @param options.flags The flags it reports by default: present, verified, and a synced passkey unless said otherwise.
   */
  constructor(
    readonly origin: string,
    private readonly options: { counting?: boolean; flags?: Partial<Flags> } = {},
  ) {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private flags(overrides: Partial<Flags> = {}): Flags {
    return { up: true, uv: true, be: true, bs: true, ...this.options.flags, ...overrides };
  }

  private nextCounter(override?: number): number {
    if (override !== undefined) return override;
    return this.options.counting === false ? 0 : this.counter + 1;
  }

  /** The credential's public key as a COSE_Key (RFC 9053 EC2, alg ES256). */
  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: "jwk" });
    const key = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x ?? "", "base64url"))],
      [-3, new Uint8Array(Buffer.from(jwk.y ?? "", "base64url"))],
    ]);
    return isoCBOR.encode(key);
  }

  private authenticatorData(rpId: string, flags: Flags, counter: number, attested: boolean): Buffer {
    let bits = 0;
    if (flags.up) bits |= FLAG.UP;
    if (flags.uv) bits |= FLAG.UV;
    if (flags.be) bits |= FLAG.BE;
    if (flags.bs) bits |= FLAG.BS;
    if (attested) bits |= FLAG.AT;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts = [sha256(rpId), Buffer.from([bits]), count];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      // AAGUID all zeros: an authenticator that does not say what it is (attestation "none").
      parts.push(Buffer.alloc(16), length, this.credentialId, Buffer.from(this.coseKey()));
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, overrides: CeremonyOverrides): Buffer {
    return Buffer.from(
      JSON.stringify({ type: overrides.type ?? type, challenge: overrides.challenge ?? challenge, origin: overrides.origin ?? this.origin, crossOrigin: false }),
    );
  }

  /** What `navigator.credentials.create({publicKey: options})` resolves to, as `toJSON()` encodes it. */
  register(options: CreationOptions, overrides: CeremonyOverrides = {}) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const counter = this.nextCounter(overrides.counter);
    const authData = this.authenticatorData(overrides.rpId ?? rpId, this.flags(overrides.flags), counter, true);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ["fmt", "none"],
        ["attStmt", new Map<string, never>()],
        ["authData", new Uint8Array(authData)],
      ]),
    );
    this.counter = counter;
    this.rpId = rpId;
    this.userHandle = options.user.id;
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      authenticatorAttachment: "platform" as const,
      clientExtensionResults: { credProps: { rk: true } },
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge, overrides)),
        attestationObject: b64url(attestationObject),
        transports: ["internal", "hybrid"],
      },
    };
  }

  /** What `navigator.credentials.get({publicKey: options})` resolves to with this credential, as `toJSON()` encodes it. */
  assert(options: RequestOptions, overrides: CeremonyOverrides = {}) {
    const rpId = options.rpId ?? this.rpId ?? new URL(this.origin).hostname;
    const counter = this.nextCounter(overrides.counter);
    const authData = this.authenticatorData(overrides.rpId ?? rpId, this.flags(overrides.flags), counter, false);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, overrides);
    // ES256 signs authenticatorData || SHA-256(clientDataJSON), DER-encoded (WebAuthn §6.3.3, §6.5.5).
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    this.counter = Math.max(this.counter, counter);
    const userHandle = overrides.userHandle === undefined ? this.userHandle : overrides.userHandle;
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      authenticatorAttachment: "platform" as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle ? { userHandle } : {}),
      },
    };
  }
}

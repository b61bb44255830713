import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A software authenticator for in-process tests: one ES256 (P-256) credential, answering WebAuthn ceremonies
 * as a browser and a platform authenticator would, byte for byte (W3C WebAuthn level 2, sections 6.1 and 6.5):
 * - registration: attestation "none", a CBOR attestationObject {fmt, attStmt, authData} whose authData carries
 *   the attested credential data (AAGUID, credential id, COSE public key);
 * - assertion: authenticatorData = rpIdHash || flags || signCount (4 bytes, big-endian); signature = ECDSA
 *   SHA-256 (DER) over authenticatorData || SHA-256(clientDataJSON).
 * The origin in clientDataJSON and the signature counter are the caller's to choose, so tests can answer as a
 * phishing page (another origin) or as a cloned authenticator (a counter that goes backwards).
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16).toString("base64url");
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  /** The counter the next assertion carries unless told otherwise (it moves on with each one). */
  signCount = 0;

  constructor(
    private readonly rp: { id: string; origin: string },
    private readonly userHandle = randomBytes(16).toString("base64url"),
  ) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: "jwk" });
    this.publicJwk = { x: jwk.x!, y: jwk.y! };
  }

  /** The answer to navigator.credentials.create() for these options' challenge. */
  register(challenge: string, opts: { origin?: string } = {}): RegistrationResponseJSON {
    const clientDataJSON = this.clientData("webauthn.create", challenge, opts.origin);
    const id = Buffer.from(this.credentialId, "base64url");
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(this.publicJwk.x, "base64url")],
      [-3, Buffer.from(this.publicJwk.y, "base64url")],
    ]);
    const attested = Buffer.concat([
      Buffer.alloc(16), // AAGUID (none)
      Buffer.from([id.length >> 8, id.length & 0xff]),
      id,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    // Flags: UP (0x01) | UV (0x04) | AT (0x40, attested credential data included).
    const authData = Buffer.concat([this.authDataHead(0x45, this.signCount), attested]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: clientDataJSON.toString("base64url"),
        attestationObject: Buffer.from(attestationObject).toString("base64url"),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /**
   * The answer to navigator.credentials.get() for this challenge: by default from the relying party's own
   * origin with the next counter (which then becomes this authenticator's).
   */
  assert(challenge: string, opts: { origin?: string; signCount?: number } = {}): AuthenticationResponseJSON {
    const count = opts.signCount ?? this.signCount + 1;
    if (opts.signCount === undefined) this.signCount = count;
    const clientDataJSON = this.clientData("webauthn.get", challenge, opts.origin);
    const authenticatorData = this.authDataHead(0x05, count); // UP | UV
    const signature = sign(
      "sha256",
      Buffer.concat([authenticatorData, createHash("sha256").update(clientDataJSON).digest()]),
      this.privateKey, // an EC key signs in DER, as WebAuthn wants
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: clientDataJSON.toString("base64url"),
        authenticatorData: authenticatorData.toString("base64url"),
        signature: signature.toString("base64url"),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin = this.rp.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private authDataHead(flags: number, signCount: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(signCount);
    return Buffer.concat([createHash("sha256").update(this.rp.id).digest(), Buffer.from([flags]), count]);
  }
}

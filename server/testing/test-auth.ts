import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JSONWebKeySet } from 'jose';

/** A signing key standing in for the authentication provider in tests and benchmarks. */
export async function createTestIssuer(issuer: string, audience: string) {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test', alg: 'ES256', use: 'sig' };
  const jwks: JSONWebKeySet = { keys: [jwk] };
  return {
    jwks,
    async sign(claims: { sub?: string; email?: string; expiresIn?: string } = {}) {
      return new SignJWT({ email: claims.email ?? `${randomUUID().slice(0, 8)}@example.test` })
        .setProtectedHeader({ alg: 'ES256', kid: 'test' })
        .setSubject(claims.sub ?? randomUUID())
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(claims.expiresIn ?? '1h')
        .sign(privateKey);
    },
  };
}

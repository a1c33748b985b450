import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { signXml } from '@node-saml/node-saml/lib/xml';

/**
 * A stand-in SAML identity provider for tests: an RSA key pair made here (node:crypto), its
 * public key given to the provider as `idp_cert`, and signed responses built like an IdP's
 * (assertion signed with RSA-SHA256, enveloped, after its Issuer).
 */
export function createSamlIdp(options: { issuer?: string } = {}) {
  const issuer = options.issuer ?? 'https://idp.example.test/saml';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

  /** A base64 SAMLResponse for `nameId`, as the IdP would POST it to `acs`. */
  function response(input: {
    nameId: string;
    email?: string;
    acs: string;
    audience: string;
    /** Sign with another key (a forgery). */
    signingKey?: string;
    /** Shift every time (expired responses). */
    offsetMs?: number;
    /** Change the signed XML afterwards (tampering). */
    tamper?: (xml: string) => string;
  }) {
    const at = Date.now() + (input.offsetMs ?? 0);
    const iso = (ms: number) => new Date(at + ms).toISOString();
    const assertion =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a${randomUUID()}" Version="2.0" IssueInstant="${iso(0)}">` +
      `<saml:Issuer>${esc(issuer)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(input.nameId)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${iso(300_000)}" Recipient="${esc(input.acs)}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${iso(-60_000)}" NotOnOrAfter="${iso(300_000)}"><saml:AudienceRestriction><saml:Audience>${esc(input.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      (input.email
        ? `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${esc(input.email)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`
        : '') +
      `</saml:Assertion>`;
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${iso(0)}" Destination="${esc(input.acs)}">` +
      `<saml:Issuer>${esc(issuer)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      assertion +
      `</samlp:Response>`;
    const signed = signXml(
      xml,
      "//*[local-name(.)='Assertion']",
      { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
      { privateKey: input.signingKey ?? privatePem, signatureAlgorithm: 'sha256' },
    );
    return Buffer.from(input.tamper ? input.tamper(signed) : signed).toString('base64');
  }

  return { issuer, cert: publicPem, privateKey: privatePem, response };
}

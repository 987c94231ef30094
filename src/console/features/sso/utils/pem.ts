const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';

/**
 * What is wrong with the shape of a pasted PEM certificate, or undefined when it looks like one: a single
 * BEGIN/END CERTIFICATE block around base64 of a DER sequence. The server still parses it as X.509.
 */
export function pemCertificateProblem(text: string): string | undefined {
  const value = text.trim();
  if (!value) return undefined;
  const begins = value.split(BEGIN).length - 1;
  const ends = value.split(END).length - 1;
  if (begins === 0 || ends === 0) {
    return `Paste the whole certificate, from ${BEGIN} to ${END}.`;
  }
  if (begins > 1 || ends > 1) return 'Paste one certificate only: the identity provider’s signing certificate.';
  const start = value.indexOf(BEGIN) + BEGIN.length;
  const end = value.indexOf(END);
  if (end < start) return `${END} comes before ${BEGIN}.`;
  const body = value.slice(start, end).replace(/\s+/g, '');
  if (!body) return 'The certificate is empty between its BEGIN and END lines.';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 !== 0) {
    return 'The text between the BEGIN and END lines is not base64: it may be cut or mangled.';
  }
  // DER of a certificate is a SEQUENCE with a long length: base64 "MII…".
  if (!body.startsWith('MI')) return 'This is not an X.509 certificate (a private key or something else?).';
  return undefined;
}

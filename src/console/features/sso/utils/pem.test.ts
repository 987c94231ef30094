import { describe, expect, it } from 'vitest';
import { pemCertificateProblem } from './pem';

const body = 'MIIBszCCAVmgAwIBAgIUQ'.padEnd(64, 'A');
const pem = (inner: string) => `-----BEGIN CERTIFICATE-----\n${inner}\n-----END CERTIFICATE-----`;

describe('pemCertificateProblem', () => {
  it('accepts one certificate block of base64, with surrounding spaces and line breaks', () => {
    expect(pemCertificateProblem(pem(`${body}\n${body}`))).toBeUndefined();
    expect(pemCertificateProblem(`  \n${pem(body)}\n\n`)).toBeUndefined();
  });

  it('says nothing about an empty field: "required" is the contract’s to say', () => {
    expect(pemCertificateProblem('  ')).toBeUndefined();
  });

  it('refuses text without the BEGIN and END lines, or with two certificates', () => {
    expect(pemCertificateProblem(body)).toMatch(/whole certificate/);
    expect(pemCertificateProblem(`-----BEGIN CERTIFICATE-----\n${body}`)).toMatch(/whole certificate/);
    expect(pemCertificateProblem(`${pem(body)}\n${pem(body)}`)).toMatch(/one certificate/);
  });

  it('refuses a body that is empty, not base64, truncated, or not a certificate', () => {
    expect(pemCertificateProblem(pem(''))).toMatch(/empty/);
    expect(pemCertificateProblem(pem('not base64 at all!'))).toMatch(/not base64/);
    expect(pemCertificateProblem(pem(body.slice(0, -1)))).toMatch(/not base64/);
    expect(pemCertificateProblem(pem('QUFBQUFBQUFBQUFB'))).toMatch(/not an X.509/);
  });

  it('notices END before BEGIN', () => {
    expect(pemCertificateProblem(`-----END CERTIFICATE-----\n${body}\n-----BEGIN CERTIFICATE-----`)).toMatch(
      /comes before/,
    );
  });
});

import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';

/**
 * Cookies, read and written with the `cookie` package where they are used: three routes set them and two places
 * read them, so no plugin runs on every request and answer for them (@fastify/cookie added a hook to each).
 */

const parsedCookies = new WeakMap<FastifyRequest, Record<string, string | undefined>>();

/** A cookie the request sent (the header is parsed once, on first use). */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  let parsed = parsedCookies.get(request);
  if (!parsed) {
    parsed = parseCookie(header);
    parsedCookies.set(request, parsed);
  }
  return parsed[name];
}

export interface CookieOptions {
  path: string;
  httpOnly: boolean;
  secure: boolean;
  /** Seconds; a session cookie without it. */
  maxAge?: number;
}

/** Adds a Set-Cookie header (SameSite=Lax: sent on top-level navigation to the site, never from another site's forms). */
export function setCookie(reply: FastifyReply, name: string, value: string, options: CookieOptions): void {
  reply.header('set-cookie', stringifySetCookie({ name, value, sameSite: 'lax', ...options }));
}

/** Tells the browser to forget a cookie set with this path. */
export function clearCookie(reply: FastifyReply, name: string, path: string): void {
  reply.header('set-cookie', stringifySetCookie({ name, value: '', path, expires: new Date(0) }));
}

/** The typed errors domain code throws; they live in lib/errors.ts so that repositories can throw them too. */
export * from '../lib/errors.js';

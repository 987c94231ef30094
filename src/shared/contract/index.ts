export * from './common.js';
export * from './auth.js';
export * from './organizations.js';
export * from './collections.js';
export * from './spaces.js';
export * from '../errors.js';
export * from '../pagination.js';
export * from './members.js';

import { z } from 'zod';

/**
 * Plain-language messages for the contract's rules, used by every console form. Messages written in a schema
 * itself (e.g. "Title is required") take precedence over these.
 */
export function installZodMessages(): void {
  z.config({
    customError: (issue) => {
      switch (issue.code) {
        case 'too_big':
          if (issue.origin === 'string') return `Use at most ${String(issue.maximum)} characters`;
          if (issue.origin === 'array') return `At most ${String(issue.maximum)} items`;
          return undefined;
        case 'too_small':
          if (issue.origin === 'string') {
            return Number(issue.minimum) <= 1 ? 'Required' : `Use at least ${String(issue.minimum)} characters`;
          }
          return undefined;
        case 'invalid_format':
          if (issue.format === 'email') return 'Enter a valid e-mail address';
          return undefined;
        default:
          return undefined;
      }
    },
  });
}

import { z } from 'zod';

/**
 * Plain-language messages for the contract's rules, installed by the server (its 400 answers) and by the
 * console (its forms), so both say the same thing. Messages written in a schema itself (e.g. "Title is
 * required") take precedence over these.
 */
export function installZodMessages(): void {
  z.config({
    customError: (issue) => {
      switch (issue.code) {
        case 'too_big':
          if (issue.origin === 'string') return `Use at most ${String(issue.maximum)} characters`;
          if (issue.origin === 'array') return `At most ${String(issue.maximum)} items`;
          if (issue.origin === 'number') return `Must be at most ${String(issue.maximum)}`;
          return undefined;
        case 'too_small':
          if (issue.origin === 'string') {
            return Number(issue.minimum) <= 1 ? 'Required' : `Use at least ${String(issue.minimum)} characters`;
          }
          if (issue.origin === 'array') return `At least ${String(issue.minimum)} items`;
          if (issue.origin === 'number') return `Must be at least ${String(issue.minimum)}`;
          return undefined;
        case 'invalid_value':
          return `Must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
        case 'invalid_format':
          if (issue.format === 'email') return 'Enter a valid e-mail address';
          return undefined;
        default:
          return undefined;
      }
    },
  });
}

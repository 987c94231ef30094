export function serverNodeArgs(): string[];
export function serverEnv(): Record<string, string>;

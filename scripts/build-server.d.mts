/** Compiles src/server and src/shared into `out` (default dist/); answers the milliseconds it took. */
export function buildServer(out?: string): Promise<number>;

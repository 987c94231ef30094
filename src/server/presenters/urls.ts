/** Builds the `urls.*` fields: API locations under /v1 and console locations, both from PUBLIC_URL. */
export class Urls {
  constructor(readonly base: string) {}
  api(path: string): string {
    return `${this.base}/v1${path}`;
  }
  app(path: string): string {
    return `${this.base}${path}`;
  }
}

// `npm run lighthouse`: Lighthouse (12.2.3, fetched by npx on first use; not a dependency of the project) on three
// published pages of a site seeded in a fresh database, on a phone and on a desktop, with Debian's Chromium
// (CHROMIUM_PATH to use another). Prints the four category scores of each run; exits 1 when one is under 90.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildApp } from '../src/server/app.js';
import { benchDatabase, freePort } from '../bench/setup.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';

const LIGHTHOUSE = 'lighthouse@12.2.3';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TOKEN = 'lighthouse-token-0123456789abcdefghijklmnopqrstuv';

const run = promisify(execFile);

// A free port, so that the server's PUBLIC_URL (in every link of its pages) is the address it answers at.
const port = await freePort();
const { config, storage, owner, cleanup } = await benchDatabase(TOKEN);
config.publicUrl = `http://127.0.0.1:${port}`;
const { app } = await buildApp({ config, db: storage.db });
await app.listen({ port, host: '127.0.0.1' });

async function call(method: 'POST' | 'PUT', url: string, body?: unknown) {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${TOKEN}` }, payload: body as object });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; urls: { published: string } };
}

const PAGES: Array<[string, string]> = [
  [
    'Getting started',
    '## Install\n\nInstall the command line tool:\n\n```bash\nnpm install --global acme-cli\n```\n\n## Sign in\n\n' +
      'Run `acme login` and follow the link it prints.\n\n> [!TIP]\n> Your token lasts thirty days.\n',
  ],
  [
    'Configuration',
    '## Options\n\n| Option | Default | What it does |\n|---|---|---|\n| `port` | 3000 | The port it listens on |\n' +
      '| `host` | localhost | The address it binds |\n\n## Environment\n\nEvery option can also be set as `ACME_<NAME>`.\n',
  ],
  [
    'Deploying',
    '## Containers\n\n```yaml\nservices:\n  acme:\n    image: acme/server:2\n    ports: ["3000:3000"]\n```\n\n' +
      '## Checklist\n\n- [x] Back up the database\n- [ ] Rotate the keys\n\nRead [the configuration](configuration.md) first.\n',
  ],
];

try {
  const space = await call('POST', `/v1/orgs/${owner.organizationId}/spaces`, { title: 'Acme handbook' });
  const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' });
  await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: PAGES.map(([title, markdown]) => ({
      operation: 'insert_page',
      title,
      description: `${title} with Acme.`,
      document: { markdown },
    })),
  });
  await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const site = await call('POST', `/v1/orgs/${owner.organizationId}/sites`, {
    title: 'Acme Docs',
    visibility: 'public',
    spaces: [space.id],
  });
  const root = (await call('POST', `/v1/orgs/${owner.organizationId}/sites/${site.id}/publish`)).urls.published;
  const urls = [
    `${root}/acme-handbook/getting-started`,
    `${root}/acme-handbook/configuration`,
    `${root}/acme-handbook/deploying`,
  ];

  let missed = 0;
  console.log(`${'page'.padEnd(16)} ${'form'.padEnd(8)} ${CATEGORIES.map((c) => c.padEnd(15)).join('')}`);
  for (const url of urls) {
    for (const form of ['mobile', 'desktop'] as const) {
      const { stdout } = await run(
        'npx',
        [
          '--yes',
          LIGHTHOUSE,
          url,
          '--quiet',
          '--output=json',
          '--output-path=stdout',
          `--chrome-path=${CHROMIUM_PATH}`,
          `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(' ')}`,
          `--only-categories=${CATEGORIES.join(',')}`,
          ...(form === 'desktop' ? ['--preset=desktop'] : []),
        ],
        { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CHROME_PATH: CHROMIUM_PATH } },
      );
      const report = JSON.parse(stdout) as {
        categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
        audits: Record<string, { score: number | null; title: string }>;
      };
      const scores = CATEGORIES.map((c) => Math.round((report.categories[c]?.score ?? 0) * 100));
      missed += scores.filter((s) => s < 90).length;
      console.log(
        `${url.split('/').pop()!.padEnd(16)} ${form.padEnd(8)} ${scores.map((s) => String(s).padEnd(15)).join('')}`,
      );
      // What cost points: every weighted audit that did not pass.
      for (const category of CATEGORIES) {
        for (const ref of report.categories[category]?.auditRefs ?? []) {
          const audit = report.audits[ref.id];
          if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
            console.log(`    ${category}: ${audit.title} (${Math.round(audit.score * 100)})`);
          }
        }
      }
    }
  }
  console.log(missed ? `${missed} scores under 90` : 'Every score is 90 or more');
  process.exitCode = missed ? 1 : 0;
} finally {
  await app.close();
  await cleanup();
}

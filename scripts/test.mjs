// `npm test`: every check, in order, stopping at the first that fails; each stage prints how long it took, so a
// slow-down shows in CI's log (.ci/run runs this).
import { spawnSync } from 'node:child_process';

const stages = [
  ['typecheck', 'npm run typecheck'],
  ['lint', 'npm run lint'],
  ['format check', 'npm run format:check'],
  ['vitest (unit and API integration)', 'npm run test:unit'],
  ['console build and Playwright journeys', 'npm run test:e2e'],
];

const started = Date.now();
const seconds = (ms) => `${Math.round(ms / 1000)} s`;
for (const [name, command] of stages) {
  const stageStarted = Date.now();
  const { status } = spawnSync(command, { shell: true, stdio: 'inherit' });
  const took = Date.now() - stageStarted;
  console.log(
    `::: ${name}: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds(took)} (${seconds(Date.now() - started)} so far)`,
  );
  if (status !== 0) process.exit(status || 1);
}

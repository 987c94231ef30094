// `npm test`: every check, stopping at the first stage that fails; each check prints how long it took, so a slow-down
// shows in CI's log (.ci/run runs this).
//
// The first stage's checks read the sources and write nothing the others read (the console build writes dist/),
// and one alone leaves a core idle much of its time: they run side by side, each one's output printed whole when it
// ends. The suites after them each fill the machine, and run one after the other.
import { spawn } from 'node:child_process';

const stages = [
  [
    ['typecheck', 'npm run typecheck'],
    ['lint', 'npm run lint'],
    ['format check', 'npm run format:check'],
    ['console build', 'npx vite build'],
  ],
  [['vitest (unit and API integration)', 'npm run test:unit']],
  // The console was built in the first stage (`npm run test:e2e` builds it itself when run alone).
  [['Playwright journeys', 'npx playwright test']],
];

const started = Date.now();
const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/** Runs `command`; alone, its output goes straight through, beside others it is kept and printed when it ends. */
function run(name, command, alone) {
  const checkStarted = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      if (output.length > 0) process.stdout.write(Buffer.concat(output));
      const status = code ?? 1;
      console.log(
        `::: ${name}: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds(Date.now() - checkStarted)} (${seconds(Date.now() - started)} so far)`,
      );
      resolve(status);
    });
  });
}

for (const checks of stages) {
  const statuses = await Promise.all(checks.map(([name, command]) => run(name, command, checks.length === 1)));
  const failed = statuses.find((status) => status !== 0);
  if (failed !== undefined) process.exit(failed || 1);
}

import fs from 'node:fs';
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const from = Number(process.argv[3] ?? 0), to = Number(process.argv[4] ?? 1e12);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map(), total = new Map();
let t = p.startTime;
const t0 = p.startTime;
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i];
  const ms = (t - t0) / 1000;
  if (ms < from || ms > to) continue;
  const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
  let n = byId.get(p.samples[i]);
  const key = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
  self.set(key(n), (self.get(key(n)) ?? 0) + dt);
  const seen = new Set();
  while (n) { const k = key(n); if (!seen.has(k)) { total.set(k, (total.get(k) ?? 0) + dt); seen.add(k); } n = byId.get(parent.get(n.id)); }
}
const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, ms]) => `${ms.toFixed(0).padStart(6)} ${name}`).join('\n');
console.log('SELF\n' + top(self, 25));
console.log('TOTAL\n' + top(total, 45));

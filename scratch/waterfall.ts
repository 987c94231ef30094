import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildApp } from '../src/server/app.js';
import { benchDatabase, jsonCaller } from '../bench/setup.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.mjs';

const TOKEN = 'bench-editor-token-0123456789abcdefghijklmnopqr';
const markdown = fs.readFileSync(path.join('node_modules', 'fastify', 'docs', 'Reference', 'Server.md'), 'utf8');
const { config, storage, owner, cleanup } = await benchDatabase(TOKEN);
const { app } = await buildApp({ config, db: storage.db });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const call = jsonCaller(base, TOKEN);
const org = owner.organizationId;
const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Reference' });
const seed = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Seed' });
const made = await call('POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/content?compat=false`, {
  changes: [{ operation: 'insert_page', title: 'Server', document: { markdown } }],
});
await call('POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/merge`);
const pageId = made.changes[0].page.id as string;
const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' });
const url = `${base}/o/${org}/spaces/${space.id}/change-requests/${cr.number}/pages/${pageId}`;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await context.request.post(`${base}/v1/auth/login`, { data: { email: config.admin.email, password: config.admin.password } });
const mode = process.env.MODE ?? 'visual';
for (let round = 0; round < 3; round++) {
  const page = await context.newPage();
  await page.addInitScript((m) => window.localStorage.setItem('docspace.editor-mode', m), mode);
  await page.addInitScript(`(() => { const W = window.WebSocket; window.WebSocket = function (...a) { console.log('WS at ' + performance.now().toFixed(0) + ' ' + new Error().stack.split('\\n').slice(1, 8).join(' | ')); return new W(...a); }; window.WebSocket.prototype = W.prototype; Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 }); })();`);
  page.on('console', (m) => { if (round === 2) console.log('console:', m.text().slice(0, 600)); });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const events: Array<[number, string]> = [];
  let t0 = 0;
  const reqs = new Map<string, { url: string; start: number }>();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!t0) t0 = e.timestamp;
    reqs.set(e.requestId, { url: e.request.url.replace(base, ''), start: e.timestamp });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = reqs.get(e.requestId);
    if (r) events.push([(r.start - t0) * 1000, `${((e.timestamp - r.start) * 1000).toFixed(0).padStart(5)} ms  ${r.url.slice(0, 110)}`]);
  });
  cdp.on('Network.webSocketWillSendHandshakeRequest', (e) => events.push([(e.timestamp - t0) * 1000, `ws handshake`]));
  cdp.on('Network.webSocketHandshakeResponseReceived', (e) => events.push([(e.timestamp - t0) * 1000, `ws open`]));
  cdp.on('Network.webSocketFrameSent', (e) => events.push([(e.timestamp - t0) * 1000, `ws sent ${e.response.payloadData.length}`]));
  cdp.on('Network.webSocketFrameReceived', (e) => events.push([(e.timestamp - t0) * 1000, `ws received ${e.response.payloadData.length}`]));
  if (round === 2) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start'); }
  const start = Date.now();
  await page.goto(url);
  await page.waitForFunction((mode) =>
    mode === 'visual'
      ? (document.querySelector('.visual-editor-body[contenteditable="true"]')?.textContent?.length ?? 0) > 1000
      : ((document.querySelector('textarea') as HTMLTextAreaElement | null)?.value.length ?? 0) > 1000,
  mode,
  );
  const total = Date.now() - start;
  if (round === 2) {
    const { profile } = await cdp.send('Profiler.stop');
    fs.writeFileSync('/tmp/open.cpuprofile', JSON.stringify(profile));
  }
  const marks = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return { dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, now: performance.now(), marks: performance.getEntriesByType('mark').filter((m, i, all) => m.name !== 'editor update' || all.findIndex((x) => x.name === m.name) === i).map((m) => `${m.name}@${m.startTime.toFixed(0)}`) };
  });
  console.log(`round ${round}: ${total} ms; DCL ${marks.dcl.toFixed(0)} load ${marks.load.toFixed(0)} ready ${marks.now.toFixed(0)} ${marks.marks.join(' ')}`);
  if (round === 2) for (const [at, line] of events.filter(([a]) => a < 100000).sort((a, b) => a[0] - b[0])) console.log(`  ${at.toFixed(0).padStart(5)}  ${line}`);
  await page.close();
}
await browser.close();
await app.close();
await cleanup();

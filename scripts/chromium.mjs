// Debian's Chromium as the journeys, the benchmarks and the Lighthouse audit run it: one place says where it is and
// the flags it needs here (root, no GPU, and none of its background connections, which this network refuses).
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
